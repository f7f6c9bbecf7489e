"""GptInspect on a GPT-2 folder, without a browser: the folder's checks, the page's reads of
its files (chunk by chunk, as www/js/pages/notebook/kernel-files.js asks), a run's weights
arriving in parts (www/js/pages/notebook/gpt2.js), and a checkpoint file next to a folder.
What is in the files is the core's to judge (in the page); here they only need to exist.

    target/nbtools/bin/pytest python/tests
"""

import json
import pathlib

import numpy as np
import pytest

import attention_playground as ap
from attention_playground import _gpt2

REPO = pathlib.Path(__file__).resolve().parents[2]
SMALL = REPO / "www/models/small.safetensors"
CONFIG = {"model_type": "gpt2", "n_layer": 2, "n_head": 4, "n_embd": 64, "n_positions": 128, "vocab_size": 1000}


def folder(tmp_path, *, tokenizer=("tokenizer.json",), weights=b"\x01" * 5000, name="gpt2"):
    """A folder of GPT-2's layout whose files hold anything (the page's core would read them)."""
    d = tmp_path / name
    d.mkdir()
    (d / "config.json").write_text(json.dumps(CONFIG))
    for f in tokenizer:
        (d / f).write_text("{}" if f.endswith(".json") else "#version: 0.2\n")
    if weights is not None:
        (d / "model.safetensors").write_bytes(weights)
    return d


def test_a_folder_is_gpt2_a_file_is_ours(tmp_path):
    d = folder(tmp_path, tokenizer=("vocab.json", "merges.txt"))
    g = ap.GptInspect(d, prompt="The cat")
    assert g._gpt2["files"] == {"config.json": len(json.dumps(CONFIG)), "vocab.json": 2,
                                "merges.txt": len("#version: 0.2\n"), "model.safetensors": 5000}
    assert g._gpt2["name"] == "gpt2" and g._checkpoint == b""
    assert g.prompt == "The cat" and g.weights is None and g.tokens == [] and g.heads is None and g.config == {}
    assert ap.GptInspect(str(d))._gpt2 == g._gpt2, "a str path as a Path"
    ours = ap.GptInspect(SMALL)
    assert ours._gpt2 is None and ours._checkpoint == SMALL.read_bytes(), "a .safetensors file: as before"


@pytest.mark.parametrize("files, says", [
    (dict(tokenizer=()), r"has no tokenizer: tokenizer\.json, or vocab\.json and merges\.txt$"),
    (dict(tokenizer=("vocab.json",)), r"has no tokenizer.*\(it has vocab\.json but not merges\.txt\)"),
    (dict(tokenizer=("merges.txt",)), r"\(it has merges\.txt but not vocab\.json\)"),
    (dict(weights=None), r"has no model\.safetensors$"),
])
def test_a_folder_without_a_file_is_refused_with_what_is_missing(tmp_path, files, says):
    d = folder(tmp_path, **files)
    with pytest.raises(ValueError, match=says):
        ap.GptInspect(d)


def test_no_config_and_pytorch_weights_are_said(tmp_path):
    d = folder(tmp_path, weights=None)
    (d / "pytorch_model.bin").write_bytes(b"pickle")
    with pytest.raises(ValueError, match=r"has pytorch_model\.bin; write the weights with save_pretrained\(\.\.\., safe_serialization=True\)"):
        ap.GptInspect(d)
    (d / "config.json").unlink()
    with pytest.raises(ValueError, match=rf"checkpoint: {d} has no config\.json \(a GPT-2 folder as save_pretrained"):
        ap.GptInspect(d)
    with pytest.raises(ValueError, match=r"checkpoint: no file '.*nope'"):
        ap.GptInspect(tmp_path / "nope")


def sent_to_page(g):
    """What g sends the page: (content, buffers) of each custom message."""
    out = []
    g.send = lambda content, buffers=None: out.append((content, [bytes(b) for b in buffers or []]))
    return out


def test_the_page_reads_a_file_chunk_by_chunk(tmp_path):
    weights = bytes(range(256)) * 40  # 10,240 bytes
    g = ap.GptInspect(folder(tmp_path, weights=weights))
    out = sent_to_page(g)
    got = b""
    for i, offset in enumerate(range(0, len(weights), 4096)):
        # as the widget's comm hands it over (on_msg): a read's answer is sent, not returned
        g._handle_custom_msg({"read": {"id": f"v-{i}", "file": "model.safetensors", "offset": offset, "length": 4096}}, [])
        answer, data = out[-1]
        assert answer == {"chunk": {"id": f"v-{i}", "file": "model.safetensors", "offset": offset}}
        got += data[0]
    assert got == weights and [len(d[0]) for _, d in out] == [4096, 4096, 2048], "the last chunk is what is left"


@pytest.mark.parametrize("ask, says", [
    ({"file": "../secret", "offset": 0, "length": 10}, "not a file of"),
    ({"file": "generation_config.json", "offset": 0, "length": 10}, "not a file of"),
    ({"file": "model.safetensors", "offset": -1, "length": 10}, "asked for bytes -1"),
    ({"file": "model.safetensors", "offset": 5001, "length": 10}, "asked for bytes 5001"),
    ({"file": "model.safetensors", "offset": 0, "length": 0}, "asked for bytes 0+0"),
    ({"file": "model.safetensors", "offset": 0, "length": 64 << 20}, "asked for bytes"),
])
def test_a_read_it_cannot_answer_is_answered_with_why(tmp_path, ask, says):
    d = folder(tmp_path)
    (d / "generation_config.json").write_text("{}")  # in the folder, but not one the page reads
    g = ap.GptInspect(d)
    out = sent_to_page(g)
    g._on_page(g, {"read": {"id": "v-0", **ask}}, [])
    (answer, data), = out
    assert answer["chunk"]["id"] == "v-0" and data == [b""]
    assert says in answer["chunk"]["error"]


def test_a_file_changed_since_it_was_opened_is_refused(tmp_path):
    d = folder(tmp_path)
    g = ap.GptInspect(d)
    (d / "model.safetensors").write_bytes(b"\x02" * 4000)
    out = sent_to_page(g)
    g._on_page(g, {"read": {"id": "v-0", "file": "model.safetensors", "offset": 0, "length": 100}}, [])
    assert "changed since GptInspect opened it" in out[0][0]["chunk"]["error"]
    ours = ap.GptInspect(SMALL)
    out = sent_to_page(ours)
    ours._on_page(ours, {"read": {"id": "v-1", "file": "config.json", "offset": 0, "length": 10}}, [])
    assert out[0][0]["chunk"] == {"id": "v-1", "error": "no GPT-2 folder is open"}


def parts(run, prompt, tokens, w, part_bytes=1000, error=""):
    """A run as the page sends it: the first part with what the run is, the weights' float64
    bytes cut every `part_bytes`."""
    data = b"" if w is None else np.ascontiguousarray(w, "<f8").tobytes()
    cuts = [data[i:i + part_bytes] for i in range(0, len(data), part_bytes)] or [b""]
    head = {"run": run, "part": 0, "parts": len(cuts), "prompt": prompt, "tokens": tokens, "error": error,
            "shape": None if w is None else list(w.shape)}
    return [({"drawn": head if i == 0 else {"run": run, "part": i}}, [memoryview(c)]) for i, c in enumerate(cuts)]


def test_a_runs_weights_arrive_in_parts_and_are_set_with_its_prompt_and_tokens(tmp_path):
    g = ap.GptInspect(folder(tmp_path), prompt="The cat")
    w = np.random.default_rng(0).random((2, 4, 5, 5))
    messages = parts("v-0", "The cat sat", ["The", " cat", " s", "at", "!"], w)
    assert len(messages) == 2 * 4 * 25 * 8 // 1000 + 1
    seen = []
    g.observe(lambda change: seen.append(change["name"]), names=["prompt", "tokens", "weights"])
    sent = []
    g._send = lambda msg, buffers=None: sent.append(msg)
    for content, buffers in messages[:-1]:
        g._on_page(g, content, buffers)
        assert g.weights is None and g.prompt == "The cat", "nothing until every part is in"
    g._on_page(g, *messages[-1])
    assert g.weights.dtype == np.float64 and g.weights.shape == (2, 4, 5, 5)
    assert g.weights.tobytes() == w.tobytes(), "the page's numbers, exactly"
    assert g.prompt == "The cat sat" and g.tokens == ["The", " cat", " s", "at", "!"] and g.error == ""
    assert sorted(seen) == ["prompt", "tokens", "weights"], "set together"
    assert sent == [], "nothing goes back: the page drew it"
    with pytest.raises(ValueError):
        g.weights[0, 0, 0, 0] = 1.0  # read-only, as the checkpoint's
    # A Python prompt clears them until the page has run it; a refused prompt is `error`.
    g.prompt = "x"
    assert g.weights is None and g.tokens == []
    for content, buffers in parts("v-1", "", [], None, error="the prompt is empty"):
        g._on_page(g, content, buffers)
    assert (g.prompt, g.tokens, g.weights, g.error) == ("", [], None, "the prompt is empty")


def test_a_run_not_whole_is_refused_and_sets_nothing(tmp_path):
    g = ap.GptInspect(folder(tmp_path), prompt="The cat")
    w = np.ones((1, 2, 3, 3))
    ok = parts("v-0", "The dog", ["a", "b", "c"], w, part_bytes=64)
    g._on_page(g, *ok[0])
    with pytest.raises(ValueError, match="out of order"):
        g._on_page(g, *ok[2])  # part 1 lost
    with pytest.raises(ValueError, match="out of order"):
        g._on_page(g, *ok[1])  # the run was forgotten
    short = parts("v-1", "The dog", ["a", "b", "c"], w, part_bytes=64)
    short[-1] = (short[-1][0], [memoryview(b"")])
    for content, buffers in short[:-1]:
        g._on_page(g, content, buffers)
    with pytest.raises(ValueError, match=r"sent 128 bytes for weights of shape \[1, 2, 3, 3\]"):
        g._on_page(g, *short[-1])
    big = parts("v-2", "The dog", ["a"], w)
    big[0][1][0] = memoryview(b"\0" * 200)
    with pytest.raises(ValueError, match="more than the 144 bytes"):
        g._on_page(g, *big[0])
    with pytest.raises(ValueError, match="without its shape, parts or tokens"):
        g._on_page(g, {"drawn": {"run": "v-3", "part": 0, "parts": 1, "shape": [1, 2]}}, [])
    assert g.weights is None and g.prompt == "The cat" and g.tokens == []
    # Two views' runs interleaved: each whole, the last one in is what Python holds.
    a = parts("a-0", "A", ["A"], np.full((1, 1, 1, 1), 0.25), part_bytes=4)
    b = parts("b-0", "B", ["B"], np.full((1, 1, 1, 1), 0.75), part_bytes=4)
    for x, y in zip(a, b):
        g._on_page(g, *x)
        g._on_page(g, *y)
    assert g.prompt == "B" and g.weights[0, 0, 0, 0] == 0.75


def test_load_goes_between_a_folder_and_a_checkpoint(tmp_path):
    d = folder(tmp_path)
    g = ap.GptInspect(SMALL, prompt="AB")
    g.set_state({"config": {"n_layer": 2}, "weights": {"shape": [2, 4, 2, 2], "data": memoryview(np.ones(32).tobytes())}})
    g.load(d)
    assert g._gpt2["files"]["model.safetensors"] == 5000 and g._checkpoint == b""
    assert g.config == {} and g.weights is None, "another model: its outputs come from the page"
    g.set_state({"config": {"kind": "gpt2", "n_layer": 2}})
    g.load(str(d))
    assert g.config == {"kind": "gpt2", "n_layer": 2}, "the same folder, unchanged: nothing changes"
    (d / "model.safetensors").write_bytes(b"\x03" * 6000)
    g.load(d)
    assert g.config == {} and g._gpt2["files"]["model.safetensors"] == 6000, "its files changed: opened again"
    with pytest.raises(ValueError, match="has no config.json"):
        g.load(tmp_path)  # a folder, not GPT-2's: nothing changes
    assert g._gpt2["files"]["model.safetensors"] == 6000
    g.load(SMALL)
    assert g._gpt2 is None and g._checkpoint == SMALL.read_bytes()
    out = sent_to_page(g)
    g._on_page(g, {"read": {"id": "v-9", "file": "config.json", "offset": 0, "length": 10}}, [])
    assert "error" in out[0][0]["chunk"], "the folder is let go"


def test_the_gpt_esm_carries_gpt2_and_its_worker():
    esm = (pathlib.Path(ap.__file__).parent / "static/gpt.js").read_text()
    assert "attn-gpt2" in esm and "attn-gpt-inspect" in esm
    assert "gpt2Plan" in esm, "the worker's text, with GPT-2's loader"


def test_read_checks_directly():
    d = _gpt2.Folder.__new__(_gpt2.Folder)
    d.path, d.sizes = pathlib.Path("/nonexistent"), {"model.safetensors": 10}
    answer, data = d.read({"id": 1, "file": "model.safetensors", "offset": 0, "length": 5})
    assert answer["id"] == 1 and "No such file" in answer["error"] and data == b"", "an OSError is said, not raised"
    answer, _ = d.read("nonsense")
    assert answer["id"] is None and "not a file of" in answer["error"]
