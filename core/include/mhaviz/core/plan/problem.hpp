#pragma once
/// \file
/// Everything one forward pass needs: the config, the parameters and the forward arguments,
/// generated from the config and overridden by the tensors a user supplies.

#include <array>
#include <string>
#include <string_view>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/inputs.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz {

struct Problem {
  Config config;
  Params params;
  Inputs inputs;
};

/// Forward argument names a tensors file may hold besides the state_dict keys.
inline constexpr std::array<std::string_view, 7> kInputTensorNames = {
    "query", "key", "value", "attn_mask", "key_padding_mask", "static_k", "static_v"};

/// Validates the config (validate_config, gen::check_labels), generates parameters
/// (gen::make_params), inputs (gen::make_inputs) and masks (gen::make_attn_mask,
/// gen::make_key_padding_mask) from its generation settings, then replaces each one named in
/// `tensors` (PyTorch's names: the forward arguments in kInputTensorNames and the state_dict
/// keys in kStateDictKeys). A mask given in `tensors` is used instead of the generated one and
/// its settings are not checked.
///
/// Floating tensors are converted to config.dtype; masks keep bool (and uint8, which validate()
/// rejects with PyTorch's message). Throws InvalidInput, starting with `source_name`, for an
/// unknown name (listing the accepted ones), a state_dict entry this config does not have
/// (saying which setting would use it), a non-floating parameter or query/key/value/static_k/v,
/// or a parameter or query/key/value whose shape disagrees with the config (naming both
/// shapes). Mask and static_k/v shapes are left to validate().
Problem make_problem(const Config& config, const io::TensorMap& tensors = {},
                     std::string_view source_name = "tensors");

/// The problem the long-context pass (reduced_weights) computes from: make_problem's, with the
/// same checks, except that an attn_mask generated from a pattern (causal, window, band, block,
/// prefix_lm, document, dilated, sink: gen::MaskPattern) and not given in `tensors` is left
/// out; reduced_weights reads its rows from the config as it needs them (a 32768-token causal
/// mask would hold 1 GiB). Other masks are made as make_problem makes them.
Problem make_reduced_problem(const Config& config, const io::TensorMap& tensors = {},
                             std::string_view source_name = "tensors");

/// What a user should hear about NaN or infinite values in `tensors` (PyTorch propagates
/// them into every output they reach; mhaviz computes the same NaNs), or an empty string when
/// every value is usable. Masks may hold -inf (masked); NaN and +inf in a mask are reported.
/// One line starting with `source_name`, naming each tensor and its count of bad values.
std::string nonfinite_warning(const io::TensorMap& tensors, std::string_view source_name);

}  // namespace mhaviz
