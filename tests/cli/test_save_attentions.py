#!/usr/bin/python3
"""ctest `save-attentions`: mhaviz_capture.save_attentions on what users pass it (a tuple per
layer, a stacked array, NumPy, a Hugging Face-style output object, an encoder-decoder dict, a
generation's tuple of tuples, grouped-query heads) and its errors and warning, each file then
read by mhaviz-cli (the same checks in C++).

    test_save_attentions.py TOOLS_DIR MHAVIZ_CLI
"""
import os
import subprocess
import sys
import tempfile
import warnings

sys.path.insert(0, sys.argv[1])
CLI = sys.argv[2]

import numpy as np  # noqa: E402
import torch  # noqa: E402

import mhaviz_capture  # noqa: E402

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def cli(*args):
    run = subprocess.run([CLI, "model", *args], capture_output=True, text=True,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    return run.returncode, run.stdout, run.stderr


def softmax(*shape, causal=False):
    scores = torch.randn(*shape)
    if causal:
        scores = scores.masked_fill(torch.ones(shape[-2], shape[-1]).triu(1).bool(), float("-inf"))
    return torch.softmax(scores, -1)


def raises(fn, *fragments):
    try:
        fn()
    except (ValueError, TypeError) as e:
        for f in fragments:
            check(f in str(e), f"message {str(e)!r} lacks {f!r}")
        return
    failures.append(f"no error with {fragments[0]!r}")


torch.manual_seed(0)
tokens = ["a", "b", "c", "d", "e"]
with tempfile.TemporaryDirectory() as d:
    path = lambda name: os.path.join(d, name)  # noqa: E731

    # A tuple per layer (outputs.attentions), float16 on the way: read back as float32.
    att = tuple(softmax(2, 4, 5, 5) for _ in range(3))
    index = mhaviz_capture.save_attentions(tuple(a.half() for a in att), tokens, path("t"))
    code, out, err = cli("--model", index, "--stats")
    check(code == 0 and "layer 2 (attentions.2): entropy" in out, f"tuple: {code} {err}")

    # One stacked NumPy array without a batch, and an output object read by its attributes.
    stacked = np.stack([a[0].numpy() for a in att])
    mhaviz_capture.save_attentions(stacked, tokens, path("s"))
    code, out, _ = cli("--model", path("s.json"), "--rollout")
    check(code == 0 and "rollout over layers 0 1 2" in out, "stacked: rollout")

    class Output:  # what transformers returns, without importing it
        attentions = att
        logits = None
    mhaviz_capture.save_attentions(Output(), tokens, path("o"), num_key_value_heads=2)
    code, out, _ = cli("--model", path("o.json"), "--image", path("o.svg"))
    with open(path("o.svg"), encoding="utf-8") as f:
        check(code == 0 and ">head 3 · kv 1<" in f.read(), "output object: GQA labels")

    # An encoder-decoder (BertViz's model_view input) as a dict.
    target = ["<s>", "x", "y"]
    ed = {"encoder_attentions": att,
          "decoder_attentions": tuple(softmax(2, 4, 3, 3, causal=True) for _ in range(2)),
          "cross_attentions": tuple(softmax(2, 4, 3, 5) for _ in range(2))}
    mhaviz_capture.save_attentions(ed, tokens, path("ed"), target_tokens=target)
    code, out, err = cli("--model", path("ed.json"), "--layer", "5", "--view", "head", "--image",
                         path("cross.svg"))
    with open(path("cross.svg"), encoding="utf-8") as f:
        svg = f.read()
    check(code == 0 and ">x<" in svg and ">e<" in svg, f"encoder-decoder: cross layer {err}")
    raises(lambda: mhaviz_capture.save_attentions(ed, tokens, path("x")),
           "decoder_attentions.0", "3 queries but 5 tokens", "target_tokens")

    # A generation with a KV cache: step 0 the 3-token prompt, then one token a step.
    steps = [tuple(softmax(1, 2, 3, 3, causal=True) for _ in range(2))]
    steps += [tuple(softmax(1, 2, 1, 3 + k) for _ in range(2)) for k in (1, 2)]
    mhaviz_capture.save_attentions(tuple(steps), tokens, path("g"))
    code, out, err = cli("--model", path("g.json"), "--steps")
    check(code == 0 and "generation: 3 steps" in out, f"generation: {err}")
    check("position 3 (d) -> e" in out and "step 2: 2 calls, query length 1, keys 5" in out,
          f"generation steps: {out}")

    # Errors (the same words as mhaviz's own reader) and the warning.
    raises(lambda: mhaviz_capture.save_attentions([att[0][0, 0]], tokens, path("x")),
           "layer 0 (attentions.0)", "has rank 2")
    nan = att[0].clone()
    nan[1, 2, 3, 4] = float("nan")
    raises(lambda: mhaviz_capture.save_attentions([nan], tokens, path("x")),
           "batch 1, head 2, query 3, key 4", "must be finite")
    raises(lambda: mhaviz_capture.save_attentions([-att[0]], tokens, path("x")), "at least 0")
    raises(lambda: mhaviz_capture.save_attentions((att[0], softmax(2, 3, 5, 5)), tokens,
                                                  path("x")), "ragged layers")
    raises(lambda: mhaviz_capture.save_attentions(att, tokens[:4], path("x")),
           "5 queries but 4 tokens")
    raises(lambda: mhaviz_capture.save_attentions(att, tokens, path("x"), num_key_value_heads=3),
           "num_key_value_heads=3 does not divide its 4 heads")
    raises(lambda: mhaviz_capture.save_attentions({"logits": 1}, tokens, path("x")),
           "output_attentions=True")
    raises(lambda: mhaviz_capture.save_attentions(np.ones((1025, 1, 1, 1), np.float32), None,
                                                  path("x")), "1025 layers")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mhaviz_capture.save_attentions([att[0] * 0.9], tokens, path("w"))
    check(any("not renormalised" in str(w.message) for w in caught), "no row-sum warning")
    code, _, err = cli("--model", path("w.json"), "--stats")
    check(code == 0 and "warning: " in err and "rows do not sum to 1" in err, "CLI warning")

    # Finding mhaviz-cli: a wrong explicit path names the fix.
    raises_fnf = False
    try:
        mhaviz_capture.find_cli(path("nothing"))
    except FileNotFoundError as e:
        raises_fnf = "MHAVIZ" in str(e) or "mhaviz-cli" in str(e)
    check(raises_fnf, "find_cli: no clear FileNotFoundError")

for f in failures:
    print("FAIL:", f)
print(f"save_attentions: {len(failures)} problems")
sys.exit(1 if failures else 0)
