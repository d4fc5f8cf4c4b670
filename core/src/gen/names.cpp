#include "mhaviz/core/spec/gen_specs.hpp"

namespace mhaviz::gen {

std::string_view to_string(MaskKind kind) {
  switch (kind) {
    case MaskKind::none:
      return "none";
    case MaskKind::causal:
      return "causal";
    case MaskKind::window:
      return "window";
    case MaskKind::band:
      return "band";
    case MaskKind::block:
      return "block";
    case MaskKind::random:
      return "random";
    case MaskKind::custom:
      return "custom";
    case MaskKind::alibi:
      return "alibi";
    case MaskKind::graph:
      return "graph";
    case MaskKind::prefix_lm:
      return "prefix_lm";
    case MaskKind::document:
      return "document";
    case MaskKind::dilated:
      return "dilated";
    case MaskKind::sink:
      return "sink";
  }
  return "none";
}

std::string_view to_string(MaskDType dtype) {
  return dtype == MaskDType::floating ? "float" : "bool";
}

std::string_view to_string(MaskShape shape) { return shape == MaskShape::three_d ? "3d" : "2d"; }

std::string_view to_string(GraphBias bias) {
  return bias == GraphBias::table ? "table" : "distance";
}

std::string_view to_string(PaddingKind kind) {
  switch (kind) {
    case PaddingKind::none:
      return "none";
    case PaddingKind::lengths:
      return "lengths";
    case PaddingKind::keys:
      return "keys";
  }
  return "none";
}

std::string_view to_string(InputKind kind) {
  switch (kind) {
    case InputKind::random:
      return "random";
    case InputKind::one_hot:
      return "one_hot";
    case InputKind::sinusoidal:
      return "sinusoidal";
  }
  return "random";
}

std::string_view to_string(WeightKind kind) {
  return kind == WeightKind::identity ? "identity" : "default";
}

}  // namespace mhaviz::gen
