#pragma once
/// \file
/// Weights-only models: attention weights that were computed elsewhere (a Hugging Face model's
/// `outputs.attentions`, a NumPy or JAX computation), with their tokens and optional structure
/// (encoder / decoder / cross-attention groups, generation steps, grouped-query heads), but no
/// parameters or inputs (docs/capture-and-models.md, "Weights-only model files"). They come as
/// a model file of version 4 (read_model) or as plain arrays in an .npz / .safetensors file
/// (read_weights_file). Nothing is recomputed: the model view, rollout, attention flow, the sink
/// scores and the token views read the stored weights; what needs Q, K, V or the parameters is
/// not available.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/model/model.hpp"
#include "mhaviz/core/plan/memory.hpp"

namespace mhaviz::model {

/// Largest |row sum − 1| of stored weights that is not reported (softmax rows in float32).
inline constexpr double kRowSumTolerance = 1e-3;

/// The layer groups of an encoder-decoder model, as Hugging Face names its outputs
/// (encoder_attentions, decoder_attentions, cross_attentions); "" is one stack of layers.
bool is_weights_group(const std::string& group);

/// The configuration a weights-only layer of weights shape (N, H, L, S) stands for: num_heads H,
/// embed_dim H (head_dim 1; there are no projections), tgt_len L, src_len S, batch_size N, eval
/// mode, float32 or float64 as the weights.
Config weights_config(std::int64_t N, std::int64_t H, std::int64_t L, std::int64_t S,
                      ElemType type);

/// Checks the stored weights of one layer and returns them as (N, H, L, S) (a rank-3 array is
/// one batch element). Throws InvalidInput, prefixed with `where`, for another rank, an element
/// type that is not float32 / float64, an empty dimension, a NaN, an infinity or a negative
/// weight (naming its place). Returns in `warning` (empty when none) one line when rows do not
/// sum to 1 within kRowSumTolerance: they are kept as they are, never renormalised.
Tensor checked_weights(const Tensor& weights, const std::string& where, std::string& warning);

/// Checks the layers of a weights-only model against each other and their labels, after their
/// configurations are set: lengths that disagree with the tokens, ragged layers (a group whose
/// layers differ in heads or batch), num_key_value_heads that does not divide the heads.
/// Labels each layer from index.tokens (and `target_tokens`, the decoder's tokens, for the
/// "decoder" and "cross" groups) where the layer has none of its own. Throws InvalidInput.
void check_weights_layers(ModelIndex& index, const std::vector<std::string>& target_tokens = {});

/// A weights-only layer as a ForwardResult holding only the weights stage, so that the heatmap
/// grid, the head view, the text view, the head measures (without ablation) and the sink scores
/// draw and compute it as a pass's result. q, k and v have no columns ((N, H, L, 0), so that it
/// is not a reduced result); the outputs are empty; there is no mask.
ForwardResult weights_result(const Layer& layer);

/// How the weights of two models differ, layer by layer and head by head (compare B with A):
/// the largest and the mean |B − A| over the queries and keys of one batch element.
struct WeightsDifference {
  std::int64_t batch = 0;
  std::vector<std::vector<double>> largest;  ///< [layer][head]
  std::vector<std::vector<double>> mean;     ///< [layer][head]
  double worst = 0.0;                        ///< the largest of all
  std::size_t worst_layer = 0;
  std::int64_t worst_head = 0;
};

/// Compares the weights `b` of model `mb` with the weights `a` of model `ma` (compute_model's,
/// one per layer; stored or computed alike) for batch element `batch`. Throws InvalidInput,
/// naming `what` (e.g. "--compare-with A.json"), when the layer counts or a layer's shape differ
/// (saying which part differs: the batch elements, the heads or the lengths, and the fix) or the
/// batch element does not exist; Cancelled once `cancel` (may be null) reads true.
WeightsDifference weights_difference(const Model& ma, std::span<const Tensor> a, const Model& mb,
                                     std::span<const Tensor> b, std::int64_t batch,
                                     const std::string& what,
                                     const std::atomic<bool>* cancel = nullptr);

/// What a comparison of model B (`mb`) with model A (`ma`) says besides the numbers, one line
/// each (none: empty): the tokens, where both have them at the same positions but they differ
/// ("the tokens differ at 2 of 6 positions (first at position 3: \"cat\" in A, \"dog\" in B);
/// the maps are compared position by position"), or where only one model has tokens; and the
/// layers whose names differ (layers are compared by their position). Never throws.
std::vector<std::string> comparison_notes(const Model& ma, const Model& mb);

/// Options of read_weights_file.
struct WeightsFileOptions {
  std::vector<std::string> tokens;         ///< labels of the (encoder's) positions; may be empty
  std::vector<std::string> target_tokens;  ///< the decoder's, for decoder and cross layers
  std::int64_t kv_heads = 0;               ///< num_key_value_heads of every layer; 0: none
  std::string caption;
};

/// Reads plain attention weights from an .npz or .safetensors file as a weights-only model:
/// one array per layer (rank 3 or 4), taken in the order of the numbers in their names
/// ("attentions.10" after "attentions.9"), or one stacked array (layers, [batch,] heads, L, S).
/// Members named like Hugging Face's outputs ("encoder_attentions.0", "decoder_attentions.1",
/// "cross_attentions.0", or "encoder_attentions" stacked) form those groups; cross-attention
/// layers are not self-attention. Checks the file's size against `memory_limit` before reading
/// it. Throws InvalidInput naming the member and the fix.
Model read_weights_file(const std::filesystem::path& path, const WeightsFileOptions& options,
                        std::uint64_t memory_limit = kDefaultMemoryLimit);

/// Whether `path` names a model index (".json", in any case) rather than plain arrays of attention
/// weights: the rule by which read_any_model, the window's File > Open and compare tell them apart.
bool names_model_index(const std::filesystem::path& path);

/// Reads the model `path` names: a model index with read_model, anything else as attention weights
/// with read_weights_file and `options` (names_model_index).
Model read_any_model(const std::filesystem::path& path, const WeightsFileOptions& options,
                     std::uint64_t memory_limit = kDefaultMemoryLimit);

/// Builds a weights-only model from named arrays, as read_weights_file does after reading
/// (`source` names the file in messages).
Model weights_model(io::TensorMap tensors, const WeightsFileOptions& options,
                    const std::filesystem::path& source,
                    std::uint64_t memory_limit = kDefaultMemoryLimit);

}  // namespace mhaviz::model
