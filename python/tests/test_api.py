"""The Python API of attention_playground, without a browser: traits, shapes, checks,
messages, Head()'s defaults against the fixture NumPy made (tests/fixtures/hou.json), and
the matrices' bytes over the widget protocol.

    ./build.sh test runs it against the installed wheel, from the repository's root:
    target/nbtools/bin/pytest python/tests
"""

import json
import pathlib
import re

import numpy as np
import pytest

import attention_playground as ap
from attention_playground import Head, InputError, Widget

REPO = pathlib.Path(__file__).resolve().parents[2]
HOU = json.loads((REPO / "tests/fixtures/hou.json").read_text())


def test_the_default_head_is_the_lessons_hou_head():
    head = Head()
    assert head.tokens == HOU["tokens"] == ["h", "o", "u"]
    for name, key in (("x", "x"), ("w_q", "W_q"), ("w_k", "W_k"), ("w_v", "W_v")):
        value = getattr(head, name)
        assert value.dtype == np.float64
        np.testing.assert_array_equal(value, np.array(HOU[key]))
    assert head.causal is True and head.scaled is False and head.lang == "en"
    for name in Head.OUTPUTS:
        assert getattr(head, name) is None, f"{name} before the widget has drawn"
    assert head._tag == "attn-head"


def test_inputs_given_to_the_constructor():
    w_v = np.arange(6.0).reshape(2, 3)
    head = Head(w_v=w_v, scaled=True, lang="zh")
    np.testing.assert_array_equal(head.w_v, w_v)
    assert head.scaled and head.lang == "zh"
    np.testing.assert_array_equal(head.w_q, np.array(HOU["W_q"]))
    four = Head(x=np.eye(4, 3))
    assert four.tokens == ["t₀", "t₁", "t₂", "t₃"]  # as the page labels them


def test_an_assignment_sets_a_float64_array_that_only_assignment_changes():
    head = Head()
    head.w_q = [[1, 2, 3], [4, 5, 6]]
    assert head.w_q.dtype == np.float64 and head.w_q.shape == (2, 3)
    with pytest.raises(ValueError):
        head.w_q[0, 0] = 9  # read-only: an in-place change would never reach the widget


def test_observe_sees_a_change():
    head = Head()
    seen = []
    head.observe(lambda change: seen.append(change["name"]), names=["w_k", "causal"])
    head.w_k = np.ones((2, 3))
    head.causal = False
    assert seen == ["w_k", "causal"]


BAD = [
    ("w_q", np.ones((2, 4)), r"w_q has 4 columns but x has 3"),
    ("w_k", np.ones((3, 3)), r"w_q has 2 rows but w_k has 3"),
    ("x", np.eye(4, 3), r"tokens has 3 entries but x has 4 rows"),
    ("w_v", [[1, 2, float("nan")], [0, 0, 0]], r"w_v\[0, 2\] is NaN"),
    ("w_v", [[1, 2, 3], [0, float("-inf"), 0]], r"w_v\[1, 1\] is -inf"),
    ("w_v", np.full((2, 3), np.inf), r"w_v\[0, 0\] is inf"),
    ("w_q", "1 2 3", r"w_q: expected a d×C matrix of numbers, got a string"),
    ("w_q", [[1, "2", 3], [4, 5, 6]], r"got a string in it \('2'\)"),
    ("w_q", [[1, 2, 3], [4, 5]], r"ragged list"),
    ("x", [1, 2, 3], r"x: expected a T×C matrix of numbers, got 1 dimension"),
    ("x", np.ones((3, 3, 1)), r"got 3 dimensions"),
    ("x", np.ones((17, 3)), r"1 to 16 rows and columns, got shape 17×3"),
    ("x", np.ones((0, 3)), r"got shape 0×3"),
    ("w_v", [[1e301, 0, 0], [0, 0, 0]], r"too large"),
    ("w_v", None, r"got None"),
    ("w_v", [[1j, 0, 0], [0, 0, 0]], r"complex"),
    ("w_v", [[True, False, True], [1, 2, 3]], r"a boolean in it"),
    ("w_v", np.ones((2, 3), dtype=bool), r"got booleans"),
    ("w_v", np.zeros((2, 3), dtype="datetime64[s]"), r"dates or times"),
    ("w_v", np.ma.masked_array(np.ones((2, 3)), mask=np.eye(2, 3)), r"masked array"),
    ("w_v", [[10**400, 0, 0], [0, 0, 0]], r"too large"),
    ("w_v", [[{}, 0, 0], [0, 0, 0]], r"got dict \{\} in it"),
    ("w_v", 7, r"got int 7"),
    ("w_v", np.float64(7), r"got 0 dimensions"),
    ("tokens", ["\U0001F44D\U0001F3FD" * 3, "o", "u"], r"1 to 8 characters \(UTF-16 units\)"),
    ("tokens", "hou", r"tokens: expected a list of strings"),
    ("tokens", ["h", "o"], r"tokens has 2 entries but x has 3 rows"),
    ("tokens", ["h", "o", "toolongtoken"], r"1 to 8 characters"),
    ("tokens", ["h", 1, "u"], r"expected strings, got int"),
    ("causal", 1, r"causal: expected True or False"),
    ("scaled", "yes", r"scaled: expected True or False"),
    ("lang", "fr", r'lang: expected "en" or "zh"'),
]


@pytest.mark.parametrize("name, value, says", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_raises_a_value_error_and_changes_nothing(name, value, says):
    head = Head()
    before = {k: getattr(head, k) for k in (*Head.INPUTS, "lang")}
    sent = []
    head.observe(lambda change: sent.append(change["name"]))
    with pytest.raises(ValueError, match=says):
        setattr(head, name, value)
    for k, v in before.items():
        now = getattr(head, k)
        assert np.array_equal(now, v) if isinstance(v, np.ndarray) else now == v, k
    assert sent == [], "a refused value notified (and so would have been sent to the widget)"


def test_bad_input_to_the_constructor_raises():
    with pytest.raises(ValueError, match=r"w_q has 4 columns but x has 3"):
        Head(w_q=np.ones((2, 4)))
    with pytest.raises(ValueError, match="is NaN"):
        Head(x=[[float("nan")]])
    with pytest.raises(ValueError, match="x: expected a T×C matrix of numbers, got a ragged list"):
        Head(x=[[1, 2, 3], [4, 5]])


def test_a_value_that_fails_its_own_check_inside_update_sets_nothing():
    head = Head()
    before = {k: getattr(head, k) for k in Head.INPUTS}
    with pytest.raises(ValueError, match=r"w_v\[0, 0\] is NaN"):
        head.update(x=np.eye(4), tokens=list("abcd"), w_q=np.ones((2, 4)), w_k=np.ones((2, 4)),
                    w_v=np.full((2, 4), np.nan))
    for k, v in before.items():
        now = getattr(head, k)
        assert np.array_equal(now, v) if isinstance(v, np.ndarray) else now == v, k


def test_update_sets_what_must_agree_at_once_or_nothing():
    head = Head()
    x = np.eye(4)
    w = np.ones((2, 4))
    head.update(x=x, tokens=list("abcd"), w_q=w, w_k=w, w_v=np.ones((3, 4)))
    assert head.x.shape == (4, 4) and head.tokens == list("abcd") and head.w_v.shape == (3, 4)
    before = head.x.copy()
    with pytest.raises(ValueError, match=r"tokens has 2 entries but x has 4 rows"):
        head.update(x=np.eye(4) * 2, tokens=["a", "b"])
    np.testing.assert_array_equal(head.x, before)
    assert head.tokens == list("abcd")
    with pytest.raises(ValueError, match=r"no input named weights"):
        head.update(weights=np.eye(4))


def test_outputs_are_the_widgets_to_set():
    head = Head()
    for value in (np.eye(3), 1, None):
        with pytest.raises(ValueError, match="weights is what the widget sends and cannot be set"):
            head.weights = value
    with pytest.raises(ValueError, match="error is what the widget sends"):
        head.error = "x"
    with pytest.raises(ValueError, match="state: expected a dict"):
        ap.SoftmaxSteps().state = 3


def test_the_callers_array_is_copied_not_frozen():
    a = np.zeros((4, 3))
    head = Head()
    head.w_q = a[:2]
    a[0, 0] = 123.0
    assert head.w_q[0, 0] == 0.0, "a later change of the caller's array reaches the head"
    b = np.ones((2, 3))
    head.w_k = b
    b[0, 0] = 2.0  # still the caller's own, writable array
    assert head.w_k[0, 0] == 1.0


class _Tensor:
    """What torch.Tensor (on the CPU) or a pandas frame offer NumPy: __array__."""

    def __array__(self, dtype=None, copy=None):
        return np.full((2, 3), 0.5)


def test_anything_numpy_reads_is_taken():
    head = Head()
    head.w_q = _Tensor()
    assert head.w_q.tolist() == [[0.5] * 3] * 2
    head.w_k = np.array([np.array([1.0, 2, 3]), np.array([4.0, 5, 6])], dtype=object)
    assert head.w_k[1, 2] == 6.0
    head.w_v = [np.array([1, 2, 3]), (4, 5, 6)]
    assert head.w_v.dtype == np.float64 and head.w_v[1, 0] == 4.0


def test_same_value_again_keeps_the_outputs():
    head = Head()
    head.set_state({"weights": _wire(HOU["unscaled"]["weights_full_precision"])})
    head.w_q = head.w_q.copy()
    head.causal = True
    head.tokens = ["h", "o", "u"]
    assert head.weights is not None, "nothing changed: the widget sends nothing new"


def test_a_malformed_message_from_the_widget_is_refused_whole():
    head = Head()
    before = head.w_q.copy()
    bad = {"rows": 3, "cols": 3, "data": memoryview(np.ones(8).tobytes())}
    with pytest.raises(ValueError, match="72 bytes|64 bytes for a matrix of shape"):
        head.set_state({"w_q": _wire(np.full((2, 3), 7.0)), "x": bad})
    np.testing.assert_array_equal(head.w_q, before)


def test_unknown_arguments_and_attributes():
    with pytest.raises(ValueError, match="Head has no argument casual"):
        Head(casual=False)
    head = Head(sequence="hou|you", readonly=True)
    assert head.attributes == {"sequence": "hou|you", "readonly": True}
    w = Widget("attn-bigram")
    w.attributes = {"max_rows": 2, "words": "a|b", "readonly": False}
    assert w.attributes == {"max-rows": "2", "words": "a|b", "readonly": False}
    with pytest.raises(ValueError, match="attribute words: expected a string"):
        w.attributes = {"words": ["a"]}


def _wire(a):
    """A matrix as the widget sends it: rows, cols and the float64 bytes."""
    a = np.asarray(a, dtype="<f8")
    return {"rows": a.shape[0], "cols": a.shape[1], "data": memoryview(a.tobytes())}


def test_numbers_from_the_widget_arrive_exactly():
    head = Head()
    seen = []
    head.observe(lambda change: seen.append(change["name"]), names=["w_q", "weights"])
    w_q = np.array([[1 / 3, 0, 2], [0, 1, 0.1]])
    masked = np.array([[2.0, -np.inf, -np.inf], [0.0, 1.0, -np.inf], [4.0, 0.5, 2.5]])
    weights = np.array(HOU["unscaled"]["weights"])
    head.set_state({"w_q": _wire(w_q), "masked_scores": _wire(masked), "weights": _wire(weights)})
    assert head.w_q.tobytes() == w_q.tobytes()
    assert head.weights.tobytes() == weights.tobytes()
    assert np.isneginf(head.masked_scores[0, 1]) and head.masked_scores[2, 0] == 4.0
    assert seen == ["w_q", "weights"]


def test_an_input_set_in_python_clears_the_outputs_until_the_widget_draws_it():
    head = Head()
    weights = _wire(HOU["unscaled"]["weights_full_precision"])
    head.set_state({"weights": weights, "out": _wire(HOU["unscaled"]["out_full_precision"])})
    assert head.weights is not None
    head.w_v = np.ones((2, 3))
    assert head.weights is None and head.out is None, "numbers of the old inputs"
    # What the widget sends (an edit: inputs and outputs together) keeps its outputs.
    head.set_state({"w_q": _wire(np.ones((2, 3))), "weights": weights})
    assert head.weights is not None and head.w_q[0, 0] == 1


def test_numbers_to_the_widget_are_the_float64_bytes():
    head = Head()
    state = head.get_state()
    w_v = state["w_v"]
    assert (w_v["rows"], w_v["cols"]) == (2, 3)
    assert np.frombuffer(bytes(w_v["data"]), dtype="<f8").tolist() == [10, 0, 5, 0, 10, 5]
    assert state["tokens"] == ["h", "o", "u"] and state["weights"] is None


def test_any_element_by_its_tag():
    schemes = Widget("attn-schemes", lang="zh", readonly=True)
    assert schemes._tag == "attn-schemes" and schemes.attributes == {"readonly": True} and schemes.lang == "zh"
    assert ap.Schemes()._tag == "attn-schemes"
    assert ap.FormulaSteps().attributes == {"show-output": True}
    assert {ap.SoftmaxSteps()._tag, ap.NoteScale()._tag, ap.Exercise()._tag} == {
        "attn-softmax-steps", "attn-note-scale", "attn-exercise"}
    with pytest.raises(ValueError, match=r"'attn-nope' is not one of the notebook's widgets: .*attn-head"):
        Widget("attn-nope")
    with pytest.raises(ValueError, match="attribute words: expected a string"):
        Widget("attn-bigram", words=["a"])


def test_the_elements_are_those_of_the_site_less_the_gpt():
    assert "attn-head" in ap.TAGS and "attn-note-scale" in ap.TAGS and "attn-exercise" in ap.TAGS
    assert "attn-gpt-train" not in ap.TAGS and "attn-gpt-inspect" not in ap.TAGS  # GptInspect has its own ESM


def test_the_esm_carries_the_core_and_fetches_nothing_from_the_web():
    esm = (pathlib.Path(ap.__file__).parent / "static/widget.js").read_text()
    assert len(esm) > 300_000, "the wasm core is inlined"
    assert not re.search(r"""(import|from)\s*\(?\s*["']https?:""", esm)
    assert not re.search(r"jsdelivr|unpkg\.com|esm\.sh|cdnjs|//cdn\.", esm)


def test_the_version_is_the_crates():
    cargo = (REPO / "Cargo.toml").read_text()
    assert re.search(r'^version = "([^"]+)"', cargo, re.M).group(1) == ap.__version__


def test_gpt_inspect_checks_its_checkpoint(tmp_path):
    with pytest.raises(ValueError, match=r"checkpoint: no file '.*nope.safetensors'"):
        ap.GptInspect(checkpoint=tmp_path / "nope.safetensors")
    bad = tmp_path / "bad.safetensors"
    for data in (b"not a checkpoint at all", b"\0" * 8 + b"{}", (5).to_bytes(8, "little") + b"{nope"):
        bad.write_bytes(data)
        with pytest.raises(ValueError, match=r"not a \.safetensors file|too short"):
            ap.GptInspect(checkpoint=bad)
    with pytest.raises(ValueError, match=r"expected a path or bytes, got int"):
        ap.GptInspect(checkpoint=3)
    model = REPO / "www/models/small.safetensors"
    g = ap.GptInspect(checkpoint=model, prompt="ROMEO:")
    assert g.prompt == "ROMEO:" and g.weights is None and g.tokens == [] and g.error == ""
    assert g._checkpoint == model.read_bytes()
    with pytest.raises(ValueError, match="prompt: expected a string"):
        g.prompt = 5


def test_gpt_inspect_outputs_clear_when_python_changes_the_prompt():
    g = ap.GptInspect(checkpoint=REPO / "www/models/small.safetensors", prompt="AB")
    w = np.full((2, 4, 2, 2), 0.5)
    g.set_state({"weights": {"shape": [2, 4, 2, 2], "data": memoryview(w.astype("<f8").tobytes())}, "prompt": "AB"})
    assert g.weights.shape == (2, 4, 2, 2) and g.weights[1, 3, 1, 1] == 0.5
    g.set_state({"prompt": "KING", "weights": {"shape": [2, 4, 1, 1], "data": memoryview(np.ones(8).tobytes())}})
    assert g.prompt == "KING" and g.weights.shape == (2, 4, 1, 1), "typed in the widget: kept"
    g.set_state({"tokens": ["K", "I", "N", "G"], "config": {"n_layer": 2}, "error": ""})
    g.prompt = "ROMEO"
    assert g.weights is None and g.tokens == [], "the old prompt's tokens and weights go"
    assert g.config == {"n_layer": 2}, "the same checkpoint: its config holds"
    g.load(REPO / "www/models/small.safetensors")
    assert g.config == {"n_layer": 2}, "the same bytes again: nothing changes"
    other = bytearray((REPO / "www/models/small.safetensors").read_bytes())
    other[-1] ^= 1  # another model (one weight's last bit)
    g.load(bytes(other))
    assert g.config == {} and g.weights is None, "another checkpoint: its config comes from the widget"
    with pytest.raises(ValueError, match="tokens is what the widget sends"):
        g.tokens = ["a"]


SCORES = ("previous_token", "induction", "first_token")


def _heads_wire(nl, nh, seed=0):
    """GptLab.headScores() as the widget sends it (www/js/pages/notebook/gpt.js: headsOf)."""
    rng = np.random.default_rng(seed)
    scores = {k: rng.random((nl, nh)).astype(np.float32).astype("<f8") for k in SCORES}
    wire = {k: {"shape": [nl, nh], "data": memoryview(v.tobytes())} for k, v in scores.items()}
    wire.update(probe=["ABAB", "CDCD"], probe_len=2, loss_first=4.25, loss_second=0.5,
                best={"layer": 1, "head": 2, "score": 0.75})
    return wire, scores


def test_gpt_inspect_heads_arrive_as_layer_by_head_arrays_and_go_with_the_checkpoint():
    model = REPO / "www/models/small.safetensors"
    g = ap.GptInspect(checkpoint=model, prompt="AB")
    assert g.heads is None, "before the widget has loaded the checkpoint"
    wire, scores = _heads_wire(2, 4)
    seen = []
    g.observe(lambda change: seen.append(change["name"]), names=["heads"])
    g.set_state({"config": {"n_layer": 2, "n_head": 4}, "heads": wire})
    assert seen == ["heads"]
    assert set(g.heads) == {*SCORES, "probe", "probe_len", "loss_first", "loss_second", "best"}
    for name, want in scores.items():
        got = g.heads[name]
        assert got.shape == (2, 4) and got.dtype == np.float64, name
        assert got.tobytes() == want.tobytes(), f"{name}: exactly the widget's numbers, layer-major"
        with pytest.raises(ValueError):
            got[0, 0] = 1.0  # read-only, as weights
    assert g.heads["induction"][1, 3] == scores["induction"].ravel()[1 * 4 + 3]
    assert (g.heads["probe"], g.heads["probe_len"], g.heads["loss_first"], g.heads["loss_second"]) == (
        ["ABAB", "CDCD"], 2, 4.25, 0.5)
    assert g.heads["best"] == {"layer": 1, "head": 2, "score": 0.75}
    # Back to the widget (ipywidgets' echo, a saved state): the same bytes.
    state = g.get_state("heads")["heads"]
    assert state["induction"]["shape"] == [2, 4]
    assert bytes(state["induction"]["data"]) == scores["induction"].tobytes()

    with pytest.raises(ValueError, match="heads is what the widget sends"):
        g.heads = None
    g.prompt = "KING"
    assert g.heads is not None, "the probe is the model's, not the prompt's: a new prompt keeps it"
    g.load(model)
    assert g.heads is not None, "the same bytes again: nothing changes"
    other = bytearray(model.read_bytes())
    other[-1] ^= 1
    g.load(bytes(other))
    assert g.heads is None and g.config == {}, "another checkpoint: its scores come from the widget"


def test_gpt_inspect_refuses_malformed_heads_whole():
    g = ap.GptInspect(checkpoint=REPO / "www/models/small.safetensors")
    wire, _ = _heads_wire(2, 4)
    short = {**wire, "first_token": {"shape": [2, 4], "data": memoryview(np.ones(7).tobytes())}}
    with pytest.raises(ValueError, match=r"56 bytes for a matrix of shape \[2, 4\]"):
        g.set_state({"heads": short, "config": {"n_layer": 2}})
    assert g.heads is None and g.config == {}, "nothing of the message is set"
    flat = {**wire, "induction": {"shape": [8], "data": wire["induction"]["data"]}}
    with pytest.raises(ValueError, match=r"induction of shape \(8,\), not \(n_layer, n_head\)"):
        g.set_state({"heads": flat})
    with pytest.raises(ValueError, match="heads without previous_token, induction, first_token"):
        g.set_state({"heads": {"probe": []}})
    assert g.heads is None


def test_this_is_the_installed_wheel():
    assert "site-packages" in pathlib.Path(ap.__file__).parts, f"testing {ap.__file__}, not the wheel"
