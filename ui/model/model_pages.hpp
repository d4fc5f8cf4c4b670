#pragma once
// The window's centre: the full view of one layer (the heatmap grid, with a bar leading back
// to the model it came from) and the model view (ModelView). Opens model files and the bundled
// trained models (File > Examples), and a layer into the window's session as if its
// configuration and tensors had been opened: the first layer when the model is ready, then the
// layer clicked (the model view stays) or double-clicked (the full view opens). The document's
// origin (document/session_origin.hpp) owns what is open: the model view and the bar stay only
// while the session is one of the model's layers, and close when anything else is opened
// (File > New, an example, a session, other tensors). In a generation capture's step view the
// session follows the step slider (followStep), so that the docks show the step on screen.
// GUI thread only.

#include <QStackedWidget>
#include <QString>
#include <memory>

#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "tasks/latest_task.hpp"
#include "stages/view_options.hpp"

class QAction;
class QLabel;
class QMenu;
class QPushButton;
class QTemporaryDir;

namespace mhaviz::ui {

class Document;
class ModelView;
class SessionFiles;

/// A bundled trained model: resources/examples/models/NAME.json and its tensors.
struct ModelExample {
  QString name;     // "reverse"
  QString caption;  // the index's caption (what to look for)
  QString title;    // a short title in the user's language ("reverses its input")
};

/// The bundled models with their captions, in menu order (read from the compiled-in indexes).
QList<ModelExample> modelExamples();

class ModelPages : public QStackedWidget {
  Q_OBJECT

 public:
  ModelPages(QWidget* layerView, Document* document, QWidget* parent = nullptr);
  ~ModelPages() override;

  /// The session layers are opened into (set once the window has made it).
  void setSession(SessionFiles* session) { m_session = session; }
  [[nodiscard]] ModelView* modelView() const { return m_modelView; }
  [[nodiscard]] bool showingModel() const;
  /// The model view is the page shown and the pages are not hidden (the Compare workspace hides
  /// them: its A | B | B - A is the centre, and the docks show the session, B).
  [[nodiscard]] bool modelOnScreen() const { return showingModel() && !isHidden(); }
  /// Shows or hides the pages (a workspace's centre); emits shownChanged when that changes.
  void setVisible(bool visible) override;
  /// View > Model view: enabled once a model was opened.
  [[nodiscard]] QAction* modelViewAction() const { return m_toModel; }
  /// The bar above a model's layer ("layer 1 of reverse.json") and its button back to the model
  /// view; hidden while the session is no layer of the model.
  [[nodiscard]] const QWidget* layerBar() const { return m_layerBar; }
  [[nodiscard]] QPushButton* backButton() const { return m_back; }

  /// Shows the model view and reads, computes and draws `indexPath` there in the background
  /// (after the unsaved-changes prompt); once read, its first layer becomes the session.
  void openModel(const QString& indexPath);
  /// Opens a bundled model by name ("reverse"); false when it is not compiled in.
  bool openModelExample(const QString& name);
  /// Makes layer `layer` of the model shown the session (after the unsaved-changes prompt,
  /// unless it is that layer already) with head `head` solo (-1: all), the model view staying:
  /// the docks (parameters read-only, head measures, head view, text view) follow it.
  void selectLayer(int layer, int head);
  /// The same, then shows the full view to work on the layer.
  void openLayer(int layer, int head);
  void showModelView();
  void showLayerView();
  /// Presentation mode hides the bar above the layer (off: shown again while it applies).
  void setPresentation(bool on);
  /// The bar's text: "layer 2 (layers.2.self_attn) of enc4.json, head 2"; empty without a model.
  [[nodiscard]] QString layerText() const;
  /// The weights-only layer shown in the token views ("layer 0 (attentions.0) of gqa.json");
  /// empty when none is (a model with parameters, or no model).
  [[nodiscard]] QString storedLayerText() const { return m_storedText; }
  /// Adds the bundled models, with their captions, to File > Examples.
  void addExamples(QMenu* examples);

 signals:
  /// A weights-only model's layer was selected (or the model opened: its first layer): its
  /// stored weights, as a result of the weights stage (model::weights_result), and the view to
  /// draw them with, for the head view and the text view. Such a layer never becomes the
  /// session (it has no parameters or inputs to compute with). Null when the model closes.
  void storedLayerShown(std::shared_ptr<const mhaviz::ForwardResult> result,
                        const mhaviz::ui::ViewOptions& view);
  /// The head measures of the stored layer last shown (computed on a background thread after
  /// storedLayerShown), for the Head measures dock.
  void storedMeasuresReady(std::shared_ptr<const mhaviz::ForwardResult> result,
                           std::shared_ptr<const mhaviz::ResultMeasures> measures, int batch);
  /// A model is being read and computed (openModel, past the unsaved-changes question): what is
  /// computed for the session it is about to replace can wait (ModelView::openEnded or
  /// modelClosed follow).
  void modelOpening();
  /// The pages were shown or hidden (setVisible): modelOnScreen() may have changed.
  void shownChanged();

 private:
  void applyLayer(int layer, int head);
  bool makeLayerTheSession(int layer, int head);
  /// For a weights-only model: selects the layer and emits storedLayerShown; false otherwise.
  bool showStoredLayer(int layer, int head);
  /// In the generation step view, the session follows the step slider: the layer that has, in
  /// the step shown, the place the session's layer has in its own step (so the text view and
  /// the head view show the newest token's weights). Not while the session has unsaved changes.
  void followStep();
  void followOrigin();
  void closeModel();
  void updateBar();

  Document* m_document;
  SessionFiles* m_session = nullptr;
  ModelView* m_modelView;
  QWidget* m_layerBar;
  QLabel* m_layerText;
  QPushButton* m_back;
  QAction* m_toModel;
  std::unique_ptr<QTemporaryDir> m_examplesDir;  // the bundled models, copied out once
  bool m_applying = false;     // a layer of the model is being opened: its own origin change
  bool m_modelOpen = false;    // a model is shown or being read
  QString m_storedText;  // storedLayerText()
  int m_storedBatch = -1;  // the batch element of the weights-only layer shown (-1: none)
  LatestTask m_storedMeasures{this};  // the head measures of the stored layer shown last
  bool m_presenting = false;
};

}  // namespace mhaviz::ui
