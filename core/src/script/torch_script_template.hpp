#pragma once
// The text of the script `mhaviz-cli torch` writes. @NAME@ markers are replaced by
// torch_script.cpp with Python literals for one configuration.

namespace mhaviz::detail {

inline constexpr const char* kTorchScriptTemplate = R"PY(#!/usr/bin/env python3
"""Reproduces an mhaviz computation with PyTorch and checks that the results agree.

Written by mhaviz-cli @VERSION@ (`mhaviz-cli torch`). The data file beside this script,
    @DATA_NAME@
holds the state_dict, inputs and masks mhaviz used, and mhaviz's results as mhaviz.attn_output
and mhaviz.attn_output_weights. This script builds nn.MultiheadAttention with the arguments
below, runs its forward pass on them and compares the results.

Run:  python3 @SCRIPT_NAME@    (PyTorch 1.13 or 2.x, with numpy). Exit status 0 when they agree.
"""

import inspect
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), @DATA_LITERAL@)
DTYPE = torch.@DTYPE@
MODULE_ARGS = dict(embed_dim=@EMBED_DIM@, num_heads=@NUM_HEADS@, dropout=@DROPOUT@, bias=@BIAS@,
                   add_bias_kv=@ADD_BIAS_KV@, add_zero_attn=@ADD_ZERO_ATTN@, kdim=@KDIM@,
                   vdim=@VDIM@, batch_first=@BATCH_FIRST@)
TRAINING = @TRAINING@
NEED_WEIGHTS = @NEED_WEIGHTS@
AVERAGE_ATTN_WEIGHTS = @AVERAGE_ATTN_WEIGHTS@
IS_CAUSAL = @IS_CAUSAL@
# The call's context (configuration keys "training" above and "grad_mode"; query, key and value
# one tensor): with them PyTorch 2.x picks its general, SDPA or fast path (mhaviz's
# docs/semantics.md), and mhaviz computed that path's numbers.
GRAD_MODE = "@GRAD_MODE@"
SELF_ATTENTION = @SELF_ATTENTION@
# Gemma 2's soft-cap of the scores (mhaviz's attn_logit_softcapping); None: no cap.
SOFTCAP = @SOFTCAP@
# The PyTorch version whose behaviour mhaviz followed (configuration key "semantics").
SEMANTICS = "@SEMANTICS@"
BATCHED = @BATCHED@
TOLERANCE = dict(@TOLERANCE@)
STATE_DICT_KEYS = [@STATE_DICT_KEYS@]
OLD_TORCH = int(torch.__version__.split(".")[0]) < 2
# Before 2.5, scaled_dot_product_attention (need_weights=False) gives NaN for a fully masked row.
NAN_FOR_FULLY_MASKED = tuple(int(part) for part in torch.__version__.split(".")[:2]) < (2, 5)
if SEMANTICS == "1.13" and not torch.__version__.startswith("1.13"):
    print(f"note: mhaviz computed with PyTorch 1.13's semantics (\"semantics\": \"1.13\"); "
          f"this is PyTorch {torch.__version__}, which differs where the versions do "
          "(fully masked rows without weights, mixed mask types, uint8 masks)")


def load(data, name):
    """The tensor stored under `name`, or None when the data file does not hold it."""
    if name not in data.files:
        return None
    return torch.from_numpy(np.ascontiguousarray(data[name]))


def has_parameter(function, name):
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def grad_context():
    """The grad mode mhaviz computed the call under."""
    if GRAD_MODE == "no_grad":
        return torch.no_grad()
    if GRAD_MODE == "inference_mode":
        return torch.inference_mode()
    return torch.enable_grad()


def run_module(mha, query, key, value, key_padding_mask, attn_mask):
    kwargs = dict(key_padding_mask=key_padding_mask, need_weights=NEED_WEIGHTS,
                  attn_mask=attn_mask, average_attn_weights=AVERAGE_ATTN_WEIGHTS)
    if has_parameter(mha.forward, "is_causal"):
        kwargs["is_causal"] = IS_CAUSAL
    elif IS_CAUSAL:
        print("note: this PyTorch has no is_causal argument; attn_mask is used as given "
              "(in 2.x is_causal is only a hint that attn_mask is causal)")
    return mha(query, key, value, **kwargs)


def run_functional(mha, query, key, value, key_padding_mask, attn_mask, static_k, static_v):
    """static_k/static_v exist only in F.multi_head_attention_forward: call it with the
    module's parameters, as nn.MultiheadAttention.forward does."""
    if BATCHED and MODULE_ARGS["batch_first"]:
        query, key, value = (x.transpose(0, 1) for x in (query, key, value))
    kwargs = dict(training=mha.training, key_padding_mask=key_padding_mask,
                  need_weights=NEED_WEIGHTS, attn_mask=attn_mask,
                  use_separate_proj_weight=not mha._qkv_same_embed_dim,
                  q_proj_weight=mha.q_proj_weight, k_proj_weight=mha.k_proj_weight,
                  v_proj_weight=mha.v_proj_weight, static_k=static_k, static_v=static_v,
                  average_attn_weights=AVERAGE_ATTN_WEIGHTS)
    if has_parameter(F.multi_head_attention_forward, "is_causal"):
        kwargs["is_causal"] = IS_CAUSAL
    out, weights = F.multi_head_attention_forward(
        query, key, value, mha.embed_dim, mha.num_heads, mha.in_proj_weight, mha.in_proj_bias,
        mha.bias_k, mha.bias_v, mha.add_zero_attn, mha.dropout, mha.out_proj.weight,
        mha.out_proj.bias, **kwargs)
    if BATCHED and MODULE_ARGS["batch_first"]:
        out = out.transpose(0, 1)
    return out, weights


def run_capped(mha, query, key, value, key_padding_mask, attn_mask, static_k, static_v):
    """nn.MultiheadAttention's forward written out step by step (PyTorch 2.x's order and mask
    merging) so that SOFTCAP * tanh(s / SOFTCAP) can be applied to the scaled scores s before
    the mask is added, as Gemma 2 and mhaviz do: PyTorch's module has no argument for it."""
    if not BATCHED:
        query, key, value = (x.unsqueeze(1) for x in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    elif MODULE_ARGS["batch_first"]:
        query, key, value = (x.transpose(0, 1) for x in (query, key, value))
    L, N, E = query.shape
    H = mha.num_heads
    hd = E // H
    if mha._qkv_same_embed_dim:
        w_q, w_k, w_v = mha.in_proj_weight.chunk(3)
    else:
        w_q, w_k, w_v = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
    b_q = b_k = b_v = None
    if mha.in_proj_bias is not None:
        b_q, b_k, b_v = mha.in_proj_bias.chunk(3)

    def additive(m):  # a bool mask becomes 0 / -inf, a float mask is added as it is
        if m is None or m.is_floating_point():
            return None if m is None else m.to(DTYPE)
        return torch.zeros(m.shape, dtype=DTYPE).masked_fill(m.bool(), float("-inf"))

    def pad(m):  # one more key column that no mask covers
        return None if m is None else F.pad(m, (0, 1))

    attn_mask, key_padding_mask = additive(attn_mask), additive(key_padding_mask)
    q, k, v = F.linear(query, w_q, b_q), F.linear(key, w_k, b_k), F.linear(value, w_v, b_v)
    if mha.bias_k is not None:
        k = torch.cat([k, mha.bias_k.repeat(1, N, 1)])
        v = torch.cat([v, mha.bias_v.repeat(1, N, 1)])
        attn_mask, key_padding_mask = pad(attn_mask), pad(key_padding_mask)
    q = q.reshape(L, N * H, hd).transpose(0, 1)
    k = static_k if static_k is not None else k.reshape(k.shape[0], N * H, hd).transpose(0, 1)
    v = static_v if static_v is not None else v.reshape(v.shape[0], N * H, hd).transpose(0, 1)
    if mha.add_zero_attn:
        k = torch.cat([k, torch.zeros(N * H, 1, hd, dtype=k.dtype)], dim=1)
        v = torch.cat([v, torch.zeros(N * H, 1, hd, dtype=v.dtype)], dim=1)
        attn_mask, key_padding_mask = pad(attn_mask), pad(key_padding_mask)
    Sx = k.shape[1]
    merged = torch.zeros(N * H, L, Sx, dtype=DTYPE)
    if attn_mask is not None:
        merged = merged + (attn_mask if attn_mask.dim() == 3 else attn_mask.unsqueeze(0))
    if key_padding_mask is not None:
        merged = merged + key_padding_mask.view(N, 1, 1, Sx).expand(N, H, 1, Sx).reshape(
            N * H, 1, Sx)
    scores = torch.bmm(q * (1.0 / hd) ** 0.5, k.transpose(1, 2))
    scores = SOFTCAP * torch.tanh(scores / SOFTCAP)  # the soft-cap, before the mask
    weights = torch.softmax(scores + merged, dim=-1)
    if not NEED_WEIGHTS:
        weights = torch.nan_to_num(weights, nan=0.0)  # fully masked rows: 0, as 2.5+'s SDPA
    if mha.training and mha.dropout > 0:
        weights = F.dropout(weights, p=mha.dropout)
    out = torch.bmm(weights, v).transpose(0, 1).reshape(L, N, E)
    out = F.linear(out, mha.out_proj.weight, mha.out_proj.bias)
    weights = weights.view(N, H, L, Sx)
    if AVERAGE_ATTN_WEIGHTS:
        weights = weights.mean(dim=1)
    if not BATCHED:
        out, weights = out.squeeze(1), weights.squeeze(0)
    elif MODULE_ARGS["batch_first"]:
        out = out.transpose(0, 1)
    return out, (weights if NEED_WEIGHTS else None)


def compare(name, got, want, masked_row=None):
    """True when PyTorch's `got` equals mhaviz's `want` within TOLERANCE, NaN in the same places.
    masked_row: what mhaviz gives along the last axis for a fully masked query with
    need_weights=False (out_proj.bias), where PyTorch before 2.5 gives NaN."""
    got = got.detach().cpu().to(torch.float64).numpy()
    want = want.astype(np.float64)
    if got.shape != want.shape:
        print(f"FAIL: {name} has shape {got.shape} in PyTorch but {want.shape} in mhaviz")
        return False
    got_nan, want_nan = np.isnan(got), np.isnan(want)
    if NAN_FOR_FULLY_MASKED and SEMANTICS == "2.x" and masked_row is not None:
        # 2.5+ (which mhaviz follows) computes need_weights=False through
        # scaled_dot_product_attention, giving 0 attention where 1.13 and 2.0-2.4 give NaN
        # (fully masked rows), so the output row is out_proj.bias.
        fill = np.broadcast_to(masked_row, want.shape)
        known = got_nan & ~want_nan & (want == fill)
        if known.any():
            print(f"note: {name}: {int(known.sum())} values are NaN in PyTorch "
                  f"{torch.__version__} and out_proj.bias in mhaviz, as in PyTorch 2.5+ (fully "
                  "masked rows with need_weights=False)")
            got = np.where(known, want, got)
            got_nan = np.isnan(got)
    if not np.array_equal(got_nan, want_nan):
        print(f"FAIL: {name}: NaN positions differ ({int(got_nan.sum())} NaN in PyTorch, "
              f"{int(want_nan.sum())} in mhaviz)")
        return False
    finite = ~want_nan
    diff = np.abs(got[finite] - want[finite])
    bound = TOLERANCE["atol"] + TOLERANCE["rtol"] * np.abs(want[finite])
    largest = float(diff.max()) if diff.size else 0.0
    if (diff > bound).any():
        print(f"FAIL: {name}: {int((diff > bound).sum())} of {diff.size} values differ beyond "
              f"rtol={TOLERANCE['rtol']}, atol={TOLERANCE['atol']} (largest difference "
              f"{largest:.3g})")
        return False
    print(f"{name}: {want.size} values agree (largest difference {largest:.3g}, "
          f"{int(want_nan.sum())} NaN in both)")
    return True


def main():
    torch.manual_seed(0)
    data = np.load(DATA_FILE)
    print(f"PyTorch {torch.__version__}; data from {DATA_FILE}")
    mha = nn.MultiheadAttention(**MODULE_ARGS, dtype=DTYPE)
    mha.load_state_dict({name: load(data, name) for name in STATE_DICT_KEYS}, strict=True)
    mha.train(TRAINING)
    query, key, value = (load(data, name) for name in ("query", "key", "value"))
    if SELF_ATTENTION:
        key = value = query  # one tensor, as in the call mhaviz computed
    attn_mask, key_padding_mask = load(data, "attn_mask"), load(data, "key_padding_mask")
    static_k, static_v = load(data, "static_k"), load(data, "static_v")
    if (OLD_TORCH and key_padding_mask is not None and key_padding_mask.is_floating_point()
            and attn_mask is not None):
        print("note: PyTorch 1.13 merges a float key_padding_mask with attn_mask differently "
              "from 2.x, which mhaviz follows; results may differ")
    with grad_context():
        if SOFTCAP is not None:
            print(f"note: attn_logit_softcapping={SOFTCAP}: the forward pass is written out "
                  "here (run_capped) to apply SOFTCAP * tanh(scores / SOFTCAP) before the mask")
            out, weights = run_capped(mha, query, key, value, key_padding_mask, attn_mask,
                                      static_k, static_v)
        elif static_k is not None or static_v is not None:
            out, weights = run_functional(mha, query, key, value, key_padding_mask, attn_mask,
                                          static_k, static_v)
        else:
            out, weights = run_module(mha, query, key, value, key_padding_mask, attn_mask)
    want_out = data["mhaviz.attn_output"]
    want_weights = data["mhaviz.attn_output_weights"] if NEED_WEIGHTS else None

    if TRAINING and MODULE_ARGS["dropout"] > 0:
        print(f"note: dropout={MODULE_ARGS['dropout']} in training mode draws a random mask; "
              "PyTorch's cannot equal mhaviz's, so only shapes are compared")
        pairs = [("attn_output", out, want_out)]
        if NEED_WEIGHTS:
            pairs.append(("attn_output_weights", weights, want_weights))
        ok = True
        for name, got, want in pairs:
            if got is None or tuple(got.shape) != want.shape:
                shape = None if got is None else tuple(got.shape)
                print(f"FAIL: {name} has shape {shape} in PyTorch but {want.shape} in mhaviz")
                ok = False
        if ok:
            print("OK: shapes match mhaviz (values not compared: dropout is random)")
        return 0 if ok else 1

    out_bias = data["out_proj.bias"] if "out_proj.bias" in data.files else 0.0
    ok = compare("attn_output", out, want_out,
                 None if NEED_WEIGHTS else np.asarray(out_bias, dtype=np.float64))
    if NEED_WEIGHTS:
        if weights is None:
            print("FAIL: PyTorch returned no attn_output_weights")
            ok = False
        else:
            ok = compare("attn_output_weights", weights, want_weights) and ok
    if ok:
        print("OK: matches mhaviz")
        return 0
    print("FAIL: PyTorch and mhaviz differ (see above)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
)PY";

}  // namespace mhaviz::detail
