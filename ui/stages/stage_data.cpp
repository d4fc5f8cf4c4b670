// Extraction: which matrices a stage shows for one batch element (stage_data.hpp).
#include "stages/stage_data.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mhaviz/core/analysis/measures.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/derived_maps.hpp"
#include "stages/param_stage.hpp"
#include "stages/stage_parts.hpp"

namespace mhaviz::ui {
namespace {

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

// Flags of `count` mask elements at `offset`: 1 where -inf (a masked key).
void markMaskedRow(const mhaviz::Tensor& mask, std::size_t offset, std::size_t count,
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

// Per-cell flags of a (rows, cols) map: 1 where the additive mask is -inf (a masked key). Row r
// of the mask starts at offset + r * rowStride (rowStride 0: one row for every query).
void markMasked(const mhaviz::Tensor& mask, std::size_t offset, std::size_t rowStride,
                std::size_t rows, std::size_t cols, std::vector<unsigned char>& out) {
  out.resize(rows * cols);
  std::vector<unsigned char> row;
  for (std::size_t r = 0; r < rows; ++r) {
    markMaskedRow(mask, offset + r * rowStride, cols, row);
    std::copy(row.begin(), row.end(), out.begin() + static_cast<std::ptrdiff_t>(r * cols));
  }
}

// The stages the pass does not store, and which map each derives.
std::optional<mhaviz::DerivedMap> derivedOf(Stage stage) {
  switch (stage) {
    case Stage::raw_scores:
      return mhaviz::DerivedMap::raw_scores;
    case Stage::capped_scores:
      return mhaviz::DerivedMap::capped_scores;  // the raw scores when no cap is set
    case Stage::mask:
      return mhaviz::DerivedMap::mask;
    case Stage::scores:
      return mhaviz::DerivedMap::scores;
    default:
      return std::nullopt;
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
    case Stage::capped_scores:
    case Stage::mask:
    case Stage::scores:
      break;  // derived per head: derivedOf
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
    case Stage::value_norms:
    case Stage::value_zeroing:
    case Stage::sink_scores:
      break;  // parameters: extractParamStage; value norms, zeroing, sinks: from the measures
  }
  return result.weights;
}

// The value norms among the result's measures, or InvalidInput saying why not.
const mhaviz::ValueNorms& valueNorms(const mhaviz::ForwardResult& result,
                                     const mhaviz::ResultMeasures* measures) {
  if (measures && measures->norms) return *measures->norms;
  const QString why =
      measures
          ? QCoreApplication::translate(
                "mhaviz::ui::StageText",
                "value norms are computed for up to %1 weight cells (N*H*L*S'); this result has "
                "%2. Reduce L, S, N or the number of heads to see them")
                .arg(mhaviz::kValueNormCellLimit)
                .arg(result.N * result.H * result.L * result.Sx)
          : QCoreApplication::translate("mhaviz::ui::StageText",
                                        "this result has no value norms; recompute it");
  throw mhaviz::InvalidInput(why.toStdString());
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

// Value zeroing among the result's measures, or InvalidInput saying why not.
const mhaviz::ValueZeroing& valueZeroing(const mhaviz::ForwardResult& result,
                                         const mhaviz::ResultMeasures* measures) {
  if (measures && measures->zeroing) return *measures->zeroing;
  const QString why =
      measures
          ? QCoreApplication::translate(
                "mhaviz::ui::StageText",
                "value zeroing is computed for up to %1 weight cells (N*H*L*S'); this result has "
                "%2. Reduce L, S, N or the number of heads to see it")
                .arg(mhaviz::kValueNormCellLimit)
                .arg(result.N * result.H * result.L * result.Sx)
          : QCoreApplication::translate("mhaviz::ui::StageText",
                                        "this result has no value zeroing; recompute it");
  throw mhaviz::InvalidInput(why.toStdString());
}

// Value zeroing of batch element n: the cosine distance map, then the relative L2 map (L × S').
void zeroingMaps(const mhaviz::ForwardResult& result, const mhaviz::ResultMeasures* measures,
                 const ViewOptions& view, std::int64_t n, bool copy, StageData& data) {
  const mhaviz::ValueZeroing& z = valueZeroing(result, measures);
  const std::size_t count = toSize(result.L * result.Sx);
  const auto keyInfo = keyColumns(result, view.keyLabels);
  const std::pair<const mhaviz::Tensor*, const char*> maps[] = {
      {&z.cosine, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "cosine distance 1 − cos(o, o′)")},
      {&z.relative_l2, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "relative L2 ‖o′ − o‖ / ‖o‖")}};
  for (const auto& [t, title] : maps) {
    checkShape(*t, {result.N, result.L, result.Sx}, view.stage);
    MapData map;
    setMapTitle(map, title);
    map.rows = static_cast<int>(result.L);
    map.cols = static_cast<int>(result.Sx);
    map.columns = keyInfo;
    map.source.tensor = t;
    map.source.offsets = {toSize(n) * count};
    if (copy) copyBlock(*t, toSize(n) * count, count, map.values);
    data.maps.push_back(std::move(map));
  }
}

// Sink scores of batch element n (Gu et al. 2024): one heads × S' map (row h: head h; the solo
// head alone), then their mean over heads as one row; each map's cells are a small tensor it
// owns.
void sinkMaps(const mhaviz::ForwardResult& result, const mhaviz::ResultMeasures* measures,
              const ViewOptions& view, std::int64_t n, bool copy, StageData& data) {
  if (!measures) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate("mhaviz::ui::StageText",
                                    "this result has no sink scores; recompute it")
            .toStdString());
  }
  const mhaviz::SinkScores& s = measures->sinks;
  if (s.N != result.N || s.H != result.H || s.Sx != result.Sx) {
    throw mhaviz::InvalidInput(
        QCoreApplication::translate("mhaviz::ui::StageText",
                                    "the result's sink scores do not fit it; recompute it")
            .toStdString());
  }
  const auto keyInfo = keyColumns(result, view.keyLabels);
  const auto add = [&](std::vector<std::int64_t> heads, bool mean, RowMeaning meaning,
                       const char* title, const QStringList& args) {
    const auto rows = mean ? std::int64_t{1} : static_cast<std::int64_t>(heads.size());
    auto t =
        std::make_shared<mhaviz::Tensor>(mhaviz::ElemType::f64, mhaviz::Shape{rows, result.Sx});
    auto cells = t->data<double>();
    for (std::int64_t j = 0; j < result.Sx; ++j) {
      for (std::size_t k = 0; k < heads.size(); ++k) {
        const double v = s.at(n, heads[k], j);
        if (mean) {
          cells[toSize(j)] += v / static_cast<double>(heads.size());
        } else {
          cells[k * toSize(result.Sx) + toSize(j)] = v;
        }
      }
    }
    MapData map;
    setMapTitle(map, title, args);
    map.rows = static_cast<int>(rows);
    map.cols = static_cast<int>(result.Sx);
    map.columns = keyInfo;
    map.rowMeaning = meaning;
    map.source.owned = t;
    map.source.tensor = t.get();
    map.source.offsets = {0};
    if (copy) copyBlock(*t, 0, toSize(rows * result.Sx), map.values);
    data.maps.push_back(std::move(map));
  };
  if (view.soloHead >= 0 && view.soloHead < result.H) {
    add({view.soloHead}, false, RowMeaning::all,
        QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "head %1"), {QString::number(view.soloHead)});
    return;
  }
  std::vector<std::int64_t> heads(static_cast<std::size_t>(result.H));
  for (std::int64_t h = 0; h < result.H; ++h) heads[toSize(h)] = h;
  add(heads, false, RowMeaning::head, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "every head"), {});
  if (view.showAverage) {
    add(heads, true, RowMeaning::all, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "mean over heads"),
        {});
  }
}

}  // namespace

StageData extractStage(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       ExtractMode mode, const mhaviz::ResultMeasures* measures) {
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
  data.maskKnown = !result.is_stored_weights();
  setStageUnit(data, view.stage);
  const auto n = static_cast<std::int64_t>(view.batch);
  const bool normStage = view.stage == Stage::value_norms;
  // The reduced view of a long context: block means of weights are far below 1 (a causal row
  // of 32768 keys averages 1/32768), so its colour range is always 0..the largest shown.
  data.rangeFromData = normStage || result.is_reduced();
  const mhaviz::Tensor& t =
      normStage ? valueNorms(result, measures).per_head : tensorOf(result, view.stage);

  if (view.stage == Stage::value_zeroing) {
    data.rangeFromData = true;
    zeroingMaps(result, measures, view, n, copy, data);
  } else if (view.stage == Stage::sink_scores) {
    sinkMaps(result, measures, view, n, copy, data);
  } else if (view.stage == Stage::merged || view.stage == Stage::output) {
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
    const std::optional<mhaviz::DerivedMap> derived = derivedOf(view.stage);
    if (!derived) checkShape(t, {result.N, result.H, rows, cols}, view.stage);
    const bool withMask = stageHasMask(view.stage) && result.has_mask();
    const std::size_t count = toSize(rows * cols);
    const auto keyInfo = keyColumns(result, view.keyLabels);
    const bool solo = view.soloHead >= 0 && view.soloHead < result.H;
    for (std::int64_t h = 0; h < result.H; ++h) {
      if (solo && h != view.soloHead) continue;
      MapData map;
      setMapTitle(map, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "head %1"), {QString::number(h)});
      map.rows = static_cast<int>(rows);
      map.cols = static_cast<int>(cols);
      std::size_t offset = toSize(n * result.H + h) * count;
      map.source.tensor = &t;
      if (derived && mode == ExtractMode::deferred) {
        // Not stored by the pass: derived by deriveMaps (data.result keeps `result` alive). No
        // rows derived now: only the checks, so that a result without q and k throws here.
        (void)mhaviz::derived_rows(result, *derived, n, h, 0, 0);
        map.source.tensor = nullptr;
        map.source.derive = [r = &result, map = *derived, n, h] {
          return std::make_shared<const mhaviz::Tensor>(mhaviz::derived_head(*r, map, n, h));
        };
        offset = 0;
      } else if (derived) {
        // Not stored by the pass: this head's map is derived now and owned by the map.
        map.source.owned =
            std::make_shared<const mhaviz::Tensor>(mhaviz::derived_head(result, *derived, n, h));
        map.source.tensor = map.source.owned.get();
        offset = 0;
      }
      map.source.offsets = {offset};
      if (withMask) {
        map.source.mask = &result.merged_mask;
        map.source.maskOffsets = {toSize(result.mask_offset(n, h, 0))};
        map.source.maskRowStride = toSize(result.mask_row_stride());
      }
      if (copy) copyBlock(*map.source.tensor, offset, count, map.values);
      if (keyCols) map.columns = keyInfo;
      if (keyRows) map.rowsInfo = keyInfo;
      if (!keyCols && !keyRows) map.columns = indexColumns(cols);
      if (withMask && copy) {
        markMasked(result.merged_mask, map.source.maskOffsets[0], map.source.maskRowStride,
                   toSize(rows), toSize(cols), map.masked);
      }
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
      avg.source.maskRowStride = data.maps.front().source.maskRowStride;
      for (const MapData& head : data.maps) {
        avg.source.offsets.push_back(head.source.offsets[0]);
        if (avg.source.mask != nullptr)
          avg.source.maskOffsets.push_back(head.source.maskOffsets[0]);
      }
      data.maps.push_back(std::move(avg));
    }
    if (normStage && view.showAverage && !solo) {
      // ‖Σ_h α_ij^h f_h(x_j)‖: what key j adds to query i's output across all heads.
      const mhaviz::Tensor& summed = valueNorms(result, measures).summed;
      checkShape(summed, {result.N, result.L, result.Sx}, view.stage);
      MapData sum;
      setMapTitle(sum, QT_TRANSLATE_NOOP("mhaviz::ui::StageText", "sum over heads"));
      sum.rows = static_cast<int>(result.L);
      sum.cols = static_cast<int>(result.Sx);
      sum.columns = keyInfo;
      sum.source.tensor = &summed;
      sum.source.offsets = {toSize(n) * count};
      if (copy) copyBlock(summed, toSize(n) * count, count, sum.values);
      data.maps.push_back(std::move(sum));
    }
  }

  if (copy) computeStats(data);
  return data;
}

}  // namespace mhaviz::ui
