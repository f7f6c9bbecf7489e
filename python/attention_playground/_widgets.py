"""The widgets: one anywidget ESM (``static/widget.js``) draws every element.

Python holds the inputs; the wasm core in the browser computes, and its numbers come back
as traits. Python does no attention math.
"""

from __future__ import annotations

import contextlib
import json
import pathlib

import anywidget
import numpy as np
import traitlets

from . import _checks, _gpt2
from ._checks import InputError

STATIC = pathlib.Path(__file__).parent / "static"


def _static(name: str):
    path = STATIC / name
    if not path.exists():  # a source checkout: the package data comes from ./build.sh wheel
        raise ImportError(f"attention_playground: {path} is missing; build the package with ./build.sh wheel")
    return path


ESM = _static("widget.js")
TAGS = tuple(json.loads(_static("tags.json").read_text()))
HOU = json.loads(_static("head.json").read_text())
SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")  # token labels as the page makes them: t₀, t₁, …


# ---- matrices over the widget protocol ----
# { rows, cols, data }: data the float64 bytes, a binary buffer (exact, and -inf travels).


def _to_json(value, _widget):
    if value is None:
        return None
    a = np.ascontiguousarray(value, dtype="<f8")
    return {"rows": int(a.shape[0]), "cols": int(a.shape[1]), "data": memoryview(a.tobytes())}


def _from_json(value, _widget):
    if value is None:
        return None
    return _array_of(value, [value.get("rows"), value.get("cols")])


def _array_of(value, shape):
    """The float64 array of a message's { data: bytes } at `shape`; a message that does not
    hold that many numbers is refused whole (InputError: nothing of it is set)."""
    data = value.get("data")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InputError(f"the widget sent {type(data).__name__} for a matrix's data, not float64 bytes")
    if not all(isinstance(n, int) and n >= 0 for n in shape) or len(data) != 8 * int(np.prod(shape)):
        raise InputError(f"the widget sent {len(data)} bytes for a matrix of shape {shape}")
    a = np.frombuffer(bytes(data), dtype="<f8").reshape(shape).copy()
    a.setflags(write=False)
    return a


class Matrix(traitlets.TraitType):
    """A float64 matrix; ``shape`` ("T×C", "d×C") is named in the messages."""

    info_text = "a matrix of finite numbers"

    def __init__(self, shape: str, **kwargs):
        self.shape = shape
        super().__init__(**kwargs)

    def validate(self, obj, value):
        return _checks.matrix(self.name, value, self.shape)


class Checked(traitlets.TraitType):
    """A value ``check(value)`` cleans or refuses with InputError (a ValueError)."""

    def __init__(self, check, default_value=traitlets.Undefined, **kwargs):
        self.check = check
        super().__init__(default_value=default_value, **kwargs)

    def validate(self, obj, value):
        return self.check(value)


class Sent(traitlets.TraitType):
    """What the widget sends (an array the core computed, the prompt's tokens, …): set only
    by the widget; Python's own assignment is refused with InputError."""

    allow_none = True

    def __init__(self, default_value=None, **kwargs):
        super().__init__(default_value=default_value, **kwargs)

    def set(self, obj, value):  # an assignment (a default, read first, never comes here)
        if not getattr(obj, "_receiving", False):
            raise InputError(f"{self.name} is what the widget sends and cannot be set (set the inputs instead)")
        super().set(obj, value)


def _matrix_trait(shape):
    return Matrix(shape).tag(sync=True, to_json=_to_json, from_json=_from_json)


def _output_trait():
    return Sent().tag(sync=True, to_json=_to_json, from_json=_from_json)


class _Synced:
    """Tells what the widget sent (set_state) from Python's own assignments: only the first
    may set `Sent` traits."""

    _receiving = False  # inside set_state, or clearing the outputs

    def set_state(self, sync_data):
        with self._from_widget():
            super().set_state(sync_data)

    @contextlib.contextmanager
    def _from_widget(self):
        was, self._receiving = self._receiving, True
        try:
            yield
        finally:
            self._receiving = was


class _Drawn(_Synced):
    """Outputs the widget sends (`Sent` traits): their empty value again whenever Python
    changes what they are of (never numbers of the old inputs)."""

    OUTPUTS: dict = {}  # name → its value before the widget has sent one

    def _inputs_changed(self, change):
        if self._receiving or _same(change["old"], change["new"]):
            return  # the widget's own change, or the same value again: its outputs hold
        with self._from_widget():
            for name, empty in self.OUTPUTS.items():
                self.set_trait(name, empty)


def _same(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def _state(value):
    if not isinstance(value, dict):
        raise InputError(f"state: expected a dict (the element's state), got {type(value).__name__}")
    return value


class Widget(_Synced, anywidget.AnyWidget):
    """Any element of the site's ``widgets.js``: ``Widget("attn-schemes", lang="zh")``.

    Attributes are the element's HTML attributes (``True`` sets an empty one, ``False``
    removes it); ``state`` is the element's ``state`` (a dict), both ways, for elements that
    have one.
    """

    _esm = ESM
    _tag = traitlets.Unicode().tag(sync=True)
    attributes = Checked(_checks.attributes, {}).tag(sync=True)
    lang = Checked(_checks.lang, "en").tag(sync=True)
    state = Checked(_state, {}).tag(sync=True)
    error = Sent("").tag(sync=True)

    def __init__(self, tag: str | None = None, *, lang: str = "en", state: dict | None = None, _traits=None,
                 **attributes):
        tag = tag or getattr(type(self), "TAG", None)
        if tag not in TAGS:
            raise InputError(f"{tag!r} is not one of the notebook's widgets: {', '.join(TAGS)}")
        allowed = getattr(type(self), "ATTRIBUTES", None)
        if allowed is not None and set(attributes) - set(allowed):
            bad = ", ".join(sorted(set(attributes) - set(allowed)))
            raise InputError(f"{type(self).__name__} has no argument {bad} (its attributes: {', '.join(allowed)})")
        super().__init__(_tag=tag, attributes=_checks.attributes(attributes), lang=lang, state=state or {},
                         **(_traits or {}))

    def __repr__(self):
        return f"<{type(self).__name__} <{self._tag}>>"


class Head(_Drawn, Widget):
    """The editable self-attention head (``<attn-head>``).

    Inputs: ``tokens`` (list of str), ``x`` (T×C), ``w_q``, ``w_k``, ``w_v`` (d×C, the
    nn.Linear layout: q = x @ w_q.T), ``causal``, ``scaled``, ``lang``. ``Head()`` is the
    lesson's h/o/u head. Assigning an input redraws the widget; an edit in the widget
    updates it here. To change shapes, set what must agree at once: ``head.update(x=...,
    tokens=..., w_q=..., w_k=..., w_v=...)``.

    Outputs, computed by the wasm core in the browser once the widget has drawn (so: in the
    next cell), NumPy float64 arrays, ``None`` before: ``q``, ``k``, ``v``, ``scores``,
    ``masked_scores`` (``-inf`` where masked), ``weights``, ``out``. An input set from Python
    makes them ``None`` again until the widget has drawn it.
    """

    TAG = "attn-head"
    INPUTS = ("tokens", "x", "w_q", "w_k", "w_v", "causal", "scaled")
    OUTPUTS = dict.fromkeys(("q", "k", "v", "scores", "masked_scores", "weights", "out"))
    ATTRIBUTES = ("sequence", "readonly", "theme")  # the element's own, besides the inputs

    tokens = Checked(_checks.tokens).tag(sync=True)
    x = _matrix_trait("T×C")
    w_q = _matrix_trait("d×C")
    w_k = _matrix_trait("d×C")
    w_v = _matrix_trait("d×C")
    causal = Checked(lambda v: _checks.flag("causal", v), True).tag(sync=True)
    scaled = Checked(lambda v: _checks.flag("scaled", v), False).tag(sync=True)

    q = _output_trait()
    k = _output_trait()
    v = _output_trait()
    scores = _output_trait()
    masked_scores = _output_trait()
    weights = _output_trait()
    out = _output_trait()

    def __init__(self, tokens=None, x=None, w_q=None, w_k=None, w_v=None, causal=True, scaled=False, *,
                 lang="en", **attributes):
        given = {"x": x, "w_q": w_q, "w_k": w_k, "w_v": w_v}
        values = {}
        for name, shape in (("x", "T×C"), ("w_q", "d×C"), ("w_k", "d×C"), ("w_v", "d×C")):
            values[name] = _checks.matrix(name, HOU[name] if given[name] is None else given[name], shape)
        if tokens is None:
            rows = values["x"].shape[0]
            tokens = HOU["tokens"] if rows == len(HOU["tokens"]) else [f"t{i}".translate(SUB) for i in range(rows)]
        values["tokens"] = _checks.tokens(tokens)
        values["causal"] = _checks.flag("causal", causal)
        values["scaled"] = _checks.flag("scaled", scaled)
        _agree(values)
        super().__init__(lang=lang, _traits=values, **attributes)

    @traitlets.observe(*INPUTS)
    def _on_inputs(self, change):
        self._inputs_changed(change)

    def update(self, **inputs):
        """Sets several inputs at once (checked together: all are set, or none)."""
        unknown = set(inputs) - set(self.INPUTS)
        if unknown:
            raise InputError(f"update: no input named {', '.join(sorted(unknown))} (inputs: {', '.join(self.INPUTS)})")
        with self.hold_sync(), self.hold_trait_notifications():
            for name, value in inputs.items():
                setattr(self, name, value)

    @traitlets.validate("tokens", "x", "w_q", "w_k", "w_v")
    def _shapes(self, proposal):
        self._check_with(**{proposal["trait"].name: proposal["value"]})
        return proposal["value"]

    def _check_with(self, **changed):
        current = {name: self._trait_values.get(name) for name in ("tokens", "x", "w_q", "w_k", "w_v")}
        if any(v is None for v in current.values()):
            return  # still being made (__init__ checked its values together)
        _agree({**current, **changed})

    def __repr__(self):
        t, c = self.x.shape
        drawn = "drawn" if self.weights is not None else "not drawn yet"
        return f"<Head tokens={self.tokens} T={t} C={c} d={self.w_q.shape[0]} causal={self.causal} scaled={self.scaled} ({drawn})>"


def _agree(v):
    """The shapes a head can run: x (T×C); w_q, w_k (d×C); w_v (d_v×C); T tokens."""
    t, c = v["x"].shape
    for name in ("w_q", "w_k", "w_v"):
        if v[name].shape[1] != c:
            raise InputError(
                f"{name} has {v[name].shape[1]} columns but x has {c}: each weight is d×C, C = x's columns"
                " (to change C, set x and the weights at once with head.update(...))")
    if v["w_q"].shape[0] != v["w_k"].shape[0]:
        raise InputError(
            f"w_q has {v['w_q'].shape[0]} rows but w_k has {v['w_k'].shape[0]}: queries and keys need the same"
            " size d (set both at once with head.update(w_q=..., w_k=...))")
    if len(v["tokens"]) != t:
        raise InputError(
            f"tokens has {len(v['tokens'])} entries but x has {t} rows: one token per row"
            " (set both at once with head.update(x=..., tokens=...))")


class FormulaSteps(Widget):
    """The attention formula, one step at a time, on the h/o/u head (``<attn-formula-steps>``)."""

    TAG = "attn-formula-steps"

    def __init__(self, *, lang="en", **attributes):
        attributes.setdefault("show_output", True)
        super().__init__(lang=lang, **attributes)


def _nd_to_json(value, _widget):
    if value is None:
        return None
    a = np.ascontiguousarray(value, dtype="<f8")
    return {"shape": list(a.shape), "data": memoryview(a.tobytes())}


def _nd_from_json(value, _widget):
    if value is None:
        return None
    shape = value.get("shape")
    return _array_of(value, list(shape) if isinstance(shape, list) else [None])


SCORES = ("previous_token", "induction", "first_token")


def _heads_to_json(value, _widget):
    if value is None:
        return None
    return {k: _nd_to_json(v, _widget) if k in SCORES else v for k, v in value.items()}


def _heads_from_json(value, _widget):
    """GptLab.headScores() as the widget sends it: each score an (n_layer, n_head) float64
    array, the rest as they are; a message without the three, or of another shape, is
    refused whole."""
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(value.get(k), dict) for k in SCORES):
        raise InputError(f"the widget sent heads without {', '.join(SCORES)}")
    heads = dict(value)
    for k in SCORES:
        heads[k] = _nd_from_json(value[k], _widget)
        if heads[k].ndim != 2 or heads[k].shape != heads[SCORES[0]].shape:
            raise InputError(f"the widget sent heads' {k} of shape {heads[k].shape}, not (n_layer, n_head)")
    return heads


SAFETENSORS_MAX = 512 * 1024 * 1024


class GptInspect(_Drawn, anywidget.AnyWidget):
    """Every layer and head of a GPT checkpoint (``<attn-gpt-inspect>``), or of GPT-2
    (``<attn-gpt2>``, the site's element).

    ``GptInspect(checkpoint="model.safetensors", prompt="ROMEO:")``: a checkpoint of the
    site (its "Download model"), or one converted from nanoGPT (tools/convert_nanogpt.py).
    After it has drawn (in the next cell): ``weights``, the attention weights it draws, a
    float64 array (n_layer, n_head, T, T); ``tokens``, the prompt's characters (the last 24
    at most); ``config`` (n_layer, n_head, n_embd, block_size, vocab_size, vocab). A prompt
    typed into the widget comes back as ``prompt``; setting ``prompt`` redraws it. What the
    core refuses (a damaged file, a character not in the vocabulary) is in ``error``.

    ``GptInspect("path/to/gpt2", prompt="The cat sat")``: a GPT-2 folder as Hugging Face's
    save_pretrained writes it (config.json, model.safetensors, and tokenizer.json or
    vocab.json + merges.txt; ``huggingface-cli download openai-community/gpt2`` fetches
    GPT-2 small's, 500 MB). The weights go to the page a few MB at a time, as the page asks
    for them, between cells (a cell that runs long pauses the load), into a worker: the
    notebook stays responsive while GPT-2 runs. ``tokens`` are then the BPE pieces of the
    prompt's last ``config["max_tokens"]`` tokens, ``weights`` every head's weights over them
    (n_layer, n_head, T, T), ``config`` (kind "gpt2", n_layer, n_head, n_embd, block_size,
    vocab_size, params, gelu, max_tokens, tokenizer_size). A missing file is an InputError
    here; a folder the core refuses (not GPT-2, a tokenizer that does not fit) is ``error``.

    ``heads``: what each head has learned, measured once per checkpoint on the probe (16
    rows of random characters, each written twice; the same numbers as ``gpt heads --ckpt
    FILE --json``; for GPT-2, 4 rows of 12 random tokens), a dict: ``previous_token``,
    ``induction``, ``first_token``, each a float64 array (n_layer, n_head) (a head's mean
    attention from t to t − 1; on the second copy, to the token after the earlier
    occurrence of t's token; to the first token); ``probe`` (the rows as text) and
    ``probe_len`` (each row's half); ``loss_first`` and ``loss_second`` (the loss on the
    first copy and on the second); ``best`` (``layer``, ``head``, ``score``: the largest
    induction score). ``None`` before the widget has loaded the checkpoint, and for a
    model whose block_size is under 4 (no probe fits)::

        gpt.heads["induction"].shape       # (n_layer, n_head)
        gpt.heads["induction"].argmax()    # layer-major: divmod(i, n_head) = (layer, head)
    """

    _esm = _static("gpt.js")
    _checkpoint = traitlets.Bytes().tag(sync=True)
    _gpt2 = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)  # a folder's files and sizes
    prompt = Checked(lambda v: _prompt(v), "").tag(sync=True)
    attributes = Checked(_checks.attributes, {}).tag(sync=True)
    lang = Checked(_checks.lang, "en").tag(sync=True)
    tokens = Sent([]).tag(sync=True)
    weights = Sent().tag(sync=True, to_json=_nd_to_json, from_json=_nd_from_json)
    config = Sent({}).tag(sync=True)
    heads = Sent().tag(sync=True, to_json=_heads_to_json, from_json=_heads_from_json)
    error = Sent("").tag(sync=True)

    OUTPUTS = {"weights": None, "tokens": [], "error": ""}

    @traitlets.observe("prompt")
    def _on_prompt(self, change):
        self._inputs_changed(change)

    @traitlets.observe("_checkpoint", "_gpt2")
    def _on_source(self, change):
        self._inputs_changed(change)
        if not self._receiving and not _same(change["old"], change["new"]):
            with self._from_widget():
                self.set_trait("config", {})
                self.set_trait("heads", None)

    def __init__(self, checkpoint, prompt: str = "", *, lang: str = "en"):
        self._folder = _gpt2.folder_of(checkpoint)
        self._runs = _gpt2.Runs()
        super().__init__(**_source(checkpoint, self._folder), prompt=prompt, lang=lang)
        self.on_msg(self._on_page)

    def load(self, checkpoint):
        """Shows another checkpoint (a path or its bytes) or GPT-2 folder."""
        folder = _gpt2.folder_of(checkpoint)
        source = _source(checkpoint, folder)  # checked before anything changes
        self._folder = folder
        with self.hold_sync():
            for name, value in source.items():
                setattr(self, name, value)

    def _on_page(self, _widget, content, buffers):
        """GPT-2's messages: a chunk of a file asked for, a run's weights in parts."""
        if not isinstance(content, dict):
            return
        if "read" in content:
            if self._folder is None:
                ask = content["read"] if isinstance(content["read"], dict) else {}
                answer, data = {"id": ask.get("id"), "error": "no GPT-2 folder is open"}, b""
            else:
                answer, data = self._folder.read(content["read"])
            self.send({"chunk": answer}, buffers=[data])
        elif "drawn" in content:
            state = self._runs.take(content["drawn"], buffers)
            if state is not None:
                self._take(state)

    def _take(self, state):
        """Sets what the widget sent as set_state does (checked, all or nothing), with no
        echo to the page: each view draws its own runs, and an old prompt echoed after a
        newer one would run again."""
        with self._lock_property(**state), self._from_widget(), self.hold_trait_notifications():
            for name, value in state.items():
                self.set_trait(name, self.trait_metadata(name, "from_json", self._trait_from_json)(value, self))

    def __repr__(self):
        c = self.config
        what = f"n_layer={c['n_layer']} n_head={c['n_head']}" if c else "not drawn yet"
        return f"<GptInspect {what} prompt={self.prompt!r}>"


def _source(checkpoint, folder):
    """The traits that say what is open: a GPT-2 folder's files (``folder``), else the
    checkpoint's bytes."""
    if folder is not None:
        return {"_checkpoint": b"", "_gpt2": folder.describe()}
    return {"_checkpoint": _read_checkpoint(checkpoint), "_gpt2": None}


def _prompt(value):
    if not isinstance(value, str):
        raise InputError(f"prompt: expected a string, got {type(value).__name__}")
    return value


def _read_checkpoint(checkpoint) -> bytes:
    """The bytes of a .safetensors file (a path or the bytes themselves), checked enough to
    say what is wrong before the core reads it: its 8-byte header length and JSON header."""
    if isinstance(checkpoint, (bytes, bytearray, memoryview)):
        if len(checkpoint) > SAFETENSORS_MAX:
            raise InputError("checkpoint: larger than 512 MB")
        data, name = bytes(checkpoint), "checkpoint"
    elif isinstance(checkpoint, (str, pathlib.PurePath)):
        path = pathlib.Path(checkpoint)
        if not path.is_file():
            raise InputError(f"checkpoint: no file {str(path)!r}")
        if path.stat().st_size > SAFETENSORS_MAX:
            raise InputError(f"checkpoint: {path} is larger than 512 MB")
        data, name = path.read_bytes(), str(path)
    else:
        raise InputError(f"checkpoint: expected a path or bytes, got {type(checkpoint).__name__}")
    if len(data) < 10:
        raise InputError(f"{name}: too short for a .safetensors file ({len(data)} bytes)")
    header = int.from_bytes(data[:8], "little")
    try:
        ok = 2 <= header <= len(data) - 8 and isinstance(json.loads(data[8:8 + header]), dict)
    except ValueError:
        ok = False
    if not ok:
        raise InputError(f"{name}: not a .safetensors file (no JSON header after its 8-byte length)")
    return data
