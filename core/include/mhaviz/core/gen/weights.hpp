#pragma once
/// \file
/// Parameters generated: PyTorch's initialisation (init_params) or made from Config::weight_spec.

#include "mhaviz/core/spec/config.hpp"
#include "mhaviz/core/spec/params.hpp"

namespace mhaviz {

/// Parameters drawn with PyTorch's initialisation scheme from config.seed (the generator is
/// ours, not torch's): xavier_uniform in-projections, zero biases, xavier_normal bias_k/v,
/// kaiming_uniform(a=sqrt(5)) out_proj.weight. Element type follows config.dtype.
Params init_params(const Config& config);

}  // namespace mhaviz

namespace mhaviz::gen {

/// The state_dict entries of the config (see Params), in config.dtype.
/// default_init: init_params(config), every tensor times weight_spec.scale.
/// identity: every projection matrix is scale * I — packed in_proj_weight is three stacked
/// identities; k_proj_weight (E, kdim) and v_proj_weight (E, vdim) are truncated / zero-padded
/// identities (entry (r, c) is scale when r == c), so projected keys are the first min(E, kdim)
/// key features followed by zeros; out_proj.weight is scale * I; in_proj_bias, out_proj.bias,
/// bias_k and bias_v are zero. Throws InvalidInput for a non-finite or negative scale.
Params make_params(const Config& config);

/// Throws InvalidInput when weight_spec cannot be used ("weights.scale ...").
void check_weight_spec(const Config& config);

}  // namespace mhaviz::gen
