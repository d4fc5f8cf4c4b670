#!/usr/bin/env python3
"""Save an nn.MultiheadAttention layer and one of its forward calls for mhaviz.

Writes a configuration + tensors pair that `mhaviz-cli run --config P.json --tensors P.npz`
and the mhaviz window open:

  <prefix>.json  mhaviz configuration: PyTorch's argument names, read from the module's
                 attributes and the call's arguments and input shapes
  <prefix>.npz   the module's state_dict (exact keys, e.g. "out_proj.weight") and the forward
                 arguments (query, key, value, attn_mask, key_padding_mask) under PyTorch's names
  <prefix>.torch.npz   (when the call's outputs are known) what PyTorch returned:
                 attn_output and attn_output_weights, to compare with `mhaviz-cli run`'s output

Only numpy and torch are needed (PyTorch 1.13 or 2.x). Use as a module:

    import mhaviz_capture
    mhaviz_capture.save_mha(model.attn, q, k, v, "layer0", attn_mask=mask)

    with mhaviz_capture.capture(model.encoder.layers[0].self_attn, "layer0") as cap:
        model(batch)                       # the first call of that layer is saved
    print(cap.saved)                       # True once written

or from the shell:

    python3 mhaviz_capture.py example demo          # a small random layer -> demo.json/.npz
    python3 mhaviz_capture.py compare demo.torch.npz result.npz   # PyTorch vs mhaviz-cli run
"""

import argparse
import inspect
import json
import sys
import warnings

import numpy as np
import torch
from torch import nn

__all__ = ["save_mha", "capture", "Capture", "compare_files"]

_DTYPES = {torch.float32: "float32", torch.float64: "float64"}


def _numpy(tensor):
    return tensor.detach().cpu().numpy()


def _mask_array(mask, name):
    """A mask as numpy: bool stays bool, float stays float; uint8 becomes bool as 1.13 does."""
    if mask is None:
        return None
    if mask.dtype == torch.uint8:
        warnings.warn(f"{name} is uint8; saved as bool (True = masked), as PyTorch 1.13 converts "
                      "it (2.x rejects uint8 masks)")
        mask = mask.bool()
    if mask.dtype != torch.bool and not mask.is_floating_point():
        raise TypeError(f"{name} must be bool or floating point, got {mask.dtype}")
    return _numpy(mask)


def _module_dtype(module):
    weight = module.in_proj_weight if module.in_proj_weight is not None else module.q_proj_weight
    if weight.dtype not in _DTYPES:
        raise TypeError(f"mhaviz computes in float32 or float64; this module is {weight.dtype}. "
                        "Convert a copy first, e.g. copy.deepcopy(module).float()")
    return _DTYPES[weight.dtype]


def _sizes(module, query, key):
    """batch_size (None when unbatched), tgt_len, src_len in PyTorch's layout rules."""
    if query.dim() == 2:
        return None, query.shape[0], key.shape[0]
    if query.dim() != 3:
        raise ValueError(f"query should be unbatched 2D or batched 3D tensor but received "
                         f"{query.dim()}D query tensor")
    if module.batch_first:
        return query.shape[0], query.shape[1], key.shape[1]
    return query.shape[1], query.shape[0], key.shape[0]


def module_config(module, query, key, need_weights=True, average_attn_weights=True,
                  is_causal=False):
    """The mhaviz configuration (a dict) of `module` called on query/key."""
    if not isinstance(module, nn.MultiheadAttention):
        raise TypeError(f"expected nn.MultiheadAttention, got {type(module).__name__}")
    batch_size, tgt_len, src_len = _sizes(module, query, key)
    dropout = module.dropout
    return {
        "embed_dim": module.embed_dim,
        "num_heads": module.num_heads,
        "dropout": float(dropout.p if isinstance(dropout, nn.Dropout) else dropout),
        "bias": module.in_proj_bias is not None,
        "add_bias_kv": module.bias_k is not None,
        "add_zero_attn": bool(module.add_zero_attn),
        "kdim": None if module.kdim == module.embed_dim else module.kdim,
        "vdim": None if module.vdim == module.embed_dim else module.vdim,
        "batch_first": bool(module.batch_first),
        "need_weights": bool(need_weights),
        "average_attn_weights": bool(average_attn_weights),
        "is_causal": bool(is_causal),
        "training": bool(module.training),
        "dtype": _module_dtype(module),
        "batch_size": batch_size,
        "tgt_len": tgt_len,
        "src_len": src_len,
    }


def _save_outputs(path_prefix, outputs):
    attn_output, attn_output_weights = outputs
    arrays = {"attn_output": _numpy(attn_output)}
    if attn_output_weights is not None:
        arrays["attn_output_weights"] = _numpy(attn_output_weights)
    np.savez(f"{path_prefix}.torch.npz", **arrays)


def save_mha(module, query, key, value, path_prefix, key_padding_mask=None, attn_mask=None,
             need_weights=True, average_attn_weights=True, is_causal=False, outputs=None):
    """Writes <path_prefix>.json and <path_prefix>.npz for one forward call of `module`.

    The arguments are those of nn.MultiheadAttention.forward. `outputs`, when given, is what
    the call returned ((attn_output, attn_output_weights)); it goes to <path_prefix>.torch.npz.
    Returns the configuration dict.
    """
    config = module_config(module, query, key, need_weights, average_attn_weights, is_causal)
    arrays = {name: _numpy(t) for name, t in module.state_dict().items()}
    arrays.update(query=_numpy(query), key=_numpy(key), value=_numpy(value))
    for name, mask in (("attn_mask", attn_mask), ("key_padding_mask", key_padding_mask)):
        if mask is not None:
            arrays[name] = _mask_array(mask, name)
    with open(f"{path_prefix}.json", "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    np.savez(f"{path_prefix}.npz", **arrays)
    if outputs is not None:
        _save_outputs(path_prefix, outputs)
    return config


class Capture:
    """Saves the first forward call of a module (see capture()). Use as a context manager or
    call remove() when done; `saved` tells whether a call was written."""

    def __init__(self, module, path_prefix):
        self.module = module
        self.path_prefix = path_prefix
        self.saved = False
        self.config = None
        self._signature = inspect.signature(type(module).forward)
        self._handle = None
        self._wrapped = False
        try:  # PyTorch 2.x: forward hooks may receive keyword arguments
            self._handle = module.register_forward_hook(self._hook, with_kwargs=True)
        except TypeError:  # 1.13: a hook sees positional arguments only; wrap forward instead
            original = module.forward

            def forward(*args, **kwargs):
                result = original(*args, **kwargs)
                self._record(args, kwargs, result)
                return result

            module.forward = forward
            self._wrapped = True

    def _hook(self, module, args, kwargs, output):
        self._record(args, kwargs, output)

    def _record(self, args, kwargs, output):
        if self.saved:
            return
        bound = self._signature.bind(self.module, *args, **kwargs)
        bound.apply_defaults()
        a = bound.arguments
        self.config = save_mha(
            self.module, a["query"], a["key"], a["value"], self.path_prefix,
            key_padding_mask=a.get("key_padding_mask"), attn_mask=a.get("attn_mask"),
            need_weights=a.get("need_weights", True),
            average_attn_weights=a.get("average_attn_weights", True),
            is_causal=a.get("is_causal", False), outputs=output)
        self.saved = True

    def remove(self):
        if self._handle is not None:
            self._handle.remove()
            self._handle = None
        if self._wrapped:
            del self.module.forward  # the instance attribute; the class's forward shows again
            self._wrapped = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
        return False


def capture(module, path_prefix="mha_capture"):
    """Registers a hook that saves the first forward call of `module` with save_mha()."""
    return Capture(module, path_prefix)


def compare_files(torch_file, mhaviz_file, rtol=1e-4, atol=1e-5):
    """Compares <prefix>.torch.npz with the output of `mhaviz-cli run`; True when they agree."""
    want, got = np.load(torch_file), np.load(mhaviz_file)
    ok = True
    for name in want.files:
        if name not in got.files:
            print(f"FAIL: {mhaviz_file} has no {name}")
            ok = False
            continue
        a, b = want[name].astype(np.float64), got[name].astype(np.float64)
        if a.shape != b.shape:
            print(f"FAIL: {name}: shape {a.shape} in PyTorch, {b.shape} in mhaviz")
            ok = False
        elif not np.allclose(b, a, rtol=rtol, atol=atol, equal_nan=True):
            print(f"FAIL: {name}: largest difference {np.nanmax(np.abs(a - b)):.3g}")
            ok = False
        else:
            print(f"{name}: {a.size} values agree")
    if ok:
        print("OK: matches mhaviz")
    return ok


def _example(path_prefix):
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(16, 4, add_bias_kv=True, add_zero_attn=True).eval()
    query, key = torch.randn(6, 2, 16), torch.randn(7, 2, 16)
    causal = torch.ones(6, 7, dtype=torch.bool).triu(1)
    with capture(mha, path_prefix):
        mha(query, key, key, attn_mask=causal)
    print(f"wrote {path_prefix}.json, {path_prefix}.npz and {path_prefix}.torch.npz")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    example = commands.add_parser("example", help="save a small random layer and one call")
    example.add_argument("prefix")
    compare = commands.add_parser("compare", help="compare PyTorch's outputs with mhaviz-cli run's")
    compare.add_argument("torch_npz")
    compare.add_argument("mhaviz_npz")
    args = parser.parse_args(argv)
    if args.command == "example":
        _example(args.prefix)
        return 0
    return 0 if compare_files(args.torch_npz, args.mhaviz_npz) else 1


if __name__ == "__main__":
    sys.exit(main())
