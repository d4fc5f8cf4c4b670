#!/usr/bin/python3
"""Writes the committed seed corpus of the libFuzzer targets into tests/fuzz/corpus/<target>/.

Seeds are small valid (and a few deliberately invalid) files: copies of tests/fixtures/io,
the input tensors of a few tests/fixtures/mha cases, and configurations exercising every
generation setting. Run from anywhere: /usr/bin/python3 tests/fuzz/make_corpus.py
"""
import io
import json
import pathlib
import shutil
import struct
import zipfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
OUT = pathlib.Path(__file__).resolve().parent / "corpus"

# tests/fixtures/mha cases whose inputs seed the pipeline target (small and varied).
MHA_CASES = [
    "single_head", "mask3d_per_head", "kpm_bool_with_float_mask", "static_k_static_v",
    "bias_kv_and_zero_attn_separate", "unbatched_batch_first", "separate_kdim_vdim",
    "bias_kv_and_zero_attn_f64",
]

CONFIGS = {
    "default": {},
    "causal_bool": {"embed_dim": 8, "num_heads": 2, "tgt_len": 4, "src_len": 4,
                    "attn_mask": {"kind": "causal", "dtype": "bool", "shape": "2d"}},
    "window_float3d": {"embed_dim": 6, "num_heads": 3, "batch_size": 2, "tgt_len": 5,
                       "src_len": 5, "attn_mask": {"kind": "window", "width": 2,
                                                   "dtype": "float", "shape": "3d",
                                                   "masked_value": -10000}},
    "band": {"attn_mask": {"kind": "band", "width": 2}},
    "block": {"attn_mask": {"kind": "block", "segments": [2, 3]}},
    "random": {"training": True, "dropout": 0.5, "dropout_seed": 7,
               "attn_mask": {"kind": "random", "probability": 0.3, "seed": 4}},
    "custom": {"tgt_len": 3, "src_len": 4, "attn_mask": {
        "kind": "custom", "dtype": "float", "shape": "3d",
        "cells": [[0, 1], [1, 2, -5.5], {"b": 1, "i": 2, "j": 3, "value": "-inf"}]}},
    "alibi": {"num_heads": 4, "attn_mask": {"kind": "alibi", "dtype": "float", "shape": "3d",
                                            "causal": True}},
    "graph_table": {"attn_mask": {"kind": "graph", "dtype": "float", "shape": "3d",
                                  "edges": [[0, 1], [1, 2], [5, 6]], "edge_probability": 0.1,
                                  "graph_bias": "table", "max_distance": 3,
                                  "table_scale": 0.5}},
    "padding_lengths": {"batch_size": 2, "add_zero_attn": True,
                        "key_padding_mask": {"valid_lengths": [5, 0], "dtype": "float"}},
    "padding_keys": {"batch_size": 2, "add_bias_kv": True,
                     "key_padding_mask": {"kind": "keys", "padded_keys": [[0, 2], [7]]}},
    "inputs_onehot": {"inputs": {"kind": "one_hot", "scale": 2.0}, "weights": {
        "kind": "identity"}},
    "inputs_sinusoidal_self": {"inputs": {"kind": "sinusoidal", "content_scale": 0.1,
                                          "self_attention": True},
                               "weights": {"kind": "default", "scale": 0.5}},
    "separate_kv_unbatched": {"kdim": 5, "vdim": 3, "batch_size": None, "batch_first": True,
                              "need_weights": True, "average_attn_weights": False,
                              "dtype": "float64", "is_causal": True,
                              "attn_mask": {"kind": "causal"}},
    "labels": {"tgt_len": 2, "src_len": 3, "query_labels": ["a", "b"],
               "key_labels": ["x", "y", "z"], "seed": 18446744073709551615},
    "bad_divisible": {"embed_dim": 10, "num_heads": 4},
    # sizes whose products wrap around 2^64 (the memory estimate must still refuse them)
    "sizes_wrap": {"embed_dim": 4611686018427387904, "num_heads": 1, "tgt_len": 4,
                   "src_len": 4},
    "bad_unknown_key": {"embed_dims": 8},
}


def safetensors_bytes(tensors):
    """The layout safetensors.torch.save_file writes (header padded to 8 bytes)."""
    codes = {np.dtype("float32"): "F32", np.dtype("float64"): "F64",
             np.dtype("bool"): "BOOL", np.dtype("uint8"): "U8"}
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        raw = a.tobytes()
        header[name] = {"dtype": codes[a.dtype], "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def npz_bytes(tensors, compressed):
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **tensors)
    return buf.getvalue()


def npy_bytes(array):
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def write(target, name, data):
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    for f in sorted((FIX / "io").iterdir()):
        target = {".npy": "fuzz_npy", ".npz": "fuzz_npz", ".safetensors": "fuzz_safetensors"}
        if f.suffix in target:
            write(target[f.suffix], f.name, f.read_bytes())

    rng = np.random.default_rng(0)
    small = {"query": rng.standard_normal((3, 1, 4), dtype=np.float32),
             "attn_mask": np.triu(np.ones((3, 3), dtype=bool), 1),
             "key_padding_mask": np.array([[0, 1, 0]], dtype=np.uint8)}
    write("fuzz_npz", "small_stored.npz", npz_bytes(small, False))
    write("fuzz_npz", "small_deflated.npz", npz_bytes(small, True))
    write("fuzz_safetensors", "small.safetensors", safetensors_bytes(small))
    write("fuzz_npy", "f8_3d.npy", npy_bytes(rng.standard_normal((2, 3, 2))))
    write("fuzz_npy", "f4_fortran_3d.npy",
          npy_bytes(np.asfortranarray(rng.standard_normal((2, 3, 2)).astype(np.float32))))

    for name, cfg in CONFIGS.items():
        write("fuzz_config", name + ".json", json.dumps(cfg).encode())
    for case in MHA_CASES:
        cfg = (FIX / "mha" / (case + ".json")).read_bytes()
        write("fuzz_config", case + ".json", cfg)
        with np.load(FIX / "mha" / (case + ".npz")) as z:
            inputs = {k: z[k] for k in z.files if not k.startswith("expected.")}
        # The pipeline input: config JSON, NUL, tensors file (safetensors, or npz for some).
        tensors = (npz_bytes(inputs, case.endswith("f64")) if case.startswith("bias_kv")
                   else safetensors_bytes(inputs))
        write("fuzz_pipeline", case + ".bin", cfg + b"\0" + tensors)
    for name, cfg in CONFIGS.items():
        write("fuzz_pipeline", "gen_" + name + ".bin", json.dumps(cfg).encode())
    # The model-file reader: index, NUL, tensors file (its "tensors" key is TENSORS, which
    # fuzz_model replaces by its scratch file's name). vit and vit_gray hold format version 3's
    # image members (image/input, image/picture).
    for name in ("vit", "vit_gray", "extras"):
        index = json.loads((FIX / "models" / (name + ".json")).read_text(encoding="utf-8"))
        index["tensors"] = "TENSORS"
        write("fuzz_model", name + ".bin", json.dumps(index).encode() + b"\0"
              + (FIX / "models" / (name + ".npz")).read_bytes())
    with np.load(FIX / "models" / "vit.npz") as z:
        image = {k: z[k] for k in ("image/input", "image/picture")}
    write("fuzz_npz", "vit_image.npz", npz_bytes(image, True))
    weights_corpus(rng)


def weights_corpus(rng):
    """Plain attention weights for fuzz_weights: a stack, per-layer arrays, an encoder-decoder."""
    def softmax(shape):
        x = np.exp(rng.standard_normal(shape))
        return (x / x.sum(-1, keepdims=True)).astype(np.float32)
    write("fuzz_weights", "layers.npz",
          npz_bytes({f"attentions.{i}": softmax((1, 2, 4, 4)) for i in range(3)}, False))
    write("fuzz_weights", "stacked.npz", npz_bytes({"attentions": softmax((2, 1, 2, 3, 3))}, True))
    write("fuzz_weights", "encoder_decoder.npz",
          npz_bytes({"encoder_attentions.0": softmax((2, 4, 4)),
                     "decoder_attentions.0": softmax((2, 3, 3)),
                     "cross_attentions.0": softmax((2, 3, 4))}, False))


if __name__ == "__main__":
    main()
