"""Attention weights computed elsewhere as a weights-only model file (version 4).

save_attentions() takes what a model returned -- a Hugging Face output's `attentions` (a tuple
with one (batch, heads, L, S) tensor per layer, BertViz's input), its `encoder_attentions`,
`decoder_attentions` and `cross_attentions`, a generation's attentions (one such tuple per
step), or NumPy arrays -- and writes <prefix>.json (the index) and <prefix>.npz ("<i>/weights"
per layer) for mhaviz (docs/capture-and-models.md, "Weights-only model files"). transformers is
never imported: an output object is read by its attribute names.
"""

import json
import os
import warnings

import numpy as np

# Largest |row sum - 1| not warned about (mhaviz::model::kRowSumTolerance).
ROW_SUM_TOLERANCE = 1e-3
# Most layers a model file may list (mhaviz::model::kMaxLayers).
MAX_LAYERS = 1024
# Most generation steps (mhaviz::model::kMaxSteps).
MAX_STEPS = 4096

_GROUPS = ("encoder_attentions", "decoder_attentions", "cross_attentions")


def _array(x, where):
    """A float32/float64 NumPy array from a torch tensor or an array-like."""
    if hasattr(x, "detach"):  # a torch tensor, without importing torch here
        x = x.detach().cpu()
        if str(x.dtype) not in ("torch.float32", "torch.float64"):
            x = x.float()
        x = x.numpy()
    a = np.asarray(x)
    if a.dtype == np.float64:
        return a
    if a.dtype.kind == "f":
        return a.astype(np.float32)
    raise TypeError(f"{where}: holds {a.dtype}; attention weights are floating-point numbers "
                    "(the softmax's output)")


def _is_sequence(x):
    return isinstance(x, (list, tuple))


def _get(source, name):
    if isinstance(source, dict):
        return source.get(name)
    return getattr(source, name, None)


def _layers(value, what):
    """A list of per-layer arrays from a tuple/list of tensors or one stacked array."""
    if _is_sequence(value):
        if not value:
            raise ValueError(f"{what} is empty; pass one (batch, heads, queries, keys) array "
                             "per layer (run the model with output_attentions=True)")
        return [_array(v, f"{what}[{i}]") for i, v in enumerate(value)]
    a = _array(value, what)
    if a.ndim == 5:  # (layers, batch, heads, L, S)
        return list(a)
    if a.ndim == 4:  # (layers, heads, L, S): one stacked array without a batch dimension
        return [x[None] for x in a]
    raise ValueError(f"{what} has rank {a.ndim} {tuple(a.shape)}; pass a tuple/list with one "
                     "(batch, heads, queries, keys) array per layer, or one stacked array "
                     "(layers, batch, heads, queries, keys)")


def _is_steps(value):
    """A generation's attentions: a tuple (steps) of tuples (layers)."""
    return _is_sequence(value) and len(value) > 0 and _is_sequence(value[0])


def _check(w, where):
    """The (N, H, L, S) weights of one layer, checked as mhaviz checks them."""
    if w.ndim == 3:
        w = w[None]
    if w.ndim != 4:
        raise ValueError(f"{where}: has rank {w.ndim} {tuple(w.shape)}; a layer's attention "
                         "weights are (batch, heads, queries, keys) or (heads, queries, keys): "
                         "pass one array per layer, or one stacked array (layers, batch, heads, "
                         "queries, keys)")
    if min(w.shape) < 1:
        raise ValueError(f"{where}: has shape {tuple(w.shape)}; every dimension must be at "
                         "least 1")
    finite = np.isfinite(w)
    if not finite.all():
        n, h, q, k = np.argwhere(~finite)[0]
        raise ValueError(f"{where}: weight at batch {n}, head {h}, query {q}, key {k} is "
                         f"{w[n, h, q, k]}; attention weights must be finite (a row whose keys "
                         "were all masked is NaN in PyTorch: leave such rows out, or replace "
                         "them with zeros)")
    if (w < 0).any():
        n, h, q, k = np.argwhere(w < 0)[0]
        raise ValueError(f"{where}: weight at batch {n}, head {h}, query {q}, key {k} is "
                         f"{w[n, h, q, k]:.4g}; attention weights are at least 0 (are these "
                         "scores or logits, before the softmax? pass the weights after it)")
    sums = w.astype(np.float64).sum(-1)
    off = np.abs(sums - 1) > ROW_SUM_TOLERANCE
    if off.any():
        warnings.warn(f"mhaviz_capture: {where}: {int(off.sum())} of {sums.size} rows do not sum "
                      f"to 1 (sums from {sums[off].min():.4g} to {sums[off].max():.4g}); kept "
                      "as they are, not renormalised (weights after dropout, or not a softmax)",
                      stacklevel=3)
    return w


def _entries(attentions):
    """[(group, step, name, array)] from what save_attentions was given."""
    groups = {}
    if _is_sequence(attentions) or hasattr(attentions, "shape"):
        groups["attentions"] = attentions
    else:
        for name in ("attentions",) + _GROUPS:
            value = _get(attentions, name)
            if value is not None:
                groups[name] = value
        if not groups:
            raise TypeError("save_attentions: pass the attentions (a tuple with one tensor per "
                            "layer, or one stacked array), or a model output / dict holding "
                            "attentions, encoder_attentions, decoder_attentions or "
                            "cross_attentions (run the model with output_attentions=True)")
        if "attentions" in groups and len(groups) > 1:
            del groups["attentions"]  # an encoder-decoder: its groups say more
    out = []
    for name, value in groups.items():
        group = "" if name == "attentions" else name.split("_")[0]
        if _is_steps(value):
            if len(value) > MAX_STEPS:
                raise ValueError(f"{name} holds {len(value)} generation steps; mhaviz opens at "
                                 f"most {MAX_STEPS}")
            for step, layers in enumerate(value):
                for i, w in enumerate(_layers(layers, f"{name}[{step}]")):
                    out.append((group, step, f"{name}.{i}", w))
        else:
            for i, w in enumerate(_layers(value, name)):
                out.append((group, -1, f"{name}.{i}", w))
    stepped = {step >= 0 for _, step, _, _ in out}
    if len(stepped) > 1:  # an encoder run once before a generation's steps
        warnings.warn("mhaviz_capture: the encoder's attentions are left out: a generation "
                      "file holds the steps' layers only (save them in a file of their own)",
                      stacklevel=3)
        out = [e for e in out if e[1] >= 0]
    return out


def _labels(tokens, what):
    if tokens is None:
        return None
    tokens = [str(t) for t in tokens]
    if not tokens:
        raise ValueError(f"save_attentions: {what} is empty; give one token per position")
    return tokens


def save_attentions(attentions, tokens=None, path="attentions", *, target_tokens=None,
                    num_key_value_heads=None, caption=None):
    """Writes attention weights computed elsewhere as a weights-only model file for mhaviz:
    <path>.json and <path>.npz (docs/capture-and-models.md, "Weights-only model files").

    `attentions`: a tuple/list with one (batch, heads, queries, keys) tensor or array per layer
    (Hugging Face's `outputs.attentions`, BertViz's input; (heads, queries, keys) is one batch
    element), one stacked array (layers, batch, heads, queries, keys) or (layers, heads,
    queries, keys), a generation's attentions (one such tuple per step), or a model output or
    dict with `attentions` or `encoder_attentions` / `decoder_attentions` / `cross_attentions`
    (an encoder-decoder: `tokens` are the encoder's, `target_tokens` the decoder's).
    torch tensors (any float dtype, any device) and NumPy arrays are taken; transformers is not
    imported. `num_key_value_heads`: the key/value heads of grouped-query attention, so that
    the heads sharing one are grouped. Raises ValueError / TypeError naming the layer and the
    fix for a bad shape, NaN or negative weights, ragged layers or tokens that do not fit;
    warns (never renormalises) when rows do not sum to 1. Returns the index's path."""
    path = os.fspath(path)
    prefix = path[:-len(".json")] if path.endswith(".json") else path
    tokens = _labels(tokens, "tokens")
    target_tokens = _labels(target_tokens, "target_tokens")
    entries = _entries(attentions)
    if len(entries) > MAX_LAYERS:
        raise ValueError(f"save_attentions: {len(entries)} layers; mhaviz opens at most "
                         f"{MAX_LAYERS} (save the layers you want to see)")
    steps = 1 + max(step for _, step, _, _ in entries)
    if num_key_value_heads is not None and (int(num_key_value_heads) != num_key_value_heads
                                            or num_key_value_heads < 1):
        raise ValueError(f"num_key_value_heads={num_key_value_heads} must be a positive integer")
    layers, tensors, first = [], {}, {}
    for i, (group, step, name, w) in enumerate(entries):
        where = f"layer {i} ({name})"
        w = _check(w, where)
        n, h, q, k = w.shape
        if num_key_value_heads is not None and h % num_key_value_heads:
            raise ValueError(f"{where}: num_key_value_heads={num_key_value_heads} does not "
                             f"divide its {h} heads; grouped-query attention shares each "
                             "key/value head among heads / num_key_value_heads query heads")
        other = first.setdefault((group, step), (i, name, n, h))
        if other[2:] != (n, h):
            raise ValueError(f"{where}: has {h} heads and batch {n}, but layer {other[0]} "
                             f"({other[1]}) of the same stack has {other[3]} heads and batch "
                             f"{other[2]}: ragged layers (pass the attentions of one model and "
                             "one input)")
        decoder_side = group in ("decoder", "cross")
        queries = target_tokens if decoder_side and target_tokens else tokens
        keys = target_tokens if group == "decoder" and target_tokens else tokens
        for length, labels, side in ((q, queries, "queries"), (k, keys, "keys")):
            if labels is None:
                continue
            if step >= 0:
                if length > len(labels):
                    raise ValueError(f"{where}: sees {length} {side} but {len(labels)} tokens "
                                     "were given; in a generation the tokens label the whole "
                                     "sequence, prompt and generated tokens")
            elif length != len(labels):
                fix = ("; give the decoder's tokens too (target_tokens)"
                       if decoder_side and not target_tokens else
                       "; give one token per position of the input the weights were computed "
                       "from")
                raise ValueError(f"{where}: has {length} {side} but {len(labels)} tokens were "
                                 f"given{fix}")
        layer = {"name": name, "shape": [int(n), int(h), int(q), int(k)],
                 "dtype": "float64" if w.dtype == np.float64 else "float32"}
        if group:
            layer["group"] = group
        if step >= 0:
            layer["step"] = step
        layers.append(layer)
        tensors[f"{i}/weights"] = w
    index = {"format": "mhaviz-model", "version": 4, "tensors": os.path.basename(prefix) + ".npz",
             "layers": layers}
    if tokens is not None:
        index["tokens"] = tokens
    if target_tokens is not None:
        index["target_tokens"] = target_tokens
    if num_key_value_heads is not None:
        index["num_key_value_heads"] = int(num_key_value_heads)
    if caption:
        index["caption"] = str(caption)
    if steps > 0:
        index["steps"] = steps
    folder = os.path.dirname(prefix)
    if folder:
        os.makedirs(folder, exist_ok=True)
    # Each file written beside its final name and renamed into place (atomic saves).
    np.savez_compressed(f"{prefix}.npz.part.npz", **tensors)
    os.replace(f"{prefix}.npz.part.npz", f"{prefix}.npz")
    with open(f"{prefix}.json.part", "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1, ensure_ascii=False)
    os.replace(f"{prefix}.json.part", f"{prefix}.json")
    return f"{prefix}.json"

