#pragma once
// What the head view and the text view share (head_view.hpp, text_view.hpp): a token view
// draws the result it is given (setResult: the grid's view fitted to the result, its measures
// and, for a layer over an image, the pictures of its patches), says why when it cannot (no
// result, too many tokens), pins a token on a click and releases it on Esc, and exports the
// picture as shown (PNG, SVG, PDF). Each view adds its own controls above the scrolling canvas
// and its own layout, painting and picture. GUI thread only.
//
// The widget, top to bottom: the view's controls (addControls), then the pin line ("Pinned:
// query 3. …", shown while a token is pinned), the message shown instead of a picture, and the
// canvas (TokenCanvas) in a scroll area.

#include <QImage>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/model/image_grid.hpp"
#include "render/image_export.hpp"
#include "render/token_pictures.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"
#include "tokens/picture_file.hpp"

class QLabel;
class QLayout;
class QScrollArea;
class QToolButton;
class QVBoxLayout;

namespace mhaviz::ui {

class TokenView : public QWidget {
  Q_OBJECT

 public:
  ~TokenView() override;

  /// Draws `result` (may be null: nothing) as `view` says (the grid's view, fitted to the
  /// result: batch element, stage, solo head, token labels), with the result's `measures`
  /// (held beside it; null: none) for the value norms, and `pictures`, the image whose patches
  /// the result's tokens are (a vision transformer's layer; null: none): each patch token then
  /// shows its patch beside its label (tokenPictures: when the result has the image's tokens).
  void setResult(std::shared_ptr<const mhaviz::ForwardResult> result, const ViewOptions& view,
                 std::shared_ptr<const mhaviz::ResultMeasures> measures = nullptr,
                 std::shared_ptr<const mhaviz::model::PatchPictures> pictures = nullptr);

  /// The result and the view drawn (null before the first result).
  [[nodiscard]] std::shared_ptr<const mhaviz::ForwardResult> result() const { return m_result; }
  [[nodiscard]] const ViewOptions& view() const { return m_view; }
  /// The patch pictures given with the result (null: none).
  [[nodiscard]] std::shared_ptr<const mhaviz::model::PatchPictures> pictures() const {
    return m_pictures;
  }
  /// The pictures drawn beside the tokens (tokenPictures); empty when none are.
  [[nodiscard]] const TokenPictureList& tokenPictureList() const { return m_tokenPictures; }
  /// What the view says instead of a picture (no result, too long), else empty.
  [[nodiscard]] QString message() const;
  /// The drawing area (where the pointer hovers).
  [[nodiscard]] QWidget* canvas() const;
  /// The line that says what is pinned and how to release it (hidden while nothing is).
  [[nodiscard]] QLabel* pinLine() const { return m_pinText; }

  /// Writes the picture as shown (the hovered or pinned token included) to PNG/SVG/PDF; empty
  /// on success, else the message.
  [[nodiscard]] QString exportTo(const QString& path, ExportOptions options = {}) const;
  /// The picture exportTo writes with `options` (its size is the file's); throws InvalidInput
  /// when there is none (no result, too many tokens).
  [[nodiscard]] PictureSource picture(const ExportOptions& options) const;

  /// Paints the current picture in the widget's colours, what meets `exposed` (the canvas
  /// calls it).
  virtual void paintCanvas(QPainter& painter, const QRectF& exposed) const = 0;
  /// Lays out again for the canvas's size (the canvas calls it when resized).
  virtual void relayout() = 0;

 signals:
  /// What the hovered token is, for the status bar (empty when the pointer leaves).
  void hovered(const QString& text);
  /// The Export… button: the window's Export image dialog, this view chosen.
  void exportRequested();

 protected:
  /// `name` is the view's object name ("headView"); its canvas is name + "Canvas", its pin line
  /// name + "Pin". `exportTip` is the Export… button's tooltip. The view then adds its controls
  /// (addControls) and finishes with addCanvas.
  explicit TokenView(const QString& name, const QString& exportTip, QWidget* parent = nullptr);

  /// Adds a row (or a label) of the view's own controls below those added before.
  void addControls(QLayout* row);
  void addControls(QWidget* widget);
  /// Adds the pin line, the message and the scrolling canvas below the controls: the last step
  /// of the view's constructor (the tab order follows the order things were added).
  void addCanvas();

  // What each view does differently.
  /// The maps the view reads of `result` (headViewData, textViewData); throws InvalidInput
  /// when it cannot draw them.
  [[nodiscard]] virtual StageData readData(const mhaviz::ForwardResult& result,
                                           const ViewOptions& view,
                                           const mhaviz::ResultMeasures* measures) const = 0;
  /// A new result is in m_result, m_view, m_data (m_error): keep what still fits, lay out.
  virtual void resultChanged() = 0;
  /// The pointer moved over the canvas, pressed the left button there, left it.
  virtual void pointerMoved(QPointF at) = 0;
  virtual void pointerClicked(QPointF at) = 0;
  virtual void pointerLeft() = 0;
  /// Releases the pinned token (Esc); false when none is pinned.
  virtual bool releasePin() = 0;
  /// The controls' texts in the language chosen now.
  virtual void retranslate() = 0;
  /// The picture exported with `options` (m_result is set), and the size check of `options`.
  [[nodiscard]] virtual PictureSource makePicture(const ExportOptions& options) const = 0;
  [[nodiscard]] virtual QString checkSize(const ExportOptions& options) const = 0;

  /// Shows `pin` on the pin line (empty: hidden) and the message, enabling Export… when there
  /// is a picture: the part of updating the controls the views share.
  void showPinAndMessage(const QString& pin);
  /// The widget's colours, font and the tokens' pictures, for painting the canvas.
  void fillLook(TokenLook& look) const;
  /// The text of a pinned query (both views pin queries; the head view keys too).
  [[nodiscard]] static QString pinnedQueryText(int query);

  [[nodiscard]] QScrollArea* scroll() const { return m_scroll; }
  [[nodiscard]] QToolButton* exportButton() const { return m_export; }

  void changeEvent(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

  std::shared_ptr<const mhaviz::ForwardResult> m_result;
  std::shared_ptr<const mhaviz::ResultMeasures> m_measures;  // of m_result
  std::shared_ptr<const mhaviz::model::PatchPictures> m_pictures;
  TokenPictureList m_tokenPictures;  // of m_result's tokens in m_view's batch element
  struct PicturesKey {  // what m_tokenPictures were cut for (held: its address stays its own)
    std::shared_ptr<const mhaviz::model::PatchPictures> pictures;
    int batch = -1;
    std::int64_t L = -1, S = -1;
    bool operator==(const PicturesKey&) const = default;
  } m_picturesKey;
  ViewOptions m_view;
  StageData m_data;
  QString m_error;

 private:
  QVBoxLayout* m_layout;
  QLabel* m_pinText;
  QLabel* m_message;
  QToolButton* m_export;
  QScrollArea* m_scroll;
  QWidget* m_canvas = nullptr;
};

}  // namespace mhaviz::ui
