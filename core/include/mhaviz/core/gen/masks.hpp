#pragma once
/// \file
/// attn_mask and key_padding_mask made from Config::attn_mask_spec / key_padding_spec, in
/// exactly the layout and dtype PyTorch's forward takes them.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::gen {

/// The attn_mask the spec describes, or nullopt for kind none. Bool masks: True = masked.
/// Float masks are in config.dtype: 0 where nothing is added, masked_value where masked, the
/// bias itself for alibi/graph. Shape (L, S), or (N*H, L, S) for shape three_d ((H, L, S) when
/// unbatched); 2-D-by-nature kinds repeat their pattern in every block except random, which
/// draws each block b = n*H + h from its own stream. Throws InvalidInput for a spec that does
/// not fit the config (check_attn_mask_spec, check_mask_pattern).
std::optional<Tensor> make_attn_mask(const Config& config);

/// The key_padding_mask the spec describes, or nullopt for kind none: (N, S), or (S) when
/// unbatched; bool (True = padded) or float (masked_value where padded, else 0, config.dtype).
/// Throws InvalidInput for a spec that does not fit the config (check_key_padding_spec).
std::optional<Tensor> make_key_padding_mask(const Config& config);

/// The ALiBi slopes m_1 .. m_H of the ALiBi paper's reference get_slopes: 2^(-8h/H) for H a
/// power of two; otherwise the slopes of the nearest lower power of two P followed by every
/// other slope of 2P, up to H in all.
std::vector<double> alibi_slopes(std::int64_t num_heads);

/// The seed of random masks, graph edges and bias tables: attn_mask_spec.seed, or config.seed+3.
std::uint64_t mask_seed(const Config& config);

/// The graph kind's undirected edges (u < v, sorted, no repeats): the listed edges plus the
/// random ones (each other pair with edge_probability, from mask_seed). Nodes are positions
/// 0 .. max(L, S) - 1.
std::vector<std::array<std::int64_t, 2>> graph_edges(const Config& config);

/// Breadth-first shortest-path distances between every pair of `nodes` nodes, row-major
/// (nodes x nodes); -1 for an unreachable pair.
std::vector<std::int64_t> shortest_paths(std::int64_t nodes,
                                         const std::vector<std::array<std::int64_t, 2>>& edges);

/// Throws InvalidInput naming the configuration key (e.g. "attn_mask.width") when the
/// attn_mask spec cannot be used with this config.
void check_attn_mask_spec(const Config& config);
/// The settings of the patterns of current practice (prefix_length, document_lengths, width,
/// dilation, sink_tokens) against the sizes. Kept out of check_attn_mask_spec and
/// validate_generation: size changes in the window do not fit them, so opening a file with such
/// a setting is no reason to refuse it; make_attn_mask checks them, and the window shows the
/// message inline like any other setting that cannot be computed.
void check_mask_pattern(const Config& config);
/// Same for key_padding_spec ("key_padding_mask.valid_lengths", ...).
void check_key_padding_spec(const Config& config);
/// Checks every generation setting: both masks, inputs, weights and the token labels.
void validate_generation(const Config& config);

}  // namespace mhaviz::gen
