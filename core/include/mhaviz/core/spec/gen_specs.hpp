#pragma once
/// \file
/// Generation settings held by mhaviz::Config: how attn_mask, key_padding_mask, query/key/value
/// and the parameters are made when no tensor is given. Plain copyable values compared with ==;
/// the defaults (no masks, standard-normal inputs, PyTorch's initialisation) reproduce what
/// make_problem did before these settings existed. Every field is a configuration-file key
/// (docs/config.md).

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

namespace mhaviz::gen {

/// What attn_mask is made of. Cell (i, j) is query i, key j; "masked" means PyTorch's bool True
/// (float: the cell gets AttnMaskSpec::masked_value added to its score).
enum class MaskKind : std::uint8_t {
  none,    ///< no attn_mask
  causal,  ///< key j > query i masked (torch.triu(ones(L, S), diagonal=1))
  window,  ///< causal sliding window: key j allowed when i - width < j <= i
  band,    ///< symmetric band: key j allowed when |i - j| < width
  block,   ///< block diagonal: query i sees key j only when both lie in the same segment
  random,  ///< each cell masked with `probability` (a new draw per (n, h) block when 3-D)
  custom,  ///< the listed `cells`
  alibi,   ///< ALiBi: float bias -m_h * |i - j| per head (3-D only)
  graph,   ///< Graphormer-style per-head bias from shortest-path distances on a graph (3-D only)
  // Patterns from current practice (docs/config.md "Patterns"):
  prefix_lm,  ///< key j allowed when j <= i or j < prefix_length (bidirectional prefix, then
              ///< causal)
  document,   ///< query i sees key j only inside its own document (document_lengths); `causal`
              ///< also masks key j > query i
  dilated,    ///< key j allowed when |i - j| = k * dilation for k < width (j <= i when `causal`)
  sink,       ///< StreamingLLM: key j allowed when j <= i and (j < sink_tokens or i - j < width)
};

/// Element type of a generated mask: bool (True = masked) or float (added to the scores, in
/// the config's dtype).
enum class MaskDType : std::uint8_t { boolean, floating };

/// (L, S) for all heads, or (N*H, L, S) ((H, L, S) unbatched): one block per batch-head
/// index b = n*H + h.
enum class MaskShape : std::uint8_t { two_d, three_d };

/// How the graph kind turns a shortest-path distance d(i, j) into the bias of head h.
enum class GraphBias : std::uint8_t {
  distance,  ///< -m_h * d with the ALiBi slopes m_h; unreachable pairs get masked_value
  table,     ///< table[h][min(d, max_distance + 1)], drawn N(0, table_scale^2) from the seed
};

/// One cell of a custom attn_mask.
struct MaskCell {
  std::int64_t i = 0;   ///< query position, 0 <= i < L
  std::int64_t j = 0;   ///< key position, 0 <= j < S
  std::int64_t b = -1;  ///< batch-head block b = n*H + h for a 3-D mask; -1 = every block
  /// Float masks: the value added at the cell. None means "masked" (bool True; float
  /// masked_value). Bool masks: the cell is masked unless the value is 0.
  std::optional<double> value;
  bool operator==(const MaskCell&) const = default;
};

/// Settings of the generated attn_mask (config key "attn_mask").
struct AttnMaskSpec {
  MaskKind kind = MaskKind::none;
  MaskDType dtype = MaskDType::boolean;  ///< alibi and graph need floating
  MaskShape shape = MaskShape::two_d;    ///< alibi and graph need three_d
  /// Float masks: what a masked cell gets (-inf, or a finite value such as -1e4).
  double masked_value = -std::numeric_limits<double>::infinity();
  std::int64_t width = 3;                    ///< window, band, dilated, sink (>= 1)
  std::vector<std::int64_t> segments = {4};  ///< block: sizes; positions past their sum form
                                             ///< one last segment
  double probability = 0.25;                 ///< random: chance that a cell is masked
  std::optional<std::uint64_t> seed;         ///< random, graph edges/table; None = config.seed+3
  bool causal = false;             ///< alibi, graph, document, dilated: also mask key j > query i
  std::int64_t prefix_length = 2;  ///< prefix_lm: 0 <= p <= min(L, S)
  std::vector<std::int64_t> document_lengths;  ///< document: sizes (>= 1) summing to L = S
  std::int64_t dilation = 2;                   ///< dilated (>= 1; 1 is a plain window)
  std::int64_t sink_tokens = 2;                ///< sink: first keys always visible (>= 0)
  std::vector<MaskCell> cells;                 ///< custom; a later cell wins over an earlier one
  // graph: nodes are positions 0 .. max(L, S) - 1, query i is node i and key j is node j.
  std::vector<std::array<std::int64_t, 2>> edges;  ///< undirected edges
  double edge_probability = 0.0;  ///< graph: each other node pair also joined with this chance
  GraphBias graph_bias = GraphBias::distance;
  std::int64_t max_distance = 4;  ///< table: distances past it share the last entry
  double table_scale = 1.0;       ///< table: standard deviation of the drawn entries

  bool operator==(const AttnMaskSpec&) const = default;
};

/// How key_padding_mask is made.
enum class PaddingKind : std::uint8_t {
  none,     ///< no key_padding_mask
  lengths,  ///< per batch element a valid length: keys j >= length are padded
  keys,     ///< per batch element an explicit list of padded keys
};

/// Settings of the generated key_padding_mask (config key "key_padding_mask"). One entry per
/// batch element (one when unbatched). A fully padded element (length 0) is allowed: its rows
/// are NaN unless add_zero_attn or add_bias_kv add a key that cannot be padded.
struct KeyPaddingSpec {
  PaddingKind kind = PaddingKind::none;
  std::vector<std::int64_t> valid_lengths;             ///< lengths: 0 <= length <= S
  std::vector<std::vector<std::int64_t>> padded_keys;  ///< keys: key positions 0 <= j < S
  MaskDType dtype = MaskDType::boolean;
  double masked_value = -std::numeric_limits<double>::infinity();  ///< float: padded keys' value

  bool operator==(const KeyPaddingSpec&) const = default;
};

/// What query/key/value are made of (before any tensor file replaces them).
enum class InputKind : std::uint8_t {
  random,      ///< standard normal from config.input_seed, times scale
  one_hot,     ///< row of position p is scale * e_(p mod width) (identity tokens)
  sinusoidal,  ///< Vaswani positions times scale, plus content_scale * standard normal
};

/// Settings of the generated inputs (config key "inputs").
struct InputSpec {
  InputKind kind = InputKind::random;
  double scale = 1.0;
  double content_scale = 0.0;  ///< sinusoidal: std of random content added (0 = positions only)
  /// key and value ARE the query (same tensor): needs src_len == tgt_len and
  /// kdim == vdim == embed_dim.
  bool self_attention = false;

  bool operator==(const InputSpec&) const = default;
};

/// Where generated parameters come from.
enum class WeightKind : std::uint8_t {
  default_init,  ///< PyTorch's _reset_parameters scheme from config.seed
  identity,      ///< identity projections, zero biases (bias_k/bias_v zero too)
};

/// Settings of the generated parameters (config key "weights"). Every generated tensor is
/// multiplied by `scale`.
struct WeightSpec {
  WeightKind kind = WeightKind::default_init;
  double scale = 1.0;

  bool operator==(const WeightSpec&) const = default;
};

/// Names as the configuration file spells them ("none", "causal", "bool", "2d", ...).
std::string_view to_string(MaskKind kind);
std::string_view to_string(MaskDType dtype);
std::string_view to_string(MaskShape shape);
std::string_view to_string(GraphBias bias);
std::string_view to_string(PaddingKind kind);
std::string_view to_string(InputKind kind);
std::string_view to_string(WeightKind kind);

/// Every value of each enum, in declaration order (for menus and error messages).
inline constexpr std::array<MaskKind, 13> kMaskKinds = {
    MaskKind::none,     MaskKind::causal,  MaskKind::window, MaskKind::band,  MaskKind::block,
    MaskKind::random,   MaskKind::custom,  MaskKind::alibi,  MaskKind::graph, MaskKind::prefix_lm,
    MaskKind::document, MaskKind::dilated, MaskKind::sink};
inline constexpr std::array<PaddingKind, 3> kPaddingKinds = {
    PaddingKind::none, PaddingKind::lengths, PaddingKind::keys};
inline constexpr std::array<InputKind, 3> kInputKinds = {InputKind::random, InputKind::one_hot,
                                                         InputKind::sinusoidal};
inline constexpr std::array<WeightKind, 2> kWeightKinds = {WeightKind::default_init,
                                                           WeightKind::identity};

/// True for kinds whose values are additive biases (alibi, graph): float and 3-D only.
[[nodiscard]] constexpr bool is_bias_kind(MaskKind kind) {
  return kind == MaskKind::alibi || kind == MaskKind::graph;
}

}  // namespace mhaviz::gen
