"""Recording a generation loop: every nn.MultiheadAttention call of every step, as one model
file whose calls are grouped into steps (docs/capture-and-models.md, "Generation steps")."""

import warnings

from . import ModelCapture


class GenerationCapture(ModelCapture):
    """Records a generation loop (see capture_generation())."""

    def __init__(self, model, path_prefix, tokens=None, layer_labels=None, caption=None,
                 step_module=None):
        super().__init__(model, path_prefix, tokens, layer_labels, caption)
        self.steps = 0
        self.outside = 0  # attention calls made outside a step, not recorded
        self._depth = 0
        self._step_module = step_module if step_module is not None else model
        self._hooks = [self._step_module.register_forward_pre_hook(self._begin_step),
                       self._step_module.register_forward_hook(self._end_step)]

    def _begin_step(self, module, args):
        if self._depth == 0:
            self.steps += 1
            for recorder in self._recorders:
                recorder.calls = 0  # "call" counts within a step
        self._depth += 1

    def _end_step(self, module, args, output):
        self._depth -= 1

    def _add(self, recorder, call):
        if self._depth == 0:
            self.outside += 1
            return
        super()._add(recorder, call)
        layer = self.layers[-1]
        layer["step"] = self.steps - 1
        layer["config"].pop("query_labels", None)  # set by write(), from the step's positions
        layer["config"].pop("key_labels", None)

    def remove(self):
        for hook in getattr(self, "_hooks", []):
            hook.remove()
        self._hooks = []
        super().remove()

    def _step_lengths(self):
        """Per step, the length of the sequence it sees: the key length of its first call (the
        first layer's self-attention, cached or not)."""
        lengths = {}
        for layer in self.layers:
            lengths.setdefault(layer["step"], layer["config"]["src_len"])
        return lengths

    def _label(self, layer, end):
        """Query and key labels of one call of a step that sees positions [0, end): the queries
        are the last tgt_len positions; the keys are the positions when src_len == end."""
        config = layer["config"]
        if layer["name"] in self.layer_labels:
            q, k = self.layer_labels[layer["name"]]
            return list(q or []), list(k or [])
        tokens = self.tokens or []
        L, S = config["tgt_len"], config["src_len"]
        q = tokens[end - L:end] if L <= end <= len(tokens) else []
        k = tokens[:S] if S == end and S <= len(tokens) else []
        return list(q), list(k)

    def _index(self, tensors_name):
        lengths = self._step_lengths()
        for layer in self.layers:
            q, k = self._label(layer, lengths[layer["step"]])
            for key, labels in (("query_labels", q), ("key_labels", k)):
                if labels:
                    layer["config"][key] = labels
                else:
                    layer["config"].pop(key, None)
        index = super()._index(tensors_name)
        index["version"] = 2
        index["steps"] = self.steps
        for entry, layer in zip(index["layers"], self.layers):
            entry["step"] = layer["step"]
        # "steps" before "layers", so the index reads in order
        index["layers"] = index.pop("layers")
        return index

    def write(self):
        if self.outside:
            warnings.warn(f"mhaviz_capture: {self.outside} attention call(s) outside a call of "
                          f"{type(self._step_module).__name__} were not recorded (a step is one "
                          "call of the module given as step_module, by default the model)")
        if self.steps == 0 or not self.layers:
            raise RuntimeError(
                f"mhaviz_capture: no generation step was recorded; nothing was saved to "
                f"{self.path_prefix}.json. A step is one call of "
                f"{type(self._step_module).__name__} (step_module, by default the model) that "
                "makes attention calls: run the generation loop inside the with block.")
        super().write()


def capture_generation(model, path_prefix="generation", tokens=None, layer_labels=None,
                       caption=None, step_module=None):
    """Records every nn.MultiheadAttention call of a generation loop, step by step, and writes
    them as one model file (version 2, with "steps") when the with block ends:

        with torch.no_grad(), mhaviz_capture.capture_generation(model, "gen") as cap:
            for step in range(6):
                logits, cache = model(new_tokens, cache)   # one call of model = one step
                ...
            cap.tokens = labels_of_the_whole_sequence

    A step is one call of `step_module` (default: `model`); calls made outside a step (an
    encoder run once before the loop, say) are not recorded, with a warning. With a KV cache a
    step's call has query length 1: its one row is the new token's; without one, the step
    recomputes every position and the last row is the new token's. `tokens` (settable on the
    returned object until the block ends) labels the whole sequence, prompt and generated
    tokens: a call's queries are the last tgt_len positions of what its step sees (the key
    length of the step's first call), and its keys are labelled when its key length is that
    length. `layer_labels` ({module name: (query labels, key labels)}) labels given modules in
    every step instead (e.g. the source words of a cross-attention). Raises RuntimeError when
    the block ends without a step."""
    return GenerationCapture(model, path_prefix, tokens, layer_labels, caption, step_module)
