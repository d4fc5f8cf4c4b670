#pragma once
// Sizes of one forward pass, read off validated tensors (internal to the core).

#include <cstdint>

#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz::detail {

struct Dims {
  bool batched = true;
  std::int64_t N = 1;   // batch elements (1 when unbatched)
  std::int64_t L = 0;   // target length
  std::int64_t S = 0;   // keys entering the score step before appends (static_k's when given)
  std::int64_t Sx = 0;  // keys after add_bias_kv / add_zero_attn
  std::int64_t E = 0;
  std::int64_t H = 0;
  std::int64_t hd = 0;
  std::int64_t kdim = 0;
  std::int64_t vdim = 0;
};

/// An attn_mask's element type and shape, for a mask that is described rather than held.
struct MaskLayout {
  ElemType type = ElemType::boolean;
  Shape shape;
};

/// Checks everything PyTorch checks (with its messages) and returns the sizes. Without
/// inputs.attn_mask, `generated_attn_mask` (when not null) stands for the attn_mask a pattern
/// generates row by row (the long-context pass), checked as a tensor of that layout would be.
Dims validated_dims(const Config& config, const Params& params, const Inputs& inputs,
                    const MaskLayout* generated_attn_mask = nullptr);

}  // namespace mhaviz::detail
