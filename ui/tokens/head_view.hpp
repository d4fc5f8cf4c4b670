#pragma once
// The head view: queries on the left, keys on the right, a line from query i to key j per head
// drawn as strong as α_ij in the head's colour (head_view_picture.hpp), the bias_k / zero keys
// set apart at the end of the key column. Hovering a query shows only its lines with the
// weights written at the keys; hovering a key, the lines into it; a click pins the token (a
// second click, Esc or a click beside the tokens releases it). Head chips choose the heads (the
// grid's solo head overrides them), the coverage slider keeps per query the strongest lines
// carrying that share of its weight. Draws what it is given (setResult): batch element, stage
// and solo head come with the grid's view. GUI thread only.
//
// The GUI thread only lays out the tokens and paints the finished picture: reading the weights
// (the line selection), picking the hovered token's lines and drawing the lines of the visible
// tokens run as one LatestTask (a selection is kept while only the hover or the scrolling
// changes), so that 512 tokens x 8 heads never hold up the window.

#include <QImage>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "mhaviz/core/forward/result.hpp"
#include "render/image_export.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"
#include "tasks/latest_task.hpp"
#include "tokens/head_lines.hpp"
#include "tokens/head_view_picture.hpp"

class QLabel;
class QHBoxLayout;
class QScrollArea;
class QSlider;
class QToolButton;

namespace mhaviz::ui {

class HeadView : public QWidget {
  Q_OBJECT

 public:
  explicit HeadView(QWidget* parent = nullptr);
  ~HeadView() override;

  /// Draws `result` (may be null: nothing) as `view` says (the grid's view, fitted to the
  /// result: batch element, stage, solo head, token labels), with the result's `measures`
  /// (held beside it; null: none) for the value norms.
  void setResult(std::shared_ptr<const mhaviz::ForwardResult> result, const ViewOptions& view,
                 std::shared_ptr<const mhaviz::ResultMeasures> measures = nullptr);

  /// The layout as last drawn (lines, tokens, notes, hidden count); the tokens alone until the
  /// first picture is drawn.
  [[nodiscard]] const HeadLines& lines() const;
  /// True while the picture on screen is not yet the one asked for (the task runs).
  [[nodiscard]] bool isDrawing() const;
  /// The heads drawn, in colour order.
  [[nodiscard]] const std::vector<int>& heads() const { return m_heads; }
  /// The heads chosen, the coverage and the token shown (hovered, else pinned).
  [[nodiscard]] HeadViewChoice choice() const { return m_choice; }
  /// The result and the view drawn (null before the first result).
  [[nodiscard]] std::shared_ptr<const mhaviz::ForwardResult> result() const { return m_result; }
  [[nodiscard]] const ViewOptions& view() const { return m_view; }
  /// What the view says instead of a picture (no result, too long), else empty.
  [[nodiscard]] QString message() const;
  /// The hidden-lines text beside the slider ("12 lines hidden").
  [[nodiscard]] QString hiddenText() const;

  /// Coverage in (0, 1] (the slider's percent / 100).
  void setCoverage(double coverage);
  /// Chooses head h (its chip); ignored while the grid shows one head.
  void setHeadChosen(int head, bool chosen);
  /// The hovered token (the pointer sets it; tests and exports too).
  void setHover(TokenHit hit);
  /// Pins `hit` (shown while nothing else is hovered); a null hit releases the pin.
  void setPinned(TokenHit hit);
  [[nodiscard]] TokenHit pinned() const { return m_pinned; }
  /// The drawing area (where the pointer hovers).
  [[nodiscard]] QWidget* canvas() const;

  /// Writes the picture as shown (hovered or pinned token included) to PNG/SVG/PDF; empty on
  /// success, else the message.
  [[nodiscard]] QString exportTo(const QString& path, ExportOptions options = {}) const;
  /// The picture exportTo writes with `options` (its size is the file's); throws InvalidInput
  /// when there is none (no result, too many tokens).
  [[nodiscard]] PictureSource picture(const ExportOptions& options) const;

  /// Paints the current picture in the widget's colours, the rows meeting `exposed` (the canvas
  /// calls it).
  void paintCanvas(QPainter& painter, const QRectF& exposed) const;
  /// Lays out again for the canvas's size (the canvas calls it when resized).
  void relayout();

 signals:
  /// What the hovered token is, for the status bar (empty when the pointer leaves).
  void hovered(const QString& text);
  /// The Export… button: the window's Export image dialog, this view chosen.
  void exportRequested();
  /// The picture asked for last is on screen.
  void pictureShown();

 protected:
  void changeEvent(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void rebuildChips();
  void updateControls();
  void updateShownToken();
  void requestPicture();
  [[nodiscard]] QRectF wantedBand() const;

  std::shared_ptr<const mhaviz::ForwardResult> m_result;
  std::shared_ptr<const mhaviz::ResultMeasures> m_measures;  // of m_result
  ViewOptions m_view;
  StageData m_data;
  QString m_error;
  HeadViewChoice m_choice;
  TokenHit m_hover, m_pinned;
  std::vector<int> m_heads;
  HeadLinesOptions m_options;
  HeadLines m_geometry;  // the tokens' places for the current size (hit tests, scrolling)
  // Kept between pictures: the selection while data, heads and coverage stay; the picked lines
  // while the hover and the geometry stay too (every line, picked without a hover, while only
  // the hover changes). Null when they must be made again.
  std::shared_ptr<const LineSelection> m_selection;
  std::shared_ptr<const HeadLines> m_picked;
  std::shared_ptr<const HeadLines> m_pickedAll;
  // The picture on screen: its layout, and its lines drawn over `m_band` of the canvas.
  std::shared_ptr<const HeadLines> m_shown;
  QImage m_image;
  QRectF m_band;
  QRectF m_requestedBand;  // the band of the newest drawing run
  LatestTask m_draw{this};
  QHBoxLayout* m_chipRow;
  std::vector<QToolButton*> m_chips;
  int m_chipKvHeads = 0;  // the view's kvHeads the chips were grouped for
  QSlider* m_coverage;
  QLabel* m_coverageText;
  QLabel* m_hidden;
  QLabel* m_pinText;
  QLabel* m_message;
  QToolButton* m_export;
  QScrollArea* m_scroll;
  QWidget* m_canvas = nullptr;
};

}  // namespace mhaviz::ui
