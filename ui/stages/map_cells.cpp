// Reading a map's cells (copied or straight from the result) and its statistics.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "mhaviz/core/base/parallel.hpp"
#include "stages/stage_data.hpp"
#include "stages/stage_parts.hpp"

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

}  // namespace

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
    const std::size_t maskBase = toSize(row) * source.maskRowStride + toSize(col0);
    for (std::size_t offset : source.maskOffsets) {
      andMasked(*source.mask, offset + maskBase, count, maskOut);
    }
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

void CellStats::add(const double* cells, std::size_t count) {
  double l = lo, h = hi;
  bool n = nan;
  for (std::size_t i = 0; i < count; ++i) {  // branch-free, so that it vectorises
    const double x = cells[i];
    n |= std::isnan(x);
    const bool finite = std::abs(x) <= std::numeric_limits<double>::max();  // not NaN/inf
    l = finite && x < l ? x : l;
    h = finite && x > h ? x : h;
  }
  lo = l;
  hi = h;
  nan = n;
}

bool gatherStats(const MapData& map, CellStats& stats, const std::atomic<bool>* cancelled) {
  std::vector<double> row(toSize(map.cols));
  for (int r = 0; r < map.rows; ++r) {
    if ((r & 63) == 0 && cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) {
      return false;
    }
    map.readRow(r, 0, map.cols, row.data(), nullptr);
    stats.add(row.data(), row.size());
  }
  return true;
}

void applyStats(StageData& data, const std::vector<CellStats>& stats) {
  double maxAbs = 0;
  for (std::size_t i = 0; i < data.maps.size() && i < stats.size(); ++i) {
    MapData& map = data.maps[i];
    const CellStats& s = stats[i];
    map.hasNan = s.nan;
    map.hasFinite = s.lo <= s.hi;
    map.finiteLo = map.hasFinite ? s.lo : 0;
    map.finiteHi = map.hasFinite ? s.hi : 0;
    if (map.hasFinite) maxAbs = std::max({maxAbs, std::abs(map.finiteLo), std::abs(map.finiteHi)});
  }
  if (data.isSigned) {
    if (maxAbs == 0) maxAbs = 1;
    data.lo = -maxAbs;
    data.hi = maxAbs;
  } else {
    data.lo = 0;
    data.hi = data.rangeFromData && maxAbs > 0 ? maxAbs : 1;
  }
  data.statsReady = true;
}

void deriveMaps(StageData& data) {
  std::vector<MapSource*> pending;
  for (MapData& m : data.maps) {
    if (m.source.derive) pending.push_back(&m.source);
  }
  const auto count = static_cast<std::int64_t>(pending.size());
  mhaviz::parallel_for(count, mhaviz::thread_count(0, count), [&](std::int64_t i) {
    MapSource& s = *pending[static_cast<std::size_t>(i)];
    s.owned = s.derive();
    s.tensor = s.owned.get();
  });
  for (MapSource* s : pending) s->derive = nullptr;
}

bool computeStats(StageData& data, const std::atomic<bool>* cancelled) {
  deriveMaps(data);
  std::vector<CellStats> stats(data.maps.size());
  std::atomic<bool> stopped{false};
  // One map per thread at a time, from the last: a grid's last map is the head average, which
  // reads every head and costs the most, so it starts first and the threads finish together.
  const auto count = static_cast<std::int64_t>(data.maps.size());
  mhaviz::parallel_for(count, mhaviz::thread_count(0, count), [&](std::int64_t i) {
    const auto index = static_cast<std::size_t>(count - 1 - i);
    if (!gatherStats(data.maps[index], stats[index], cancelled)) stopped = true;
  });
  if (stopped) return false;
  applyStats(data, stats);
  return true;
}

}  // namespace mhaviz::ui
