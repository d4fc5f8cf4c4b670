// The user's size-dependent generation settings, remembered across size changes.
#include "mhaviz/core/gen/user_values.hpp"

#include <algorithm>

#include "mhaviz/core/gen/resize.hpp"

namespace mhaviz::gen {

namespace {

bool same_sizes(const Config& a, const Config& b) {
  return a.tgt_len == b.tgt_len && a.src_len == b.src_len && a.batch() == b.batch() &&
         a.num_heads == b.num_heads;
}

/// `cell` with its block written for `heads` heads instead of `from` (same n and h).
MaskCell rebased(MaskCell cell, std::int64_t from, std::int64_t heads) {
  if (cell.b >= 0) cell.b = cell.b / from * heads + cell.b % from;
  return cell;
}

/// Whether `cell` (blocks written for `heads` heads) lies inside `c`'s mask.
bool fits(const MaskCell& cell, std::int64_t heads, const Config& c) {
  if (cell.i >= c.tgt_len || cell.j >= c.src_len) return false;
  return cell.b < 0 || (cell.b / heads < c.batch() && cell.b % heads < c.num_heads);
}

/// Labels edited at a size that cut some: the edited ones, then the remembered rest.
void take_labels(std::vector<std::string>& kept, const std::vector<std::string>& shown,
                 const std::vector<std::string>& requested) {
  if (requested == shown) return;
  if (requested.empty() || kept.size() <= requested.size()) {
    kept = requested;
    return;
  }
  std::copy(requested.begin(), requested.end(), kept.begin());
}

}  // namespace

UserValues::UserValues(const Config& config)
    : heads_(std::max<std::int64_t>(config.num_heads, 1)),
      cells_(config.attn_mask_spec.cells),
      edges_(config.attn_mask_spec.edges),
      padded_keys_(config.key_padding_spec.padded_keys),
      query_labels_(config.query_labels),
      key_labels_(config.key_labels) {
  for (const std::int64_t len : config.key_padding_spec.valid_lengths) {
    lengths_.push_back(len >= config.src_len ? kUnpadded : len);
  }
}

void UserValues::take_edits(const Config& shown, const Config& requested) {
  const AttnMaskSpec& m0 = shown.attn_mask_spec;
  const AttnMaskSpec& m1 = requested.attn_mask_spec;
  const KeyPaddingSpec& p0 = shown.key_padding_spec;
  const KeyPaddingSpec& p1 = requested.key_padding_spec;
  const bool edited = m0.cells != m1.cells || m0.edges != m1.edges ||
                      p0.valid_lengths != p1.valid_lengths || p0.padded_keys != p1.padded_keys ||
                      shown.query_labels != requested.query_labels ||
                      shown.key_labels != requested.key_labels;
  if (!edited) return;
  if (!same_sizes(shown, requested)) {
    *this = UserValues(requested);
    return;
  }
  const std::int64_t S = requested.src_len;
  const std::int64_t H = std::max<std::int64_t>(requested.num_heads, 1);
  if (m0.cells != m1.cells) {
    const std::int64_t heads = std::max(heads_, H);
    std::vector<MaskCell> cells;
    for (const MaskCell& cell : cells_) {
      if (!fits(cell, heads_, requested)) cells.push_back(rebased(cell, heads_, heads));
    }
    for (const MaskCell& cell : m1.cells) cells.push_back(rebased(cell, H, heads));
    cells_ = std::move(cells);
    heads_ = heads;
  }
  if (m0.edges != m1.edges) {
    const std::int64_t nodes = std::max(requested.tgt_len, S);
    std::erase_if(edges_, [&](const auto& e) { return e[0] < nodes && e[1] < nodes; });
    edges_.insert(edges_.begin(), m1.edges.begin(), m1.edges.end());
  }
  if (p0.valid_lengths != p1.valid_lengths) {
    if (p1.valid_lengths.empty()) lengths_.clear();
    if (lengths_.size() < p1.valid_lengths.size())
      lengths_.resize(p1.valid_lengths.size(), kUnpadded);
    for (std::size_t k = 0; k < p1.valid_lengths.size(); ++k) {
      const std::int64_t len = p1.valid_lengths[k];
      if (k >= p0.valid_lengths.size() || len != p0.valid_lengths[k]) {
        lengths_[k] = len >= S ? kUnpadded : len;
      }
    }
  }
  if (p0.padded_keys != p1.padded_keys) {
    if (p1.padded_keys.empty()) padded_keys_.clear();
    if (padded_keys_.size() < p1.padded_keys.size()) padded_keys_.resize(p1.padded_keys.size());
    for (std::size_t k = 0; k < p1.padded_keys.size(); ++k) {
      if (k < p0.padded_keys.size() && p1.padded_keys[k] == p0.padded_keys[k]) continue;
      std::vector<std::int64_t> keys = p1.padded_keys[k];
      for (const std::int64_t j : padded_keys_[k]) {
        if (j >= S) keys.push_back(j);  // cut by the current S: still the user's
      }
      std::sort(keys.begin(), keys.end());
      padded_keys_[k] = std::move(keys);
    }
  }
  take_labels(query_labels_, shown.query_labels, requested.query_labels);
  take_labels(key_labels_, shown.key_labels, requested.key_labels);
}

std::vector<std::string> UserValues::fit(Config& config) const {
  // The remembered values as a configuration of their own sizes, fitted to config's.
  Config source = config;
  source.num_heads = heads_;
  std::int64_t longest = 0;
  for (const std::int64_t len : lengths_) longest = std::max(longest, len);
  source.src_len = std::max(config.src_len, longest + 1);  // every real length < source S
  source.attn_mask_spec.cells = cells_;
  source.attn_mask_spec.edges = edges_;
  source.key_padding_spec.valid_lengths.clear();
  for (const std::int64_t len : lengths_) {
    source.key_padding_spec.valid_lengths.push_back(len == kUnpadded ? source.src_len : len);
  }
  source.key_padding_spec.padded_keys = padded_keys_;
  source.query_labels = query_labels_;
  source.key_labels = key_labels_;
  Config fitted = config;
  fitted.attn_mask_spec.cells = source.attn_mask_spec.cells;
  fitted.attn_mask_spec.edges = source.attn_mask_spec.edges;
  fitted.key_padding_spec.valid_lengths = source.key_padding_spec.valid_lengths;
  fitted.key_padding_spec.padded_keys = padded_keys_;
  fitted.query_labels = query_labels_;
  fitted.key_labels = key_labels_;
  std::vector<std::string> notes = fit_to_sizes(source, fitted);
  config = std::move(fitted);
  return notes;
}

}  // namespace mhaviz::gen
