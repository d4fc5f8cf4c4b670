#pragma once
// The text view (a TokenView: token_view.hpp): the key tokens as running text, each shaded by
// the weight the query shown gives it (in the head chosen, or the heads' average), the bias_k /
// zero keys as chips at the end with their weight. Self-attention is one text whose hovered token
// is the query; cross-attention shows the query tokens above and the key tokens below. Hover a
// token to show its query, click to pin it (a second click or Esc releases it); with none, the last
// query is shown. Draws what it is given (setResult): batch element, stage and solo head come
// with the grid's view. GUI thread only (the layout is a few hundred chips).

#include <QString>

#include "tokens/text_shades.hpp"
#include "tokens/text_view_picture.hpp"
#include "tokens/token_view.hpp"

class QComboBox;
class QLabel;

namespace mhaviz::ui {

class TextView : public TokenView {
  Q_OBJECT

 public:
  explicit TextView(QWidget* parent = nullptr);
  ~TextView() override;

  /// The layout on screen.
  [[nodiscard]] const TextShades& shades() const { return m_shades; }
  /// The head chosen (-1: average) and the query shown (hovered, else pinned; -1: the last).
  [[nodiscard]] TextViewChoice choice() const;
  /// The map shading the keys (a head, or the average: the last map).
  [[nodiscard]] int shownMap() const { return m_map; }
  /// The line above the text: stage, head, query, darkest weight.
  [[nodiscard]] QString caption() const;
  /// The head box (a head or the heads' average).
  [[nodiscard]] QComboBox* headBox() const { return m_heads; }

  /// The head whose weights shade the keys; -1: the heads' average. Ignored while the grid
  /// shows one head.
  void setHead(int head);
  /// The hovered token (the pointer sets it; tests too).
  void setHover(TextHit hit);
  /// Pins the query `query` (shown while no other token is hovered); -1 releases it.
  void setPinnedQuery(int query);
  [[nodiscard]] int pinnedQuery() const { return m_pinned; }

  /// Paints the text in the widget's colours, what meets `exposed` (the canvas calls it).
  void paintCanvas(QPainter& painter, const QRectF& exposed) const override;
  /// Lays out again for the canvas's width (the canvas calls it when resized).
  void relayout() override;

 protected:
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
  void rebuildHeads();
  void updateControls();
  [[nodiscard]] QString hoverText(TextHit hit) const;

  int m_head = -1;
  TextHit m_hover;
  int m_hoverQuery = -1;
  int m_pinned = -1;
  int m_map = -1;
  TextShades m_shades;
  QComboBox* m_heads;
  QLabel* m_caption;
};

}  // namespace mhaviz::ui
