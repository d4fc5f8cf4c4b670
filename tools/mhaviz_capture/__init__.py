"""Save an nn.MultiheadAttention layer and one of its forward calls for mhaviz.

Writes a configuration + tensors pair that `mhaviz-cli run --config P.json --tensors P.npz`
and the mhaviz window open (show("P") starts the window on it):

  <prefix>.json  mhaviz configuration: PyTorch's argument names, read from the module's
                 attributes and the call's arguments and input shapes
  <prefix>.npz   the module's state_dict (exact keys, e.g. "out_proj.weight") and the forward
                 arguments (query, key, value, attn_mask, key_padding_mask) under PyTorch's names
  <prefix>.torch.npz   (when the call's outputs are known) what PyTorch returned:
                 attn_output and attn_output_weights, to compare with `mhaviz-cli run`'s output
  <prefix>.torch.json  with it: which of PyTorch's paths the call took ("general", "sdpa" or
                 "fast", docs/semantics.md) and torch's version

Only numpy and torch are needed (PyTorch 1.13 or 2.x). Use as a module:

    import mhaviz_capture
    mhaviz_capture.save_mha(model.attn, q, k, v, "layer0", attn_mask=mask)

    with mhaviz_capture.capture(model.encoder.layers[0].self_attn, "layer0") as cap:
        model(batch)                       # the first call of that layer is saved
    print(cap.saved)                       # True once written

    mhaviz_capture.show("layer0")          # opens layer0.json/.npz in the mhaviz window

    # attention weights computed elsewhere (a Hugging Face output's attentions, arrays):
    mhaviz_capture.save_attentions(outputs.attentions, tokens, "bert")   # bert.json/.npz
    mhaviz_capture.head_view(outputs.attentions, tokens, layer=2)  # inline in a notebook

or from the shell:

    python3 -m mhaviz_capture example demo      # a small random layer -> demo.json/.npz
    python3 -m mhaviz_capture compare demo.torch.npz result.npz   # PyTorch vs mhaviz-cli run
    python3 -m mhaviz_capture show demo         # the mhaviz window on demo.json/.npz

capture() also works in eval mode under torch.no_grad(), where PyTorch's fast path computes a
TransformerEncoderLayer in one fused kernel (torch._transformer_encoder_layer_fwd) without
calling its self_attn: while the block runs, that kernel is wrapped; when it is called with the
captured module's weights, the attention call the layer's general path would have made
(self_attn(x, x, x, attn_mask, key_padding_mask, need_weights=False)) is rebuilt from the
kernel's arguments, run through the module's own forward and saved. The kernel itself still
computes what the model returns, so the model's numbers do not change. Leaving the block
without having seen a call raises RuntimeError with the reason.
"""

import argparse
import inspect
import json
import os
import shutil
import subprocess
import sys
import threading
import warnings

try:
    import numpy as np
    import torch
    from torch import nn
    from torch.nn import functional as F
except ImportError as e:
    raise ImportError(f"mhaviz_capture needs numpy and PyTorch ({e}); install them with "
                      "`apt install python3-numpy python3-torch` (Debian's python3) or "
                      "`pip install numpy torch` (a virtual environment)") from e

from .torch_path import PathSpy, grad_mode  # noqa: E402  (needs torch, imported above)

__all__ = ["save_mha", "capture", "Capture", "compare_files", "capture_model", "ModelCapture",
           "capture_generation", "GenerationCapture", "show", "save_attentions", "Picture",
           "head_view", "text_view", "heatmaps", "model_view", "rollout", "find_cli"]

# The mhaviz release this module belongs to: project(VERSION) in CMakeLists.txt
# (tests/package/check_package.sh compares them) and the version pip reads (tools/pyproject.toml).
__version__ = "0.1.0"

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
                  is_causal=False, value=None):
    """The mhaviz configuration (a dict) of `module` called on query/key (and value).

    The call's context goes with it: "training" (module.training) and "grad_mode" (what
    torch.is_grad_enabled() / torch.is_inference_mode_enabled() say now, so call it during the
    call), and "inputs": {"self_attention": true} when query, key and value are one tensor:
    with them mhaviz decides which of PyTorch 2.x's paths the call took (general, SDPA or the
    fast path; docs/semantics.md)."""
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
        "grad_mode": grad_mode(),
        "dtype": _module_dtype(module),
        "batch_size": batch_size,
        "tgt_len": tgt_len,
        "src_len": src_len,
        **({"inputs": {"self_attention": True}}
           if value is not None and query is key and key is value else {}),
    }


def _records_path():
    """Whether the configuration records the path PyTorch took: under 2.x, whose three paths
    mhaviz models (semantics "2.x"); 1.13's own fast path is not modelled."""
    return int(torch.__version__.split(".")[0]) >= 2


def _save_outputs(path_prefix, outputs, torch_path=None):
    attn_output, attn_output_weights = outputs
    arrays = {"attn_output": _numpy(attn_output)}
    if attn_output_weights is not None:
        arrays["attn_output_weights"] = _numpy(attn_output_weights)
    np.savez(f"{path_prefix}.torch.npz", **arrays)
    if torch_path is not None:  # beside it, so that the .npz stays tensors only
        with open(f"{path_prefix}.torch.json", "w", encoding="utf-8") as f:
            json.dump({"torch_path": torch_path, "torch_version": torch.__version__}, f)
            f.write("\n")


def save_mha(module, query, key, value, path_prefix, key_padding_mask=None, attn_mask=None,
             need_weights=True, average_attn_weights=True, is_causal=False, outputs=None,
             torch_path=None):
    """Writes <path_prefix>.json and <path_prefix>.npz for one forward call of `module`.

    The arguments are those of nn.MultiheadAttention.forward. `outputs`, when given, is what
    the call returned ((attn_output, attn_output_weights)); it goes to <path_prefix>.torch.npz.
    Returns the configuration dict.
    """
    config = module_config(module, query, key, need_weights, average_attn_weights, is_causal,
                           value=value)
    arrays = {name: _numpy(t) for name, t in module.state_dict().items()}
    arrays.update(query=_numpy(query), key=_numpy(key), value=_numpy(value))
    for name, mask in (("attn_mask", attn_mask), ("key_padding_mask", key_padding_mask)):
        if mask is not None:
            arrays[name] = _mask_array(mask, name)
    if torch_path is not None and _records_path():
        config["torch_path"] = torch_path  # mhaviz warns when its configuration leads elsewhere
    with open(f"{path_prefix}.json", "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    np.savez(f"{path_prefix}.npz", **arrays)
    if outputs is not None:
        _save_outputs(path_prefix, outputs, torch_path)
    return config


# PyTorch's fused TransformerEncoderLayer kernel, called by TransformerEncoderLayer.forward in
# eval mode when autograd is off (1.13 and 2.x) instead of its self_attn: its arguments, in order.
_FUSED_ENCODER_LAYER = "_transformer_encoder_layer_fwd"
_FUSED_ENCODER_LAYER_ARGS = (
    "src", "embed_dim", "num_heads", "qkv_weight", "qkv_bias", "proj_weight", "proj_bias",
    "use_gelu", "norm_first", "eps", "norm_weight_1", "norm_bias_1", "norm_weight_2",
    "norm_bias_2", "ffn_weight_1", "ffn_bias_1", "ffn_weight_2", "ffn_bias_2", "mask",
    "mask_type")

_lock = threading.RLock()
_waiting = []         # Captures that have not saved yet
_fused_kernel = None  # what torch._transformer_encoder_layer_fwd was before wrapping
_fused_wrapped = False


def _fused_encoder_layer(*args, **kwargs):
    """Stands in for torch._transformer_encoder_layer_fwd while a capture waits: PyTorch's kernel
    computes the result as always; a capture whose module is this layer's self_attn saves the
    attention call the kernel made inside."""
    output = _fused_kernel(*args, **kwargs)
    qkv_weight = args[3] if len(args) > 3 else kwargs.get("qkv_weight")
    with _lock:
        mine = [c for c in _waiting if c.module.in_proj_weight is qkv_weight]
    for cap in mine:
        cap._record_fused_encoder_layer(args, kwargs, output)
    return output


def _wait_for_fused_calls(cap):
    global _fused_kernel, _fused_wrapped
    with _lock:
        _waiting.append(cap)
        current = getattr(torch, _FUSED_ENCODER_LAYER, None)
        if _fused_wrapped or current is None or current is _fused_encoder_layer:
            return
        _fused_kernel = current
        setattr(torch, _FUSED_ENCODER_LAYER, _fused_encoder_layer)
        _fused_wrapped = True


def _stop_waiting(cap):
    """Forgets `cap`; the last one to go puts torch._transformer_encoder_layer_fwd back."""
    global _fused_wrapped
    with _lock:
        if cap in _waiting:
            _waiting.remove(cap)
        if not _waiting and _fused_wrapped:
            if getattr(torch, _FUSED_ENCODER_LAYER, None) is _fused_encoder_layer:
                setattr(torch, _FUSED_ENCODER_LAYER, _fused_kernel)
            _fused_wrapped = False


def _feed_forward(x, a):
    hidden = F.linear(x, a["ffn_weight_1"], a["ffn_bias_1"])
    hidden = F.gelu(hidden) if a["use_gelu"] else F.relu(hidden)
    return F.linear(hidden, a["ffn_weight_2"], a["ffn_bias_2"])


def _encoder_layer_from_attention(x, attn_output, a):
    """What TransformerEncoderLayer's general path returns for input x and attention output."""
    shape, eps = (a["embed_dim"],), a["eps"]
    norm1 = (a["norm_weight_1"], a["norm_bias_1"])
    norm2 = (a["norm_weight_2"], a["norm_bias_2"])
    if a["norm_first"]:
        h = x + attn_output
        return h + _feed_forward(F.layer_norm(h, shape, *norm2, eps), a)
    h = F.layer_norm(x + attn_output, shape, *norm1, eps)
    return F.layer_norm(h + _feed_forward(h, a), shape, *norm2, eps)


class Capture:
    """Saves the first forward call of a module (see capture()). Use as a context manager or
    call remove() when done; `saved` tells whether a call was written."""

    def __init__(self, module, path_prefix):
        if not isinstance(module, nn.MultiheadAttention):
            raise TypeError(f"capture() expects an nn.MultiheadAttention, got "
                            f"{type(module).__name__}")
        self.module = module
        self.path_prefix = path_prefix
        self.saved = False
        self.config = None
        self.fused = False  # True when the call was recovered from the fused encoder-layer kernel
        self._signature = inspect.signature(type(module).forward)
        self._spy = PathSpy()  # the path PyTorch takes, recorded with what it returned
        self.torch_path = None
        # The call is seen by wrapping the instance's forward, not by hooks: PyTorch 2.x's
        # TransformerEncoderLayer leaves its fused fast path when a submodule has forward
        # hooks, so a hook would change the path (and the numbers) of the model it watches.
        original = module.forward

        def forward(*args, **kwargs):
            self._spy.start()
            result = original(*args, **kwargs)
            self._record(args, kwargs, result)
            return result

        module.forward = forward
        self._wrapped = True
        if module._qkv_same_embed_dim:  # the fused kernel only runs for packed in_proj_weight
            _wait_for_fused_calls(self)

    def _record(self, args, kwargs, output):
        self.torch_path = self._spy.stop()
        if self.saved:
            return
        bound = self._signature.bind(self.module, *args, **kwargs)
        bound.apply_defaults()
        a = bound.arguments
        self._save(a["query"], a["key"], a["value"], a.get("key_padding_mask"),
                   a.get("attn_mask"), a.get("need_weights", True),
                   a.get("average_attn_weights", True), a.get("is_causal", False), output)

    def _save(self, query, key, value, key_padding_mask, attn_mask, need_weights,
              average_attn_weights, is_causal, output):
        self.config = save_mha(
            self.module, query, key, value, self.path_prefix, key_padding_mask=key_padding_mask,
            attn_mask=attn_mask, need_weights=need_weights,
            average_attn_weights=average_attn_weights, is_causal=is_causal, outputs=output,
            torch_path=self.torch_path)
        self.saved = True
        _stop_waiting(self)

    def _record_fused_encoder_layer(self, args, kwargs, layer_output):
        """Saves the self-attention call inside one call of the fused encoder-layer kernel:
        the call TransformerEncoderLayer's general path makes, self_attn(x, x, x, attn_mask=...,
        key_padding_mask=..., need_weights=False), with x = src (norm1(src) when norm_first),
        answered by the module's own forward."""
        if self.saved:
            return
        a = dict(zip(_FUSED_ENCODER_LAYER_ARGS, args))
        a.update(kwargs)
        a.setdefault("mask", None)
        a.setdefault("mask_type", None)
        src, mask, mask_type = a["src"], a["mask"], a["mask_type"]
        key_padding_mask = attn_mask = None
        lengths = None
        if src.is_nested:
            # nn.TransformerEncoder packed the batch without its padding (src_key_padding_mask):
            # the layer sees the sequences up to the longest one, padded keys masked.
            lengths = [part.shape[0] for part in src.unbind()]
            src = src.to_padded_tensor(0.0)
            positions = torch.arange(src.shape[1], device=src.device)
            key_padding_mask = positions[None, :] >= torch.tensor(lengths, device=src.device)[:, None]
        if mask is not None:
            if mask_type == 1:    # key padding mask (N, S)
                key_padding_mask = mask
            elif mask_type == 2:  # 2.x: attn_mask and key padding merged to (N, H, L, S)
                attn_mask = mask.reshape(-1, mask.shape[-2], mask.shape[-1])
            else:                 # 0: attention mask (L, S)
                attn_mask = mask
        x = src
        if a["norm_first"]:
            x = F.layer_norm(src, (a["embed_dim"],), a["norm_weight_1"], a["norm_bias_1"],
                             a["eps"])
        with torch.no_grad():
            output = type(self.module).forward(self.module, x, x, x,
                                               key_padding_mask=key_padding_mask,
                                               attn_mask=attn_mask, need_weights=False)
        self._check_fused_encoder_layer(src, output[0], a, layer_output, lengths,
                                        key_padding_mask)
        self._save(x, x, x, key_padding_mask, attn_mask, False, True, False, output)
        self.fused = True

    def _check_fused_encoder_layer(self, src, attn_output, a, layer_output, lengths,
                                   key_padding_mask):
        """Warns when the saved attention call does not reproduce what the kernel returned."""
        with torch.no_grad():
            want = _encoder_layer_from_attention(src, attn_output, a)
        if lengths is not None:
            got = [part for part in layer_output.unbind()]
            want = [want[i, :n] for i, n in enumerate(lengths)]
        elif key_padding_mask is not None:
            # the kernel need not compute the rows of padded positions
            keep = ~(key_padding_mask if key_padding_mask.dtype == torch.bool
                     else torch.isneginf(key_padding_mask))
            got = [layer_output[i][keep[i]] for i in range(len(keep))]
            want = [want[i][keep[i]] for i in range(len(keep))]
        else:
            got, want = [layer_output], [want]
        worst = max((float((g - w).abs().nan_to_num(0.0).max()) for g, w in zip(got, want)
                     if g.numel()), default=0.0)
        if worst > 1e-4:
            warnings.warn(f"mhaviz_capture: the attention call rebuilt from PyTorch's fused "
                          f"TransformerEncoderLayer kernel does not reproduce the layer's output "
                          f"(largest difference {worst:.3g}); the saved call may not be the one "
                          f"PyTorch computed (PyTorch {torch.__version__})")

    def _no_call_message(self):
        return (f"mhaviz_capture: no call of {type(self.module).__name__}(embed_dim="
                f"{self.module.embed_dim}, num_heads={self.module.num_heads}) was seen in the "
                f"with block; nothing was saved to {self.path_prefix}.json. Pass the module "
                "object your model calls, e.g. capture(model.encoder.layers[0].self_attn, ...): "
                "a deepcopy, a TorchScript copy or another layer is a different object. If it "
                "is called, but PyTorch computes it in a fused kernel this tool does not know, "
                "the fix is to turn the fast path off around the call: "
                "torch.backends.mha.set_fastpath_enabled(False) where it exists (PyTorch 2.3 "
                "and later), or run it under torch.enable_grad() with parameters that require "
                "grad.")

    def remove(self):
        """Stops capturing and restores the module (and torch) as they were."""
        _stop_waiting(self)
        self._spy.stop()
        if self._wrapped:
            del self.module.forward  # the instance attribute; the class's forward shows again
            self._wrapped = False

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.remove()
        if exc_type is None and not self.saved:
            raise RuntimeError(self._no_call_message())
        return False


def capture(module, path_prefix="mha_capture"):
    """Saves the first forward call of `module` (an nn.MultiheadAttention) with save_mha(),
    also when PyTorch's fast path runs it inside a fused TransformerEncoderLayer kernel. As a
    context manager, leaving the block without a saved call raises RuntimeError."""
    return Capture(module, path_prefix)


class _CallRecorder(Capture):
    """Records every call of one module of a model for ModelCapture (never writes files)."""

    def __init__(self, module, name, sink):
        self.name = name
        self.calls = 0
        self._sink = sink
        super().__init__(module, None)

    def _save(self, query, key, value, key_padding_mask, attn_mask, need_weights,
              average_attn_weights, is_causal, output):
        self._sink(self, dict(query=query, key=key, value=value,
                              key_padding_mask=key_padding_mask, attn_mask=attn_mask,
                              need_weights=need_weights,
                              average_attn_weights=average_attn_weights, is_causal=is_causal,
                              output=output))
        self.calls += 1

    def _record_fused_encoder_layer(self, args, kwargs, layer_output):
        self._fused_call = True
        try:
            super()._record_fused_encoder_layer(args, kwargs, layer_output)
        finally:
            self._fused_call = False


def _same_tensor(a, b):
    if a is b:
        return True
    return (a.shape == b.shape and a.dtype == b.dtype and a.device == b.device
            and bool(torch.equal(a, b)))


class ModelCapture:
    """Records every nn.MultiheadAttention call of a model, in call order, and writes them as
    one model file (see capture_model())."""

    def __init__(self, model, path_prefix, tokens=None, layer_labels=None, caption=None,
                 image=None, picture=None, patch_size=None, prefix_tokens=None):
        self.model = model
        self.image = None
        if image is not None:
            from .vision import ImageSpec
            self.image = ImageSpec(model, image, picture, patch_size, prefix_tokens)
            if tokens is None:
                tokens = self.image.labels()
        self.path_prefix = path_prefix
        self.tokens = list(tokens) if tokens is not None else None
        self.layer_labels = dict(layer_labels or {})
        self.caption = caption
        self.layers = []   # one dict per call: name, config, arrays, self_attention, fused
        self.written = False
        self._recorders = []
        names = {}
        for name, module in model.named_modules():
            if isinstance(module, nn.MultiheadAttention) and id(module) not in names:
                names[id(module)] = name or type(module).__name__
                self._recorders.append(_CallRecorder(module, names[id(module)], self._add))
        if not self._recorders:
            self.remove()
            raise TypeError(f"capture_model: {type(model).__name__} holds no "
                            "nn.MultiheadAttention module; nothing to capture")

    def _labels(self, name, tgt_len, src_len):
        if name in self.layer_labels:
            q, k = self.layer_labels[name]
            return list(q or []), list(k or [])
        if self.tokens is None:
            return [], []
        q = self.tokens if len(self.tokens) == tgt_len else []
        k = self.tokens if len(self.tokens) == src_len else []
        return list(q), list(k)

    def _add(self, recorder, call):
        module = recorder.module
        query, key, value = call["query"], call["key"], call["value"]
        config = module_config(module, query, key, call["need_weights"],
                               call["average_attn_weights"], call["is_causal"], value=value)
        config["query_labels"], config["key_labels"] = self._labels(
            recorder.name, config["tgt_len"], config["src_len"])
        if not config["query_labels"]:
            del config["query_labels"]
        if not config["key_labels"]:
            del config["key_labels"]
        arrays = {n: _numpy(t) for n, t in module.state_dict().items()}
        arrays.update(query=_numpy(query), key=_numpy(key), value=_numpy(value))
        for n in ("attn_mask", "key_padding_mask"):
            if call[n] is not None:
                arrays[n] = _mask_array(call[n], n)
        attn_output, attn_output_weights = call["output"]
        arrays["attn_output"] = _numpy(attn_output)
        if attn_output_weights is not None:
            arrays["attn_output_weights"] = _numpy(attn_output_weights)
        fused = bool(getattr(recorder, "_fused_call", False))
        if recorder.torch_path is not None and not fused and _records_path():
            config["torch_path"] = recorder.torch_path
        self_attention = _same_tensor(query, key) and _same_tensor(key, value)
        self.layers.append(dict(name=recorder.name, call=recorder.calls, config=config,
                                arrays=arrays, self_attention=bool(self_attention),
                                fused=fused))

    def remove(self):
        """Stops recording and restores every module (and torch) as they were."""
        for recorder in self._recorders:
            recorder.remove()

    def write(self):
        """Writes <prefix>.json (the index) and <prefix>.npz (every call's tensors)."""
        if not self.layers:
            raise RuntimeError(
                "mhaviz_capture: no nn.MultiheadAttention call was seen; nothing was saved to "
                f"{self.path_prefix}.json. Run one forward pass of the model inside the with "
                "block (e.g. model(batch)).")
        tensors_name = os.path.basename(self.path_prefix) + ".npz"
        arrays = {}
        for i, layer in enumerate(self.layers):
            for n, a in layer["arrays"].items():
                arrays[f"{i}/{n}"] = a
        if self.image is not None:
            self.image.check_layers(self.layers)
            arrays.update(self.image.arrays())
        index = self._index(tensors_name)
        np.savez_compressed(f"{self.path_prefix}.npz", **arrays)
        with open(f"{self.path_prefix}.json", "w", encoding="utf-8") as f:
            json.dump(index, f, indent=1, ensure_ascii=False)
            f.write("\n")
        self.written = True

    def _index(self, tensors_name):
        """The index (docs/capture-and-models.md) of the recorded calls."""
        index = {"format": "mhaviz-model", "version": 1, "tensors": tensors_name,
                 "torch_version": torch.__version__}
        if self.caption:
            index["caption"] = self.caption
        if self.tokens is not None:
            index["tokens"] = self.tokens
        if self.image is not None:
            index["version"] = 3
            index["image"] = self.image.index()
        index["layers"] = [dict(name=layer["name"], call=layer["call"],
                                self_attention=layer["self_attention"], fused=layer["fused"],
                                config=layer["config"]) for layer in self.layers]
        return index

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.remove()
        if exc_type is None:
            self.write()
        return False


def capture_model(model, path_prefix="model", tokens=None, layer_labels=None, caption=None,
                  image=None, picture=None, patch_size=None, prefix_tokens=None):
    """Records every nn.MultiheadAttention call of one forward pass of `model`, in call order,
    under the modules' names (model.named_modules(), e.g. "encoder.layers.3.self_attn"), also
    when PyTorch's fast path runs a TransformerEncoderLayer in its fused kernel (see capture()).
    As a context manager it writes <path_prefix>.json (the index) and <path_prefix>.npz (each
    call's state_dict, inputs, masks and PyTorch's outputs) when the block ends:

        with mhaviz_capture.capture_model(model, "mymodel", tokens=["the", "cat"]):
            model(batch)

    `tokens` labels every layer whose query (key) length equals len(tokens); `layer_labels`
    ({module name: (query labels, key labels)}) labels given layers instead; `caption` is a
    line the window shows with the model. The format is described in docs/capture-and-models.md.

    For a vision transformer, `image` is the tensor the model is called with, (N, C, H, W):
    it is stored with the patch grid and the prefix tokens (format version 3), and the window's
    Image view lays each head's attention over it. torchvision's VisionTransformer is
    recognised (its patch_size, one class token "[CLS]"); for another model give
    `patch_size` (int or (h, w)) and `prefix_tokens` (names of the tokens before the patches,
    e.g. ["[CLS]", "reg0"], or their count). `picture` is an optional uint8 (H, W, 3) picture
    per image for display (the image before normalisation). The image's tokens are labelled
    "[CLS]", "r0c0", "r0c1", … unless `tokens` is given."""
    return ModelCapture(model, path_prefix, tokens, layer_labels, caption, image, picture,
                        patch_size, prefix_tokens)


from .generation import GenerationCapture, capture_generation  # noqa: E402 (uses ModelCapture)
from .attentions import save_attentions  # noqa: E402
from .notebook import (Picture, find_cli, head_view, heatmaps, model_view,  # noqa: E402
                       rollout, text_view)


def _window_arguments(path):
    """mhaviz's command line for what save_mha()/capture() or capture_model() wrote at `path`
    (a path prefix or its .json)."""
    path = os.fspath(getattr(path, "path_prefix", path))  # a Capture or ModelCapture too
    prefix = path[:-len(".json")] if path.endswith(".json") else path
    index = f"{prefix}.json"
    if not os.path.isfile(index):
        raise FileNotFoundError(f"mhaviz_capture.show: {index} does not exist; give the path "
                                "prefix that save_mha(), capture() or capture_model() wrote")
    with open(index, encoding="utf-8") as f:
        model = json.load(f).get("format") == "mhaviz-model"
    if model or not os.path.isfile(f"{prefix}.npz"):
        return [index]
    return ["--config", index, "--tensors", f"{prefix}.npz"]


def show(path, program=None):
    """Starts the mhaviz window on what save_mha(), capture() or capture_model() wrote to the
    path prefix `path` (or its .json, or the Capture/ModelCapture itself) and returns the
    window's subprocess.Popen without waiting for it. `program` is the mhaviz executable
    (default: `mhaviz` on PATH). Raises FileNotFoundError, saying how to install mhaviz, when
    there is none."""
    arguments = _window_arguments(path)
    program = program or shutil.which("mhaviz")
    if program is None:
        raise FileNotFoundError(
            "mhaviz_capture.show: the mhaviz program is not on PATH. Install it from the mhaviz "
            "source tree with `scripts/package` and then `sudo apt install ./mhaviz_*.deb` "
            "(docs/install.md), or pass program= the path of a built mhaviz (build/bin/mhaviz)")
    return subprocess.Popen([program, *arguments])


def compare_files(torch_file, mhaviz_file, rtol=1e-4, atol=1e-5):
    """Compares <prefix>.torch.npz with the output of `mhaviz-cli run`; True when they agree."""
    want, got = np.load(torch_file), np.load(mhaviz_file)
    ok = True
    seen = os.path.splitext(torch_file)[0] + ".json"  # <prefix>.torch.json: the path taken
    if os.path.exists(seen):
        with open(seen, encoding="utf-8") as f:
            taken = json.load(f)
        print(f"PyTorch {taken['torch_version']} took its {taken['torch_path']} path "
              "(mhaviz-cli run says which it computed)")
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
    parser = argparse.ArgumentParser(prog="python3 -m mhaviz_capture",
                                     description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    example = commands.add_parser("example", help="save a small random layer and one call")
    example.add_argument("prefix")
    compare = commands.add_parser("compare", help="compare PyTorch's outputs with mhaviz-cli run's")
    compare.add_argument("torch_npz")
    compare.add_argument("mhaviz_npz")
    window = commands.add_parser("show", help="open what a capture wrote in the mhaviz window")
    window.add_argument("prefix", help="the path prefix (or its .json) a capture wrote")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    args = parser.parse_args(argv)
    if args.command == "example":
        _example(args.prefix)
        return 0
    if args.command == "show":
        try:
            show(args.prefix)
        except FileNotFoundError as e:
            print(e, file=sys.stderr)
            return 1
        return 0
    return 0 if compare_files(args.torch_npz, args.mhaviz_npz) else 1
