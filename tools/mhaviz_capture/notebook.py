"""mhaviz's pictures inline in a notebook, drawn by mhaviz-cli: no network, no JavaScript.

Each function takes a model file (what capture_model(), capture_generation() or
save_attentions() wrote: its path prefix or .json) or attention weights and tokens as
save_attentions() takes them, and returns a Picture, which IPython displays inline (SVG by
default, PNG with format="png"), .save(path) writes and .show() opens in the mhaviz window:

    mhaviz_capture.head_view(outputs.attentions, tokens, layer=2)
    mhaviz_capture.text_view(outputs.attentions, tokens, layer=2, query=0)
    mhaviz_capture.heatmaps(outputs.attentions, tokens, layer=2)      # the heatmap grid
    mhaviz_capture.model_view(outputs.attentions, tokens)             # layers x heads
    mhaviz_capture.rollout(outputs.attentions, tokens)

mhaviz-cli is looked for in this order: program=, the MHAVIZ_CLI environment variable, PATH
(the installed package), then the build tree this module sits in (build/bin).
"""

import os
import re
import shutil
import subprocess
import tempfile

from .attentions import save_attentions

__all__ = ["Picture", "head_view", "text_view", "heatmaps", "model_view", "rollout",
           "find_cli"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def find_cli(program=None):
    """The mhaviz-cli to draw with: `program`, $MHAVIZ_CLI, `mhaviz-cli` on PATH, or the build
    tree's build/bin/mhaviz-cli. Raises FileNotFoundError naming the fixes when there is none."""
    looked = []
    for candidate, what in ((program, "program="), (os.environ.get("MHAVIZ_CLI"), "MHAVIZ_CLI")):
        if candidate:
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
            raise FileNotFoundError(f"mhaviz_capture: {what} {candidate} is not an executable "
                                    "mhaviz-cli; give the path of build/bin/mhaviz-cli or of the "
                                    "installed /usr/bin/mhaviz-cli")
    found = shutil.which("mhaviz-cli")
    if found:
        return found
    looked.append("PATH")
    # tools/mhaviz_capture -> the source tree's build/bin (and an installed tree's bin).
    for root in (os.path.join(_HERE, "..", ".."), os.path.join(_HERE, "..")):
        built = os.path.normpath(os.path.join(root, "build", "bin", "mhaviz-cli"))
        if os.path.isfile(built) and os.access(built, os.X_OK):
            return built
        looked.append(built)
    raise FileNotFoundError(
        "mhaviz_capture: mhaviz-cli was not found (looked in " + ", ".join(looked) + "). "
        "Install mhaviz (docs/install.md), build it (cmake --build --preset release), set "
        "MHAVIZ_CLI to its path, or pass program='/path/to/mhaviz-cli'")


def _px_size(svg):
    """The SVG's width and height in pixels (QSvgGenerator writes millimetres): as drawn."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    if not box:
        return svg
    w, h = box.groups()
    svg = re.sub(r'<svg width="[^"]*" height="[^"]*"', f'<svg width="{w}" height="{h}"', svg,
                 count=1)
    return svg


class Picture:
    """A picture drawn by mhaviz-cli: shown inline by IPython (_repr_svg_ or _repr_png_)."""

    def __init__(self, data, format, index, keep=None):
        self.data = data          # SVG text or PNG bytes
        self.format = format      # "svg" or "png"
        self.index = index        # the model file drawn (its .json)
        self._keep = keep         # the temporary folder of a model written from arrays

    def _repr_svg_(self):
        return self.data if self.format == "svg" else None

    def _repr_png_(self):
        return self.data if self.format == "png" else None

    def save(self, path):
        """Writes the picture (SVG text or PNG bytes, as drawn) to `path`."""
        mode = "w" if self.format == "svg" else "wb"
        with open(path, mode, **({"encoding": "utf-8"} if mode == "w" else {})) as f:
            f.write(self.data)
        return path

    def show(self, program=None):
        """Opens the model this picture was drawn from in the mhaviz window (mhaviz_capture.show)."""
        from . import show
        return show(self.index, program=program)


def _source(source, tokens, options):
    """The model index to draw: the file given, or the arrays written to a temporary folder."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        index = path if path.endswith(".json") else path + ".json"
        if not os.path.isfile(index):
            raise FileNotFoundError(f"mhaviz_capture: {index} does not exist; give the path "
                                    "prefix or .json that capture_model() or save_attentions() "
                                    "wrote, or the attentions themselves")
        if tokens is not None or options:
            raise TypeError("mhaviz_capture: tokens and save_attentions' options go with "
                            "attentions; a model file carries its own")
        return index, None
    keep = tempfile.TemporaryDirectory(prefix="mhaviz-")
    index = save_attentions(source, tokens, os.path.join(keep.name, "attentions"), **options)
    return index, keep


def _draw(source, tokens, arguments, format, width, height, program, options):
    if format not in ("svg", "png"):
        raise ValueError(f"format={format!r}: mhaviz draws 'svg' (default) or 'png'")
    cli = find_cli(program)
    index, keep = _source(source, tokens, options)
    with tempfile.TemporaryDirectory(prefix="mhaviz-picture-") as folder:
        image = os.path.join(folder, "picture." + format)
        command = [cli, "model", "--model", index, *arguments, "--image", image,
                   "--width", str(width), "--height", str(height)]
        run = subprocess.run(command, capture_output=True, text=True,
                             env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        if run.returncode != 0:
            lines = [line for line in run.stderr.splitlines() if line.startswith("error: ")]
            raise ValueError("mhaviz-cli: " + (lines[0][len("error: "):] if lines
                                               else run.stderr.strip() or "failed"))
        if format == "svg":
            with open(image, encoding="utf-8") as f:
                data = _px_size(f.read())
        else:
            with open(image, "rb") as f:
                data = f.read()
    return Picture(data, format, index, keep)


def _layer_arguments(view, layer, query=None, head=None):
    arguments = ["--layer", str(int(layer)), "--view", view]
    if query is not None:
        arguments += ["--query", str(int(query))]
    if head is not None:
        arguments += ["--head", str(int(head))]
    return arguments


def head_view(source, tokens=None, layer=0, *, query=None, coverage=None, batch=0, format="svg",
              width=900, height=500, program=None, **options):
    """The head view of one layer: queries left, keys right, a line per head as strong as its
    weight (only `query`'s lines when given; per query and head only the strongest lines
    carrying the share `coverage` of its weight). `source`: a model file or the attentions
    (save_attentions' input, its keyword options too)."""
    arguments = _layer_arguments("head", layer, query) + ["--batch", str(batch)]
    if coverage is not None:
        arguments += ["--coverage", str(float(coverage))]
    return _draw(source, tokens, arguments, format, width, height, program, options)


def text_view(source, tokens=None, layer=0, *, query=None, head=None, batch=0, format="svg",
              width=900, height=300, program=None, **options):
    """The text view of one layer: the keys as running text, shaded by the weight `query`
    (default: the last) gives them, by `head` or the heads' average."""
    return _draw(source, tokens,
                 _layer_arguments("text", layer, query, head) + ["--batch", str(batch)],
                 format, width, height, program, options)


def heatmaps(source, tokens=None, layer=0, *, head=None, batch=0, format="svg", width=1000,
             height=450, program=None, **options):
    """The heatmap grid of one layer: every head's weights (or `head` alone) and their average."""
    return _draw(source, tokens,
                 _layer_arguments("grid", layer, head=head) + ["--batch", str(batch)],
                 format, width, height, program, options)


def model_view(source, tokens=None, *, batch=0, format="svg", width=1000, height=700,
               program=None, **options):
    """Layers (rows) x heads (columns) of small maps, as the window's model view."""
    return _draw(source, tokens, ["--batch", str(batch)], format, width, height, program,
                 options)


def rollout(source, tokens=None, *, batch=0, format="svg", width=700, height=600,
            program=None, **options):
    """Attention rollout (Abnar & Zuidema 2020) over the self-attention layers."""
    return _draw(source, tokens, ["--rollout", "--batch", str(batch)], format, width, height,
                 program, options)
