#pragma once
// Pure extraction (no widgets): which matrices a stage shows for one batch element, with titles
// and column meanings. Runs on any thread. A map either owns a copy of its values (tests, small
// maps) or only describes where they are in the ForwardResult (MapSource), so that the window
// never copies 2048x2048 maps; the caller then keeps the result alive while the map is used.

#include <QString>
#include <QStringList>
#include <atomic>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "mhaviz/core/forward/result.hpp"

namespace mhaviz {
struct ResultMeasures;  // mhaviz/core/analysis/measures.hpp
}
#include "stages/view_options.hpp"

namespace mhaviz::ui {

/// One column (or k/v row) of a map: a source position ("3" or its token label), or the
/// bias_k / zero key appended by add_bias_kv / add_zero_attn.
struct ColumnInfo {
  QString label;
  mhaviz::KeyKind kind = mhaviz::KeyKind::source;
};

/// Where a map's cells live in the result's memory (not owned: the ForwardResult must outlive
/// the MapData), or in `owned` for a map derived on demand (raw scores, mask, scores: see
/// mhaviz/core/forward/derived_maps.hpp). Cell (r, c) of block b is tensor[offsets[b] + r*cols +
/// c]; with several blocks (the head average) the cell is their mean. mask, when set, is the
/// result's merged_mask at its broadcast shape: the mask term of cell (r, c) of block b is
/// mask[maskOffsets[b] + r*maskRowStride + c] (a cell is masked when -inf in every block).
struct MapSource {
  const mhaviz::Tensor* tensor = nullptr;
  const mhaviz::Tensor* mask = nullptr;
  std::vector<std::size_t> offsets;
  std::vector<std::size_t> maskOffsets;
  std::size_t maskRowStride = 0;
  std::shared_ptr<const mhaviz::Tensor> owned;  // keeps a derived map alive (tensor -> it)
  /// Set while a derived map (ExtractMode::deferred) is not derived yet: makes `owned`
  /// (deriveMaps). Until then the map has no tensor and reads as NaN.
  std::function<std::shared_ptr<const mhaviz::Tensor>()> derive;
};

/// What a map's rows are when they are neither queries nor keys (rowsInfo).
enum class RowMeaning {
  query_or_key,  // queries, or keys with rowsInfo
  head,          // row h is head h (the sink scores per head), labelled "h0", "h1", ...
  all,           // one row summarising all queries (a mean over heads): no row label
};

struct MapData {
  QString title;               // "head 0", "average over heads"...: English, the same in every UI
                               // language (data: the CSV "map" column)
  QString shownTitle;          // the title in the UI language (grid, exported images, hover text)
  int rows = 0, cols = 0;      // rows = queries (or keys for k/v), row 0 shown at the TOP
  std::vector<double> values;  // row-major rows*cols; NaN = NaN; -inf allowed (masked)
  std::vector<ColumnInfo> columns;   // per column (for key-indexed stages), else empty
  std::vector<ColumnInfo> rowsInfo;  // per row for k/v (bias_k / zero rows), else empty
  int rowBase = 0;  // the number row 0 is labelled with (a head's slice of W_q starts at h*hd)
  RowMeaning rowMeaning = RowMeaning::query_or_key;
  std::vector<unsigned char> masked;  // per cell, 1 when the merged mask is -inf there
                                      // (weights/scores stages), else empty
  MapSource source;                   // always set: where the values come from
  // Statistics over the finite values (valid when StageData::statsReady).
  double finiteLo = 0, finiteHi = 0;
  bool hasFinite = false, hasNan = false;

  /// Cell (row, col): from `values` when copied, else read from the result. Any thread.
  [[nodiscard]] double valueAt(int row, int col) const;
  [[nodiscard]] bool maskedAt(int row, int col) const;
  /// Copies cells [col0, col0+n) of `row` into `out` (and mask flags into `maskOut` when not
  /// null and the map has a mask). Works for copied and source-only maps.
  void readRow(int row, int col0, int n, double* out, unsigned char* maskOut) const;
  [[nodiscard]] bool hasMask() const { return !masked.empty() || source.mask != nullptr; }
};

struct StageData {
  std::vector<MapData> maps;
  double lo = 0, hi = 1;  // shared colour range (symmetric around 0 when isSigned)
  bool isSigned = false;
  QString unit;       // what a value is: "weight", "score", "mask term"... (English)
  QString shownUnit;  // the unit in the UI language (colour scale, hover text)
  /// Axis titles in the UI language where rows and columns are not queries and keys (or
  /// dimensions): the parameter matrices have output features down and input features across.
  /// Empty: the stage's own.
  QString rowAxis, columnAxis;
  bool statsReady = false;  // lo/hi and the per-map statistics are computed
  /// When > 0 the maps form this many groups of equal size that belong side by side (W_q, W_k,
  /// W_v): the grid shows one group per column, in order, and map k of every group on one row.
  int groupColumns = 0;
  /// Unsigned values that are not weights (value norms): the shared colour range is always
  /// 0..the largest finite value shown, never the fixed 0..1.
  bool rangeFromData = false;
  /// False for a weights-only file's weights (ForwardResult::is_stored_weights): nothing says
  /// which keys were masked, so the legend has no "masked" key.
  bool maskKnown = true;
  /// The result the maps were extracted from (render/result_maps.hpp): keeps the memory that
  /// described maps read alive while they are shown. Null for maps made elsewhere.
  std::shared_ptr<const mhaviz::ForwardResult> result;
  /// The result's measures the maps were extracted with (value norms, zeroing, sinks), kept
  /// alive beside it for the same reason. Null when there were none.
  std::shared_ptr<const mhaviz::ResultMeasures> measures;
};

/// Translation context of the map titles and units ("head %1", "weight", ...).
inline constexpr char kStageTextContext[] = "mhaviz::ui::StageText";

/// Sets map.title (English) and map.shownTitle (translated in kStageTextContext) from one
/// source text marked with QT_TRANSLATE_NOOP("mhaviz::ui::StageText", ...), whose %1, %2...
/// take `args` in order. Any thread (translators are installed before the window exists).
void setMapTitle(MapData& map, const char* source, const QStringList& args = {});

/// Sets data.unit and data.shownUnit from a QT_TRANSLATE_NOOP("mhaviz::ui::StageText", ...)
/// source text.
void setUnit(StageData& data, const char* source);

/// stageName() in the UI language (context "mhaviz::ui::Stage"), for titles shown to people.
QString shownStageName(Stage stage);

/// copy: every map owns its values (and mask flags). describe: maps hold only their MapSource
/// (no per-cell work; statsReady stays false until computeStats). deferred: as describe, and the
/// maps a pass does not store (the scores) are derived later by deriveMaps (on whichever thread
/// calls it: one q·kᵀ product per head), not by extractStage.
enum class ExtractMode { copy, describe, deferred };

/// The maps of `view.stage` for batch element `view.batch`: one per head (only head
/// view.soloHead when >= 0), plus the head average for weights (the sum over heads for value
/// norms) when view.showAverage; one (L,E) map for merged/output. Value norms, value zeroing
/// and sink scores come from `measures`, the result's measures (mhaviz::measure_result of it),
/// which whoever holds the result keeps beside it (the window's document; null: none).
/// Throws InvalidInput when the batch element does not exist or the stage's measures are
/// missing. Described maps of those stages read `measures`, which must outlive them
/// (StageData::measures).
StageData extractStage(const mhaviz::ForwardResult& result, const ViewOptions& view,
                       ExtractMode mode = ExtractMode::copy,
                       const mhaviz::ResultMeasures* measures = nullptr);

/// Per-map finite range and NaN flag, and the stage's colour range (lo/hi: symmetric max |v|
/// for signed stages, else 0..1). Reads every cell once; any thread. Returns false (leaving
/// statsReady false) when `cancelled` became true on the way.
bool computeStats(StageData& data, const std::atomic<bool>* cancelled = nullptr);

/// Derives the maps ExtractMode::deferred left to derive (MapSource::derive), in parallel; any
/// thread. Nothing to do for other data. computeStats calls it first.
void deriveMaps(StageData& data);

/// The statistics computeStats gathers for one map, from cells given row by row in any order
/// (so that whoever reads every cell anyway, such as a reduction of the whole map, gathers them
/// on the way instead of reading the map a second time).
struct CellStats {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  bool nan = false;
  void add(const double* cells, std::size_t count);
};

/// Statistics of every cell of `map`; false when `cancelled` became true on the way.
bool gatherStats(const MapData& map, CellStats& stats, const std::atomic<bool>* cancelled);

/// Sets data.maps[i]'s statistics from stats[i] and the stage's colour range, as computeStats.
void applyStats(StageData& data, const std::vector<CellStats>& stats);

}  // namespace mhaviz::ui
