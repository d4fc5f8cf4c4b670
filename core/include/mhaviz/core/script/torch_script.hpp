#pragma once
// The PyTorch reproduction written by `mhaviz-cli torch`: a Python script and the data file
// beside it holding exactly what mhaviz computed from, and what it got.

#include <string>

#include "mhaviz/core/base/tensor_map.hpp"
#include "mhaviz/core/forward/result.hpp"
#include "mhaviz/core/plan/problem.hpp"

namespace mhaviz {

/// The data file: the state_dict entries and forward arguments of `problem` under PyTorch's
/// names (masks keep their bool/float type), plus mhaviz's return values as
/// "mhaviz.attn_output" and, when need_weights, "mhaviz.attn_output_weights".
io::TensorMap torch_data(const Problem& problem, const ForwardResult& result);

/// The Python script, made by mhaviz `version` (named in its header). It builds
/// nn.MultiheadAttention(config's arguments), loads the state_dict and inputs from `data_file_name`
/// (looked up beside the script), runs forward with grad enabled (train mode only when
/// config.training), and compares attn_output and attn_output_weights with mhaviz's (float32: rtol
/// 1e-4, atol 1e-5; float64: 1e-10; NaN in the same places), printing "OK: matches mhaviz" and
/// exiting 0 on success. With dropout > 0 in training mode it compares shapes only and says why.
/// Works with PyTorch 1.13 and 2.x: is_causal is passed only where forward() has it;
/// static_k/static_v go through F.multi_head_attention_forward with the module's parameters.
std::string torch_script(const Config& config, const io::TensorMap& data,
                         const std::string& data_file_name, const std::string& script_file_name,
                         const std::string& version);

}  // namespace mhaviz
