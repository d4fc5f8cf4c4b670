#pragma once
// The block-sparsity summary of the last result's merged mask (attn_mask + key_padding_mask,
// with the bias_k / zero columns): the share of fully masked 64x64 and 128x128 blocks, which a
// block-sparse kernel would skip, and the block grid of one (batch element, head) map at the
// chosen block size. The numbers come with the result from the compute worker, in the analyses
// held beside it (ResultAnalyses::block_sparsity); this widget only draws them. GUI thread only.

#include <QWidget>
#include <cstdint>

#include "document/computed.hpp"

class QComboBox;
class QLabel;

namespace mhaviz::ui {

class BlockSparsityView : public QWidget {
  Q_OBJECT

 public:
  explicit BlockSparsityView(QWidget* parent = nullptr);

  /// Shows the summary in `analyses`, those of `result` (null: nothing computed yet).
  void setResult(ResultPtr result, AnalysesPtr analyses);
  /// The map drawn: b = n*H + h (clamped to the result's maps).
  void setMap(std::int64_t b);
  /// The summary line, as shown (for tests).
  [[nodiscard]] QString summaryText() const;

 private:
  class Canvas;
  void refresh();

  ResultPtr m_result;
  AnalysesPtr m_analyses;  // of m_result
  std::int64_t m_map = 0;
  QLabel* m_summary = nullptr;
  QComboBox* m_size = nullptr;
  QLabel* m_mapLabel = nullptr;
  Canvas* m_canvas = nullptr;
};

}  // namespace mhaviz::ui
