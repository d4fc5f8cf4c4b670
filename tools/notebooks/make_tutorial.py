#!/usr/bin/python3
"""Writes attention-from-arrays.ipynb, the tutorial notebook (without outputs): attention
weights as arrays in, mhaviz's pictures out. ctest `notebook` runs it (run_notebook.py).
Run from anywhere: /usr/bin/python3 tools/notebooks/make_tutorial.py"""
import pathlib

import nbformat

HERE = pathlib.Path(__file__).resolve().parent

CELLS = [
    ("markdown", """\
# Attention from arrays, drawn by mhaviz

You have attention weights already: a Hugging Face model's `outputs.attentions` (one
`(batch, heads, queries, keys)` tensor per layer, BertViz's input), a TransformerLens cache, a
NumPy computation. `mhaviz_capture` draws them inline with mhaviz's own pictures: SVG (or PNG
with `format="png"`), no network, no JavaScript, the same pictures `mhaviz-cli` exports.
`.show()` on any picture opens the same weights in the mhaviz window.

Here the weights come from a small stack of `torch.nn.MultiheadAttention` layers with random
parameters, in exactly the shape `model(..., output_attentions=True).attentions` has; nothing is
downloaded."""),
    ("code", """\
import torch
import mhaviz_capture

torch.manual_seed(0)
tokens = ["[CLS]", "the", "cat", "sat", "on", "the", "mat", "[SEP]"]
L, E, H = len(tokens), 32, 4
x = torch.randn(1, L, E)
layers = [torch.nn.MultiheadAttention(E, H, batch_first=True).eval() for _ in range(3)]
attentions = []
with torch.no_grad():
    for layer in layers:
        y, w = layer(x, x, x, need_weights=True, average_attn_weights=False)
        attentions.append(w)          # (batch, heads, queries, keys)
        x = x + y
attentions = tuple(attentions)        # as outputs.attentions
[tuple(a.shape) for a in attentions]"""),
    ("markdown", "The **head view**: queries left, keys right, one line per head as strong as its weight."),
    ("code", "mhaviz_capture.head_view(attentions, tokens, layer=1)"),
    ("markdown", "The **text view**: the keys as running text, shaded by what one query gives them."),
    ("code", "mhaviz_capture.text_view(attentions, tokens, layer=1, query=2)"),
    ("markdown", "The **heatmap grid** of one layer: each head, and their average."),
    ("code", "mhaviz_capture.heatmaps(attentions, tokens, layer=1)"),
    ("markdown", "The **model view**: layers (rows) × heads (columns)."),
    ("code", "mhaviz_capture.model_view(attentions, tokens)"),
    ("markdown", "**Attention rollout** (Abnar & Zuidema 2020) across the layers."),
    ("code", "mhaviz_capture.rollout(attentions, tokens)"),
    ("markdown", """\
## An encoder-decoder, as BertViz's `model_view` takes it

Pass the output object (or a dict) holding `encoder_attentions`, `decoder_attentions` and
`cross_attentions`; `tokens` are the encoder's, `target_tokens` the decoder's. Layers 0–1 are
the encoder's, 2–3 the decoder's, 4–5 the cross-attention."""),
    ("code", """\
source = ["the", "cat", "sat", "down"]
target = ["<s>", "le", "chat"]
def weights(heads, queries, keys, causal=False):
    scores = torch.randn(1, heads, queries, keys) * 2
    if causal:  # a decoder's self-attention sees the tokens before it
        scores = scores.masked_fill(torch.ones(queries, keys).triu(1).bool(), float("-inf"))
    return torch.softmax(scores, dim=-1)
outputs = {
    "encoder_attentions": tuple(weights(H, len(source), len(source)) for _ in range(2)),
    "decoder_attentions": tuple(weights(H, len(target), len(target), True) for _ in range(2)),
    "cross_attentions": tuple(weights(H, len(target), len(source)) for _ in range(2)),
}
mhaviz_capture.head_view(outputs, source, layer=4, target_tokens=target)"""),
    ("markdown", """\
## Grouped-query attention

With `num_key_value_heads`, the query heads sharing a key/value head are labelled and banded
in one colour (here 8 heads, 2 key/value heads)."""),
    ("code", """\
gqa = tuple(weights(8, L, L) for _ in range(2))
mhaviz_capture.model_view(gqa, tokens, num_key_value_heads=2, width=1200, height=500)"""),
    ("markdown", """\
## To a file, and into the window

`mhaviz_capture.save_attentions(attentions, tokens, "mine")` writes `mine.json` and
`mine.npz`, a weights-only model file that File > Open, `mhaviz mine.json` and
`mhaviz-cli model --model mine.json` read; `picture.save("head.svg")` writes a picture;
`picture.show()` opens its weights in the mhaviz window."""),
    ("code", """\
import os, tempfile
folder = tempfile.mkdtemp()
index = mhaviz_capture.save_attentions(attentions, tokens, os.path.join(folder, "mine"))
sorted(os.listdir(folder))"""),
]

# What each picture must show as SVG text: its tokens (and the head labels of grouped heads).
EXPECT = {
    "head_view(attentions": ["[CLS]", "cat", "mat", "[SEP]"],
    "text_view(": ["cat", "mat"],
    "heatmaps(": ["[CLS]", "sat", "head 3"],
    "model_view(attentions": ["head 3", "[CLS]", "mat"],
    "rollout(": ["rollout", "[CLS]", "mat"],
    "head_view(outputs": ["le", "chat", "cat", "down"],
    "model_view(gqa": ["head 7 · kv 1", "head 0 · kv 0", "mat"],
}


def main():
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    for kind, text in CELLS:
        if kind == "markdown":
            nb.cells.append(nbformat.v4.new_markdown_cell(text))
            continue
        cell = nbformat.v4.new_code_cell(text)
        picture = text.splitlines()[-1]
        for call, expect in EXPECT.items():
            if picture.startswith("mhaviz_capture." + call):
                # run_notebook.py: an inline SVG holding these texts
                cell.metadata["mhaviz_expect_svg"] = expect
        nb.cells.append(cell)
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    nbformat.write(nb, HERE / "attention-from-arrays.ipynb")


if __name__ == "__main__":
    main()
