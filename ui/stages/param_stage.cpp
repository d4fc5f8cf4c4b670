#include "stages/param_stage.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz::ui {
namespace {

std::vector<ColumnInfo> indexColumns(std::int64_t n) {
  std::vector<ColumnInfo> columns;
  columns.reserve(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
  for (std::int64_t j = 0; j < n; ++j) {
    columns.push_back({QString::number(j), mhaviz::KeyKind::source});
  }
  return columns;
}

// Rows [row0, row0 + rows) of the 2-D tensor `t` as one map.
// `title` is a QT_TRANSLATE_NOOP("mhaviz::ui::StageText", ...) text taking `args`.
MapData rowBlock(const mhaviz::Tensor& t, std::int64_t row0, std::int64_t rows, const char* title,
                 const QStringList& args) {
  const std::int64_t cols = t.shape().at(1);
  MapData map;
  setMapTitle(map, title, args);
  map.rows = static_cast<int>(rows);
  map.cols = static_cast<int>(cols);
  map.values.reserve(static_cast<std::size_t>(rows * cols));
  for (std::int64_t r = row0; r < row0 + rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) map.values.push_back(t.value(r * cols + c));
  }
  map.columns = indexColumns(cols);
  return map;
}

const mhaviz::Tensor& require(const std::optional<mhaviz::Tensor>& t, const char* name) {
  if (!t) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate("mhaviz::ui::StageText",
                                    "the parameters have no %1; recompute the result")
            .arg(QLatin1String(name))
            .toStdString());
  }
  return *t;
}

}  // namespace

bool isParamStage(Stage stage) {
  return stage == Stage::in_proj_weight || stage == Stage::out_proj_weight;
}

mhaviz::Params paramsOf(const mhaviz::ForwardResult& result) { return result.params; }

StageData extractParamStage(const mhaviz::ForwardResult& result, const mhaviz::Params& params,
                            const ViewOptions& view) {
  StageData data;
  data.isSigned = true;
  setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "weight entry"));
  // y = W x: row r of a weight matrix makes output feature r, column c reads input feature c.
  data.rowAxis = QCoreApplication::translate("mhaviz::ui::StageText", "output feature");
  data.columnAxis = QCoreApplication::translate("mhaviz::ui::StageText", "input feature");
  const std::int64_t E = result.E;
  const std::int64_t hd = result.hd;
  const bool solo = view.soloHead >= 0 && view.soloHead < result.H;
  if (view.stage == Stage::out_proj_weight) {
    const mhaviz::Tensor& w = require(params.out_proj_weight, "out_proj.weight");
    data.maps.push_back(rowBlock(
        w, 0, E, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "out_proj.weight (E, E)"), {}));
  } else {
    data.groupColumns = 3;  // W_q | W_k | W_v, one row per head
    static const char* const kBlocks[3] = {"W_q", "W_k", "W_v"};
    for (int b = 0; b < 3; ++b) {
      const mhaviz::Tensor* w = nullptr;
      std::int64_t base = 0;
      QString name;
      const char* title = nullptr;
      if (params.in_proj_weight) {
        w = &*params.in_proj_weight;
        base = b * E;
        name = QLatin1String(kBlocks[b]);
        title =
            QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "%1 = in_proj_weight rows %2-%3 (head %4)");
      } else {
        static const char* const kSeparate[3] = {"q_proj_weight", "k_proj_weight", "v_proj_weight"};
        const std::optional<mhaviz::Tensor>* sep[3] = {&params.q_proj_weight, &params.k_proj_weight,
                                                       &params.v_proj_weight};
        w = &require(*sep[b], kSeparate[b]);
        name = QLatin1String(kSeparate[b]);
        title = QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "%1 rows %2-%3 (head %4)");
      }
      for (std::int64_t h = 0; h < result.H; ++h) {
        if (solo && h != view.soloHead) continue;
        const std::int64_t r0 = base + h * hd;
        MapData map =
            rowBlock(*w, r0, hd, title,
                     {name, QString::number(r0), QString::number(r0 + hd - 1), QString::number(h)});
        map.rowBase = static_cast<int>(h * hd);  // rows are output features h*hd ..
        data.maps.push_back(std::move(map));
      }
    }
  }
  double maxAbs = 0;
  for (const MapData& map : data.maps) {
    for (double x : map.values) {
      if (std::isfinite(x)) maxAbs = std::max(maxAbs, std::abs(x));
    }
  }
  if (maxAbs == 0) maxAbs = 1;
  data.lo = -maxAbs;
  data.hi = maxAbs;
  return data;
}

}  // namespace mhaviz::ui
