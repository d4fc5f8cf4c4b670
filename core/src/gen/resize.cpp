// Fitting the generation settings to changed sizes, and telling the user what changed.
#include "mhaviz/core/gen/resize.hpp"

#include <algorithm>
#include <limits>

namespace mhaviz::gen {

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

std::string plural(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

void fit_cells(const Config& previous, Config& next, std::vector<std::string>& notes) {
  AttnMaskSpec& m = next.attn_mask_spec;
  if (m.cells.empty()) return;
  // A block index b = n*H + h keeps its (n, h) when batch_size or num_heads change.
  const std::int64_t old_heads = std::max<std::int64_t>(previous.num_heads, 1);
  for (MaskCell& cell : m.cells) {
    if (cell.b < 0) continue;
    const std::int64_t n = cell.b / old_heads;
    const std::int64_t h = cell.b % old_heads;
    cell.b = n < next.batch() && h < next.num_heads ? n * next.num_heads + h
                                                    : std::numeric_limits<std::int64_t>::max();
  }
  const auto before = m.cells.size();
  std::erase_if(m.cells, [&](const MaskCell& cell) {
    return cell.i >= next.tgt_len || cell.j >= next.src_len ||
           cell.b == std::numeric_limits<std::int64_t>::max();
  });
  const std::size_t dropped = before - m.cells.size();
  const bool resized = previous.tgt_len != next.tgt_len || previous.src_len != next.src_len ||
                       previous.batch() * previous.num_heads != next.batch() * next.num_heads;
  if (m.kind != MaskKind::custom && dropped == 0) return;
  if (!resized && dropped == 0) return;
  std::string note =
      std::string(m.kind == MaskKind::custom ? "custom attn_mask" : "attn_mask.cells") +
      " resized from " + str(previous.tgt_len) + "x" + str(previous.src_len) + " to " +
      str(next.tgt_len) + "x" + str(next.src_len) + ": ";
  if (dropped == 0) {
    note += "all " + plural(m.cells.size(), "cell", "cells") + " kept";
  } else {
    note += plural(dropped, "cell", "cells") + " outside dropped, " +
            plural(m.cells.size(), "cell", "cells") + " kept";
  }
  notes.push_back(note);
}

void fit_edges(Config& next, std::vector<std::string>& notes) {
  AttnMaskSpec& m = next.attn_mask_spec;
  const std::int64_t nodes = std::max(next.tgt_len, next.src_len);
  const auto before = m.edges.size();
  std::erase_if(m.edges, [&](const auto& e) { return e[0] >= nodes || e[1] >= nodes; });
  if (m.edges.size() != before) {
    notes.push_back("graph attn_mask now has " + str(nodes) + " nodes: " +
                    plural(before - m.edges.size(), "edge", "edges") + " to removed nodes dropped");
  }
}

void fit_padding(const Config& previous, Config& next, std::vector<std::string>& notes) {
  KeyPaddingSpec& p = next.key_padding_spec;
  const auto N = static_cast<std::size_t>(next.batch());
  const std::int64_t S = next.src_len;
  if (!p.valid_lengths.empty() || p.kind == PaddingKind::lengths) {
    auto& v = p.valid_lengths;
    const std::size_t old = v.size();
    std::size_t capped = 0;
    for (auto& len : v) {
      if (len == previous.src_len && len < S) {
        len = S;  // a sample without padding stays without padding
      } else if (len > S) {
        len = S;
        ++capped;
      }
    }
    v.resize(N, S);
    if (old != N) {
      notes.push_back("key_padding_mask.valid_lengths now has " + std::to_string(N) +
                      (N > old ? " entries (new batch elements unpadded)"
                               : " entries (one per batch element)"));
    }
    if (capped > 0) {
      notes.push_back("key_padding_mask.valid_lengths: " + plural(capped, "length", "lengths") +
                      " capped at src_len=" + str(S));
    }
  }
  if (!p.padded_keys.empty() || p.kind == PaddingKind::keys) {
    auto& keys = p.padded_keys;
    const std::size_t old = keys.size();
    std::size_t dropped = 0;
    for (auto& list : keys) {
      const auto before = list.size();
      std::erase_if(list, [&](std::int64_t j) { return j >= S; });
      dropped += before - list.size();
    }
    keys.resize(N);
    if (old != N) {
      notes.push_back(
          "key_padding_mask.padded_keys now has " + std::to_string(N) +
          (N > old ? " lists (new batch elements unpadded)" : " lists (one per batch element)"));
    }
    if (dropped > 0) {
      notes.push_back("key_padding_mask.padded_keys: " + plural(dropped, "key", "keys") +
                      " past src_len=" + str(S) + " dropped");
    }
  }
}

void fit_labels(std::vector<std::string>& labels, std::int64_t want, const char* key,
                std::vector<std::string>& notes) {
  if (labels.empty()) return;
  const auto n = static_cast<std::size_t>(want);
  const std::size_t old = labels.size();
  if (old == n) return;
  if (old > n) {
    labels.resize(n);
    notes.push_back(std::string(key) + ": last " + plural(old - n, "label", "labels") + " dropped");
    return;
  }
  for (std::size_t p = old; p < n; ++p) labels.push_back(std::to_string(p));
  notes.push_back(std::string(key) + ": " + plural(n - old, "label", "labels") +
                  " added (position numbers " + std::to_string(old) + ".." + std::to_string(n - 1) +
                  ")");
}

}  // namespace

std::vector<std::string> fit_to_sizes(const Config& previous, Config& next) {
  std::vector<std::string> notes;
  fit_cells(previous, next, notes);
  fit_edges(next, notes);
  fit_padding(previous, next, notes);
  fit_labels(next.query_labels, next.tgt_len, "query_labels", notes);
  fit_labels(next.key_labels, next.src_len, "key_labels", notes);
  return notes;
}

std::string describe_resize(const Config& previous, const Config& next) {
  Config fitted = next;
  std::string text;
  for (const std::string& note : fit_to_sizes(previous, fitted)) {
    text += (text.empty() ? "" : "; ") + note;
  }
  return text;
}

}  // namespace mhaviz::gen
