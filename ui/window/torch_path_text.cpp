#include "window/torch_path_text.hpp"

namespace mhaviz::ui {

QString TorchPathText::notFast(NotFast why) {
  switch (why) {
    case NotFast::none:
      return {};
    case NotFast::not_batched:
      return tr("input not batched");
    case NotFast::not_self_attention:
      return tr("query, key and value are not one tensor");
    case NotFast::kdim_vdim:
      return tr("kdim/vdim differ from embed_dim");
    case NotFast::training:
      return tr("training");
    case NotFast::odd_heads:
      return tr("num_heads is odd");
    case NotFast::not_batch_first:
      return tr("batch_first=False");
    case NotFast::add_bias_kv:
      return tr("add_bias_kv");
    case NotFast::add_zero_attn:
      return tr("add_zero_attn");
    case NotFast::float_mask:
      return tr("a floating-point mask");
    case NotFast::grad_enabled:
      return tr("grad enabled");
    case NotFast::no_bias:
      return tr("bias=False");
  }
  return {};
}

QString TorchPathText::reason(const PathDecision& path, const Config& config) {
  if (config.semantics == Semantics::v1_13) {
    return tr("PyTorch 1.13's general path (semantics \"1.13\"; its fast path is not modelled)");
  }
  switch (path.path) {
    case TorchPath::fast:
      return tr("PyTorch would take the fast path: eval, %1, self-attention, batch_first")
          .arg(config.grad_mode == GradMode::inference_mode ? QStringLiteral("inference_mode")
                                                            : QStringLiteral("no_grad"));
    case TorchPath::sdpa:
      return tr("PyTorch would take the SDPA path (scaled_dot_product_attention): "
                "need_weights=False, and not the fast path: %1")
          .arg(notFast(path.not_fast));
    case TorchPath::general:
      break;
  }
  return tr("PyTorch would take the general path: need_weights=True, and not the fast path: %1")
      .arg(notFast(path.not_fast));
}

QStringList TorchPathText::warnings(const PathDecision& path, const Config& config) {
  QStringList out;
  if (path.causal_hint_wrong) {
    out << tr("is_causal=True but attn_mask is not causal: an incorrect hint, and PyTorch's "
              "result depends on its path (without key_padding_mask the SDPA path applies a "
              "causal mask instead, the general path applies the given mask, the fast path "
              "ignores the hint); mhaviz computes the %1 path's result")
               .arg(QString::fromLatin1(to_string(path.path)));
  }
  if (path.differs_from_recorded && config.recorded_path) {
    out << tr("the capture recorded PyTorch's %1 path, but this configuration leads to the %2 "
              "path: its training, grad_mode or inputs.self_attention, or PyTorch's version, "
              "differs from the captured call's; mhaviz computes the %2 path's result")
               .arg(QString::fromLatin1(to_string(*config.recorded_path)),
                    QString::fromLatin1(to_string(path.path)));
  }
  if (path.attn_mask_dropped) {
    out << ((config.add_bias_kv || config.add_zero_attn)
                ? tr("PyTorch's SDPA path drops attn_mask (is_causal=True, need_weights=False, "
                     "no key_padding_mask) and applies its own top-left causal mask over all "
                     "key columns, which hides the appended bias_k / zero key from every query "
                     "before its column")
                : tr("PyTorch's SDPA path drops attn_mask (is_causal=True, need_weights=False, "
                     "no key_padding_mask) and applies its own top-left causal mask over all "
                     "key columns"));
  }
  return out;
}

}  // namespace mhaviz::ui
