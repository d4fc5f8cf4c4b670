// Validation before any computation: F.multi_head_attention_forward's checks (and
// _mha_shape_check's, _canonical_mask's), in PyTorch 2.x's order and wording.
#include <string>

#include "dims.hpp"
#include "mhaviz/core/base/errors.hpp"
#include "mhaviz/core/forward/forward.hpp"
#include "mhaviz/core/spec/semantics.hpp"
#include "path_call.hpp"

namespace mhaviz {

namespace {

[[noreturn]] void fail(const std::string& message) { throw InvalidInput(message); }

std::string dims_of(const Tensor& t, std::int64_t from, std::int64_t to) {
  Shape s(t.shape().begin() + from, t.shape().begin() + to);
  return shape_str(s);
}

void check_param(const Config& c, const Params& p, std::string_view key) {
  const auto* entry = p.find(key);
  const auto expected = expected_param_shape(c, key);
  const std::string name(key);
  if (expected && !(*entry)) {
    fail("parameter " + name + " is missing; this config needs it with shape " +
         shape_str(*expected));
  }
  if (!expected && *entry) {
    fail("parameter " + name + " is given but this config does not use it (" +
         (key == "bias_k" || key == "bias_v" ? std::string("add_bias_kv=False")
          : key == "in_proj_bias" || key == "out_proj.bias"
              ? std::string("bias=False")
              : std::string("packed projection depends on kdim == vdim == embed_dim")) +
         ")");
  }
  if (expected && (*entry)->shape() != *expected) {
    fail("parameter " + name + " has shape " + shape_str((*entry)->shape()) +
         " but this config needs " + shape_str(*expected));
  }
  if (*entry && !(*entry)->is_floating()) {
    fail("parameter " + name + " must be floating point, got " +
         std::string(to_string((*entry)->type())));
  }
}

void check_mask_dtype(ElemType type, const char* name) {
  if (type != ElemType::boolean && type != ElemType::f32 && type != ElemType::f64) {
    fail(std::string("only bool and floating types of ") + name + " are supported (got " +
         std::string(to_string(type)) +
         "; uint8 masks were deprecated in PyTorch 1.13: convert with mask.bool())");
  }
}

void check_input_dims(const Inputs& in) {
  const std::int64_t qd = in.query.dim();
  if (qd == 3) {
    if (in.key.dim() != 3 || in.value.dim() != 3) {
      fail("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found " +
           std::to_string(in.key.dim()) + "-D and " + std::to_string(in.value.dim()) +
           "-D tensors respectively");
    }
    if (in.key_padding_mask && in.key_padding_mask->dim() != 2) {
      fail(
          "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
          "found " +
          std::to_string(in.key_padding_mask->dim()) + "-D tensor instead");
    }
    if (in.attn_mask && in.attn_mask->dim() != 2 && in.attn_mask->dim() != 3) {
      fail(
          "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
          "found " +
          std::to_string(in.attn_mask->dim()) + "-D tensor instead");
    }
  } else if (qd == 2) {
    if (in.key.dim() != 2 || in.value.dim() != 2) {
      fail("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found " +
           std::to_string(in.key.dim()) + "-D and " + std::to_string(in.value.dim()) +
           "-D tensors respectively");
    }
    if (in.key_padding_mask && in.key_padding_mask->dim() != 1) {
      fail(
          "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but "
          "found " +
          std::to_string(in.key_padding_mask->dim()) + "-D tensor instead");
    }
    if (in.attn_mask && in.attn_mask->dim() != 2 && in.attn_mask->dim() != 3) {
      fail(
          "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
          "found " +
          std::to_string(in.attn_mask->dim()) + "-D tensor instead");
    }
  } else {
    fail("query should be unbatched 2D or batched 3D tensor but received " + std::to_string(qd) +
         "D query tensor");
  }
  for (const Tensor* t : {&in.query, &in.key, &in.value}) {
    if (!t->is_floating()) fail("query, key and value must be floating point tensors");
  }
}

void check_static(const std::optional<Tensor>& t, const char* name, const char* what,
                  bool add_bias_kv, const detail::Dims& d) {
  if (!t) return;
  const std::string n(name);
  if (add_bias_kv) fail(std::string("bias cannot be added to static ") + what + ".");
  if (t->dim() != 3)
    fail(n + " must be 3-D (N*H, S, head_dim), got shape " + shape_str(t->shape()));
  if (t->size(0) != d.N * d.H) {
    fail("expecting " + n + ".size(0) of " + std::to_string(d.N * d.H) + ", but got " +
         std::to_string(t->size(0)));
  }
  if (t->size(2) != d.hd) {
    fail("expecting " + n + ".size(2) of " + std::to_string(d.hd) + ", but got " +
         std::to_string(t->size(2)));
  }
  if (!t->is_floating()) fail(n + " must be a floating point tensor");
}

}  // namespace

detail::Dims detail::validated_dims(const Config& c, const Params& p, const Inputs& in,
                                    const MaskLayout* generated_attn_mask) {
  validate_config(c);
  check_input_dims(in);
  Dims d;
  d.batched = in.query.dim() == 3;
  d.E = c.embed_dim;
  d.H = c.num_heads;
  d.hd = c.head_dim();
  d.kdim = c.k_dim();
  d.vdim = c.v_dim();
  const bool bf = d.batched && c.batch_first;
  const auto seq = [&](const Tensor& t) { return t.size(bf ? 1 : 0); };
  d.L = seq(in.query);
  const std::int64_t S = seq(in.key);
  d.N = d.batched ? in.query.size(bf ? 0 : 1) : 1;

  if (d.batched != c.batched()) {
    fail(std::string("query is ") + (d.batched ? "batched (3-D)" : "unbatched (2-D)") +
         " but the config says batch_size=" +
         (c.batch_size ? std::to_string(*c.batch_size) : std::string("None (unbatched)")));
  }
  if (in.query.size(-1) != d.E) {
    fail("was expecting embedding dimension of " + std::to_string(d.E) + ", but got " +
         std::to_string(in.query.size(-1)));
  }
  if (c.packed_projection()) {
    if (in.key.shape() != in.value.shape()) {
      fail("key shape " + shape_str(in.key.shape()) + " does not match value shape " +
           shape_str(in.value.shape()));
    }
  } else if (dims_of(in.key, 0, in.key.dim() - 1) != dims_of(in.value, 0, in.value.dim() - 1)) {
    fail("key's sequence and batch dims " + dims_of(in.key, 0, in.key.dim() - 1) +
         " do not match value's " + dims_of(in.value, 0, in.value.dim() - 1));
  }
  if (d.batched && in.key.size(bf ? 0 : 1) != d.N) {
    fail("key has batch size " + std::to_string(in.key.size(bf ? 0 : 1)) +
         " but query has batch size " + std::to_string(d.N));
  }
  if (in.key.size(-1) != d.kdim) {
    fail("key has " + std::to_string(in.key.size(-1)) +
         " features but kdim=" + std::to_string(d.kdim) + "; set kdim to the key's last dimension");
  }
  if (in.value.size(-1) != d.vdim) {
    fail("value has " + std::to_string(in.value.size(-1)) + " features but vdim=" +
         std::to_string(d.vdim) + "; set vdim to the value's last dimension");
  }
  for (std::string_view key : kStateDictKeys) check_param(c, p, key);

  // The attn_mask as its element type and shape: the tensor's, or the one a pattern would
  // generate (never held in full by the long-context pass).
  std::optional<MaskLayout> mask;
  if (in.attn_mask) {
    mask = MaskLayout{in.attn_mask->type(), in.attn_mask->shape()};
  } else if (generated_attn_mask != nullptr) {
    mask = *generated_attn_mask;
  }
  if (c.is_causal && !mask) {
    fail(
        "Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
        "method `generate_square_subsequent_mask` to create this mask.");
  }
  if (mask) {
    const Shape& shape = mask->shape;
    const auto dim = static_cast<std::int64_t>(shape.size());
    check_mask_dtype(mask->type, "attn_mask");
    if (dim == 2 && shape != Shape{d.L, S}) {
      fail("The shape of the 2D attn_mask is " + shape_str(shape) + ", but should be " +
           shape_str({d.L, S}) + ".");
    }
    if (dim == 3 && !d.batched && shape != Shape{d.H, d.L, S}) {
      fail("Expected `attn_mask` shape to be " + shape_str({d.H, d.L, S}) + " but got " +
           shape_str(shape));
    }
    if (dim == 3 && shape != Shape{d.N * d.H, d.L, S}) {
      fail("The shape of the 3D attn_mask is " + shape_str(shape) + ", but should be " +
           shape_str({d.N * d.H, d.L, S}) + ".");
    }
  }
  check_static(in.static_k, "static_k", "key", c.add_bias_kv, d);
  check_static(in.static_v, "static_v", "value", c.add_bias_kv, d);
  d.S = in.static_k ? in.static_k->size(1) : S;
  const std::int64_t Sv = in.static_v ? in.static_v->size(1) : S;
  if (Sv != d.S) {
    fail("keys and values must have the same length after static_k/static_v, got " +
         std::to_string(d.S) + " keys and " + std::to_string(Sv) + " values");
  }
  if (mask && d.S != S) {
    fail("attn_mask has " + std::to_string(S) + " key columns but static_k has " +
         std::to_string(d.S) + " keys; give a mask with " + std::to_string(d.S) + " columns");
  }
  if (in.key_padding_mask) {
    const Tensor& m = *in.key_padding_mask;
    check_mask_dtype(m.type(), "key_padding_mask");
    const Shape want = d.batched ? Shape{d.N, d.S} : Shape{d.S};
    if (m.shape() != want) {
      fail("expecting key_padding_mask shape of " + shape_str(want) + ", but got " +
           shape_str(m.shape()));
    }
  }
  d.Sx = c.key_columns(d.S);
  return d;
}

void validate(const Config& config, const Params& params, const Inputs& inputs) {
  const detail::PathCall call = detail::call_for_path(config, inputs_for_semantics(config, inputs),
                                                      torch_path(config, inputs));
  (void)detail::validated_dims(call.config, params, call.inputs);
}

}  // namespace mhaviz
