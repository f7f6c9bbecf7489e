"""Our GPT-2 (src/gpt/hf.rs, src/gpt/bpe.rs, through `gpt tokenize` and `gpt eval`) against
PyPI transformers on Hugging Face GPT-2 folders that transformers itself wrote
(tools/gpt2_hf.py): the same ids and pieces, and the same logits, attention maps and
losses to 1e-4.

    target/pytools/bin/python tests/tools/test_gpt2.py     (needs transformers, torch)

It runs the release CLI target/release/gpt (`cargo build --release --bin gpt`). The folders
are made once in target/gpt2-fixtures/ and made again only when tools/gpt2_hf.py, their
flags or the torch/transformers versions change (a stamp file beside each): cold ~1 min
(the brief training dominates), warm a few seconds. The models, 2 layers × 4 heads × 64 and
a trained byte-level BPE (1,000 ids) unless said:
  random    transformers' own init (seed 0), float32
  trained   the same, then 200 AdamW steps on the corpus: its heads no longer attend
            uniformly, so a swapped head, q/k or mask shows in the attention maps
  float16   random's weights saved as float16 (our loader widens them to float32)
  bfloat16  the same as bfloat16
  3x3       3 layers × 3 heads × 48, 64 positions, seed 1, its own 600-id tokenizer; one text
            fills all 64 positions
The texts hold leading and trailing spaces, newlines, digits, contractions ('s, 'll), and
Chinese and emoji, which the English-trained tokenizer spells byte by byte.
"""
import hashlib, json, os, shutil, subprocess, sys, tempfile, unittest

import torch
import transformers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gpt2_hf  # noqa: E402

TOOL = os.path.join(ROOT, "tools", "gpt2_hf.py")
GPT = os.environ.get("GPT_BIN", os.path.join(ROOT, "target", "release", "gpt"))
FIXTURES = os.path.join(ROOT, "target", "gpt2-fixtures")
# Rule for every logit, attention weight and per-position loss b (transformers) against a
# (ours): |a - b| <= TOL * min(max(1, |b|), max|B|), B = the whole tensor. That is both
# "relative to |b| (absolute below 1)" and "relative to the tensor's largest value", the
# stricter of the two for each number: small random-init logits (max|B| < 1) are held to
# TOL * max|B|, large trained ones to TOL * |b|. Seen (release CLI, 2026-12-07): at most
# 2.9e-6 (trained logits), 8.6e-7 (trained attention), 1.9e-6 (losses), never more than
# 0.0086 of the bound; torch float32 against float64 differs as much (4.3e-6 at most).
TOL = 1e-4
TEXTS = [
    "Hello world",
    "  two leading spaces\n\nand newlines \n",
    "In 1984 there were 3,141 cats and 27 dogs.",
    "It's the king's crown; they'll say we've won, I'm sure.",
    "注意力就是你所需要的",
    "🙂 ok 👍🏽!",
    "ROMEO:\nBut soft, what light through yonder window breaks?",
]
MODELS = {  # name: make flags ({random} = the random model's folder, for its tokenizer)
    "random": [],
    "trained": ["--tokenizer", "{random}", "--train-steps", "200"],
    "float16": ["--tokenizer", "{random}", "--dtype", "float16"],
    "bfloat16": ["--tokenizer", "{random}", "--dtype", "bfloat16"],
    "3x3": ["--n-layer", "3", "--n-head", "3", "--n-embd", "48", "--n-positions", "64",
            "--seed", "1", "--vocab-size", "600"],
}
DTYPE = {"random": "F32", "trained": "F32", "float16": "F16", "bfloat16": "BF16", "3x3": "F32"}
FULL_WINDOW = ["I", " a", " O", " the", " to", " my"]  # one token each: fills n_positions
REFS = {}  # name: [ref dict with its "text"], transformers' side, made in setUpModule


def folder(name):
    return os.path.join(FIXTURES, name)


def make(name):
    """tools/gpt2_hf.py make for `name`, unless its folder's stamp says it is current."""
    flags = [f.format(random=folder("random")) for f in MODELS[name]]
    stamp = hashlib.sha256(json.dumps([gpt2_hf.source_hash(), flags, torch.__version__,
                                       transformers.__version__]).encode()).hexdigest()
    stamp_file = folder(name) + ".stamp"
    if os.path.isfile(stamp_file):
        with open(stamp_file) as f:
            if f.read() == stamp:
                return
    shutil.rmtree(folder(name), ignore_errors=True)
    r = subprocess.run([sys.executable, TOOL, "make", "--out", folder(name), *flags],
                       cwd=ROOT, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"gpt2_hf.py make {name} exited {r.returncode}:\n{r.stderr[-3000:]}")
    print(f"\n{name}: {r.stdout.strip()}", file=sys.stderr)
    with open(stamp_file, "w") as f:
        f.write(stamp)


def full_window_text(tok, T):
    """A text of exactly T tokens: words that are one token each, after the first."""
    text = "".join(FULL_WINDOW[i % len(FULL_WINDOW)] for i in range(T))
    n = len(tok(text)["input_ids"])
    assert n == T, f"the full-window text is {n} tokens, not {T}: a word is not one token"
    return text


def setUpModule():
    os.makedirs(FIXTURES, exist_ok=True)
    for name in MODELS:  # random first: the others copy its tokenizer
        make(name)
    for name in MODELS:
        tok, model = gpt2_hf.load(folder(name))
        texts = TEXTS + ([full_window_text(tok, 64)] if name == "3x3" else [])
        REFS[name] = [dict(gpt2_hf.reference(tok, model, t), text=t) for t in texts]


# ------------------------------------------------------------------ our CLI
def gpt(*args, ok=True):
    """target/release/gpt `args` -> (exit code, stdout, stderr); ok: fail on a non-zero exit."""
    if not os.path.isfile(GPT):
        raise AssertionError(f"{GPT} is missing: run `cargo build --release --bin gpt`")
    r = subprocess.run([GPT, *args], cwd=ROOT, capture_output=True, text=True)
    if ok and r.returncode:
        raise AssertionError(f"gpt {' '.join(args[:3])} … exited {r.returncode}:\n{r.stderr[-2000:]}")
    return r.returncode, r.stdout, r.stderr


def ours(cmd, name, text):  # `gpt tokenize` or `gpt eval --logits --attentions`, parsed
    extra = ["--logits", "--attentions"] if cmd == "eval" else []
    return json.loads(gpt(cmd, "--ckpt", folder(name), "--text", text, *extra)[1])


# ------------------------------------------------------------------ comparing numbers
def flatten(x, shape=()):
    """A nested list of numbers -> (its shape, the numbers in order); ragged is an error."""
    if not isinstance(x, list):
        return shape, [x]
    parts = [flatten(e, shape + (len(x),)) for e in x]
    shapes = {s for s, _ in parts}
    if len(shapes) > 1:
        raise AssertionError(f"ragged list at shape {shape + (len(x),)}: {sorted(shapes)}")
    return (shapes.pop() if parts else shape + (0,)), [v for _, vs in parts for v in vs]


def worst(a, b):
    """(max |a - b|, max |a - b| / bound, flat index of the latter) under the TOL rule above;
    a NaN (or null, as serde_json writes NaN) of ours is infinitely far."""
    (sa, fa), (sb, fb) = flatten(a), flatten(b)
    if sa != sb:
        raise AssertionError(f"shape {sa}, transformers' {sb}")
    scale = max((abs(v) for v in fb), default=0.0)
    d_max, r_max, i_max = 0.0, -1.0, 0
    for i, (u, v) in enumerate(zip(fa, fb)):
        d = abs(u - v) if isinstance(u, (int, float)) and u == u else float("inf")
        bound = TOL * min(max(1.0, abs(v)), scale)
        r = d / bound if bound else (0.0 if d == 0 else float("inf"))
        d_max = max(d_max, d)
        if r > r_max:
            r_max, i_max = r, i
    return d_max, max(r_max, 0.0), i_max


def index_of(shape, i):  # flat index -> [l, h, row, col] etc.
    idx = []
    for n in reversed(shape):
        idx.append(i % n)
        i //= n
    return idx[::-1]


# ------------------------------------------------------------------ tests
class FixturesTest(unittest.TestCase):
    """The folders are what transformers writes (no CLI needed)."""

    def test_safetensors_hold_what_save_pretrained_writes(self):
        for name in MODELS:
            with self.subTest(model=name):
                header = safetensors_header(os.path.join(folder(name), "model.safetensors"))
                names = set(header) - {"__metadata__"}
                n_layer = read_json(folder(name), "config.json")["n_layer"]
                per_block = {f"transformer.h.{{}}.{p}.{w}" for p in ("ln_1", "ln_2", "attn.c_attn",
                             "attn.c_proj", "mlp.c_fc", "mlp.c_proj") for w in ("weight", "bias")}
                want = {n.format(l) for n in per_block for l in range(n_layer)} | {
                    "transformer.wte.weight", "transformer.wpe.weight",
                    "transformer.ln_f.weight", "transformer.ln_f.bias"}
                self.assertEqual(names, want, "tensor names (no lm_head.weight: tied to wte; "
                                 "no attn.bias / attn.masked_bias buffers)")
                dtypes = {header[n]["dtype"] for n in names}
                self.assertEqual(dtypes, {DTYPE[name]})
                self.assertEqual(header["__metadata__"], {"format": "pt"})

    def test_tokenizer_is_gpt2s_kind(self):
        for name in ("random", "3x3"):
            with self.subTest(model=name):
                d = folder(name)
                vocab, config = read_json(d, "vocab.json"), read_json(d, "config.json")
                self.assertEqual(config["model_type"], "gpt2")
                self.assertEqual(config["vocab_size"], len(vocab))
                self.assertEqual(vocab["<|endoftext|>"], len(vocab) - 1, "<|endoftext|> is the last id")
                self.assertEqual(config["eos_token_id"], len(vocab) - 1)
                with open(os.path.join(d, "merges.txt"), encoding="utf-8") as f:
                    self.assertTrue(f.readline().startswith("#version"))

    def test_trained_model_learned_and_attends_unevenly(self):
        # the Shakespeare line: the short texts and bytes never seen in training (digits,
        # Chinese, emoji) do not show it
        rand, trained = REFS["random"][-1]["loss"], REFS["trained"][-1]["loss"]
        self.assertLess(trained, rand - 1.0, "training did not lower the loss")
        att = torch.tensor(REFS["trained"][-1]["attentions"])  # (L, nh, T, T), the ROMEO text
        row_max = att[:, :, 8:, :].max(-1).values.mean(-1)  # (L, nh), rows past the 8th
        uniform = torch.tensor(REFS["random"][-1]["attentions"])[:, :, 8:, :].max(-1).values.mean(-1)
        self.assertGreater(row_max.max().item(), 0.3, f"trained heads' mean row max {row_max}")
        self.assertLess(uniform.max().item(), 0.2, f"random heads' mean row max {uniform}")

    def test_ref_command_line_prints_the_same(self):
        r = REFS["random"][2]
        with tempfile.TemporaryDirectory(dir=FIXTURES) as tmp:
            out = os.path.join(tmp, "ref.json")
            subprocess.run([sys.executable, TOOL, "ref", "--model", folder("random"), "--text",
                            r["text"], "--out", out], cwd=ROOT, check=True)
            self.assertEqual(read_json(out), {k: v for k, v in r.items() if k != "text"})

    def test_onnx_export_writes_a_model(self):
        with tempfile.TemporaryDirectory(dir=FIXTURES) as tmp:
            out = os.path.join(tmp, "random.onnx")
            r = subprocess.run([sys.executable, TOOL, "onnx", "--model", folder("random"),
                                "--out", out, "--seq", "16"], cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr[-2000:])
            self.assertGreater(os.path.getsize(out), 600_000, "the weights are in the file")


def read_json(*path):
    with open(os.path.join(*path), encoding="utf-8") as f:
        return json.load(f)


def safetensors_header(path):
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        return json.loads(f.read(n))


class CliTest(unittest.TestCase):
    """`gpt tokenize` and `gpt eval` against transformers, text by text."""
    diffs = {}  # (model, what): (max |a - b|, max ratio to the bound), printed at the end

    @classmethod
    def tearDownClass(cls):
        if cls.diffs:
            print("\nmax |ours - transformers| (and its share of the bound):", file=sys.stderr)
            for (name, what), (d, r) in sorted(cls.diffs.items()):
                print(f"  {name:9} {what:11} {d:.2g} ({r:.2g})", file=sys.stderr)

    def note(self, name, what, d, r):
        old = self.diffs.get((name, what), (0.0, 0.0))
        self.diffs[(name, what)] = (max(old[0], d), max(old[1], r))

    def test_tokenize_gives_transformers_ids_and_pieces(self):
        for name, refs in REFS.items():
            for ref in refs:
                with self.subTest(model=name, text=ref["text"][:30]):
                    got = ours("tokenize", name, ref["text"])
                    self.assertEqual(got["ids"], ref["ids"], "ids")
                    self.assertEqual(got["pieces"], ref["pieces"],
                                     f"pieces (transformers' bytes: {ref['piece_bytes']})")

    def test_eval_gives_transformers_logits_attentions_and_losses(self):
        for name, refs in REFS.items():
            for ref in refs:
                with self.subTest(model=name, text=ref["text"][:30]):
                    got = ours("eval", name, ref["text"])
                    T = len(ref["ids"])
                    self.assertEqual(got["ids"], ref["ids"], "ids")
                    self.assertEqual((got["n"], len(got["losses"])), (T - 1, T - 1), "n, len(losses)")
                    self.check(name, "loss", got["loss"], ref["loss"])
                    for what in ("losses", "logits", "attentions"):
                        self.check(name, what, got[what], ref[what])

    def check(self, name, what, a, b):
        d, r, i = worst(a, b)
        self.note(name, what, d, r)
        if not r <= 1.0:
            shape, fa = flatten(a)
            _, fb = flatten(b)
            self.fail(f"{what}{index_of(shape, i)}: ours {fa[i]!r}, transformers {fb[i]!r} "
                      f"(|diff| {abs(fa[i] - fb[i]):.3g}, {r:.3g} × the bound)")


class HeadsOffTest(unittest.TestCase):
    """Heads switched off (`gpt eval --off`, the page's switch) against transformers' own
    `head_mask`: a 0 multiplies the head's attention weights, so its output is 0 before
    c_proj, which is what our ablation zeroes."""

    def test_heads_off_give_transformers_head_mask_logits(self):
        tok, model = gpt2_hf.load(folder("trained"))
        text = TEXTS[-1]
        ids = tok(text)["input_ids"]
        cfg = model.config
        for off in ([(0, 1)], [(1, 3)], [(0, 0), (1, 2), (1, 3)]):
            with self.subTest(off=off):
                mask = torch.ones(cfg.n_layer, cfg.n_head)
                for l, h in off:
                    mask[l, h] = 0.0
                with torch.no_grad():
                    out = model(input_ids=torch.tensor([ids]), head_mask=mask, output_attentions=True)
                want = out.logits[0, -1].double().tolist()
                flag = ",".join(f"{l}.{h}" for l, h in off)
                got = json.loads(gpt("eval", "--ckpt", folder("trained"), "--text", text, "--logits",
                                     "--off", flag)[1])
                d, r, i = worst(got["logits"], want)
                self.assertLessEqual(r, 1.0, f"logit {i}: off by {d:.3g}")
                # and it changed something: the model with every head on is another model
                full = REFS["trained"][-1]["logits"]
                self.assertGreater(max(abs(a - b) for a, b in zip(full, want)), 1e-3)


class RefusalTest(unittest.TestCase):
    """Folders our loader must refuse, with a message that names the problem."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(dir=FIXTURES)

    def tearDown(self):
        self.tmp.cleanup()

    def copy(self, name, skip=()):
        d = os.path.join(self.tmp.name, name)
        shutil.copytree(folder("random"), d, ignore=shutil.ignore_patterns(*skip))
        return d

    def refused(self, cmd, d, want):
        code, out, err = gpt(cmd, "--ckpt", d, "--text", "Hello world", ok=False)
        self.assertNotEqual(code, 0, f"gpt {cmd} accepted {os.path.basename(d)}: {out[:200]}")
        self.assertIn(want, out + err)

    def test_a_bert_config_is_not_gpt2(self):
        d = self.copy("bert")
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump({"architectures": ["BertForMaskedLM"], "model_type": "bert",
                       "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
                       "intermediate_size": 256, "hidden_act": "gelu", "vocab_size": 1000,
                       "max_position_embeddings": 128, "type_vocab_size": 2}, f)
        self.refused("eval", d, "not GPT-2")

    def test_a_truncated_safetensors_file(self):
        d = self.copy("truncated")
        path = os.path.join(d, "model.safetensors")
        with open(path, "r+b") as f:
            n = int.from_bytes(f.read(8), "little")
            f.truncate(8 + n + (os.path.getsize(path) - 8 - n) // 2)  # header whole, half the data
        self.refused("eval", d, "ended after")

    def test_a_folder_without_tokenizer(self):
        d = self.copy("no-tokenizer", skip=gpt2_hf.TOKENIZER_FILES)
        for cmd in ("tokenize", "eval"):
            with self.subTest(cmd=cmd):
                self.refused(cmd, d, "tokenizer")


if __name__ == "__main__":
    unittest.main()
