#!/usr/bin/env python3
"""gpt2_hf.py: Hugging Face GPT-2 folders made by PyPI `transformers`, and transformers' own
numbers on them, the reference our GPT-2 loader (src/gpt/hf.rs) is tested against
(tests/tools/test_gpt2.py). Needs transformers (with tokenizers), torch and safetensors from
PyPI; nothing is downloaded from the hub. Each subcommand has -h.

  gpt2_hf.py make --out DIR [--n-layer 2 --n-head 4 --n-embd 64 --n-positions 128 --seed 0]
             [--tokenizer trained|DIR] [--vocab-size 1000] [--corpus www/data/corpus.txt]
             [--train-steps 0] [--dtype float32|float16|bfloat16] [--full]
  gpt2_hf.py ref --model DIR --text TEXT [--out FILE]
  gpt2_hf.py onnx --model DIR --out FILE.onnx [--seq 64] [--last]
  gpt2_hf.py bench --model DIR --ids FILE.json [--text TEXT] [--threads 1] [--iters 5]
             [--warmup 1] [--last] [--logits-out FILE.f32]

`make` writes what GPT2LMHeadModel(GPT2Config(...)).save_pretrained(DIR, safe_serialization=
True) writes (config.json, generation_config.json, model.safetensors), the weights
transformers' own init draws after torch.manual_seed(seed), plus the tokenizer: `trained`
is a byte-level BPE trained here on the corpus as GPT-2's (GPT-2's pre-tokenizer regex,
add_prefix_space False, the 256 byte symbols first, `<|endoftext|>` the last id), saved as
vocab.json, merges.txt and tokenizer.json; a DIR is copied byte for byte. --train-steps N
trains the model N AdamW steps on the corpus so its heads are not random; --full is GPT-2
small's shape (124M parameters, random) for benchmarks.

`ref` prints one JSON object of float64 lists, all from transformers in float32 (float16 and
bfloat16 weights are widened to float32 on load), eager attention:
  ids        GPT2TokenizerFast(text).input_ids (no BOS is added, as GPT-2)
  pieces     each id's bytes (its byte-level token string mapped back through GPT-2's
             bytes_to_unicode table; an added token's content) as text: valid UTF-8 as
             is, each byte that makes no character on its own as `<0xF0>`, the way
             src/gpt/bpe.rs Bpe::piece writes it
  decoded    tokenizer.decode([id]) per id, transformers' own (U+FFFD for such bytes; the
             same bytes read with errors="replace", which `ref` checks)
  piece_bytes the bytes as lists of ints
  logits     (V,) at the last position
  attentions (n_layer, n_head, T, T), row = query position, from output_attentions=True
  loss       mean next-token cross-entropy, as labels=ids gives (over T - 1 positions)
  losses     (T - 1,) per position: -log p(ids[t+1] | ids[..=t])

`onnx` exports input_ids (1, T) -> logits (1, T, V), T a dynamic axis, opset 14; with
--last, logits (1, 1, V) of the last position only (lm_head on one row, as our
forward_last: the other T - 1 rows of the (T, V) product are never computed).

`bench` times forward passes of the ids in FILE.json (a JSON list) with torch on CPU,
`torch.set_num_threads(threads)`, under no_grad, and prints one JSON object: ms (each
timed pass after the warm-up), tokens, threads, torch's version and BLAS, the process's
peak resident bytes, and with --text whether transformers' tokenizer gives the same ids. --last runs lm_head on the last
position only; --logits-out writes that position's logits as little-endian float32.
(tools/bench_gpt2.mjs runs it.)
"""
import argparse, codecs, hashlib, json, os, resource, shutil, sys, time

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EOT = "<|endoftext|>"
TOKENIZER_FILES = ("vocab.json", "merges.txt", "tokenizer.json", "tokenizer_config.json",
                   "special_tokens_map.json")
GPT2_SMALL = dict(n_layer=12, n_head=12, n_embd=768, n_positions=1024)  # vocab 50257
DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
# training: AdamW betas (0.9, 0.99), weight decay 0.1 on matrices, lr warmed up then decayed,
# BATCH rows of n_positions tokens; dropout off (model.eval(): in GPT-2 that is the only
# difference). Debian's torch has a generic BLAS: ~0.16 s a step on one thread (2×4×64).
LR, WARMUP, BATCH, WEIGHT_DECAY, BETAS = 5e-3, 20, 4, 0.1, (0.9, 0.99)


# ------------------------------------------------------------------ tokenizer
def train_tokenizer(corpus, vocab_size, out):
    """A byte-level BPE as GPT-2's: the 256 byte symbols, vocab_size - 257 merges learnt from
    the corpus, `<|endoftext|>` the last id, in vocab.json as in GPT-2's. vocab.json and
    merges.txt are then read as GPT-2's are (GPT2TokenizerFast converts them to tokenizer.json
    through transformers' GPT2Converter), and save_pretrained writes vocab.json, merges.txt,
    tokenizer.json, tokenizer_config.json, special_tokens_map.json."""
    from tokenizers import ByteLevelBPETokenizer
    from transformers import GPT2TokenizerFast
    bpe = ByteLevelBPETokenizer(add_prefix_space=False)  # GPT-2's regex, bytes_to_unicode
    # the 256 byte symbols are always in the alphabet: any text falls back to bytes
    bpe.train([corpus], vocab_size=vocab_size - 1, min_frequency=2, special_tokens=[],
              show_progress=False)
    os.makedirs(out, exist_ok=True)
    vocab, merges = bpe.save_model(out)  # vocab.json, merges.txt ("#version: 0.2" first)
    with open(vocab, encoding="utf-8") as f:
        v = json.load(f)
    v[EOT] = len(v)
    with open(vocab, "w", encoding="utf-8") as f:
        json.dump(v, f, ensure_ascii=False)
    tok = GPT2TokenizerFast(vocab_file=vocab, merges_file=merges, add_prefix_space=False)
    tok.save_pretrained(out)  # no added_tokens.json: <|endoftext|> is in vocab.json
    return tok


def copy_tokenizer(src, out):
    """Copies src's tokenizer files byte for byte (vocab.json + merges.txt or tokenizer.json
    at least) and loads them as transformers will."""
    from transformers import GPT2TokenizerFast
    have = [f for f in TOKENIZER_FILES if os.path.isfile(os.path.join(src, f))]
    if "tokenizer.json" not in have and not {"vocab.json", "merges.txt"} <= set(have):
        sys.exit(f"error: {src} has neither tokenizer.json nor vocab.json + merges.txt")
    os.makedirs(out, exist_ok=True)
    for f in have:
        shutil.copyfile(os.path.join(src, f), os.path.join(out, f))
    return GPT2TokenizerFast.from_pretrained(out)


def hex_bytes(err):
    """UTF-8 decoding errors as `<0xF0>` per byte: Python and Rust's utf8_chunks both cut
    the invalid bytes by Unicode's maximal-subpart rule, so the text is the same."""
    return "".join(f"<0x{b:02X}>" for b in err.object[err.start:err.end]), err.end


HEX_BYTES = "gpt2_hf.hex_bytes"
codecs.register_error(HEX_BYTES, hex_bytes)


def piece_bytes(tok, ids):
    """Each id's bytes: the byte-level token string through GPT-2's unicode_to_bytes table;
    an added (special) token is its UTF-8 content."""
    from transformers.models.gpt2.tokenization_gpt2 import bytes_to_unicode
    to_byte = {c: b for b, c in bytes_to_unicode().items()}
    added = {i: t.content for i, t in tok.added_tokens_decoder.items()}
    return [added[i].encode() if i in added else bytes(to_byte[c] for c in tok.convert_ids_to_tokens(i))
            for i in ids]


# ------------------------------------------------------------------ make
def make(a):
    from transformers import GPT2Config, GPT2LMHeadModel
    t0 = time.time()
    torch.set_num_threads(1)
    shape = GPT2_SMALL if a.full else dict(n_layer=a.n_layer, n_head=a.n_head,
                                          n_embd=a.n_embd, n_positions=a.n_positions)
    if a.full and a.tokenizer == "trained":
        sys.exit("error: --full needs --tokenizer DIR (GPT-2's own vocab.json, merges.txt)")
    if shape["n_embd"] % shape["n_head"]:
        sys.exit(f"error: n_embd {shape['n_embd']} is not divisible by n_head {shape['n_head']}")
    if a.tokenizer == "trained":
        tok = train_tokenizer(a.corpus, a.vocab_size, a.out)
    else:
        tok = copy_tokenizer(a.tokenizer, a.out)
    V = len(tok)  # the BPE vocab plus added tokens
    if a.full and V != 50257:
        print(f"warning: the tokenizer has {V} ids, GPT-2's has 50257", file=sys.stderr)
    eot = tok.get_vocab().get(EOT)  # GPT2Config's default 50256 would not fit a small vocab
    special = {} if eot is None else dict(bos_token_id=eot, eos_token_id=eot)
    cfg = GPT2Config(vocab_size=V, **shape, **special)  # activation_function gelu_new
    torch.manual_seed(a.seed)
    model = GPT2LMHeadModel(cfg)  # transformers' _init_weights: N(0, 0.02), c_proj scaled
    if a.train_steps > 0:
        train(model, tok, a.corpus, a.train_steps, a.seed)
    model.to(DTYPES[a.dtype]).save_pretrained(a.out, safe_serialization=True)
    n = sum(p.numel() for p in model.parameters())
    print(f"wrote {a.out}: {shape['n_layer']} layers × {shape['n_head']} heads, n_embd "
          f"{shape['n_embd']}, {shape['n_positions']} positions, vocab {V}, {n} parameters, "
          f"{a.dtype}, {time.time() - t0:.1f}s")


def train(model, tok, corpus, steps, seed):
    """`steps` AdamW steps on random windows of the corpus, B × n_positions tokens each;
    batches come from torch.Generator().manual_seed(seed) alone."""
    with open(corpus, encoding="utf-8") as f:
        data = torch.tensor(tok(f.read())["input_ids"], dtype=torch.long)  # (N,)
    T = model.config.n_positions
    if len(data) <= T + 1:
        sys.exit(f"error: {corpus} has {len(data)} tokens, fewer than n_positions {T} + 2")
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": WEIGHT_DECAY},
                             {"params": no_decay, "weight_decay": 0.0}], lr=LR, betas=BETAS)
    # warm up for WARMUP steps, then decay linearly to a tenth of LR at the last step
    ramp = lambda s: min((s + 1) / WARMUP, 1 - 0.9 * max(0, s - WARMUP) / max(1, steps - WARMUP))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, ramp)
    gen = torch.Generator().manual_seed(seed)
    model.eval()  # dropout off; gradients still flow
    t0, last = time.time(), []
    for step in range(steps):
        ix = torch.randint(len(data) - T, (BATCH,), generator=gen)
        x = torch.stack([data[i:i + T] for i in ix])  # (B, T); labels are shifted inside
        loss = model(input_ids=x, labels=x).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        last = (last + [loss.item()])[-10:]
        if step == 0:
            print(f"step 1/{steps}: loss {loss.item():.4f}", flush=True)
    print(f"step {steps}/{steps}: loss {last[-1]:.4f} (mean of the last {len(last)} "
          f"{sum(last) / len(last):.4f}), {time.time() - t0:.1f}s", flush=True)


# ------------------------------------------------------------------ ref
def load(model_dir):
    """(tokenizer, model) as transformers loads the folder: float32, eager attention."""
    from transformers import GPT2LMHeadModel, GPT2TokenizerFast
    torch.set_num_threads(1)
    tok = GPT2TokenizerFast.from_pretrained(model_dir)
    model = GPT2LMHeadModel.from_pretrained(model_dir, torch_dtype=torch.float32,
                                            attn_implementation="eager").eval()
    return tok, model


@torch.no_grad()
def reference(tok, model, text):
    """The JSON object of `ref` (see the module doc) for one text."""
    ids = tok(text)["input_ids"]
    T = len(ids)
    if not 2 <= T <= model.config.n_positions:
        sys.exit(f"error: {text!r} is {T} tokens; need 2..{model.config.n_positions}")
    x = torch.tensor([ids])  # (1, T)
    out = model(input_ids=x, labels=x, output_attentions=True)
    logits = out.logits[0]  # (T, V)
    losses = F.cross_entropy(logits[:-1], x[0, 1:], reduction="none")  # (T - 1,)
    bs = piece_bytes(tok, ids)
    decoded = [tok.decode([i], clean_up_tokenization_spaces=False) for i in ids]
    assert decoded == [b.decode("utf-8", errors="replace") for b in bs], \
        f"the token bytes do not decode as the tokenizer decodes them: {decoded}"
    return {
        "ids": ids,
        "pieces": [b.decode("utf-8", errors=HEX_BYTES) for b in bs],
        "decoded": decoded,
        "piece_bytes": [list(b) for b in bs],
        "logits": logits[-1].double().tolist(),  # (V,)
        "attentions": torch.stack([a[0] for a in out.attentions]).double().tolist(),  # (L, nh, T, T)
        "loss": out.loss.double().item(),
        "losses": losses.double().tolist(),
    }


def ref(a):
    tok, model = load(a.model)
    text = json.dumps(reference(tok, model, a.text))
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        print(text)


# ------------------------------------------------------------------ onnx
class LogitsOnly(torch.nn.Module):
    def __init__(self, model, last=False):
        super().__init__()
        self.model = model
        self.last = last

    def forward(self, input_ids):  # (1, T) -> (1, T, V), or (1, 1, V) when last
        if not self.last:
            return self.model(input_ids=input_ids, use_cache=False, return_dict=False)[0]
        h = self.model.transformer(input_ids=input_ids, use_cache=False, return_dict=False)[0]
        return self.model.lm_head(h[:, -1:])  # (1, T, C) -> (1, 1, C) -> (1, 1, V)


def onnx(a):
    _, model = load(a.model)
    # eval(): a new module is in training mode, and export restores that mode afterwards,
    # recursively: GPT-2's dropout would be on for the check below
    net = LogitsOnly(model, a.last).eval()
    x = torch.randint(model.config.vocab_size, (1, a.seq), generator=torch.Generator().manual_seed(0))
    t0 = time.time()
    torch.onnx.export(net, (x,), a.out, input_names=["input_ids"], output_names=["logits"],
                      opset_version=14, dynamic_axes={"input_ids": {1: "seq"}, "logits": {1: "seq"}})
    print(f"wrote {a.out} ({os.path.getsize(a.out)} bytes, {time.time() - t0:.1f}s)")
    try:
        import onnxruntime
    except ImportError:
        print("onnxruntime is not installed: the file was not loaded back")
        return
    sess = onnxruntime.InferenceSession(a.out, providers=["CPUExecutionProvider"])
    for T in (a.seq, max(1, a.seq // 2)):  # the traced length and another: the axis is dynamic
        got = torch.from_numpy(sess.run(None, {"input_ids": x[:, :T].numpy()})[0])
        with torch.no_grad():
            want = net(x[:, :T])
        d = (got - want).abs().max().item()
        if not got.shape == want.shape or d > 1e-4:
            sys.exit(f"error: onnxruntime's logits at T={T} differ from torch's by {d}")
        print(f"onnxruntime {onnxruntime.__version__}: T={T} logits {tuple(got.shape)} agree "
              f"with torch to {d:.2g}")


# ------------------------------------------------------------------ bench
@torch.no_grad()
def bench(a):
    tok, model = load(a.model)
    torch.set_num_threads(a.threads)
    with open(a.ids) as f:
        ids = json.load(f)
    x = torch.tensor([ids])  # (1, T)
    net = LogitsOnly(model, a.last).eval()
    ms = []
    for i in range(a.warmup + a.iters):
        t0 = time.perf_counter()
        logits = net(x)[0, -1]  # (V,)
        if i >= a.warmup:
            ms.append((time.perf_counter() - t0) * 1000)
    if a.logits_out:
        logits.numpy().astype("<f4").tofile(a.logits_out)
    blas = torch.__config__.show().split("BLAS_INFO=")[-1].split(",")[0]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kB
    out = dict(ms=ms, tokens=len(ids), threads=torch.get_num_threads(), torch=torch.__version__,
               blas=blas, last=a.last, peak_rss=peak)
    if a.text is not None:  # transformers' BPE against ours (the ids came from our worker)
        out["same_ids"] = tok(a.text)["input_ids"] == ids
    print(json.dumps(out))


# ------------------------------------------------------------------ main
def source_hash():
    """sha256 of this file: tests rebuild their fixtures when it changes."""
    with open(os.path.abspath(__file__), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make", help="write a GPT-2 folder (random or briefly trained)")
    m.add_argument("--out", required=True)
    m.add_argument("--n-layer", type=int, default=2)
    m.add_argument("--n-head", type=int, default=4)
    m.add_argument("--n-embd", type=int, default=64)
    m.add_argument("--n-positions", type=int, default=128)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--tokenizer", default="trained", help="trained, or a folder to copy from")
    m.add_argument("--vocab-size", type=int, default=1000, help="of the trained tokenizer")
    m.add_argument("--corpus", default=os.path.join(ROOT, "www", "data", "corpus.txt"))
    m.add_argument("--train-steps", type=int, default=0)
    m.add_argument("--dtype", choices=list(DTYPES), default="float32", help="of the saved weights")
    m.add_argument("--full", action="store_true", help="GPT-2 small's shape; needs --tokenizer DIR")
    r = sub.add_parser("ref", help="transformers' ids, pieces, logits, attentions, losses")
    r.add_argument("--model", required=True)
    r.add_argument("--text", required=True)
    r.add_argument("--out")
    o = sub.add_parser("onnx", help="export input_ids -> logits with torch.onnx.export")
    o.add_argument("--model", required=True)
    o.add_argument("--out", required=True)
    o.add_argument("--seq", type=int, default=64, help="length of the traced input")
    o.add_argument("--last", action="store_true", help="logits of the last position only")
    b = sub.add_parser("bench", help="time forward passes with torch on CPU")
    b.add_argument("--model", required=True)
    b.add_argument("--ids", required=True, help="a JSON file: the list of token ids")
    b.add_argument("--text", help="check that transformers' tokenizer gives these ids")
    b.add_argument("--threads", type=int, default=1)
    b.add_argument("--iters", type=int, default=5)
    b.add_argument("--warmup", type=int, default=1)
    b.add_argument("--last", action="store_true", help="lm_head on the last position only")
    b.add_argument("--logits-out", help="the last position's logits, float32 little-endian")
    return p


def main(argv=None):
    a = parser().parse_args(argv)
    {"make": make, "ref": ref, "onnx": onnx, "bench": bench}[a.cmd](a)


if __name__ == "__main__":
    main()
