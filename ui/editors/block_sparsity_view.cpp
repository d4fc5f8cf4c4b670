#include "editors/block_sparsity_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "mhaviz/core/analysis/block_sparsity.hpp"

namespace mhaviz::ui {

namespace {

// The mask grid's colours (mask_grid_view.cpp): dark = skipped, light = computed.
const QColor kSkipped(40, 40, 48);
const QColor kComputed(245, 245, 240);

QString percent(double share) { return QLocale().toString(100.0 * share, 'f', 1) + u'%'; }

}  // namespace

/// Draws the blocks of one map: dark where every cell is masked.
class BlockSparsityView::Canvas : public QWidget {
 public:
  using QWidget::QWidget;
  const BlockSparsity* summary = nullptr;
  std::int64_t map = 0;

  [[nodiscard]] QSize sizeHint() const override { return {160, 160}; }

 protected:
  void paintEvent(QPaintEvent* /*event*/) override {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (summary == nullptr || summary->total() == 0) return;
    const int rows = static_cast<int>(summary->rows);
    const int cols = static_cast<int>(summary->cols);
    const double cell = std::min((width() - 2.0) / cols, (height() - 2.0) / rows);
    const double x0 = (width() - cell * cols) / 2.0;
    const double y0 = 1.0;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const QRectF box(x0 + c * cell, y0 + r * cell, cell, cell);
        p.fillRect(box, summary->is_full(map, r, c) ? kSkipped : kComputed);
      }
    }
    if (cell >= 4.0) {  // block borders, when there is room for them
      p.setPen(QPen(QColor(150, 150, 150), 0));
      for (int r = 0; r <= rows; ++r) {
        p.drawLine(QPointF(x0, y0 + r * cell), QPointF(x0 + cols * cell, y0 + r * cell));
      }
      for (int c = 0; c <= cols; ++c) {
        p.drawLine(QPointF(x0 + c * cell, y0), QPointF(x0 + c * cell, y0 + rows * cell));
      }
    }
  }
};

BlockSparsityView::BlockSparsityView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("blockSparsity"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_summary = new QLabel;
  m_summary->setObjectName(QStringLiteral("blockSparsitySummary"));
  m_summary->setWordWrap(true);
  m_summary->setToolTip(
      tr("Blocks of the merged mask (attn_mask + key_padding_mask, L x S' per batch element and "
         "head) whose every cell is masked (-inf or True). A block-sparse attention kernel "
         "(FlexAttention, block-sparse FlashAttention) skips them; a finite value such as "
         "-10000 does not count as masked."));
  layout->addWidget(m_summary);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("block grid")));
  m_size = new QComboBox;
  m_size->setObjectName(QStringLiteral("blockSparsitySize"));
  for (std::size_t k = 0; k < kSparsityBlocks.size(); ++k) {
    const auto b = static_cast<int>(kSparsityBlocks[k]);
    m_size->addItem(tr("%1 x %1").arg(b), static_cast<int>(k));
  }
  row->addWidget(m_size);
  m_mapLabel = new QLabel;
  m_mapLabel->setWordWrap(true);
  row->addWidget(m_mapLabel, 1);
  layout->addLayout(row);
  m_canvas = new Canvas;
  m_canvas->setObjectName(QStringLiteral("blockSparsityGrid"));
  m_canvas->setMinimumHeight(90);
  m_canvas->setToolTip(
      tr("Dark: a fully masked block (skipped); light: a block with at least "
         "one visible key (computed)."));
  layout->addWidget(m_canvas, 1);
  connect(m_size, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  refresh();
}

void BlockSparsityView::setResult(ResultPtr result, AnalysesPtr analyses) {
  m_result = std::move(result);
  m_analyses = std::move(analyses);
  refresh();
}

void BlockSparsityView::setMap(std::int64_t b) {
  m_map = std::max<std::int64_t>(b, 0);
  refresh();
}

QString BlockSparsityView::summaryText() const { return m_summary->text(); }

void BlockSparsityView::refresh() {
  const bool have =
      m_result && m_analyses && m_analyses->block_sparsity.size() == kSparsityBlocks.size();
  m_size->setEnabled(have);
  if (!have) {
    m_summary->setText(tr("Block sparsity: shown once a result is computed."));
    m_mapLabel->clear();
    m_canvas->summary = nullptr;
    m_canvas->update();
    return;
  }
  QStringList parts;
  for (const BlockSparsity& s : m_analyses->block_sparsity) {
    parts << tr("%1 x %1: %2 of %3 blocks fully masked (%4)")
                 .arg(s.block)
                 .arg(s.fully_masked)
                 .arg(s.total())
                 .arg(percent(s.share()));
  }
  m_summary->setText(tr("Block sparsity (what a block-sparse kernel skips): %1")
                         .arg(parts.join(QStringLiteral("; "))));
  const BlockSparsity& shown =
      m_analyses->block_sparsity[static_cast<std::size_t>(std::max(m_size->currentIndex(), 0))];
  const std::int64_t map = std::min(m_map, shown.maps - 1);
  const std::int64_t heads = std::max<std::int64_t>(m_result->H, 1);
  m_mapLabel->setText(tr("batch %1, head %2: %3 x %4 blocks")
                          .arg(map / heads)
                          .arg(map % heads)
                          .arg(shown.rows)
                          .arg(shown.cols));
  m_canvas->summary = &shown;
  m_canvas->map = map;
  m_canvas->update();
}

}  // namespace mhaviz::ui
