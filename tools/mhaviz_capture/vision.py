"""Vision transformers for capture_model(image=...): the image the model saw, the patch grid
and the prefix tokens, written as model file version 3 (docs/capture-and-models.md)."""

import numpy as np
import torch

MAX_PATCHES = 4096


def _pair(value, what):
    if isinstance(value, int):
        return value, value
    try:
        a, b = (int(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"capture_model: {what} must be an int or two ints, not {value!r}")
    return a, b


def _known_vit(model):
    """(patch_size, prefix names) of a torchvision VisionTransformer, else None."""
    if type(model).__name__ == "VisionTransformer" and hasattr(model, "patch_size") \
            and hasattr(model, "image_size") and hasattr(model, "class_token"):
        return model.patch_size, ["[CLS]"]
    return None


def patch_label(row, col):
    return f"r{row}c{col}"


def token_labels(prefix, rows, cols):
    """The labels mhaviz gives the tokens: the prefix names, then "r0c0", "r0c1", ..."""
    return list(prefix) + [patch_label(r, c) for r in range(rows) for c in range(cols)]


class ImageSpec:
    """The image of one capture: the grid for the index, the members for the tensors file."""

    def __init__(self, model, image, picture=None, patch_size=None, prefix_tokens=None):
        known = _known_vit(model)
        if patch_size is None:
            if known is None:
                raise ValueError(
                    f"capture_model: {type(model).__name__} is not torchvision's "
                    "VisionTransformer; say how its tokens are patches with patch_size= (and "
                    "prefix_tokens=, e.g. [\"[CLS]\"], the tokens before the patches)")
            patch_size = known[0]
        if prefix_tokens is None:
            prefix_tokens = known[1] if known is not None else []
        if isinstance(prefix_tokens, int):
            prefix_tokens = [f"prefix{i}" for i in range(prefix_tokens)]
        self.prefix = [str(p) for p in prefix_tokens]
        if any(not p for p in self.prefix):
            raise ValueError("capture_model: a prefix token's name is empty")
        t = torch.as_tensor(image).detach()
        if t.dim() == 3:
            t = t.unsqueeze(0)
        if t.dim() != 4:
            raise ValueError(f"capture_model: image must be (N, C, H, W) or (C, H, W), the "
                             f"tensor the model is called with; it is {tuple(t.shape)}")
        self.input = t.to(torch.float32).cpu().numpy()
        _, channels, height, width = self.input.shape
        ph, pw = _pair(patch_size, "patch_size")
        if height % ph or width % pw:
            raise ValueError(
                f"capture_model: the image is {height}x{width} pixels, which {ph}x{pw} patches "
                "do not tile; resize or crop it as the model's transform does")
        self.rows, self.cols, self.patch = height // ph, width // pw, (ph, pw)
        if self.rows * self.cols < 2:
            raise ValueError("capture_model: the image is one patch (a 1x1 grid); there is "
                             "nothing to show over it")
        if self.rows * self.cols > MAX_PATCHES:
            raise ValueError(f"capture_model: {self.rows}x{self.cols} = "
                             f"{self.rows * self.cols} patches; mhaviz shows at most "
                             f"{MAX_PATCHES} (64x64)")
        self.picture = None
        if picture is not None:
            p = np.asarray(picture)
            if p.ndim == 3:
                p = p[None]
            if p.ndim != 4 or p.shape[0] != self.input.shape[0] or p.shape[3] != 3 \
                    or p.dtype != np.uint8:
                raise ValueError(
                    f"capture_model: picture must be uint8 (height, width, 3), one per image "
                    f"(N, height, width, 3) for {self.input.shape[0]} images; it is {p.dtype} "
                    f"{p.shape}")
            self.picture = np.ascontiguousarray(p)

    def tokens(self):
        return len(self.prefix) + self.rows * self.cols

    def labels(self):
        return token_labels(self.prefix, self.rows, self.cols)

    def check_layers(self, layers):
        """Every self-attention layer attends over prefix + rows x cols tokens; one does."""
        seen = False
        for i, layer in enumerate(layers):
            if not layer["self_attention"]:
                continue
            length = layer["config"]["tgt_len"]
            if length != self.tokens():
                raise ValueError(
                    f"capture_model: layer {i} ({layer['name']}) has {length} tokens, but the "
                    f"image gives {len(self.prefix)} prefix + {self.rows}x{self.cols} patches = "
                    f"{self.tokens()}; give the prefix_tokens= and patch_size= the model uses")
            seen = True
        if not seen:
            raise ValueError("capture_model: no self-attention layer attended over the image")

    def index(self):
        ph, pw = self.patch
        return {"size": [int(self.input.shape[2]), int(self.input.shape[3])],
                "patch_size": [ph, pw], "grid": [self.rows, self.cols],
                "channels": int(self.input.shape[1]), "prefix_tokens": self.prefix,
                "picture": self.picture is not None}

    def arrays(self):
        out = {"image/input": self.input}
        if self.picture is not None:
            out["image/picture"] = self.picture
        return out
