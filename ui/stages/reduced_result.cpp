#include "stages/reduced_result.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <limits>
#include <vector>

namespace mhaviz::ui {

mhaviz::ForwardResult reducedResult(const mhaviz::ReducedWeights& reduced,
                                    const mhaviz::Config& config) {
  mhaviz::ForwardResult r;
  r.config = config;
  r.N = reduced.N;
  r.H = reduced.H;
  r.L = reduced.rows;
  r.S = reduced.cols;
  r.Sx = reduced.cols;
  r.E = config.embed_dim;
  r.hd = config.head_dim();
  const mhaviz::ElemType type = reduced.maps.type();
  const std::size_t elem = mhaviz::elem_size(type);
  r.weights = mhaviz::Tensor(type, {r.N, r.H, r.L, r.Sx});
  const auto cells = static_cast<std::size_t>(r.L * r.Sx);
  const auto count = cells * elem;  // bytes of one map
  const auto src = reduced.maps.bytes();
  auto dst = r.weights.bytes();
  for (std::size_t m = 0; m < reduced.heads.size(); ++m) {
    const auto block = static_cast<std::size_t>(reduced.batch * r.H + reduced.heads[m]);
    std::copy_n(src.begin() + static_cast<std::ptrdiff_t>(m * count), count,
                dst.begin() + static_cast<std::ptrdiff_t>(block * count));
  }
  // Where the mask was is not kept with folded weights, but a block whose every weight is 0
  // (its mean or max is 0) holds masked keys only: the merged mask, (1, H, rows, cols), is -inf
  // there, so that the grid draws the mask's shape (a causal map's triangle) as it would in full.
  std::vector<float> mask(static_cast<std::size_t>(r.H) * cells, 0.0F);
  bool anyZero = false;
  for (std::size_t m = 0; m < reduced.heads.size(); ++m) {
    const auto head = static_cast<std::size_t>(reduced.heads[m]);
    for (std::size_t i = 0; i < cells; ++i) {
      if (reduced.maps.value(static_cast<std::int64_t>(m * cells + i)) == 0.0) {
        mask[head * cells + i] = -std::numeric_limits<float>::infinity();
        anyZero = true;
      }
    }
  }
  // Without such blocks no mask: an empty (0,0,0,0) merged mask (has_mask() false).
  r.merged_mask = anyZero ? mhaviz::Tensor::from({1, r.H, r.L, r.Sx}, std::move(mask)).to(type)
                          : mhaviz::Tensor(type, {0, 0, 0, 0});
  for (std::int64_t j = 0; j < r.Sx; ++j) r.columns.push_back({mhaviz::KeyKind::source, j});
  // Each block is labelled with its first position (the grid's token labels).
  r.config.query_labels.clear();
  r.config.key_labels.clear();
  for (const QString& label : blockLabels(reduced.query_begin, reduced.block_rows, reduced.rows))
    r.config.query_labels.push_back(label.toStdString());
  for (const QString& label : blockLabels(reduced.key_begin, reduced.block_cols, reduced.cols))
    r.config.key_labels.push_back(label.toStdString());
  return r;
}

QStringList blockLabels(std::int64_t begin, std::int64_t block, std::int64_t count) {
  QStringList labels;
  labels.reserve(static_cast<int>(count));
  for (std::int64_t k = 0; k < count; ++k) labels << QString::number(begin + k * block);
  return labels;
}

QString reducedDescription(const mhaviz::ReducedWeights& reduced) {
  if (reduced.exact()) {
    return QCoreApplication::translate("mhaviz::ui::StageText",
                                       "exact cells of queries %1-%2, keys %3-%4")
        .arg(reduced.query_begin)
        .arg(reduced.query_end - 1)
        .arg(reduced.key_begin)
        .arg(reduced.key_end - 1);
  }
  const bool max = reduced.reduce == mhaviz::BlockReduce::max;
  const bool whole = reduced.query_begin == 0 && reduced.key_begin == 0 &&
                     reduced.query_end == reduced.L && reduced.key_end == reduced.Sx;
  if (!whole) {
    // A zoomed region still too large for single cells.
    const QString rule =
        max ? QCoreApplication::translate(
                  "mhaviz::ui::StageText",
                  "zoomed: block max of %1x%2 cells of queries %3-%4, keys %5-%6")
            : QCoreApplication::translate(
                  "mhaviz::ui::StageText",
                  "zoomed: block mean of %1x%2 cells of queries %3-%4, keys %5-%6");
    return rule.arg(reduced.block_rows)
        .arg(reduced.block_cols)
        .arg(reduced.query_begin)
        .arg(reduced.query_end - 1)
        .arg(reduced.key_begin)
        .arg(reduced.key_end - 1);
  }
  const QString rule = max ? QCoreApplication::translate("mhaviz::ui::StageText",
                                                         "reduced: block max of %1x%2 cells")
                           : QCoreApplication::translate("mhaviz::ui::StageText",
                                                         "reduced: block mean of %1x%2 cells");
  return rule.arg(reduced.block_rows).arg(reduced.block_cols);
}

}  // namespace mhaviz::ui
