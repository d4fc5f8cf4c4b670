#include "mhaviz/core/spec/config.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "mhaviz/core/base/errors.hpp"

namespace mhaviz {

std::string_view to_string(DType dtype) { return dtype == DType::float64 ? "float64" : "float32"; }

std::string_view to_string(Semantics semantics) {
  return semantics == Semantics::v1_13 ? "1.13" : "2.x";
}

std::string_view to_string(GradMode mode) {
  switch (mode) {
    case GradMode::no_grad:
      return "no_grad";
    case GradMode::inference_mode:
      return "inference_mode";
    case GradMode::enabled:
      break;
  }
  return "enabled";
}

namespace {
std::string num(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
void require_positive(std::int64_t value, const char* name, const char* hint) {
  if (value < 1) {
    throw InvalidInput(std::string(name) + " must be at least 1, got " + std::to_string(value) +
                       hint);
  }
}
}  // namespace

void validate_config(const Config& c) {
  // nn.MultiheadAttention.__init__ (PyTorch 2.x)
  if (c.embed_dim <= 0 || c.num_heads <= 0) {
    throw InvalidInput("embed_dim and num_heads must be greater than 0, got embed_dim=" +
                       std::to_string(c.embed_dim) +
                       " and num_heads=" + std::to_string(c.num_heads) + " instead");
  }
  if (c.embed_dim % c.num_heads != 0) {
    throw InvalidInput("embed_dim must be divisible by num_heads (embed_dim=" +
                       std::to_string(c.embed_dim) + ", num_heads=" + std::to_string(c.num_heads) +
                       "); choose num_heads among the divisors of embed_dim");
  }
  if (c.kdim) require_positive(*c.kdim, "kdim", " (or None for embed_dim)");
  if (c.vdim) require_positive(*c.vdim, "vdim", " (or None for embed_dim)");
  // F.dropout
  if (!(c.dropout >= 0.0 && c.dropout <= 1.0)) {
    throw InvalidInput("dropout probability has to be between 0 and 1, but got " + num(c.dropout));
  }
  if (c.batch_size) require_positive(*c.batch_size, "batch_size", " (or None for unbatched input)");
  require_positive(c.tgt_len, "tgt_len (L)", "");
  require_positive(c.src_len, "src_len (S)", "");
  if (c.attn_logit_softcapping &&
      !(std::isfinite(*c.attn_logit_softcapping) && *c.attn_logit_softcapping > 0.0)) {
    throw InvalidInput(
        "attn_logit_softcapping must be a positive number (the cap c of "
        "c * tanh(score / c), e.g. 50 as in Gemma 2), got " +
        num(*c.attn_logit_softcapping) + "; set it to null to turn the cap off");
  }
}

}  // namespace mhaviz
