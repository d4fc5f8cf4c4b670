#pragma once
/// \file
/// The whole configuration of one nn.MultiheadAttention forward pass, as one copyable value.
/// Field names are PyTorch's argument names (constructor, forward, and the training flag).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mhaviz/core/spec/gen_specs.hpp"

namespace mhaviz {

/// Element type of the computation (torch.float32 or torch.float64).
enum class DType : std::uint8_t { float32, float64 };
std::string_view to_string(DType dtype);

/// Which PyTorch version's behaviour the forward pass follows where versions disagree
/// (docs/semantics.md, "Version differences"): 2.x (the default) or 1.13.
enum class Semantics : std::uint8_t { v2, v1_13 };
/// "2.x" or "1.13", the configuration file's spelling.
std::string_view to_string(Semantics semantics);

/// PyTorch's grad mode around the call (config key "grad_mode"): with grad disabled PyTorch
/// 2.x may take its fast path (docs/semantics.md, "The three paths of PyTorch 2.x").
enum class GradMode : std::uint8_t {
  enabled,         ///< the default: a script without torch.no_grad()
  no_grad,         ///< inside torch.no_grad()
  inference_mode,  ///< inside torch.inference_mode()
};
/// "enabled", "no_grad" or "inference_mode", the configuration file's spelling.
std::string_view to_string(GradMode mode);

/// The three paths of PyTorch 2.x's MultiheadAttention (mhaviz/core/spec/torch_path.hpp, which
/// decides between them).
enum class TorchPath : std::uint8_t {
  general,  ///< F.multi_head_attention_forward with need_weights=True: the steps as written
  sdpa,     ///< need_weights=False: F.scaled_dot_product_attention
  fast,     ///< torch._native_multi_head_attention (eval, grad disabled, self-attention, ...)
};

struct Config {
  // --- nn.MultiheadAttention(embed_dim, num_heads, dropout, bias, add_bias_kv,
  //                           add_zero_attn, kdim, vdim, batch_first)
  std::int64_t embed_dim = 16;
  std::int64_t num_heads = 2;
  double dropout = 0.0;
  bool bias = true;
  bool add_bias_kv = false;
  bool add_zero_attn = false;
  std::optional<std::int64_t> kdim;  ///< None means embed_dim
  std::optional<std::int64_t> vdim;  ///< None means embed_dim
  bool batch_first = false;

  // --- forward(query, key, value, key_padding_mask, need_weights, attn_mask,
  //             average_attn_weights, is_causal)
  bool need_weights = true;
  bool average_attn_weights = true;
  bool is_causal = false;  ///< PyTorch 2.x hint; requires attn_mask

  // --- beyond nn.MultiheadAttention: Gemma 2's soft-cap of the attention logits. When set,
  //     the scaled raw scores s become cap * tanh(s / cap) BEFORE the mask is added
  //     (config key "attn_logit_softcapping", as Gemma 2's configuration names it).
  std::optional<double> attn_logit_softcapping;  ///< None: no cap; else > 0

  // --- the call's context: module.train() / module.eval() and the grad mode. The defaults
  //     are a fresh module called in a script: training, grad enabled.
  bool training = true;
  GradMode grad_mode = GradMode::enabled;  ///< config key "grad_mode"
  /// The path PyTorch 2.x took for a captured call, as the capture saw it (config key
  /// "torch_path", written by mhaviz_capture); torch_path() warns when the configuration
  /// leads to another one. None: not recorded.
  std::optional<TorchPath> recorded_path;

  DType dtype = DType::float32;
  Semantics semantics = Semantics::v2;  ///< config key "semantics": "2.x" or "1.13"

  // --- input sizes
  std::optional<std::int64_t> batch_size = 1;  ///< N; None means unbatched 2-D input
  std::int64_t tgt_len = 8;                    ///< L
  std::int64_t src_len = 8;                    ///< S

  // --- seeds for what is generated when no tensor is given
  std::uint64_t seed = 0;                     ///< parameters (PyTorch's init scheme)
  std::optional<std::uint64_t> input_seed;    ///< query/key/value; None means seed + 1
  std::optional<std::uint64_t> dropout_seed;  ///< dropout mask; None means seed + 2

  // --- how masks, inputs and parameters are generated when no tensor is given (mhaviz::gen,
  //     docs/config.md); the defaults generate no masks, normal inputs and PyTorch's init
  gen::AttnMaskSpec attn_mask_spec;       ///< config key "attn_mask"
  gen::KeyPaddingSpec key_padding_spec;   ///< config key "key_padding_mask"
  gen::InputSpec input_spec;              ///< config key "inputs"
  gen::WeightSpec weight_spec;            ///< config key "weights"
  std::vector<std::string> query_labels;  ///< one per query position (L), or empty for none
  std::vector<std::string> key_labels;    ///< one per key position (S), or empty for none

  [[nodiscard]] std::int64_t head_dim() const { return num_heads > 0 ? embed_dim / num_heads : 0; }
  [[nodiscard]] std::int64_t k_dim() const { return kdim.value_or(embed_dim); }
  [[nodiscard]] std::int64_t v_dim() const { return vdim.value_or(embed_dim); }
  /// True when PyTorch packs q/k/v into one in_proj_weight (kdim == vdim == embed_dim).
  [[nodiscard]] bool packed_projection() const {
    return k_dim() == embed_dim && v_dim() == embed_dim;
  }
  [[nodiscard]] bool batched() const { return batch_size.has_value(); }
  /// Number of batch elements the computation runs over (1 when unbatched).
  [[nodiscard]] std::int64_t batch() const { return batch_size.value_or(1); }
  /// S, the keys entering the score step before any append: src_len, or static_k's length when
  /// static_k is given (`static_src_len` >= 0).
  [[nodiscard]] std::int64_t source_keys(std::int64_t static_src_len = -1) const {
    return static_src_len >= 0 ? static_src_len : src_len;
  }
  /// The key columns appended after the source keys: one for the bias_k row of add_bias_kv and
  /// one for the zero row of add_zero_attn (docs/semantics.md), so 0, 1 or 2.
  [[nodiscard]] std::int64_t appended_keys() const {
    return (add_bias_kv ? 1 : 0) + (add_zero_attn ? 1 : 0);
  }
  /// S′, the key columns of the scores and weights for `keys` source keys (S): keys +
  /// appended_keys().
  [[nodiscard]] std::int64_t key_columns(std::int64_t keys) const { return keys + appended_keys(); }
  /// Bytes of one element of the computation's dtype.
  [[nodiscard]] std::uint64_t element_bytes() const { return dtype == DType::float64 ? 8 : 4; }
  [[nodiscard]] std::uint64_t input_seed_or_default() const {
    return input_seed.value_or(seed + 1);
  }
  [[nodiscard]] std::uint64_t dropout_seed_or_default() const {
    return dropout_seed.value_or(seed + 2);
  }

  bool operator==(const Config&) const = default;
};

/// Throws InvalidInput for a configuration PyTorch would reject at construction or forward
/// time regardless of tensors (non-positive sizes, divisibility, dropout range).
void validate_config(const Config& config);

}  // namespace mhaviz
