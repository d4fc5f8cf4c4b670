#pragma once
// The window's centre: the full view of one layer (the heatmap grid, with a bar leading back
// to the model it came from) and the model view (ModelView). Opens model files and the bundled
// trained models (File > Examples), and a clicked layer into the window's session as if its
// configuration and tensors had been opened. GUI thread only.

#include <QStackedWidget>
#include <QString>
#include <memory>

class QAction;
class QLabel;
class QMenu;
class QTemporaryDir;

namespace mhaviz::ui {

class Document;
class ModelView;
class SessionFiles;

/// A bundled trained model: resources/examples/models/NAME.json and its tensors.
struct ModelExample {
  QString name;     // "reverse"
  QString caption;  // the index's caption (what to look for)
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
  /// View > Model view: enabled once a model was opened.
  [[nodiscard]] QAction* modelViewAction() const { return m_toModel; }

  /// Shows the model view and reads, computes and draws `indexPath` there in the background.
  void openModel(const QString& indexPath);
  /// Opens a bundled model by name ("reverse"); false when it is not compiled in.
  bool openModelExample(const QString& name);
  /// Loads layer `layer` of the model shown into the session (after the unsaved-changes
  /// prompt) with head `head` solo, and shows the full view.
  void openLayer(int layer, int head);
  void showModelView();
  void showLayerView();
  /// Adds the bundled models, with their captions, to File > Examples.
  void addExamples(QMenu* examples);

 private:
  Document* m_document;
  SessionFiles* m_session = nullptr;
  ModelView* m_modelView;
  QWidget* m_layerBar;
  QLabel* m_layerText;
  QAction* m_toModel;
  std::unique_ptr<QTemporaryDir> m_examplesDir;  // the bundled models, copied out once
};

}  // namespace mhaviz::ui
