#pragma once
/// \file
/// The forward call's tensor arguments.

#include <optional>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/spec/config.hpp"

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

}  // namespace mhaviz
