#!/usr/bin/python3
"""mhaviz-cli model --view image against an independent NumPy computation (ctest cli-image-view).

For the torchvision ViT of tests/fixtures/models/vit.json (make_vision_fixtures.py), NumPy
recomputes the attention weights of the layer shown from the captured inputs and the
state_dict (in_proj, scaled dot product, softmax per head), takes the query's row, splits it into
the class token and the 4x4 patches, upsamples it to the pixels of the picture (nearest: each
pixel its patch; smooth: bilinear between patch centres, clamped at the edges), and blends it
over the stored picture (the colour map at the opacity, or the picture times the weight). The
overlay mhaviz drew (--out: the same image the picture file holds) must equal it pixel for pixel.
The colour map the overlay used (--out's lut) is checked against the published colours of
viridis (the default) and of magma (--colormap magma, as export takes it) at 0, 1/4, 1/2, 3/4 and
1 (matplotlib's listed colour maps, which mhaviz interpolates from 17 stops: within 4 of 255).
Usage: check_image_view.py MHAVIZ_CLI FIXTURE_DIR WORK_DIR
"""

import json
import os
import subprocess
import sys

import numpy as np

CLI, FIXTURES, WORK = sys.argv[1:4]
INDEX = os.path.join(FIXTURES, "models", "vit.json")


# matplotlib's viridis and magma (van der Walt, Smith and Firing; CC0) at 0, 0.25, 0.5, 0.75, 1
ANCHORS = {
    "viridis": ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"],
    "magma": ["#000004", "#51127c", "#b73779", "#fc8961", "#fcfdbf"],
}


def check_lut(name, lut, colormap):
    """The 256 colours mhaviz used are `colormap`'s published ones at the anchors."""
    assert lut.shape == (256, 3), f"{name}: lut has shape {lut.shape}"
    for position, colour in zip((0, 0.25, 0.5, 0.75, 1), ANCHORS[colormap]):
        want = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
        got = lut[int(np.floor(position * 255 + 0.5))].astype(int)
        assert np.abs(got - want).max() <= 4, \
            f"{name}: colour map at {position} is {got}, {colormap} is {want} ({colour})"


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def layer_weights(tensors, layer, heads):
    """(N, H, L, S) attention weights of a batch_first self-attention layer, in float64."""
    x = tensors[f"{layer}/query"].astype(np.float64)
    w = tensors[f"{layer}/in_proj_weight"].astype(np.float64)
    b = tensors[f"{layer}/in_proj_bias"].astype(np.float64)
    n, length, e = x.shape
    d = e // heads
    q, k = x @ w[:e].T + b[:e], x @ w[e:2 * e].T + b[e:2 * e]
    q = q.reshape(n, length, heads, d).transpose(0, 2, 1, 3)
    k = k.reshape(n, length, heads, d).transpose(0, 2, 1, 3)
    return softmax(q @ k.transpose(0, 1, 3, 2) / np.sqrt(d))


def upsample(grid, height, width, smooth):
    rows, cols = grid.shape
    if not smooth:
        return grid[np.arange(height) * rows // height][:, np.arange(width) * cols // width]
    v = np.clip((np.arange(height) + 0.5) * rows / height - 0.5, 0, rows - 1)
    u = np.clip((np.arange(width) + 0.5) * cols / width - 0.5, 0, cols - 1)
    r0, c0 = np.floor(v).astype(int), np.floor(u).astype(int)
    r1, c1 = np.minimum(r0 + 1, rows - 1), np.minimum(c0 + 1, cols - 1)
    ty, tx = (v - r0)[:, None], (u - c0)[None, :]
    top = (1 - tx) * grid[r0][:, c0] + tx * grid[r0][:, c1]
    bottom = (1 - tx) * grid[r1][:, c0] + tx * grid[r1][:, c1]
    return (1 - ty) * top + ty * bottom


def run(name, *options):
    out = os.path.join(WORK, name + ".npz")
    picture = os.path.join(WORK, name + ".png")
    subprocess.run([CLI, "model", "--model", INDEX, "--view", "image", "--out", out,
                    "--image", picture, *options], check=True, stdout=subprocess.DEVNULL)
    with open(picture, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", f"{picture} is not a PNG"
    return np.load(out)


def check(name, row, grid_shape, picture, smooth, style, opacity, *options, colormap="viridis"):
    got = run(name, *options)
    if style == "colormap":
        check_lut(name, got["lut"], colormap)
    prefix, grid = row[:1], row[1:].reshape(grid_shape)
    assert np.allclose(got["weights"], grid, atol=1e-6), f"{name}: patch weights differ"
    assert np.allclose(got["prefix"], prefix, atol=1e-6), f"{name}: prefix weight differs"
    factor = int(got["factor"])
    base = picture.repeat(factor, 0).repeat(factor, 1).astype(np.float64)
    pixels = upsample(grid, base.shape[0], base.shape[1], smooth)
    assert np.allclose(got["pixels"], pixels, atol=1e-6), f"{name}: upsampled weights differ"
    scale = grid.max()
    assert abs(float(got["scale"]) - scale) < 1e-6
    w = np.clip(pixels / scale, 0, 1)[..., None]
    if style == "colormap":
        lut = got["lut"].astype(np.float64)
        colours = lut[np.floor(w[..., 0] * 255 + 0.5).astype(int)]
        want = np.floor((1 - opacity) * base + opacity * colours + 0.5)
    else:
        want = np.floor(base * w + 0.5)
    diff = np.abs(got["overlay"].astype(np.float64) - want)
    # a value within 1e-9 of .5 may round either way in the two computations
    assert diff.max() <= 1 and (diff > 0).mean() < 1e-3, \
        f"{name}: overlay differs at {(diff > 0).sum()} values (largest {diff.max()})"
    print(f"{name}: {got['overlay'].shape[0]}x{got['overlay'].shape[1]} pixels agree "
          f"({(diff > 0).sum()} off by one)")


def main():
    os.makedirs(WORK, exist_ok=True)
    with open(INDEX, encoding="utf-8") as f:
        index = json.load(f)
    tensors = np.load(os.path.join(FIXTURES, "models", "vit.npz"))
    heads = index["layers"][1]["config"]["num_heads"]
    rows, cols = index["image"]["grid"]
    weights = [layer_weights(tensors, i, heads) for i in range(len(index["layers"]))]
    pictures = tensors["image/picture"]
    w1 = weights[1]
    # the defaults: the first layer over the image, head 0, the class token
    check("head0", weights[0][0, 0, 0], (rows, cols), pictures[0], False, "colormap", 0.6)
    check("mean_r1c2_smooth_brighten", w1[1].mean(0)[1 + 1 * cols + 2], (rows, cols),
          pictures[1], True, "brighten", 0, "--layer", "1", "--head", "mean", "--query", "r1c2",
          "--batch", "1", "--upsampling", "smooth", "--overlay", "brighten")
    check("layer0_head1", weights[0][0, 1, 5], (rows, cols), pictures[0], True, "colormap",
          0.3, "--layer", "0", "--head", "1", "--query", "5", "--upsampling", "smooth",
          "--opacity", "0.3")
    # another colour map, by export's option name: the overlay blends magma's colours
    check("head1_magma", weights[0][0, 1, 0], (rows, cols), pictures[0], False, "colormap", 0.8,
          "--head", "1", "--opacity", "0.8", "--colormap", "magma", colormap="magma")
    # rollout (Abnar & Zuidema 2020): head mean + identity, rows normalised, multiplied
    rollout = np.eye(rows * cols + 1)
    for w in weights:
        a = w[0].mean(0) + np.eye(w.shape[-1])
        rollout = (a / a.sum(-1, keepdims=True)) @ rollout
    check("rollout", rollout[0], (rows, cols), pictures[0], False, "colormap", 0.6, "--rollout")
    for ext in ("svg", "pdf"):
        path = os.path.join(WORK, "view." + ext)
        subprocess.run([CLI, "model", "--model", INDEX, "--view", "image", "--image", path],
                       check=True, stdout=subprocess.DEVNULL)
        with open(path, "rb") as f:
            head = f.read(5)
        assert head in (b"<?xml", b"%PDF-") and os.path.getsize(path) > 1000, path
    print("OK: mhaviz-cli model --view image agrees with NumPy")


if __name__ == "__main__":
    main()
