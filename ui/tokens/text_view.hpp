#pragma once
// The text view: the key tokens as running text, each shaded by the weight the query shown
// gives it (in the head chosen, or the heads' average), the bias_k / zero keys as chips at the
// end with their weight. Self-attention is one text whose hovered token is the query;
// cross-attention shows the query tokens above and the key tokens below. Hover a token to
// show its query, click to pin it (a second click or Esc releases it); with none, the last
// query is shown. Draws what it is given (setResult): batch element, stage and solo head come
// with the grid's view. GUI thread only (the layout is a few hundred chips).

#include <QString>
#include <QWidget>
#include <memory>

#include "mhaviz/core/forward/result.hpp"
#include "render/image_export.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"
#include "tokens/text_shades.hpp"
#include "tokens/text_view_picture.hpp"

class QComboBox;
class QLabel;
class QScrollArea;
class QToolButton;

namespace mhaviz::ui {

class TextView : public QWidget {
  Q_OBJECT

 public:
  explicit TextView(QWidget* parent = nullptr);
  ~TextView() override;

  /// Draws `result` (may be null: nothing) as `view` says (the grid's view, fitted to the
  /// result: batch element, stage, solo head, token labels), with the result's `measures`
  /// (held beside it; null: none) for the value norms.
  void setResult(std::shared_ptr<const mhaviz::ForwardResult> result, const ViewOptions& view,
                 std::shared_ptr<const mhaviz::ResultMeasures> measures = nullptr);

  /// The layout on screen.
  [[nodiscard]] const TextShades& shades() const { return m_shades; }
  /// The head chosen (-1: average) and the query shown (hovered, else pinned; -1: the last).
  [[nodiscard]] TextViewChoice choice() const;
  /// The map shading the keys (a head, or the average: the last map).
  [[nodiscard]] int shownMap() const { return m_map; }
  [[nodiscard]] std::shared_ptr<const mhaviz::ForwardResult> result() const { return m_result; }
  [[nodiscard]] const ViewOptions& view() const { return m_view; }
  /// What the view says instead of a picture (no result, too long), else empty.
  [[nodiscard]] QString message() const;
  /// The line above the text: stage, head, query, darkest weight.
  [[nodiscard]] QString caption() const;

  /// The head whose weights shade the keys; -1: the heads' average. Ignored while the grid
  /// shows one head.
  void setHead(int head);
  /// The hovered token (the pointer sets it; tests too).
  void setHover(TextHit hit);
  /// Pins the query `query` (shown while no other token is hovered); -1 releases it.
  void setPinnedQuery(int query);
  [[nodiscard]] int pinnedQuery() const { return m_pinned; }
  [[nodiscard]] QWidget* canvas() const;

  /// Writes the picture as shown (the query shown included) to PNG/SVG/PDF; empty on
  /// success, else the message.
  [[nodiscard]] QString exportTo(const QString& path, ExportOptions options = {}) const;
  /// The picture exportTo writes with `options` (its size is the file's); throws InvalidInput
  /// when there is none (no result, too many tokens).
  [[nodiscard]] PictureSource picture(const ExportOptions& options) const;

  /// Paints the text in the widget's colours, what meets `exposed` (the canvas calls it).
  void paintCanvas(QPainter& painter, const QRectF& exposed) const;
  /// Lays out again for the canvas's width (the canvas calls it when resized).
  void relayout();

 signals:
  /// What the hovered token is, for the status bar (empty when the pointer leaves).
  void hovered(const QString& text);
  /// The Export… button: the window's Export image dialog, this view chosen.
  void exportRequested();

 protected:
  void changeEvent(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void rebuildHeads();
  void updateControls();
  [[nodiscard]] QString hoverText(TextHit hit) const;

  std::shared_ptr<const mhaviz::ForwardResult> m_result;
  std::shared_ptr<const mhaviz::ResultMeasures> m_measures;  // of m_result
  ViewOptions m_view;
  StageData m_data;
  QString m_error;
  int m_head = -1;
  TextHit m_hover;
  int m_hoverQuery = -1;
  int m_pinned = -1;
  int m_map = -1;
  TextShades m_shades;
  QComboBox* m_heads;
  QLabel* m_caption;
  QLabel* m_pinText;
  QLabel* m_message;
  QToolButton* m_export;
  QScrollArea* m_scroll;
  QWidget* m_canvas = nullptr;
};

}  // namespace mhaviz::ui
