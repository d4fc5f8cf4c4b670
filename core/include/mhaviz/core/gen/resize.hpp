#pragma once
/// \file
/// Keeping the generation settings valid when sizes change (tgt_len, src_len, batch_size,
/// num_heads): presets regenerate by themselves; custom cells, graph edges, padding entries and
/// labels are cut or extended here, and the user is told what happened.

#include <string>
#include <vector>

#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::gen {

/// Adapts `next`'s generation settings to its sizes, given the config they were made for
/// (`previous`). Custom attn_mask cells outside the new L x S (or a block b >= the new N*H)
/// are dropped and the rest kept; graph edges to nodes past max(L, S) are dropped;
/// valid_lengths / padded_keys are cut or extended (new elements unpadded, a length equal to
/// the previous src_len stays unpadded, lengths capped at
/// S, keys >= S dropped); labels are cut or extended with their position numbers. Returns one
/// sentence per change, e.g. "custom attn_mask resized from 6x6 to 4x8: 3 cells outside
/// dropped"; empty when nothing needed changing.
std::vector<std::string> fit_to_sizes(const Config& previous, Config& next);

/// What fit_to_sizes(previous, next) would say, as one text ("" when nothing changes).
std::string describe_resize(const Config& previous, const Config& next);

}  // namespace mhaviz::gen
