#pragma once
/// \file
/// query/key/value generated: standard normals (random_inputs) or made from Config::input_spec.

#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"

namespace mhaviz {

/// Standard-normal query/key/value of the config's shapes from config.input_seed, in
/// config.dtype. Self-attention inputs are not implied: key and value are drawn separately.
Inputs random_inputs(const Config& config);

}  // namespace mhaviz

namespace mhaviz::gen {

/// query/key/value in PyTorch's layout for the config (see Inputs), in config.dtype; masks and
/// static_k/v are left empty. The random kind with scale 1 is random_inputs(config) exactly.
/// One-hot: position p's row is scale * e_(p mod width) for every batch element. Sinusoidal:
/// PE(p, 2k) = sin(p / 10000^(2k/width)), PE(p, 2k+1) = cos(same), times scale, plus
/// content_scale * standard normal from config.input_seed. With self_attention, key and value
/// are copies of query. Throws InvalidInput naming the "inputs.*" key for a spec that does not
/// fit the config (check_input_spec).
Inputs make_inputs(const Config& config);

/// Throws InvalidInput when input_spec cannot be used with this config (e.g. self_attention
/// with src_len != tgt_len or kdim/vdim != embed_dim, a negative scale).
void check_input_spec(const Config& config);

/// Throws InvalidInput when query_labels / key_labels are given but their count is not
/// tgt_len / src_len.
void check_labels(const Config& config);

}  // namespace mhaviz::gen
