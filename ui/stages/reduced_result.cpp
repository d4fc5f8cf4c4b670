#include "stages/reduced_result.hpp"

#include <QCoreApplication>
#include <algorithm>

namespace mhaviz::ui {

mhaviz::ForwardResult reducedResult(const mhaviz::ReducedWeights& reduced,
                                    const mhaviz::Config& config) {
  mhaviz::ForwardResult r;
  r.config = config;
  r.N = 1;
  r.H = reduced.H;
  r.L = reduced.rows;
  r.S = reduced.cols;
  r.Sx = reduced.cols;
  r.E = config.embed_dim;
  r.hd = config.head_dim();
  const mhaviz::ElemType type = reduced.maps.type();
  r.weights = mhaviz::Tensor(type, {1, r.H, r.L, r.Sx});
  const std::int64_t count = r.L * r.Sx;
  for (std::size_t m = 0; m < reduced.heads.size(); ++m) {
    const std::int64_t h = reduced.heads[m];
    const auto src = reduced.maps.bytes().subspan(m * static_cast<std::size_t>(count) *
                                                      (type == mhaviz::ElemType::f64 ? 8 : 4));
    auto dst = r.weights.bytes().subspan(static_cast<std::size_t>(h * count) *
                                         (type == mhaviz::ElemType::f64 ? 8 : 4));
    std::copy_n(src.begin(), static_cast<std::size_t>(count) * (type == mhaviz::ElemType::f64 ? 8 : 4),
                dst.begin());
  }
  for (std::int64_t j = 0; j < r.Sx; ++j) r.columns.push_back({mhaviz::KeyKind::source, j});
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
  const QString rule = reduced.reduce == mhaviz::BlockReduce::max
                           ? QCoreApplication::translate("mhaviz::ui::StageText",
                                                         "reduced: block max of %1x%2 cells")
                           : QCoreApplication::translate("mhaviz::ui::StageText",
                                                         "reduced: block mean of %1x%2 cells");
  return rule.arg(reduced.block_rows).arg(reduced.block_cols);
}

}  // namespace mhaviz::ui
