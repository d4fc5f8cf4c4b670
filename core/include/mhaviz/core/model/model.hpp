#pragma once
/// \file
/// A whole model: every nn.MultiheadAttention call of one forward pass of a network, as
/// mhaviz_capture.capture_model() writes it (docs/capture-and-models.md): a JSON index and a
/// tensors file holding each call's state_dict, inputs, masks and PyTorch's outputs. Each layer
/// is recomputed by mhaviz::forward and compared with PyTorch's outputs; attention rollout and
/// attention flow (Abnar & Zuidema 2020) run across the self-attention layers.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mhaviz/core/analysis/sink.hpp"
#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/model/image_grid.hpp"
#include "mhaviz/core/plan/memory.hpp"
#include "mhaviz/core/plan/problem.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz::model {

/// Most layers a model file may list.
inline constexpr std::size_t kMaxLayers = 1024;
/// Largest index file read (the index holds configurations and labels, never tensors).
inline constexpr std::uint64_t kMaxIndexBytes = 64ULL << 20;
/// Default largest difference from PyTorch's stored outputs that still counts as agreeing.
inline constexpr double kDefaultTolerance = 1e-4;

/// One recorded call, as the index describes it.
struct LayerInfo {
  std::string name;             ///< module name in the model, e.g. "encoder.layers.3.self_attn"
  std::int64_t call = 0;        ///< which call of that module (0 = its first)
  bool self_attention = false;  ///< query, key and value were one tensor (enters the rollout)
  bool fused = false;           ///< rebuilt from PyTorch's fused encoder-layer kernel
  std::int64_t step = -1;       ///< its generation step; -1 in a capture without steps
  /// Weights-only files (version 4): "encoder", "decoder", "cross" or "" (one stack).
  std::string group;
  /// Grouped-query attention: the key/value heads the layer's query heads share (query head h
  /// uses key/value head h / (H / kv_heads)); 0 when every head has its own.
  std::int64_t kv_heads = 0;
  /// The configuration; in a weights-only file one made from the weights' shape (num_heads H,
  /// tgt_len L, src_len S, batch_size N, embed_dim H) and the token labels.
  Config config;
};

/// The index file.
struct ModelIndex {
  std::filesystem::path path;     ///< the index file
  std::filesystem::path tensors;  ///< the tensors file it names (resolved against its folder)
  std::string caption;            ///< what to look for; may be empty
  std::vector<std::string> tokens;
  std::vector<LayerInfo> layers;
  /// Generation steps (capture_generation(), format version 2): 0 for one forward pass. Each
  /// layer then names its step; the steps come in order, each holds the same modules called in
  /// the same order with the same sizes (checked by parse_model_index).
  std::int64_t steps = 0;
  /// A vision transformer's image (format version 3): the patch grid and the prefix tokens.
  /// The self-attention layers then have grid.tokens() tokens, labelled "[CLS]", "r0c0", ….
  std::optional<ImageGrid> image;
  /// A weights-only file (format version 4, or plain arrays read by read_weights_file): the
  /// layers hold attention weights and tokens only, no parameters or inputs
  /// (mhaviz/core/model/weights_only.hpp).
  bool weights_only = false;
};

/// The layers whose queries and keys are the image's tokens (self-attention, length
/// image->tokens()), in call order; none without an image.
std::vector<std::size_t> image_layers(const ModelIndex& index);

/// Most steps a generation capture may have.
inline constexpr std::int64_t kMaxSteps = 4096;

/// True when `text` looks like a model index (a JSON object whose "format" is "mhaviz-model"),
/// so a file chooser can tell it from a configuration file. Never throws.
bool is_model_index(std::string_view text);

/// Parses an index (versions 1 to 4; 3 adds an image, 4 is weights-only: weights_only.hpp).
/// `path` is where it came from (messages name it; the tensors file is resolved against its
/// folder). Throws InvalidInput naming the key, the layer and the fix for malformed JSON, a
/// missing or mistyped key, more than kMaxLayers layers, a layer configuration PyTorch would
/// reject, or steps that do not fit (none, a layer without one, out of order, or a step whose
/// calls differ from step 0's in module or sizes).
ModelIndex parse_model_index(std::string_view text, const std::filesystem::path& path);

/// Reads and parses an index file (at most kMaxIndexBytes).
ModelIndex read_model_index(const std::filesystem::path& path);

/// Bytes the loaded model will hold (each layer's stored tensors and computed weights) plus the
/// largest single forward pass, computed from the configurations alone.
std::uint64_t estimate_model_memory(const ModelIndex& index);

/// "layer 3 (encoder.layers.3.self_attn)", with ", call 1" for a module's second call and
/// ", step 2" in a generation capture: how messages and views name a layer.
std::string layer_title(const LayerInfo& layer, std::size_t position);

/// Layer `position` of `index` as its caption would number it: in a generation capture the
/// layer within its step ("layer 0 (blocks.0.attn, step 6)", not the 13th call overall), else
/// its position. layer_number gives the number alone.
std::size_t layer_number(const ModelIndex& index, std::size_t position);
std::string layer_title(const ModelIndex& index, std::size_t position);

/// One call, ready to compute.
struct Layer {
  LayerInfo info;
  Problem problem;  ///< config, state_dict and forward arguments (only config when weights-only)
  Tensor torch_output;  ///< PyTorch's attn_output (empty when weights-only)
  /// PyTorch's attn_output_weights, when it returned them; in a weights-only model the stored
  /// weights, (N, H, L, S), float32 or float64, as the source gave them.
  std::optional<Tensor> torch_weights;
};

struct Model {
  ModelIndex index;
  std::vector<Layer> layers;
  ModelImage image;  ///< the image members when index.image is set
  /// Stated warnings found while reading (a weights-only layer whose rows do not sum to 1):
  /// shown beside the model, never acted on (nothing is renormalised).
  std::vector<std::string> warnings;
};

/// Reads the index, checks the memory estimate (and the tensors file's size) against
/// `memory_limit` before reading any tensor, then reads the tensors file and builds each layer,
/// checking that every member the layer's configuration needs is there, fits it, and that
/// the layer can be computed (mhaviz::validate). Throws InvalidInput naming the layer and
/// the fix.
Model read_model(const std::filesystem::path& index_path,
                 std::uint64_t memory_limit = kDefaultMemoryLimit);

/// How one computed layer compares with what PyTorch returned.
struct LayerCheck {
  double output_diff = 0.0;            ///< largest |mhaviz - PyTorch| over attn_output
  std::optional<double> weights_diff;  ///< the same over attn_output_weights, when stored
  /// The path mhaviz computed (the one PyTorch 2.x takes for the layer's configuration) and,
  /// when the capture recorded it, the path PyTorch took (Config::recorded_path).
  TorchPath path = TorchPath::general;
  std::optional<TorchPath> recorded_path;
  bool ok = true;  ///< both within the tolerance, and the path the one PyTorch took
  /// False for a weights-only layer: nothing was recomputed, so nothing was compared.
  bool checked = true;
  [[nodiscard]] double worst() const { return std::max(output_diff, weights_diff.value_or(0.0)); }
  [[nodiscard]] bool path_agrees() const { return !recorded_path || *recorded_path == path; }
};

/// Compares `result` (forward() of layer.problem) with the layer's stored outputs. NaN in
/// both places agrees; NaN in one only is an infinite difference.
LayerCheck check_layer(const Layer& layer, const ForwardResult& result,
                       double tolerance = kDefaultTolerance);

/// Every layer computed by mhaviz::forward from its captured inputs and checked against PyTorch.
struct ComputedModel {
  std::vector<Tensor> weights;  ///< per layer: ForwardResult::weights (N, H, L, Sx)
  std::vector<LayerCheck> checks;
  std::vector<SinkScores> sinks;  ///< per layer: sink_scores of its result (Gu et al. 2024)
  /// Layers whose difference from PyTorch is above the tolerance.
  [[nodiscard]] std::size_t disagreeing() const;
};

/// Computes the layers one after another, keeping only each one's weights (a weights-only
/// model's layers are not computed: their stored weights are taken as they are, unchecked); `control` is
/// passed to each forward (its progress counts blocks within the current layer). Throws
/// Cancelled when control.cancel is set.
ComputedModel compute_model(const Model& model, double tolerance = kDefaultTolerance,
                            const RunControl& control = {});

/// The sink rate (Gu et al. 2024) of every layer and of the whole model: the share of heads
/// whose first-token sink score exceeds ε, each (batch element, head) pair of each layer one
/// head. `overall` pools the counts of every layer (the mean of the layers' rates when they
/// have the same number of heads and batch elements).
struct ModelSinkRates {
  double eps = kDefaultSinkEps;
  std::vector<SinkRate> per_layer;
  SinkRate overall;
};

/// Throws InvalidInput (check_sink_eps) unless 0 < eps <= 1.
ModelSinkRates sink_rates(const ComputedModel& computed, double eps = kDefaultSinkEps);

/// The positions in index.layers of the calls of generation step `step` (0 to steps - 1), in
/// call order; every layer when the index has no steps and `step` is -1. Throws InvalidInput
/// naming `what` (e.g. "--step") for a step that does not exist.
std::vector<std::size_t> step_layers(const ModelIndex& index, std::int64_t step,
                                     const char* what = "step");

/// The weights of the newest position of a generation step, in every layer of the step: the
/// last query row of each head (with a KV cache, the step's only row), of one batch element.
/// It is the position whose output predicts the token the step generates.
struct StepRows {
  struct Layer {
    std::size_t layer = 0;        ///< position in the model's layers
    std::int64_t heads = 0;       ///< H
    std::int64_t keys = 0;        ///< S (the token columns)
    std::int64_t columns = 0;     ///< S' (with the appended bias_k / zero columns)
    std::vector<double> weights;  ///< heads × columns, row-major (NaN where PyTorch has NaN)
    /// Mean over heads of column k (NaN counted as 0).
    [[nodiscard]] double head_mean(std::int64_t k) const;
    /// The column (appended ones included) with the largest head_mean; the first of equals.
    [[nodiscard]] std::int64_t most_weighted() const;
  };
  std::int64_t step = 0;
  std::int64_t batch = 0;
  std::int64_t position = 0;  ///< the newest position: the key length of the step's first call, − 1
  std::string query;          ///< its label ("" when the index has none)
  std::string generated;      ///< the label of the next position, the token generated ("" if none)
  std::vector<Layer> layers;
};

/// StepRows of `step` from the computed weights (compute_model's, one per model layer). Throws
/// InvalidInput when the model has no steps or `step` / `batch` is out of range, naming `what`.
StepRows step_rows(const Model& model, std::span<const Tensor> weights, std::int64_t step,
                   std::int64_t batch = 0, const char* what = "step");

/// Attention rollout of one batch element (docs/capture-and-models.md).
struct Rollout {
  std::int64_t batch = 0;
  std::int64_t tokens = 0;          ///< S
  std::vector<std::size_t> layers;  ///< the model's self-attention layers used, in order
  std::vector<double> map;          ///< R, tokens × tokens, row-major; rows sum to 1
  std::vector<double> per_token;    ///< mean of each column of R
  std::vector<double> extra_share;  ///< per used layer: weight on appended columns
};

/// Rollout over the model's self-attention layers; in a generation capture, over those of
/// `step` (-1: the last step). `weights[i]` is the computed ForwardResult::weights
/// (N, H, L, Sx) of model layer i (others may be empty tensors). Throws InvalidInput when
/// there is no self-attention layer, their lengths differ, or `batch` or `step` is out of
/// range.
Rollout attention_rollout(const Model& model, std::span<const Tensor> weights,
                          std::int64_t batch = 0, std::int64_t step = -1);

/// Attention flow (Abnar & Zuidema 2020) of one batch element: the layer graph has a node per
/// token and layer (layer 0 the inputs), and an edge from token i of layer l to token j of
/// layer l - 1 whose capacity is Â_l[i][j], the residual-adjusted head-averaged weight of
/// rollout (appended bias_k / zero columns dropped, their share reported). The flow from
/// output token i to input token j is the value of a maximum flow from (top, i) to (0, j)
/// (docs/capture-and-models.md).
struct AttentionFlow {
  std::int64_t batch = 0;
  std::int64_t tokens = 0;          ///< S
  std::vector<std::size_t> layers;  ///< the model's self-attention layers used, in order
  std::vector<double> value;        ///< the maximum flows, tokens × tokens, row-major; in [0, 1]
  std::vector<double> map;          ///< value with each row divided by its sum (the paper's code)
  std::vector<double> per_token;    ///< mean of each column of map
  std::vector<double> extra_share;  ///< per used layer: weight on appended columns
  std::size_t edges = 0;            ///< edges of the layer graph with a non-zero capacity
};

/// The work of attention flow: tokens² maximum flows over layers × tokens² edges each, counted
/// as layers × tokens⁴.
double flow_work(std::size_t layers, std::int64_t tokens);
/// Most work attention_flow takes on: 80 tokens for 12 layers, 149 for 1 (its time against
/// rollout's: mhaviz-flow-bench).
inline constexpr double kMaxFlowWork = 5e8;
/// Most tokens attention_flow takes for `layers` layers.
std::int64_t flow_token_limit(std::size_t layers);

/// Attention flow over the model's self-attention layers (the same layers, steps, checks and
/// messages as attention_rollout). Throws InvalidInput naming `what` (the option or control that
/// asked, e.g. "--flow") with the limit when flow_work exceeds kMaxFlowWork; Cancelled when
/// control.cancel is set. Rows are solved on control.threads threads; control.progress counts
/// the rows done.
AttentionFlow attention_flow(const Model& model, std::span<const Tensor> weights,
                             std::int64_t batch = 0, std::int64_t step = -1,
                             const char* what = "attention flow", const RunControl& control = {});

}  // namespace mhaviz::model
