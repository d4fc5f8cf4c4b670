// Compare mode: A and B lined up by the meaning of their key rows/columns, and B - A.
#include "mhaviz/core/analysis/compare.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace mhaviz {

namespace {

std::string key_name(const KeyColumn& k) {
  switch (k.kind) {
    case KeyKind::bias_k:
      return "bias_k key";
    case KeyKind::zero:
      return "zero key (add_zero_attn)";
    case KeyKind::source:
      break;
  }
  return "key " + std::to_string(k.index);
}

bool same_meaning(const KeyColumn& a, const KeyColumn& b) {
  return a.kind == b.kind && (a.kind != KeyKind::source || a.index == b.index);
}

std::int64_t source_count(const std::vector<KeyColumn>& keys) {
  return std::count_if(keys.begin(), keys.end(),
                       [](const KeyColumn& k) { return k.kind == KeyKind::source; });
}

struct AxisMatch {
  Mismatch mismatch;
  std::vector<std::int64_t> a, b;
  std::vector<KeyColumn> keys;
};

/// One axis (rows or columns). `noun` names plain positions ("rows", "columns").
AxisMatch match_axis(std::int64_t na, const std::vector<KeyColumn>& ka, std::int64_t nb,
                     const std::vector<KeyColumn>& kb, const std::string& noun,
                     std::vector<KeyNote>& notes) {
  AxisMatch m;
  if (ka.empty() != kb.empty()) {
    m.mismatch = {Mismatch::Kind::different_axes, noun};
    return m;
  }
  if (ka.empty()) {
    if (na != nb) {
      m.mismatch = {Mismatch::Kind::counts, noun, na, nb};
      return m;
    }
    for (std::int64_t i = 0; i < na; ++i) {
      m.a.push_back(i);
      m.b.push_back(i);
    }
    return m;
  }
  const std::int64_t sa = source_count(ka), sb = source_count(kb);
  if (sa != sb) {
    m.mismatch = {Mismatch::Kind::source_keys, noun, sa, sb};
    return m;
  }
  for (std::size_t i = 0; i < ka.size(); ++i) {
    const auto it = std::find_if(kb.begin(), kb.end(),
                                 [&](const KeyColumn& k) { return same_meaning(ka[i], k); });
    if (it == kb.end()) {
      notes.push_back({ka[i], true});
      continue;
    }
    m.a.push_back(static_cast<std::int64_t>(i));
    m.b.push_back(static_cast<std::int64_t>(it - kb.begin()));
    m.keys.push_back(ka[i]);
  }
  for (const KeyColumn& k : kb) {
    if (std::none_of(ka.begin(), ka.end(), [&](const KeyColumn& x) { return same_meaning(x, k); }))
      notes.push_back({k, false});
  }
  return m;
}

}  // namespace

std::string to_string(const Mismatch& m) {
  const auto a = std::to_string(m.a), b = std::to_string(m.b);
  switch (m.kind) {
    case Mismatch::Kind::none:
      break;
    case Mismatch::Kind::different_axes:
      return "A and B show different things along the " + m.noun;
    case Mismatch::Kind::counts:
      return "A has " + a + " " + m.noun + ", B has " + b;
    case Mismatch::Kind::source_keys:
      return "A has " + a + " source keys, B has " + b + " (src_len or static_k differ)";
    case Mismatch::Kind::heads:
      return "A has " + a + " heads, B has " + b + " (num_heads differ)";
  }
  return {};
}

std::string to_string(const KeyNote& note) {
  return "the " + key_name(note.key) + " is only in " + (note.only_in_a ? "A" : "B") +
         ": not in the difference";
}

double cell_difference(double a, double b) {
  if (a == b) return 0.0;  // also -inf and -inf (masked in both); NaN != NaN stays NaN
  return b - a;
}

GridDifference grid_difference(const CompareGrid& a, const CompareGrid& b,
                               const std::string& row_noun, const std::string& col_noun) {
  GridDifference out;
  const AxisMatch rows = match_axis(a.rows, a.row_keys, b.rows, b.row_keys,
                                    a.row_keys.empty() ? row_noun : "key rows", out.left_out);
  const AxisMatch cols =
      rows.mismatch.any() ? AxisMatch{}
                          : match_axis(a.cols, a.col_keys, b.cols, b.col_keys,
                                       a.col_keys.empty() ? col_noun : "key columns", out.left_out);
  out.why = rows.mismatch.any() ? rows.mismatch : cols.mismatch;
  if (out.why.any()) return out;
  out.a_rows = rows.a, out.b_rows = rows.b, out.a_cols = cols.a, out.b_cols = cols.b;
  CompareGrid& d = out.diff;
  d.rows = static_cast<std::int64_t>(rows.a.size());
  d.cols = static_cast<std::int64_t>(cols.a.size());
  d.row_keys = rows.keys;
  d.col_keys = cols.keys;
  d.values.resize(static_cast<std::size_t>(d.rows * d.cols));
  for (std::size_t r = 0; r < rows.a.size(); ++r) {
    for (std::size_t c = 0; c < cols.a.size(); ++c) {
      const double va = a.values[static_cast<std::size_t>(rows.a[r] * a.cols + cols.a[c])];
      const double vb = b.values[static_cast<std::size_t>(rows.b[r] * b.cols + cols.b[c])];
      d.values[r * cols.a.size() + c] = cell_difference(va, vb);
    }
  }
  return out;
}

std::vector<GridDifference> maps_difference(const std::vector<CompareGrid>& a,
                                            const std::vector<CompareGrid>& b, Mismatch* why,
                                            const std::string& rows, const std::string& cols) {
  std::vector<GridDifference> out;
  *why = {};
  if (a.size() != b.size()) {
    *why = {Mismatch::Kind::heads, "heads", static_cast<std::int64_t>(a.size()),
            static_cast<std::int64_t>(b.size())};
    return out;
  }
  for (std::size_t h = 0; h < a.size(); ++h) {
    GridDifference d = grid_difference(a[h], b[h], rows, cols);
    if (d.why.any()) {
      *why = d.why;
      out.clear();
      return out;
    }
    out.push_back(std::move(d));
  }
  return out;
}

double symmetric_limit(const std::vector<GridDifference>& diffs) {
  double limit = 0;
  for (const GridDifference& d : diffs) {
    for (const double v : d.diff.values) {
      if (std::isfinite(v)) limit = std::max(limit, std::abs(v));
    }
  }
  return limit;
}

}  // namespace mhaviz
