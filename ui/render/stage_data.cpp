#include "ui/render/stage_data.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "mhaviz/core/errors.hpp"
#include "ui/render/parallel_maps.hpp"
#include "ui/teach/param_stage.hpp"

namespace mhaviz::ui {
namespace {

// Reads `count` elements at flat index `offset` of `t` as doubles; adds them into `out` when
// `add`.
void readBlock(const mhaviz::Tensor& t, std::size_t offset, std::size_t count, double* out,
               bool add) {
  // Separate loops for each case, so that the compiler vectorises them (maps of 2048 x 2048
  // go through here several times per picture).
  const auto convert = [&](const auto* src) {
    if (add) {
      for (std::size_t i = 0; i < count; ++i) out[i] += static_cast<double>(src[i]);
    } else {
      for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<double>(src[i]);
    }
  };
  if (t.type() == mhaviz::ElemType::f32) {
    convert(t.data<float>().data() + offset);
  } else if (t.type() == mhaviz::ElemType::f64) {
    convert(t.data<double>().data() + offset);
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      const double x = t.value(static_cast<std::int64_t>(offset + i));
      out[i] = add ? out[i] + x : x;
    }
  }
}

// ANDs "is -inf" flags of `count` mask elements at `offset` into `out`.
void andMasked(const mhaviz::Tensor& mask, std::size_t offset, std::size_t count,
               unsigned char* out) {
  auto flag = [](double x) { return std::isinf(x) && x < 0; };
  if (mask.type() == mhaviz::ElemType::f32) {
    const float* src = mask.data<float>().data() + offset;
    for (std::size_t i = 0; i < count; ++i) {
      if (!flag(src[i])) out[i] = 0;
    }
  } else if (mask.type() == mhaviz::ElemType::f64) {
    const double* src = mask.data<double>().data() + offset;
    for (std::size_t i = 0; i < count; ++i) {
      if (!flag(src[i])) out[i] = 0;
    }
  } else {
    std::fill(out, out + count, 0);
  }
}

// Copies the (rows, cols) matrix at flat offset `offset` of a float tensor into doubles.
void copyBlock(const mhaviz::Tensor& t, std::size_t offset, std::size_t count,
               std::vector<double>& out) {
  out.resize(count);
  if (t.type() == mhaviz::ElemType::f32) {
    const auto src = t.data<float>().subspan(offset, count);
    std::transform(src.begin(), src.end(), out.begin(),
                   [](float x) { return static_cast<double>(x); });
  } else if (t.type() == mhaviz::ElemType::f64) {
    const auto src = t.data<double>().subspan(offset, count);
    std::copy(src.begin(), src.end(), out.begin());
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = t.value(static_cast<std::int64_t>(offset + i));
    }
  }
}

// Per-cell flags: 1 where the additive mask is -inf (a masked key).
void markMasked(const mhaviz::Tensor& mask, std::size_t offset, std::size_t count,
                std::vector<unsigned char>& out) {
  out.resize(count);
  auto flag = [](auto x) -> unsigned char { return std::isinf(x) && x < 0 ? 1 : 0; };
  if (mask.type() == mhaviz::ElemType::f32) {
    const auto src = mask.data<float>().subspan(offset, count);
    std::transform(src.begin(), src.end(), out.begin(), flag);
  } else if (mask.type() == mhaviz::ElemType::f64) {
    const auto src = mask.data<double>().subspan(offset, count);
    std::transform(src.begin(), src.end(), out.begin(), flag);
  } else {
    std::fill(out.begin(), out.end(), 0);
  }
}

std::size_t toSize(std::int64_t v) {
  return static_cast<std::size_t>(std::max<std::int64_t>(v, 0));
}

QString keyLabel(const mhaviz::KeyColumn& column, const QStringList& labels) {
  switch (column.kind) {
    case mhaviz::KeyKind::bias_k:
      return QStringLiteral("bias_k");
    case mhaviz::KeyKind::zero:
      return QStringLiteral("zero");
    case mhaviz::KeyKind::source:
      break;
  }
  const auto index = static_cast<qsizetype>(column.index);
  if (index >= 0 && index < labels.size() && !labels[index].isEmpty()) return labels[index];
  return QString::number(column.index);
}

std::vector<ColumnInfo> keyColumns(const mhaviz::ForwardResult& result, const QStringList& labels) {
  std::vector<ColumnInfo> columns;
  columns.reserve(toSize(result.Sx));
  for (std::int64_t j = 0; j < result.Sx; ++j) {
    mhaviz::KeyColumn column{mhaviz::KeyKind::source, j};
    if (static_cast<std::size_t>(j) < result.columns.size()) {
      column = result.columns[static_cast<std::size_t>(j)];
    }
    columns.push_back({keyLabel(column, labels), column.kind});
  }
  return columns;
}

std::vector<ColumnInfo> indexColumns(std::int64_t n) {
  std::vector<ColumnInfo> columns;
  columns.reserve(toSize(n));
  for (std::int64_t j = 0; j < n; ++j) columns.push_back({QString::number(j), KeyKind::source});
  return columns;
}

// What a value of the stage is, for the colour scale and hover text.
void setUnitOf(StageData& data, Stage stage) {
  switch (stage) {
    case Stage::weights:
    case Stage::weights_before_dropout:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "weight"));
      return;
    case Stage::raw_scores:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "raw score"));
      return;
    case Stage::mask:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "mask term"));
      return;
    case Stage::scores:
      setUnit(data, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "score"));
      return;
    default:
      data.unit = stageName(stage);
      data.shownUnit = shownStageName(stage);
      return;
  }
}

const mhaviz::Tensor& tensorOf(const mhaviz::ForwardResult& result, Stage stage) {
  switch (stage) {
    case Stage::weights:
      return result.weights;
    case Stage::weights_before_dropout:
      // Without dropout the weights are the weights before dropout.
      return result.weights_before_dropout ? *result.weights_before_dropout : result.weights;
    case Stage::raw_scores:
      return result.raw_scores;
    case Stage::mask:
      return result.mask;
    case Stage::scores:
      return result.scores;
    case Stage::q:
      return result.q;
    case Stage::k:
      return result.k;
    case Stage::v:
      return result.v;
    case Stage::head_output:
      return result.head_output;
    case Stage::merged:
      return result.merged;
    case Stage::output:
      return result.output;
    case Stage::in_proj_weight:
    case Stage::out_proj_weight:
      break;  // parameters: extractParamStage
  }
  return result.weights;
}

bool stageHasMask(Stage stage) {
  return stage == Stage::weights || stage == Stage::weights_before_dropout ||
         stage == Stage::mask || stage == Stage::scores;
}

// Mean over the head maps, as PyTorch's average_attn_weights (NaN in any head gives NaN); a cell
// counts as masked when it is masked in every head.
MapData averageOf(const std::vector<MapData>& heads) {
  MapData avg;
  setMapTitle(avg, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "average over heads"));
  avg.rows = heads.front().rows;
  avg.cols = heads.front().cols;
  avg.columns = heads.front().columns;
  const std::size_t n = heads.front().values.size();
  avg.values.assign(n, 0.0);
  for (const MapData& head : heads) {
    for (std::size_t i = 0; i < n; ++i) avg.values[i] += head.values[i];
  }
  const auto count = static_cast<double>(heads.size());
  for (double& x : avg.values) x /= count;
  if (!heads.front().masked.empty()) {
    avg.masked.assign(n, 1);
    for (const MapData& head : heads) {
      for (std::size_t i = 0; i < n; ++i) avg.masked[i] &= head.masked[i];
    }
  }
  return avg;
}

void checkShape(const mhaviz::Tensor& t, const mhaviz::Shape& expected, Stage stage) {
  if (t.shape() != expected) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate("mhaviz::ui::StageText",
                                    "the result's %1 tensor has shape %2, expected %3; recompute "
                                    "the result")
            .arg(shownStageName(stage), QString::fromStdString(mhaviz::shape_str(t.shape())),
                 QString::fromStdString(mhaviz::shape_str(expected)))
            .toStdString());
  }
}

}  // namespace

StageData extractStage(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       ExtractMode mode) {
  const bool copy = mode == ExtractMode::copy;
  if (view.batch < 0 || view.batch >= result.N) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate("mhaviz::ui::StageText",
                                    "batch element %1 does not exist: the result has %2 (choose "
                                    "0..%3)")
            .arg(view.batch)
            .arg(result.N)
            .arg(result.N - 1)
            .toStdString());
  }
  if (isParamStage(view.stage)) return extractParamStage(result, paramsOf(result), view);
  StageData data;
  data.isSigned = stageIsSigned(view.stage);
  setUnitOf(data, view.stage);
  const auto n = static_cast<std::int64_t>(view.batch);
  const mhaviz::Tensor& t = tensorOf(result, view.stage);

  if (view.stage == Stage::merged || view.stage == Stage::output) {
    checkShape(t, {result.N, result.L, result.E}, view.stage);
    MapData map;
    setMapTitle(map, view.stage == Stage::merged
                         ? QT_TRANSLATE_NOOP("mhaviz::ui::StageText",
                                             "heads concatenated (before out_proj)")
                         : QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "out_proj output"));
    map.rows = static_cast<int>(result.L);
    map.cols = static_cast<int>(result.E);
    const std::size_t count = toSize(result.L * result.E);
    map.source.tensor = &t;
    map.source.offsets = {toSize(n) * count};
    if (copy) copyBlock(t, toSize(n) * count, count, map.values);
    map.columns = indexColumns(result.E);
    data.maps.push_back(std::move(map));
  } else {
    const bool keyRows = view.stage == Stage::k || view.stage == Stage::v;
    const bool keyCols = !keyRows && view.stage != Stage::q && view.stage != Stage::head_output;
    const std::int64_t rows = keyRows ? result.Sx : result.L;
    const std::int64_t cols = keyCols ? result.Sx : result.hd;
    checkShape(t, {result.N, result.H, rows, cols}, view.stage);
    const bool withMask =
        stageHasMask(view.stage) &&
        result.mask.shape() == mhaviz::Shape{result.N, result.H, result.L, result.Sx};
    const std::size_t count = toSize(rows * cols);
    const auto keyInfo = keyColumns(result, view.keyLabels);
    const bool solo = view.soloHead >= 0 && view.soloHead < result.H;
    for (std::int64_t h = 0; h < result.H; ++h) {
      if (solo && h != view.soloHead) continue;
      MapData map;
      setMapTitle(map, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "head %1"), {QString::number(h)});
      map.rows = static_cast<int>(rows);
      map.cols = static_cast<int>(cols);
      const std::size_t offset = toSize(n * result.H + h) * count;
      map.source.tensor = &t;
      map.source.offsets = {offset};
      if (withMask) map.source.mask = &result.mask;
      if (copy) copyBlock(t, offset, count, map.values);
      if (keyCols) map.columns = keyInfo;
      if (keyRows) map.rowsInfo = keyInfo;
      if (!keyCols && !keyRows) map.columns = indexColumns(cols);
      if (withMask && copy) markMasked(result.mask, offset, count, map.masked);
      data.maps.push_back(std::move(map));
    }
    const bool weightsStage =
        view.stage == Stage::weights || view.stage == Stage::weights_before_dropout;
    if (weightsStage && view.showAverage && !solo) {
      MapData avg;
      if (copy) {
        avg = averageOf(data.maps);
      } else {
        setMapTitle(avg, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "average over heads"));
        avg.rows = data.maps.front().rows;
        avg.cols = data.maps.front().cols;
        avg.columns = data.maps.front().columns;
      }
      avg.source.tensor = &t;
      avg.source.mask = data.maps.front().source.mask;
      for (const MapData& head : data.maps) avg.source.offsets.push_back(head.source.offsets[0]);
      data.maps.push_back(std::move(avg));
    }
  }

  if (copy) computeStats(data);
  return data;
}

void setMapTitle(MapData& map, const char* source, const QStringList& args) {
  QString english = QString::fromUtf8(source);
  QString shown = QCoreApplication::translate(kStageTextContext, source);
  for (const QString& arg : args) {
    english = english.arg(arg);
    shown = shown.arg(arg);
  }
  map.title = std::move(english);
  map.shownTitle = std::move(shown);
}

void setUnit(StageData& data, const char* source) {
  data.unit = QString::fromUtf8(source);
  data.shownUnit = QCoreApplication::translate(kStageTextContext, source);
}

QString shownStageName(Stage stage) {
  return QCoreApplication::translate("mhaviz::ui::Stage", stageName(stage).toLatin1().constData());
}

void MapData::readRow(int row, int col0, int n, double* out, unsigned char* maskOut) const {
  const std::size_t base = toSize(row) * toSize(cols) + toSize(col0);
  const auto count = toSize(n);
  if (!values.empty()) {
    std::copy_n(values.data() + base, count, out);
    if (maskOut != nullptr && !masked.empty()) std::copy_n(masked.data() + base, count, maskOut);
    return;
  }
  const auto& offsets = source.offsets;
  if (source.tensor == nullptr || offsets.empty()) {
    std::fill(out, out + count, std::numeric_limits<double>::quiet_NaN());
    if (maskOut != nullptr) std::fill(maskOut, maskOut + count, 0);
    return;
  }
  readBlock(*source.tensor, offsets[0] + base, count, out, false);
  if (offsets.size() > 1) {
    // The head average, summed in head order and divided once, as averageOf does.
    for (std::size_t b = 1; b < offsets.size(); ++b) {
      readBlock(*source.tensor, offsets[b] + base, count, out, true);
    }
    const auto blocks = static_cast<double>(offsets.size());
    for (std::size_t i = 0; i < count; ++i) out[i] /= blocks;
  }
  if (maskOut != nullptr && source.mask != nullptr) {
    std::fill(maskOut, maskOut + count, 1);
    for (std::size_t offset : offsets) andMasked(*source.mask, offset + base, count, maskOut);
  }
}

double MapData::valueAt(int row, int col) const {
  double x = 0;
  readRow(row, col, 1, &x, nullptr);
  return x;
}

bool MapData::maskedAt(int row, int col) const {
  if (!hasMask()) return false;
  double x = 0;
  unsigned char flag = 0;
  readRow(row, col, 1, &x, &flag);
  return flag != 0;
}

bool computeStats(StageData& data, const std::atomic<bool>* cancelled) {
  const auto stopped = [cancelled] {
    return cancelled != nullptr && cancelled->load(std::memory_order_relaxed);
  };
  forEachMap(static_cast<int>(data.maps.size()), [&](int index) {
    MapData& map = data.maps[toSize(index)];
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    bool nan = false;
    std::vector<double> row(toSize(map.cols));
    for (int r = 0; r < map.rows; ++r) {
      if ((r & 63) == 0 && stopped()) return;
      map.readRow(r, 0, map.cols, row.data(), nullptr);
      for (double x : row) {  // branch-free, so that it vectorises
        nan |= std::isnan(x);
        const bool finite = std::abs(x) <= std::numeric_limits<double>::max();  // not NaN/inf
        lo = finite && x < lo ? x : lo;
        hi = finite && x > hi ? x : hi;
      }
    }
    map.hasNan = nan;
    map.hasFinite = lo <= hi;
    map.finiteLo = map.hasFinite ? lo : 0;
    map.finiteHi = map.hasFinite ? hi : 0;
  });
  if (stopped()) return false;
  double maxAbs = 0;
  for (const MapData& map : data.maps) {
    if (map.hasFinite) maxAbs = std::max({maxAbs, std::abs(map.finiteLo), std::abs(map.finiteHi)});
  }
  if (data.isSigned) {
    if (maxAbs == 0) maxAbs = 1;
    data.lo = -maxAbs;
    data.hi = maxAbs;
  } else {
    data.lo = 0;
    data.hi = 1;
  }
  data.statsReady = true;
  return true;
}

}  // namespace mhaviz::ui
