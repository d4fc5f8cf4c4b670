#pragma once
// The head view: queries on the left, keys on the right, a line from query i to key j per head
// drawn as strong as α_ij in the head's colour (head_view_picture.hpp), the bias_k / zero keys
// set apart at the end of the key column. Hovering a query shows only its lines with the
// weights written at the keys; hovering a key, the lines into it. Head chips choose the heads
// (the grid's solo head overrides them), the coverage slider keeps per query the strongest
// lines carrying that share of its weight. Draws what it is given (setResult): batch element,
// stage and solo head come with the grid's view. GUI thread only.

#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "mhaviz/core/result.hpp"
#include "render/image_export.hpp"
#include "stages/stage_data.hpp"
#include "stages/view_options.hpp"
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
  /// result: batch element, stage, solo head, token labels).
  void setResult(std::shared_ptr<const mhaviz::ForwardResult> result, const ViewOptions& view);

  /// The layout as last drawn (lines, tokens, notes, hidden count).
  [[nodiscard]] const HeadLines& lines() const { return m_lines; }
  /// The heads drawn, in colour order.
  [[nodiscard]] const std::vector<int>& heads() const { return m_heads; }
  [[nodiscard]] HeadViewChoice choice() const { return m_choice; }
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
  /// The drawing area (where the pointer hovers).
  [[nodiscard]] QWidget* canvas() const;

  /// Writes the picture as shown (hovered token included) to PNG/SVG/PDF; empty on success,
  /// else the message.
  [[nodiscard]] QString exportTo(const QString& path, ExportOptions options = {}) const;

  /// Paints the current layout in the widget's colours (the canvas calls it).
  void paintCanvas(QPainter& painter) const;
  /// Lays out again for the canvas's size (the canvas calls it when resized).
  void relayout();

 signals:
  /// What the hovered token is, for the status bar (empty when the pointer leaves).
  void hovered(const QString& text);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuildChips();
  void updateControls();
  [[nodiscard]] QString hoverText(TokenHit hit) const;
  void exportWithDialog();

  std::shared_ptr<const mhaviz::ForwardResult> m_result;
  ViewOptions m_view;
  StageData m_data;
  QString m_error;
  HeadViewChoice m_choice;
  std::vector<int> m_heads;
  HeadLines m_lines;
  QHBoxLayout* m_chipRow;
  std::vector<QToolButton*> m_chips;
  QSlider* m_coverage;
  QLabel* m_coverageText;
  QLabel* m_hidden;
  QLabel* m_message;
  QToolButton* m_export;
  QScrollArea* m_scroll;
  QWidget* m_canvas;
};

}  // namespace mhaviz::ui
