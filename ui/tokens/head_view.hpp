#pragma once
// The head view (a TokenView: token_view.hpp): queries on the left, keys on the right, a line
// from query i to key j per head drawn as strong as α_ij in the head's colour
// (head_view_picture.hpp), the bias_k / zero keys set apart at the end of the key column. Hovering
// a query shows only its lines with the weights written at the keys; hovering a key, the lines into
// it; a click pins the token (a second click, Esc or a click beside the tokens releases it). Head
// chips choose the heads (the grid's solo head overrides them), the coverage slider keeps per query
// the strongest lines carrying that share of its weight. Draws what it is given (setResult): batch
// element, stage and solo head come with the grid's view. GUI thread only.
//
// The GUI thread only lays out the tokens and paints the finished picture: reading the weights
// (the line selection) runs as one LatestTask, picking the hovered token's lines and drawing the
// lines of the visible tokens as another, so that 512 tokens x 8 heads never hold up the window.
// The selection is kept while only the size, the hover or the scrolling changes, and one on its
// way is not started again when they change meanwhile (a dock settling into its size).

#include <QImage>
#include <QRectF>
#include <QString>
#include <memory>
#include <utility>
#include <vector>

#include "tasks/latest_task.hpp"
#include "tokens/head_lines.hpp"
#include "tokens/head_view_picture.hpp"
#include "tokens/token_view.hpp"

class QLabel;
class QSlider;
class QToolButton;

namespace mhaviz::ui {

class FlowLayout;

class HeadView : public TokenView {
  Q_OBJECT

 public:
  explicit HeadView(QWidget* parent = nullptr);
  ~HeadView() override;

  /// The layout as last drawn (lines, tokens, notes, hidden count); the tokens alone until the
  /// first picture is drawn.
  [[nodiscard]] const HeadLines& lines() const;
  /// True while the picture on screen is not yet the one asked for (a task runs).
  [[nodiscard]] bool isDrawing() const;
  /// The heads drawn, in colour order.
  [[nodiscard]] const std::vector<int>& heads() const { return m_heads; }
  /// The heads chosen, the coverage and the token shown (hovered, else pinned).
  [[nodiscard]] HeadViewChoice choice() const { return m_choice; }
  /// The hidden-lines text beside the slider ("12 lines hidden").
  [[nodiscard]] QString hiddenText() const;
  /// The coverage slider (percent of each token's weight drawn).
  [[nodiscard]] QSlider* coverageSlider() const { return m_coverage; }

  /// Coverage in (0, 1] (the slider's percent / 100).
  void setCoverage(double coverage);
  /// Chooses head h (its chip); ignored while the grid shows one head.
  void setHeadChosen(int head, bool chosen);
  /// The hovered token (the pointer sets it; tests and exports too).
  void setHover(TokenHit hit);
  /// Pins `hit` (shown while nothing else is hovered); a null hit releases the pin.
  void setPinned(TokenHit hit);
  [[nodiscard]] TokenHit pinned() const { return m_pinned; }

  void paintCanvas(QPainter& painter, const QRectF& exposed) const override;
  void relayout() override;

 signals:
  /// The picture asked for last is on screen.
  void pictureShown();

 protected:
  void changeEvent(QEvent* event) override;
  [[nodiscard]] StageData readData(const mhaviz::ForwardResult& result, const ViewOptions& view,
                                   const mhaviz::ResultMeasures* measures) const override;
  void resultChanged() override;
  void pointerMoved(QPointF at) override;
  void pointerClicked(QPointF at) override;
  void pointerLeft() override;
  bool releasePin() override;
  void retranslate() override;
  [[nodiscard]] PictureSource makePicture(const ExportOptions& options) const override;
  [[nodiscard]] QString checkSize(const ExportOptions& options) const override;

 private:
  void rebuildChips();
  void updateControls();
  void updateShownToken();
  void requestPicture();
  /// Starts reading the selection of the current data and heads, unless it is on its way.
  void requestSelection();
  /// The selection no longer fits the data, heads or coverage.
  void dropSelection();
  [[nodiscard]] QRectF wantedBand() const;

  /// headLabelsWidth of the data's labels in the widget's font; < 0: to be measured (after a new
  /// result or font), once, not on every relayout.
  double m_labelsWidth = -1;
  HeadViewChoice m_choice;
  TokenHit m_hover, m_pinned;
  std::vector<int> m_heads;
  HeadLinesOptions m_options;
  HeadLines m_geometry;  // the tokens' places for the current size (hit tests, scrolling)
  // Kept between pictures: the selection while data, heads and coverage stay; the picked lines
  // while the hover and the geometry stay too (every line, picked without a hover, while only
  // the hover changes). Null when they must be made again.
  std::shared_ptr<const LineSelection> m_selection;
  // Counts dropSelection: the selection being read is wanted while it is the same.
  quint64 m_selectionWanted = 0;
  quint64 m_selectionReading = 0;
  std::shared_ptr<const HeadLines> m_picked;
  std::shared_ptr<const HeadLines> m_pickedAll;
  // The picture on screen: its layout, and its lines drawn over `m_band` of the canvas.
  std::shared_ptr<const HeadLines> m_shown;
  QImage m_image;
  QRectF m_band;
  QRectF m_requestedBand;  // the band of the newest drawing run
  LatestTask m_select{this};  // reads the selection
  LatestTask m_draw{this};    // picks and draws the lines of a selection
  /// Selections and lines let go of (a selection of 512 tokens x 12 heads holds millions of
  /// lines): returned on a task's thread, not the GUI thread's (retire, then releaseRetired).
  std::vector<std::shared_ptr<const void>> m_retired;
  LatestTask m_release{this};
  template <typename T>
  void retire(std::shared_ptr<T>& held) {
    if (held) m_retired.push_back(std::exchange(held, nullptr));
  }
  void releaseRetired();
  FlowLayout* m_chipRow;  // the chips wrap: their number never sets the dock's width
  std::vector<QToolButton*> m_chips;
  int m_chipKvHeads = 0;  // the view's kvHeads the chips were grouped for
  QSlider* m_coverage;
  QLabel* m_coverageText;
  QLabel* m_hidden;
};

}  // namespace mhaviz::ui
