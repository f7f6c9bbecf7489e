"""tools/export_nanogpt.py against PyTorch: the ckpt.pt it writes loads as nanoGPT's train.py
loads it (torch.load; weights_only where torch has it for floats), torch's own AdamW continues our run from the exported
moments to the weights our uninterrupted run reached, and ours → nanoGPT → ours
(tools/convert_nanogpt.py) gives back every tensor bit for bit.

    python3 -m unittest discover -s tests/tools -t .     (needs torch and safetensors)

The runs come from `cargo run --example resume_fixture` (examples/resume_fixture.rs).
"""
import array, json, os, pickle, subprocess, sys, tempfile, unittest

import torch
from safetensors import safe_open
from safetensors.torch import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import convert_nanogpt  # noqa: E402
import export_nanogpt  # noqa: E402

FIXTURE = os.path.join(ROOT, "target", "resume_fixture")
SAVED_AT, STEPS = 5, 10  # examples/resume_fixture.rs
NAMES = ("bias", "nobias")
# nanoGPT's train.py reads these keys of the checkpoint on --init_from=resume
CKPT_KEYS = {"model", "optimizer", "model_args", "iter_num", "best_val_loss", "config"}
# Our AdamW and torch's round differently in the last bits: after 5 more steps the weights
# agree to 1.2e-7 (torch 1.13) or 7e-9 (2.15); from fresh moments they are 0.02 away.
TOL = 1e-6
# torch.load as nanoGPT's train.py calls it: from torch 2.6 on that is weights_only; torch 1.x
# (Debian's 1.13, which CI runs) has no float opcode in its weights_only unpickler, so there
# the full one reads (our own files: trusted).
WEIGHTS_ONLY = int(torch.__version__.split(".")[0]) >= 2


def setUpModule():
    subprocess.run(["cargo", "run", "--quiet", "--example", "resume_fixture", "--", FIXTURE],
                   cwd=ROOT, check=True)


def export(src, out_dir, *flags):
    export_nanogpt.run(["--ckpt", src, "--out-dir", out_dir, *flags])
    return torch.load(os.path.join(out_dir, "ckpt.pt"), map_location="cpu", weights_only=WEIGHTS_ONLY)


def nanogpt_optimizer(model):
    """nanoGPT's GPT.configure_optimizers on the loaded state_dict: named_parameters order
    (lm_head.weight is transformer.wte.weight, named once), decay on dim >= 2."""
    params = {n: torch.nn.Parameter(t.clone()) for n, t in model.items() if n != "lm_head.weight"}
    decay = [p for p in params.values() if p.dim() >= 2]
    no_decay = [p for p in params.values() if p.dim() < 2]
    # lr, betas and weight_decay as nanoGPT's defaults: load_state_dict replaces them
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=6e-4, betas=(0.9, 0.95))
    return params, opt


def inner_checkpoint(state_path, out):
    """The checkpoint a training state holds (src/gpt/state.rs: magic, u32 header length,
    header JSON with checkpoint_len, then the checkpoint's bytes), written to `out`."""
    with open(state_path, "rb") as f:
        buf = f.read()
    hlen = int.from_bytes(buf[8:12], "little")
    clen = json.loads(buf[12:12 + hlen])["checkpoint_len"]
    with open(out, "wb") as f:
        f.write(buf[12 + hlen:12 + hlen + clen])
    return out


def max_diff(params, want):
    return max((params[n].detach() - want[n]).abs().max().item() for n in want)


class ExportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def fixture(self, name, ext):
        return os.path.join(FIXTURE, f"{name}.{ext}")

    def test_torch_adamw_continues_our_run_from_the_exported_state(self):
        for name in NAMES:
            with self.subTest(model=name):
                ck = export(self.fixture(name, "state"), os.path.join(self.out, name))
                self.assertEqual(set(ck), CKPT_KEYS)
                self.assertEqual(ck["iter_num"], SAVED_AT)
                self.assertEqual(ck["model_args"]["bias"], name == "bias")
                model = ck["model"]
                self.assertEqual(model["lm_head.weight"].data_ptr(),
                                 model["transformer.wte.weight"].data_ptr(), "tied: one storage")
                grads, after = load_file(self.fixture(name, "grads")), load_file(self.fixture(name, "after"))
                params, opt = nanogpt_optimizer(model)
                opt.load_state_dict(ck["optimizer"])
                groups = opt.param_groups
                self.assertEqual([g["weight_decay"] for g in groups], [0.1, 0.0])
                self.assertEqual([g["betas"] for g in groups], [(0.9, 0.99)] * 2)
                self.assertEqual([g["lr"] for g in groups], [3e-3] * 2)
                steps = {float(s["step"]) for s in opt.state.values()}
                self.assertEqual(steps, {float(SAVED_AT)})
                fresh, fresh_opt = nanogpt_optimizer(model)
                for g in fresh_opt.param_groups:
                    g.update(lr=3e-3, betas=(0.9, 0.99))
                for ps, o in ((params, opt), (fresh, fresh_opt)):
                    for step in range(SAVED_AT + 1, STEPS + 1):
                        for n, p in ps.items():
                            p.grad = grads[f"{n}@{step}"].clone()
                        o.step()
                self.assertLess(max_diff(params, after), TOL, "torch continued from our moments")
                self.assertGreater(max_diff(fresh, after), 100 * TOL,
                                   "fresh moments must not reach the same weights")

    def test_ours_to_nanogpt_to_ours_is_bit_for_bit(self):
        for name in NAMES:
            for src in (self.fixture(name, "after"), self.fixture(name, "state")):
                with self.subTest(src=os.path.basename(src)):
                    d = os.path.join(self.out, os.path.basename(src))
                    ck = export(src, d)
                    if src.endswith(".after"):  # a checkpoint: AdamW starts afresh
                        self.assertEqual(ck["optimizer"]["state"], {})
                        self.assertEqual(ck["iter_num"], 0)
                    back = os.path.join(d, "back.safetensors")
                    convert_nanogpt.convert(os.path.join(d, "ckpt.pt"), os.path.join(d, "meta.pkl"), back,
                                            trust_pickle=not WEIGHTS_ONLY)
                    want = self.fixture(name, "after")
                    if src.endswith(".state"):  # its weights: the checkpoint inside it
                        want = inner_checkpoint(src, os.path.join(d, "inner.safetensors"))
                    with safe_open(want, "pt") as a, safe_open(back, "pt") as b:
                        self.assertEqual(a.metadata(), b.metadata())
                        self.assertEqual(sorted(a.keys()), sorted(b.keys()))
                        for k in a.keys():
                            self.assertEqual(a.get_tensor(k).numpy().tobytes(),
                                             b.get_tensor(k).numpy().tobytes(), k)

    def test_meta_and_data_as_nanogpt_prepare_writes_them(self):
        text = "First Citizen: Before we proceed any further, hear me speak. Speak, speak! " * 40
        corpus = os.path.join(self.out, "input.txt")
        with open(corpus, "w", encoding="utf-8") as f:
            f.write(text)
        d = os.path.join(self.out, "data")
        export(self.fixture("bias", "state"), d, "--text", corpus, "--dataset", "mine")
        with open(os.path.join(d, "meta.pkl"), "rb") as f:
            meta = pickle.load(f)
        vocab = sorted(set(text))
        self.assertEqual(meta["vocab_size"], len(vocab))
        self.assertEqual(meta["itos"], dict(enumerate(vocab)))
        self.assertEqual(meta["stoi"], {c: i for i, c in enumerate(vocab)})
        n = int(len(text) * 0.9)
        for split, part in (("train", text[:n]), ("val", text[n:])):
            with open(os.path.join(d, f"{split}.bin"), "rb") as f:
                ids = array.array("H", f.read())  # np.uint16 on a little-endian machine
            self.assertEqual("".join(meta["itos"][i] for i in ids), part, split)
        ck = torch.load(os.path.join(d, "ckpt.pt"), weights_only=WEIGHTS_ONLY)
        self.assertEqual(ck["config"]["dataset"], "mine")

    def test_bad_input_is_a_message(self):
        cases = {"not ours": b"hello", "truncated state": b"APGPTST1\x05\x00", "damaged": b"\x10" + b"\0" * 7 + b"{not json}  "}
        for what, data in cases.items():
            with self.subTest(what):
                path = os.path.join(self.out, "bad")
                with open(path, "wb") as f:
                    f.write(data)
                r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "export_nanogpt.py"),
                                    "--ckpt", path, "--out-dir", os.path.join(self.out, "x")],
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 1)
                self.assertTrue(r.stderr.startswith("error: "), r.stderr)
                self.assertNotIn("Traceback", r.stderr)
        text = os.path.join(self.out, "odd.txt")
        with open(text, "w", encoding="utf-8") as f:
            f.write("ZZZ~" * 1000)
        with self.assertRaises(SystemExit) as e:
            export(self.fixture("bias", "state"), os.path.join(self.out, "y"), "--text", text)
        self.assertIn("outside the model's vocab", str(e.exception.code))


if __name__ == "__main__":
    unittest.main()
