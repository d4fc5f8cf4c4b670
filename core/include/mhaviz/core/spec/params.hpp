#pragma once
/// \file
/// The module's parameters under their state_dict names and shapes.

#include <array>
#include <optional>
#include <string_view>

#include "mhaviz/core/base/tensor.hpp"
#include "mhaviz/core/spec/config.hpp"

namespace mhaviz {

/// nn.MultiheadAttention's state_dict. Which entries exist depends on the config:
/// packed `in_proj_weight` (3E,E) when kdim == vdim == E, else `q/k/v_proj_weight`
/// (E,E), (E,kdim), (E,vdim); `in_proj_bias` (3E) and `out_proj.bias` (E) when bias;
/// `bias_k`, `bias_v` (1,1,E) when add_bias_kv; `out_proj.weight` (E,E) always.
struct Params {
  std::optional<Tensor> in_proj_weight;
  std::optional<Tensor> q_proj_weight;
  std::optional<Tensor> k_proj_weight;
  std::optional<Tensor> v_proj_weight;
  std::optional<Tensor> in_proj_bias;
  std::optional<Tensor> bias_k;
  std::optional<Tensor> bias_v;
  std::optional<Tensor> out_proj_weight;  ///< state_dict key "out_proj.weight"
  std::optional<Tensor> out_proj_bias;    ///< state_dict key "out_proj.bias"

  /// The entry for a state_dict key ("out_proj.weight" etc.); nullptr for an unknown key.
  std::optional<Tensor>* find(std::string_view key);
  const std::optional<Tensor>* find(std::string_view key) const;
};

/// Every state_dict key in PyTorch's order.
inline constexpr std::array<std::string_view, 9> kStateDictKeys = {
    "in_proj_weight", "q_proj_weight", "k_proj_weight",   "v_proj_weight", "in_proj_bias",
    "bias_k",         "bias_v",        "out_proj.weight", "out_proj.bias"};

/// Expected shape of a state_dict entry under this config, or nullopt when the config has
/// no such entry.
std::optional<Shape> expected_param_shape(const Config& config, std::string_view key);

}  // namespace mhaviz
