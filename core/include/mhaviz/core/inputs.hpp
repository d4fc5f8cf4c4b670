#pragma once
/// \file
/// The forward call's tensor arguments.

#include <optional>

#include "mhaviz/core/config.hpp"
#include "mhaviz/core/tensor.hpp"

namespace mhaviz {

/// query/key/value in PyTorch's layout for the config: (L,N,E)/(S,N,kdim)/(S,N,vdim), or
/// (N,L,E)/... when batch_first, or (L,E)/(S,kdim)/(S,vdim) when unbatched.
/// Masks: attn_mask bool or float, (L,S) or (N*H,L,S) ((H,L,S) unbatched; True = masked);
/// key_padding_mask bool or float, (N,S) or (S). static_k/static_v: (N*H,S',hd).
struct Inputs {
  Tensor query;
  Tensor key;
  Tensor value;
  std::optional<Tensor> attn_mask;
  std::optional<Tensor> key_padding_mask;
  std::optional<Tensor> static_k;
  std::optional<Tensor> static_v;
};

/// Standard-normal query/key/value of the config's shapes from config.input_seed, in
/// config.dtype. Self-attention inputs are not implied: key and value are drawn separately.
Inputs random_inputs(const Config& config);

}  // namespace mhaviz
