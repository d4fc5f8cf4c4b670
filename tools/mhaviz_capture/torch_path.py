"""The call's context and the path PyTorch took, for mhaviz_capture (docs/semantics.md, "The
three paths of PyTorch 2.x"): the grad mode around a call, and which of PyTorch's paths a module
call took — general, SDPA (F.scaled_dot_product_attention) or the native fast path
(torch._native_multi_head_attention)."""

import torch
from torch.nn import functional as F


def grad_mode():
    """The grad mode of the running call as mhaviz's configuration key "grad_mode" spells it."""
    inference = getattr(torch, "is_inference_mode_enabled", None)
    if inference is not None and inference():
        return "inference_mode"
    return "enabled" if torch.is_grad_enabled() else "no_grad"


class PathSpy:
    """Which of PyTorch's paths a module call took — "general", "sdpa"
    (F.scaled_dot_product_attention) or "fast" (torch._native_multi_head_attention) — seen by
    wrapping those two functions between start() and stop()."""

    def __init__(self):
        self.taken = []
        self._saved = None

    def start(self):
        if self._saved is not None:
            return
        self.taken = []
        native = getattr(torch, "_native_multi_head_attention", None)
        sdpa = getattr(F, "scaled_dot_product_attention", None)
        self._saved = (native, sdpa)

        def wrap(function, tag):
            def spy(*args, **kwargs):
                self.taken.append(tag)
                return function(*args, **kwargs)
            return spy

        if native is not None:
            torch._native_multi_head_attention = wrap(native, "fast")
        if sdpa is not None:
            F.scaled_dot_product_attention = wrap(sdpa, "sdpa")

    def stop(self):
        """Restores both functions; returns the path taken since start() (None if not started)."""
        if self._saved is None:
            return None
        native, sdpa = self._saved
        if native is not None:
            torch._native_multi_head_attention = native
        if sdpa is not None:
            F.scaled_dot_product_attention = sdpa
        self._saved = None
        return "fast" if "fast" in self.taken else "sdpa" if "sdpa" in self.taken else "general"
