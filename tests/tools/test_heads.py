"""`gpt heads` (src/gpt/heads.rs) against PyTorch (issue 35): the same checkpoint and the same
probe through tools/gpt_torch.py's `heads`, PyTorch attention of the same weights, give every
head's previous-token, induction and first-token scores, the probe's two losses and the
ablation deltas to 1e-5.

    target/pytools/bin/python tests/tools/test_heads.py     (needs torch and safetensors)

The checkpoints are trained here with `gpt train --toy repeat` (seconds), a little, so that
attention is not uniform: the induction preset (2 layers × 4 heads, the default probe) and
3 layers × 2 heads without biases (a probe of other rows, length and seed). The torch side
reads the probe from `gpt heads --json` (never re-draws it), so both run the same ids.
"""
import json, os, subprocess, sys, tempfile, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GPT_TORCH = os.path.join(ROOT, "tools", "gpt_torch.py")
# f32 against float64: seen up to 1.2e-7 (an ablation delta; scores up to 1.6e-8)
TOL = 1e-5
SCORES = ("previous_token", "induction", "first_token")
TRAIN = ["--toy", "repeat", "--preset", "induction"]
MODELS = {  # name: (train flags, heads flags, (n_layer, n_head))
    "induction": (TRAIN + ["--iters", "400"], [], (2, 4)),
    "3x2-nobias": (TRAIN + ["--n-layer", "3", "--n-head", "2", "--n-embd", "16", "--block-size",
                            "32", "--toy-max-len", "12", "--no-bias", "--iters", "800"],
                   ["--probe-rows", "5", "--probe-len", "7", "--probe-seed", "9"], (3, 2)),
}
TMP = tempfile.TemporaryDirectory()


def run(cmd, stdin=None):
    r = subprocess.run(cmd, cwd=ROOT, input=stdin, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stderr[-2000:]}")
    return r.stdout


def gpt(*args):
    return run(["cargo", "run", "--release", "--quiet", "--bin", "gpt", "--", *args])


def ckpt(name):
    return os.path.join(TMP.name, f"{name}.safetensors")


def ours(name, *extra):  # `gpt heads --json --ablate` -> (its JSON text, parsed)
    out = gpt("heads", "--ckpt", ckpt(name), "--json", "--ablate", *MODELS[name][1], *extra)
    return out, json.loads(out)


def theirs(name, probe_json):  # tools/gpt_torch.py heads on the probe of `probe_json`
    return json.loads(run([sys.executable, GPT_TORCH, "heads", "--ckpt", ckpt(name),
                           "--probe", "-", "--ablate"], stdin=probe_json))


def setUpModule():
    for name, (flags, _, _) in MODELS.items():
        gpt("train", *flags, "--out", ckpt(name))


def tearDownModule():
    TMP.cleanup()


def compared(a, b):
    """{key: [(index, a's value, b's value)]} of every score, loss and ablation number."""
    out = {}
    for k in (*SCORES, "loss_first", "loss_second"):
        out[k] = pairs(a[k], b[k])
    for k in ("second_copy", "base_second_copy"):
        out["ablation." + k] = pairs(a["ablation"][k], b["ablation"][k])
    return out


def pairs(x, y):  # a number or an NL × NH grid -> [((l, h) or (), x's, y's)]
    if not isinstance(x, list):
        return [((), x, y)]
    if [len(r) for r in x] != [len(r) for r in y]:
        raise AssertionError(f"shapes differ: {[len(r) for r in x]} against {[len(r) for r in y]}")
    return [((l, h), u, v) for l, (ru, rv) in enumerate(zip(x, y)) for h, (u, v) in enumerate(zip(ru, rv))]


def max_diffs(c):
    return {k: max(abs(u - v) for _, u, v in ps) for k, ps in c.items()}


def uniform(L):
    """What each score is when every head attends uniformly (att[t, j] = 1/(t+1), j <= t)."""
    prev = sum(1 / (t + 1) for t in range(1, 2 * L)) / (2 * L - 1)
    ind = sum(1 / (t + 1) for t in range(L, 2 * L)) / L
    return {"previous_token": prev, "induction": ind, "first_token": prev}


class HeadsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = {}
        for name in MODELS:
            text, rust = ours(name)
            cls.runs[name] = rust, theirs(name, text)

    def test_scores_losses_and_ablation_agree_with_torch(self):
        for name, (rust, torch) in self.runs.items():
            with self.subTest(model=name):
                c = compared(rust, torch)
                bad = [f"{k}{list(i)}: ours {u!r}, torch {v!r}, |diff| {abs(u - v):.3g}"
                       for k, ps in c.items() for i, u, v in ps if not abs(u - v) <= TOL]
                diffs = max_diffs(c)
                print(f"\n{name}: max |ours - torch| " +
                      ", ".join(f"{k} {d:.2g}" for k, d in diffs.items()), file=sys.stderr)
                if bad:
                    self.fail(f"{len(bad)} numbers differ by more than {TOL}; first: " +
                              "; ".join(bad[:5]))

    def test_the_numbers_are_not_trivial(self):
        for name, (rust, torch) in self.runs.items():
            nl, nh = MODELS[name][2]
            L = rust["probe_len"]
            with self.subTest(model=name):
                self.assertEqual((rust["n_layer"], rust["n_head"]), (nl, nh))
                self.assertEqual((torch["n_layer"], torch["n_head"], torch["probe_len"]), (nl, nh, L))
                probe = rust["probe"]
                self.assertGreaterEqual(len(probe), 1)
                for row in probe:
                    self.assertEqual(len(row), 2 * L)
                    self.assertEqual(row[:L], row[L:], "a sequence written twice")
                for out in (rust, torch):
                    far = 0.0  # the largest |score - the score of uniform attention|
                    for k in (*SCORES, "second_copy"):
                        grid = out["ablation"][k] if k == "second_copy" else out[k]
                        self.assertEqual([len(r) for r in grid], [nh] * nl, k)
                    for k in SCORES:
                        values = [v for row in out[k] for v in row]
                        self.assertTrue(all(0.0 <= v <= 1.0 for v in values), (k, values))
                        far = max(far, *(abs(v - uniform(L)[k]) for v in values))
                    self.assertGreater(far, 0.05, "attention learned something: not uniform")
                    for k in ("loss_first", "loss_second"):
                        self.assertTrue(0.0 < out[k] < 20.0, (k, out[k]))
                    ab = out["ablation"]
                    self.assertLessEqual(abs(ab["base_second_copy"] - out["loss_second"]), TOL)
                    deltas = [abs(v) for row in ab["second_copy"] for v in row]
                    self.assertGreater(max(deltas), 1e-3, "switching some head off matters")
                self.assertIsNone(rust["ablation"]["val"], "no validation text was given")
        rust, _ = self.runs["induction"]
        # trained on the repeat task: an induction head begins, the second copy is easier
        best = max(v for row in rust["induction"] for v in row)
        self.assertGreater(best, 2 * uniform(rust["probe_len"])["induction"])
        self.assertLess(rust["loss_second"], rust["loss_first"] - 0.1)

    def test_another_probe_gives_other_numbers(self):
        """The agreement is not a coincidence of the checkpoint: on a different probe (seed)
        our numbers move away from torch's on the first one by far more than TOL."""
        text, _ = ours("induction", "--probe-seed", "5")
        other = json.loads(text)
        self.assertNotEqual(other["probe"], self.runs["induction"][0]["probe"])
        d = max_diffs(compared(other, self.runs["induction"][1]))
        self.assertGreater(max(d.values()), 100 * TOL, d)

    def test_a_probe_not_written_twice_is_an_error(self):
        rust = self.runs["induction"][0]
        L, rows = rust["probe_len"], [list(r) for r in rust["probe"]]
        rows[0][L] = 1 if rows[0][0] == 0 else 0  # the second copy's first token changed
        r = subprocess.run([sys.executable, GPT_TORCH, "heads", "--ckpt", ckpt("induction"),
                            "--probe", "-"], input=json.dumps({"probe": rows, "probe_len": L}),
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("error: "), r.stderr)
        self.assertNotIn("Traceback", r.stderr)


if __name__ == "__main__":
    unittest.main()
