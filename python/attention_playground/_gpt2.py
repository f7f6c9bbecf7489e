"""GptInspect on a GPT-2 folder: what Python checks of the folder, the page's reads of its
files, and each prompt's weights arriving from the page in parts.

The weights never travel as one message. The page asks for each chunk of a file
(``{"read": {id, file, offset, length}}``, www/js/pages/notebook/kernel-files.js) once it
has taken the ones before, and the answer is that chunk alone: a model of 500 MB passes a
few MB at a time, and neither side ever holds it whole. The other way, a prompt's attention
weights (GPT-2 small, 256 tokens: 75 MB of float64) come in parts of a few MB
(www/js/pages/notebook/gpt2.js): the server closes the connection on a message of more than
10 MB from the page.
"""

from __future__ import annotations

import hashlib
import json
import math
import pathlib

from ._checks import InputError

CONFIG = "config.json"
WEIGHTS = "model.safetensors"
TOKENIZER = ("tokenizer.json", "vocab.json", "merges.txt")
FILES = (CONFIG, *TOKENIZER, WEIGHTS)
LAYOUT = ("a GPT-2 folder as save_pretrained writes it holds config.json, model.safetensors and "
          "tokenizer.json (or vocab.json and merges.txt)")
CHUNK_MAX = 16 << 20  # the most the page may ask for at once (it asks for 4 MB)
RUNS_KEPT = 4  # runs arriving at once (a view each, and one given up)


class Folder:
    """A GPT-2 folder of Hugging Face's layout, its files checked to be there (what is in
    them is the core's to judge, in the page: a config that is not GPT-2 comes back in
    ``error``)."""

    def __init__(self, path):
        self.path = pathlib.Path(path)
        where = f"checkpoint: {self.path}"
        if not (self.path / CONFIG).is_file():
            raise InputError(f"{where} has no {CONFIG} ({LAYOUT})")
        have = {name for name in TOKENIZER if (self.path / name).is_file()}
        if "tokenizer.json" not in have and len(have) < 2:
            but = f" (it has {', '.join(sorted(have))} but not {', '.join(sorted({'vocab.json', 'merges.txt'} - have))})" if have else ""
            raise InputError(f"{where} has no tokenizer: tokenizer.json, or vocab.json and merges.txt{but}")
        if not (self.path / WEIGHTS).is_file():
            other = [n for n in ("pytorch_model.bin", "tf_model.h5", "flax_model.msgpack") if (self.path / n).exists()]
            hint = f": it has {other[0]}; write the weights with save_pretrained(..., safe_serialization=True)" if other else ""
            raise InputError(f"{where} has no {WEIGHTS}{hint}")
        self.sizes = {}
        stamp = [str(self.path.resolve())]
        for name in FILES:
            file = self.path / name
            if file.is_file():
                st = file.stat()
                self.sizes[name] = st.st_size
                stamp.append([name, st.st_size, st.st_mtime_ns])
        self.stamp = hashlib.sha256(json.dumps(stamp).encode()).hexdigest()[:16]

    def describe(self) -> dict:
        """What the page is told: the files and their sizes; ``stamp`` changes with them."""
        return {"name": self.path.name, "files": dict(self.sizes), "stamp": self.stamp}

    def read(self, request) -> tuple[dict, bytes]:
        """The answer to a page's ``read`` request: ``({"id", "file", "offset"}, bytes)``,
        or ``({"id", "error"}, b"")`` for one that cannot be answered."""
        ask = request if isinstance(request, dict) else {}
        rid = ask.get("id")
        try:
            return {"id": rid, "file": ask.get("file"), "offset": ask.get("offset")}, self._bytes(ask)
        except (InputError, OSError) as err:
            return {"id": rid, "error": str(err)}, b""

    def _bytes(self, ask) -> bytes:
        name, offset, length = ask.get("file"), ask.get("offset"), ask.get("length")
        if name not in self.sizes:
            raise InputError(f"the page asked for {name!r}, not a file of {self.path}")
        size = self.sizes[name]
        if not (isinstance(offset, int) and isinstance(length, int) and 0 <= offset <= size and 0 < length <= CHUNK_MAX):
            raise InputError(f"the page asked for bytes {offset!r}+{length!r} of {name} ({size} bytes)")
        file = self.path / name
        if file.stat().st_size != size:
            raise InputError(f"{file} changed since GptInspect opened it: load it again (gpt.load(...))")
        with open(file, "rb") as f:
            f.seek(offset)
            return f.read(length)


def folder_of(checkpoint):
    """A Folder when ``checkpoint`` is a path to a folder, else None."""
    if isinstance(checkpoint, (str, pathlib.PurePath)) and pathlib.Path(checkpoint).is_dir():
        return Folder(checkpoint)
    return None


class Runs:
    """The page's runs of a prompt, each sent as parts (www/js/pages/notebook/gpt2.js)::

        {"run", "part": 0, "parts", "prompt", "tokens", "error", "shape"} + bytes
        {"run", "part": i} + bytes                     (i = 1 … parts - 1, in order)

    ``take`` returns the state of a run whose parts are all in (prompt, tokens, error and
    weights as the widget protocol has them), else None; a run not whole is refused with
    InputError and forgotten."""

    def __init__(self):
        self.runs = {}

    def take(self, head, buffers):
        if not isinstance(head, dict):
            raise InputError(f"the widget sent {type(head).__name__} for a run, not a dict")
        data = bytes(buffers[0]) if buffers else b""
        run, part = head.get("run"), head.get("part")
        if part == 0:
            self._start(run, head)
        got = self.runs.get(run)
        if got is None or part != got["next"]:
            self.runs.pop(run, None)
            raise InputError(f"the widget sent part {part!r} of run {run!r} out of order")
        at = got["at"]
        if at + len(data) > len(got["data"]):
            self.runs.pop(run, None)
            raise InputError(f"the widget sent more than the {len(got['data'])} bytes of shape {got['head']['shape']}")
        got["data"][at:at + len(data)] = data
        got["at"], got["next"] = at + len(data), part + 1
        if got["next"] < got["head"]["parts"]:
            return None
        del self.runs[run]
        if got["at"] != len(got["data"]):
            raise InputError(f"the widget sent {got['at']} bytes for weights of shape {got['head']['shape']}")
        h = got["head"]
        weights = None if h["shape"] is None else {"shape": h["shape"], "data": memoryview(got["data"])}
        return {"prompt": h.get("prompt"), "tokens": h.get("tokens"), "error": h.get("error"), "weights": weights}

    def _start(self, run, head):
        shape, parts = head.get("shape"), head.get("parts")
        ok_shape = shape is None or (isinstance(shape, list) and len(shape) == 4
                                     and all(isinstance(n, int) and n >= 0 for n in shape))
        if not (ok_shape and isinstance(parts, int) and parts >= 1 and isinstance(head.get("tokens"), list)):
            raise InputError(f"the widget sent a run without its shape, parts or tokens: {sorted(head)}")
        self.runs[run] = {"head": head, "data": bytearray(8 * math.prod(shape or [0])), "at": 0, "next": 0}
        while len(self.runs) > RUNS_KEPT:  # a run whose last parts never came
            del self.runs[next(iter(self.runs))]
