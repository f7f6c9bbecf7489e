#!/usr/bin/env python3
"""gpt_torch.py: our GPT (src/gpt/) written again in PyTorch, the side we did not hand-derive.

It makes the PyTorch fixtures in tests/fixtures/gpt_tiny/ and gpt_small/ (through
tools/make_gpt_fixtures.sh) and runs the PyTorch side of `gpt bench` and of `gpt heads`
(tests/tools/test_heads.py). Needs only torch, numpy and safetensors from PyPI (`python3 -m
venv V && V/bin/pip install torch numpy safetensors`). Subcommands and flags are those of
`cargo run --bin gpt` where they mean the same thing; each has -h.

  gpt_torch.py fixture --preset small --data CORPUS --steps 10 --out DIR
  gpt_torch.py check-fixture --dir tests/fixtures/gpt_small
  gpt_torch.py train --preset tiny --data CORPUS --iters 300 --out tiny.safetensors
  gpt_torch.py eval --ckpt tiny.safetensors --text "First Ci"
  gpt_torch.py sample --ckpt tiny.safetensors --prompt "ROMEO:" -n 100 --greedy
  gpt_torch.py bench --preset tiny --data CORPUS --iters 200 --threads 1
  gpt_torch.py bench-attention --t 256 --d 64 --threads 1   (causal SDPA forward alone)
  gpt_torch.py heads --ckpt ind.safetensors --probe PROBE.json --ablate   (`gpt heads --json`)

The model is nanoGPT's (karpathy/nanoGPT model.py): x = wte[idx] + wpe[0..T); per block
x += attn(ln_1(x)), x += mlp(ln_2(x)); logits = ln_f(x) @ wteᵀ; mean cross-entropy. Dropout
is always 0 (its masks cannot be replayed in Rust). The numbers come out as nanoGPT's only
if torch draws its random numbers in the same order, so three things are fixed:
  - weights depend on torch.manual_seed(seed) alone: modules are built in nanoGPT's order
    (their default inits draw numbers too), then re-initialised as nanoGPT does;
  - training batches depend on torch.Generator().manual_seed(seed) alone, one
    torch.randint(len(train) - T, (B,)) per batch;
  - loss estimates use a fresh Generator seeded seed + 1 per split, 50 batches each.
AdamW: betas (0.9, 0.99), eps 1e-8, weight decay 0.1 on tensors with dim >= 2 only, constant
lr, no clipping, torch's single-tensor loop (foreach=False). Thread count changes rounding:
--threads defaults to 1. Checkpoints: safetensors as src/gpt/checkpoint.rs reads them.
"""
import argparse, json, math, os, statistics, sys, time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors import safe_open

# B = batch, T = time, C = channels (n_embd), nh = heads, hs = head size, V = vocab
PRESETS = {  # (n_layer, n_head, n_embd, block_size, batch_size), as Hyperparams::preset
    "tiny": (1, 4, 32, 8, 32),
    "small": (2, 4, 64, 32, 16),
    "cpu": (4, 4, 128, 64, 12),
    "induction": (2, 4, 32, 64, 32),  # lr 3e-3 (PRESET_LR)
}
PRESET_LR = {"induction": 3e-3}
LR, WEIGHT_DECAY, BETAS, ADAM_EPS = 1e-3, 0.1, (0.9, 0.99), 1e-8
WARMUP_STEPS, EVAL_ITERS = 20, 50
META_SIZES = ("block_size", "vocab_size", "n_layer", "n_head", "n_embd")


@dataclass
class GPTConfig:
    block_size: int
    vocab_size: int
    n_layer: int
    n_head: int
    n_embd: int
    bias: bool = True
    causal: bool = True  # false: the lesson's counterexample, every position sees the answer

    def to_json(self):  # the "config" object of batches.json and of the bench line
        d = {"block_size": self.block_size, "vocab_size": self.vocab_size,
             "n_layer": self.n_layer, "n_head": self.n_head, "n_embd": self.n_embd,
             "dropout": 0.0, "bias": self.bias}
        if not self.causal:  # only then: the committed fixtures predate the flag
            d["causal"] = False
        return d


# ------------------------------------------------------------------ the model
class CausalSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        if cfg.n_embd % cfg.n_head:
            sys.exit(f"error: n_embd {cfg.n_embd} is not divisible by n_head {cfg.n_head}")
        self.n_head, self.causal = cfg.n_head, cfg.causal
        # `heads` only: keep_att stores the attention weights in self.att; off = heads
        # switched off, their output zero before c_proj (src/gpt/block.rs zero_heads)
        self.keep_att, self.att, self.off = False, None, ()
        self.c_attn = nn.Linear(cfg.n_embd, 3 * cfg.n_embd, bias=cfg.bias)  # rows [q | k | v]
        self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.bias)
        tril = torch.ones(cfg.block_size, cfg.block_size, dtype=torch.bool).tril()
        self.register_buffer("tril", tril, persistent=False)  # not a weight: never saved

    def forward(self, x):  # (B, T, C) -> (B, T, C)
        B, T, C = x.shape
        hs = C // self.n_head
        heads = lambda t: t.view(B, T, self.n_head, hs).transpose(1, 2)  # -> (B, nh, T, hs)
        q, k, v = map(heads, self.c_attn(x).split(C, dim=2))  # (B, T, 3C) -> 3 × (B, T, C)
        # scores times the f32 1/sqrt(hs), q not pre-scaled: the Rust code rounds the same way
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))  # (B,nh,T,hs) @ (B,nh,hs,T)
        if self.causal:
            att = att.masked_fill(~self.tril[:T, :T], float("-inf"))
        att = F.softmax(att, dim=-1)  # (B, nh, T, T)
        if self.keep_att:
            self.att = att  # (B, nh, T, T), row = query position
        y = att @ v  # (B, nh, T, T) @ (B, nh, T, hs) -> (B, nh, T, hs)
        if self.off:
            y[:, list(self.off)] = 0.0  # (B, nh, T, hs): the heads' HS columns after the merge
        y = y.transpose(1, 2).contiguous().view(B, T, C)  # head h -> columns h*hs..(h+1)*hs
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.c_fc = nn.Linear(cfg.n_embd, 4 * cfg.n_embd, bias=cfg.bias)
        self.c_proj = nn.Linear(4 * cfg.n_embd, cfg.n_embd, bias=cfg.bias)

    def forward(self, x):  # (B, T, C) -> (B, T, 4C) -> (B, T, C); GELU's exact erf form
        return self.c_proj(F.gelu(self.c_fc(x)))


def layer_norm(C, bias):
    """nn.LayerNorm(C, eps=1e-5, bias=bias): biased variance (divide by C), eps 1e-5. Its
    bias flag is torch >= 2.1's; on older torch (Debian's 1.13, which CI runs) the bias
    parameter is removed instead, the same module (no random draws, same state_dict)."""
    ln = nn.LayerNorm(C, eps=1e-5)
    if not bias:
        ln.bias = None  # unregisters it: F.layer_norm adds nothing
    return ln


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = layer_norm(cfg.n_embd, cfg.bias)
        self.attn = CausalSelfAttention(cfg)
        self.ln_2 = layer_norm(cfg.n_embd, cfg.bias)
        self.mlp = MLP(cfg)

    def forward(self, x):  # (B, T, C) -> (B, T, C), two residual branches
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.config = cfg
        # built in nanoGPT's order: each constructor's default init draws random numbers
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(cfg.vocab_size, cfg.n_embd),  # (V, C)
            wpe=nn.Embedding(cfg.block_size, cfg.n_embd),  # (block_size, C)
            h=nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer)),
            ln_f=layer_norm(cfg.n_embd, cfg.bias),
        ))
        self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # tied: one tensor, two uses
        init_weights(self, cfg.n_layer)

    def forward(self, idx, targets=None):  # idx, targets: (B, T) int64
        B, T = idx.shape
        if T > self.config.block_size:
            raise ValueError(f"sequence of {T} exceeds block_size {self.config.block_size}")
        tr = self.transformer
        x = tr.wte(idx) + tr.wpe(torch.arange(T))  # (B, T, C) + (T, C)
        for block in tr.h:
            x = block(x)
        logits = self.lm_head(tr.ln_f(x))  # (B, T, C) @ (C, V) -> (B, T, V)
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(B * T, -1), targets.view(B * T))


def init_weights(model, n_layer):
    """nanoGPT's init: N(0, 0.02) for every Linear and Embedding in module order (the tied
    matrix is drawn twice, as wte then as lm_head), zero biases, then GPT-2's N(0, 0.02 /
    sqrt(2 n_layer)) for the residual projections in parameter order."""
    for m in model.modules():
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, mean=0.0, std=0.02)
        if isinstance(m, nn.Linear) and m.bias is not None:
            nn.init.zeros_(m.bias)
    for name, p in model.named_parameters():
        if name.endswith("c_proj.weight"):
            nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))


def stored_names(model):  # the state_dict names a checkpoint holds: lm_head is wte
    return [n for n in model.state_dict() if n != "lm_head.weight"]


# ------------------------------------------------------------------ AdamW and a step
def decay_split(model):
    """(decayed, not decayed) (name, tensor) lists: weight decay on dim >= 2 only; the tied
    matrix appears once, as transformer.wte.weight."""
    named = list(model.named_parameters())
    return [(n, p) for n, p in named if p.dim() >= 2], [(n, p) for n, p in named if p.dim() < 2]


def make_adamw(model, lr, weight_decay):
    decay, no_decay = decay_split(model)
    groups = [{"params": [p for _, p in decay], "weight_decay": weight_decay},
              {"params": [p for _, p in no_decay], "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=lr, betas=BETAS, eps=ADAM_EPS, foreach=False, fused=False)


def train_step(model, opt, x, y, keep=None):
    """Forward, backward, AdamW, zero_grad: what `gpt bench` times. keep(logits, loss), if
    given, sees the gradients before the update. Returns the loss before the update."""
    logits, loss = model(x, y)  # (B, T, V), scalar
    loss.backward()
    if keep is not None:
        keep(logits, loss)
    opt.step()
    opt.zero_grad(set_to_none=True)
    return loss.item()


def replay(model, opt, batches):
    """One step per (x, y). Returns the loss before each step and, of the first batch, its
    loss, row 0's logits (T, V) and every stored tensor's gradient (wte: both uses)."""
    first = {}

    def keep(logits, loss):
        if not first:
            grads = {n: model.get_parameter(n).grad.clone() for n in stored_names(model)}
            first.update(loss=loss.item(), logits_b0=logits[0].detach().clone(), grads=grads)

    return [train_step(model, opt, x, y, keep) for x, y in batches], first


# ------------------------------------------------------------------ data and checkpoints
def load_corpus(path):
    """vocab = sorted characters; train = first 90% of the ids, val = the rest."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"error: --data {path}: {e}")
    vocab = sorted(set(text))
    stoi = {c: i for i, c in enumerate(vocab)}
    ids = torch.tensor([stoi[c] for c in text], dtype=torch.long)
    n = int(0.9 * len(ids))
    return vocab, ids[:n], ids[n:]


def get_batch(data, B, T, gen):  # -> x, y: (B, T), y is x shifted by one
    ix = torch.randint(len(data) - T, (B,), generator=gen)
    x = torch.stack([data[i:i + T] for i in ix])
    y = torch.stack([data[i + 1:i + T + 1] for i in ix])
    return x, y


def encode(text, vocab):
    unknown = sorted(set(text) - set(vocab))
    if unknown:
        sys.exit(f"error: characters not in the checkpoint's vocab: {unknown!r}")
    return [vocab.index(c) for c in text]


@torch.no_grad()
def estimate_loss(model, splits, B, T, seed):
    """Mean loss over EVAL_ITERS batches per split; the same batches on every call."""
    out = {}
    for name, data in splits.items():
        gen = torch.Generator().manual_seed(seed + 1)
        losses = [model(*get_batch(data, B, T, gen))[1].item() for _ in range(EVAL_ITERS)]
        out[name] = sum(losses) / EVAL_ITERS
    return out


def write_safetensors(path, tensors, metadata=None):
    """safetensors.torch.save_file's format with its header's keys sorted: the library's
    metadata order changes from run to run, and the same numbers must give the same bytes
    so that regenerating a fixture shows in git only if a number changed."""
    header, offset = {}, 0
    if metadata:
        header["__metadata__"] = dict(sorted(metadata.items()))
    names = sorted(tensors)
    for n in names:
        size = tensors[n].numel() * 4
        header[n] = {"dtype": "F32", "shape": list(tensors[n].shape),
                     "data_offsets": [offset, offset + size]}
        offset += size
    head = json.dumps(header, separators=(",", ":")).encode()
    head += b" " * (-len(head) % 8)  # the data starts 8-byte aligned
    with open(path, "wb") as f:
        f.write(len(head).to_bytes(8, "little") + head)
        for n in names:  # f32 little-endian, row-major
            f.write(tensors[n].detach().float().contiguous().numpy().astype("<f4").tobytes())


def save_checkpoint(model, vocab, path):
    """f32 tensors in PyTorch layouts; metadata strings vocab (JSON), sizes, bias."""
    c, sd = model.config, model.state_dict()
    meta = {k: str(getattr(c, k)) for k in META_SIZES}
    meta.update(vocab=json.dumps(vocab), bias="true" if c.bias else "false")
    write_safetensors(path, {n: sd[n] for n in stored_names(model)}, meta)


def read_tensors(path):  # -> ({name: tensor}, {metadata})
    with safe_open(path, framework="pt") as f:
        return {k: f.get_tensor(k) for k in f.keys()}, (f.metadata() or {})


def load_checkpoint(path, causal=True):  # -> model in eval mode, vocab
    tensors, meta = read_tensors(path)
    if not {*META_SIZES, "bias", "vocab"} <= meta.keys():
        sys.exit(f"error: {path} lacks metadata; it has {sorted(meta)}")
    cfg = GPTConfig(*(int(meta[k]) for k in META_SIZES), bias=meta["bias"] == "true",
                    causal=causal)
    vocab = json.loads(meta["vocab"])
    if len(vocab) != cfg.vocab_size:
        sys.exit(f"error: vocab has {len(vocab)} entries but vocab_size is {cfg.vocab_size}")
    model = GPT(cfg)
    missing, unexpected = model.load_state_dict(tensors, strict=False)  # checks shapes too
    if unexpected or set(missing) != {"lm_head.weight"}:
        sys.exit(f"error: tensor names do not match: missing {missing}, unexpected {unexpected}")
    return model.eval(), vocab


# ------------------------------------------------------------------ subcommands
@dataclass
class Training:
    """A corpus, a model at its seeded init, its AdamW and the batch generator."""
    vocab: list
    train: torch.Tensor  # (N_train,) ids
    val: torch.Tensor  # (N_val,) ids
    hp: dict  # batch_size, lr, weight_decay and the sizes, after the override flags
    model: GPT
    opt: torch.optim.AdamW
    gen: torch.Generator

    def batch(self):  # -> x, y: (B, T)
        return get_batch(self.train, self.hp["batch_size"], self.model.config.block_size, self.gen)

    def estimate_loss(self, seed):
        splits = {"train": self.train, "val": self.val}
        return estimate_loss(self.model, splits, self.hp["batch_size"], self.hp["block_size"], seed)


def hyperparams(a):
    """The preset, then every override flag (as `gpt`'s hyperparams)."""
    n_layer, n_head, n_embd, block_size, batch_size = PRESETS[a.preset]
    hp = dict(n_layer=n_layer, n_head=n_head, n_embd=n_embd, block_size=block_size,
              batch_size=batch_size, lr=PRESET_LR.get(a.preset, LR), weight_decay=WEIGHT_DECAY)
    hp.update({k: getattr(a, k) for k in hp if getattr(a, k) is not None})
    if a.dropout:
        sys.exit("error: --dropout: only 0 is supported (dropout masks cannot be replayed)")
    return hp


def setup(a):
    vocab, train, val = load_corpus(a.data)
    hp = hyperparams(a)
    cfg = GPTConfig(hp["block_size"], len(vocab), hp["n_layer"], hp["n_head"], hp["n_embd"],
                    bias=not a.no_bias, causal=not a.no_causal)
    torch.manual_seed(a.seed)  # the initial weights depend on this alone
    model = GPT(cfg)
    opt = make_adamw(model, hp["lr"], hp["weight_decay"])
    gen = torch.Generator().manual_seed(a.seed)  # the training batches depend on this alone
    return Training(vocab, train, val, hp, model, opt, gen)


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f)


def cmd_fixture(a):
    """init, batches, first-batch logits/loss/grads, the K losses and the weights after."""
    if a.steps < 1:
        sys.exit("error: --steps must be at least 1")
    r = setup(a)
    torch.use_deterministic_algorithms(True)
    os.makedirs(a.out, exist_ok=True)
    out = lambda name: os.path.join(a.out, name)
    save_checkpoint(r.model, r.vocab, out("init.safetensors"))
    batches = [r.batch() for _ in range(a.steps)]
    losses, first = replay(r.model, r.opt, batches)
    write_safetensors(out("grads.safetensors"), first["grads"])
    save_checkpoint(r.model, r.vocab, out("after.safetensors"))
    decay, no_decay = decay_split(r.model)
    optimizer = {"name": "AdamW", "lr": r.hp["lr"], "betas": list(BETAS), "eps": ADAM_EPS,
                 "weight_decay": r.hp["weight_decay"], "decay": [n for n, _ in decay],
                 "no_decay": [n for n, _ in no_decay]}
    write_json(out("batches.json"), {
        "preset": a.preset, "seed": a.seed, "config": r.model.config.to_json(),
        "steps": a.steps, "batch_size": r.hp["batch_size"], "optimizer": optimizer,
        "x": [x.tolist() for x, _ in batches], "y": [y.tolist() for _, y in batches]})
    write_json(out("expected.json"), {
        "loss": first["loss"], "logits_b0": first["logits_b0"].tolist(), "losses": losses,
        "grads": "grads.safetensors", "after": "after.safetensors",
        "torch": torch.__version__, "threads": torch.get_num_threads()})
    print(json.dumps({"out": a.out, "loss": first["loss"], "final_loss": losses[-1]}))


def cmd_check_fixture(a):
    """Load init.safetensors, replay batches.json, print every output's max |diff|."""
    d = lambda name: os.path.join(a.dir, name)
    info, exp = (json.load(open(d(n))) for n in ("batches.json", "expected.json"))
    torch.set_num_threads(a.threads or exp["threads"])  # the fixture's rounding
    model, _ = load_checkpoint(d("init.safetensors"), info["config"].get("causal", True))
    opt = make_adamw(model, info["optimizer"]["lr"], info["optimizer"]["weight_decay"])
    batches = [(torch.tensor(x), torch.tensor(y)) for x, y in zip(info["x"], info["y"])]
    losses, first = replay(model, opt, batches)
    grads, after = (read_tensors(d(exp[k]))[0] for k in ("grads", "after"))
    diff = lambda u, v: (u - v).abs().max().item()
    sd = model.state_dict()
    diffs = {"loss": abs(first["loss"] - exp["loss"]),
             "logits_b0": diff(first["logits_b0"], torch.tensor(exp["logits_b0"])),
             "losses": max(abs(u - v) for u, v in zip(losses, exp["losses"])),
             "grads": max(diff(first["grads"][n], g) for n, g in grads.items()),
             "after": max(diff(sd[n], t) for n, t in after.items())}
    print(json.dumps({"dir": a.dir, "max_abs_diff": diffs}))
    sys.exit(0 if max(diffs.values()) <= a.tol else 1)


def cmd_train(a):
    r = setup(a)
    for it in range(a.iters + 1):
        if it == a.iters or (a.eval_interval > 0 and it % a.eval_interval == 0):
            e = r.estimate_loss(a.seed)
            print(f"step {it}: train loss {e['train']:.4f}, val loss {e['val']:.4f}", flush=True)
        if it < a.iters:
            train_step(r.model, r.opt, *r.batch())
    save_checkpoint(r.model, r.vocab, a.out)
    print(f"saved {a.out}")


@torch.no_grad()
def cmd_eval(a):
    """Loss of predicting text[1:] from text[:-1], one sequence of 1..block_size."""
    model, vocab = load_checkpoint(a.ckpt)
    ids, bs = encode(a.text, vocab), model.config.block_size
    if not 2 <= len(ids) <= bs + 1:
        sys.exit(f"error: text must have 2..{bs + 1} characters (block_size + 1), has {len(ids)}")
    x, y = torch.tensor([ids[:-1]]), torch.tensor([ids[1:]])  # (1, T)
    logits, loss = model(x, y)  # (1, T, V)
    per_pos = F.cross_entropy(logits[0], y[0], reduction="none")  # (T,)
    print(json.dumps({"loss": loss.item(), "losses": per_pos.tolist(), "n": len(ids) - 1}))


@torch.no_grad()
def cmd_sample(a):
    """N characters after the prompt; the context is its last block_size ids."""
    model, vocab = load_checkpoint(a.ckpt)
    if not a.prompt or (not a.greedy and a.temperature <= 0):
        sys.exit("error: need a non-empty --prompt and --temperature > 0 (or --greedy)")
    idx = torch.tensor([encode(a.prompt, vocab)])  # (1, T0)
    gen = torch.Generator().manual_seed(a.seed)
    for _ in range(a.n):
        logits = model(idx[:, -model.config.block_size:])[0][:, -1, :]  # (1, V)
        if a.greedy:
            nxt = logits.argmax(dim=-1, keepdim=True)  # ties: the lowest id
        else:
            logits = logits / a.temperature
            if a.top_k:
                kth = logits.topk(min(a.top_k, logits.size(-1))).values[:, [-1]]
                logits = logits.masked_fill(logits < kth, float("-inf"))
            nxt = torch.multinomial(F.softmax(logits, dim=-1), 1, generator=gen)
        idx = torch.cat([idx, nxt], dim=1)
    print("".join(vocab[i] for i in idx[0, len(a.prompt):].tolist()))


# ------------------------------------------------------------------ heads (src/gpt/heads.rs)
# R = probe rows, L = segment length (each row is L ids written twice), NL = layers
def read_probe(path, cfg):
    """The probe of `gpt heads --json` (its keys probe and probe_len; "-" = stdin) as ids
    (R, 2L) and L; exits unless every row is L ids in the vocab written twice, 2L <= block_size."""
    try:
        with (sys.stdin if path == "-" else open(path, encoding="utf-8")) as f:
            obj = json.load(f)
        rows, L = obj["probe"], obj["probe_len"]
        ids = torch.tensor(rows, dtype=torch.long)  # (R, 2L)
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"error: --probe {path}: {e!r}")
    if not (isinstance(L, int) and 2 <= L and 2 * L <= cfg.block_size and ids.dim() == 2
            and ids.shape[0] >= 1 and ids.shape[1] == 2 * L):
        sys.exit(f"error: --probe {path}: need R >= 1 rows of 2·probe_len ids, 2 <= probe_len <= "
                 f"{cfg.block_size // 2}; got shape {list(ids.shape)}, probe_len {L!r}")
    if ids.min() < 0 or ids.max() >= cfg.vocab_size or not torch.equal(ids[:, :L], ids[:, L:]):
        sys.exit(f"error: --probe {path}: ids must lie in 0..{cfg.vocab_size} and each row be "
                 "one sequence written twice")
    return ids, L


@torch.no_grad()
def probe_forward(model, ids, L):
    """One forward of the probe -> att (NL, R, nh, 2L, 2L) as float64, loss_first (positions
    0..L-1 predict tokens 1..L), loss_second (positions L..2L-1 predict L+1..2L; ends
    exclusive)."""
    attns = [block.attn for block in model.transformer.h]
    for a in attns:
        a.keep_att = True
    try:
        logits = model(ids)[0]  # (R, 2L, V)
        att = torch.stack([a.att for a in attns]).double()  # NL × (R, nh, 2L, 2L)
    finally:
        for a in attns:
            a.keep_att, a.att = False, None
    logp = F.log_softmax(logits.double(), dim=-1)  # (R, 2L, V)
    nll = -logp[:, :-1].gather(2, ids[:, 1:, None])[..., 0]  # (R, 2L-1): position t -> token t+1
    return att, nll[:, :L - 1].mean().item(), nll[:, L:].mean().item()


def head_scores(att, L):
    """Mean attention weights, each (NL, nh): previous_token over t in 1..2L of att[t, t-1],
    induction over t in L..2L of att[t, t-L+1], first_token over t in 1..2L of att[t, 0]."""
    diag = lambda k: att.diagonal(offset=-k, dim1=-2, dim2=-1)  # (NL, R, nh, 2L-k): t = k..2L
    return {"previous_token": diag(1).mean(dim=(1, 3)),
            "induction": diag(L - 1)[..., 1:].mean(dim=(1, 3)),  # from t = L-1, skip it
            "first_token": att[..., 1:, 0].mean(dim=(1, 3))}  # (NL, R, nh, 2L-1)


def cmd_heads(a):
    """Every head's scores and the probe's losses on `gpt heads --json`'s probe, as gpt heads."""
    model, _ = load_checkpoint(a.ckpt)
    cfg = model.config
    ids, L = read_probe(a.probe, cfg)
    att, loss_first, loss_second = probe_forward(model, ids, L)
    out = {"n_layer": cfg.n_layer, "n_head": cfg.n_head, "probe_len": L,
           **{k: v.tolist() for k, v in head_scores(att, L).items()},
           "loss_first": loss_first, "loss_second": loss_second}
    if a.ablate:  # each head off in turn: Δ loss_second (no validation text here)
        second = [[0.0] * cfg.n_head for _ in range(cfg.n_layer)]  # (NL, nh)
        for l, block in enumerate(model.transformer.h):
            for h in range(cfg.n_head):
                block.attn.off = (h,)
                try:
                    second[l][h] = probe_forward(model, ids, L)[2] - loss_second
                finally:
                    block.attn.off = ()
        out["ablation"] = {"second_copy": second, "base_second_copy": loss_second}
    print(json.dumps(out))


def cmd_bench(a):
    """20 untimed warm-up steps, then --iters timed steps (batch sampling untimed)."""
    if a.iters < 1:
        sys.exit("error: --iters must be at least 1")
    r = setup(a)
    times = []
    for i in range(WARMUP_STEPS + a.iters):
        x, y = r.batch()
        t0 = time.perf_counter()
        train_step(r.model, r.opt, x, y)
        if i >= WARMUP_STEPS:
            times.append((time.perf_counter() - t0) * 1e3)
    ms, e = statistics.median(times), r.estimate_loss(a.seed)
    B, T = r.hp["batch_size"], r.model.config.block_size
    print(json.dumps({
        "preset": a.preset, "config": r.model.config.to_json(), "batch_size": B,
        "lr": r.hp["lr"], "params": sum(p.numel() for p in r.model.parameters()),
        "iters": a.iters, "warmup": WARMUP_STEPS, "step_ms_median": round(ms, 4),
        "step_ms_min": round(min(times), 4), "tokens_per_s": round(B * T / ms * 1e3, 1),
        "train_loss": round(e["train"], 4), "val_loss": round(e["val"], 4),
        "torch": torch.__version__, "engine": "torch", "threads": torch.get_num_threads()}))


def cmd_bench_attention(a):
    """Causal scaled_dot_product_attention forward alone, one head: median ms of --iters."""
    g = torch.Generator().manual_seed(a.seed)
    q, k, v = (torch.randn(1, 1, a.t, a.d, generator=g) for _ in range(3))  # (B, NH, T, hs)
    times = []
    with torch.no_grad():
        for i in range(WARMUP_STEPS + a.iters):
            t0 = time.perf_counter()
            F.scaled_dot_product_attention(q, k, v, is_causal=True)
            if i >= WARMUP_STEPS:
                times.append((time.perf_counter() - t0) * 1e3)
    print(json.dumps({"op": "attention forward (causal)", "t": a.t, "d": a.d,
                      "ms_median": round(statistics.median(times), 5), "iters": a.iters,
                      "torch": torch.__version__, "engine": "torch sdpa",
                      "threads": torch.get_num_threads()}))


# ------------------------------------------------------------------ command line
def add_model_flags(s):
    s.add_argument("--preset", choices=PRESETS, default="tiny")
    s.add_argument("--data", required=True, help="corpus, UTF-8 text")
    s.add_argument("--seed", type=int, default=1337, help="init and batch seed (1337)")
    for k in ("n_layer", "n_head", "n_embd", "block_size", "batch_size"):
        s.add_argument("--" + k.replace("_", "-"), dest=k, type=int, help="override the preset")
    for k in ("lr", "weight_decay"):
        s.add_argument("--" + k.replace("_", "-"), dest=k, type=float, help="override the preset")
    s.add_argument("--dropout", type=float, default=0.0, help="only 0")
    s.add_argument("--no-bias", action="store_true", help="bias=False everywhere")
    s.add_argument("--no-causal", action="store_true", help="no causal mask")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    I, R = dict(type=int), dict(required=True)
    commands = [  # name, function, takes the model flags, its own flags
        ("fixture", cmd_fixture, True, {"--steps": dict(I, default=10), "--out": R}),
        ("check-fixture", cmd_check_fixture, False,
         {"--dir": R, "--tol": dict(type=float, default=0.0, help="max |diff| (0)")}),
        ("train", cmd_train, True, {"--iters": dict(I, default=2000),
                                    "--eval-interval": dict(I, default=500), "--out": R}),
        ("eval", cmd_eval, False, {"--ckpt": R, "--text": R}),
        ("sample", cmd_sample, False,
         {"--ckpt": R, "--prompt": dict(default="\n"), "-n": dict(I, default=200),
          "--greedy": dict(action="store_true"), "--temperature": dict(type=float, default=1.0),
          "--top-k": I, "--seed": dict(I, default=1337)}),
        ("heads", cmd_heads, False,
         {"--ckpt": R, "--probe": dict(R, help="JSON with probe and probe_len (`gpt heads "
                                           "--json`'s), - = stdin"),
          "--ablate": dict(action="store_true", help="Δ loss_second with each head off")}),
        ("bench", cmd_bench, True, {"--iters": dict(I, default=200)}),
        ("bench-attention", cmd_bench_attention, False,
         {"--t": dict(I, default=256), "--d": dict(I, default=64), "--iters": dict(I, default=2000),
          "--seed": dict(I, default=1337)}),
    ]
    for name, fn, model_flags, flags in commands:
        s = sub.add_parser(name, help=(fn.__doc__ or name).split("\n")[0])
        s.set_defaults(fn=fn)
        s.add_argument("--threads", type=int, help="torch threads (1; check-fixture: the fixture's)")
        if model_flags:
            add_model_flags(s)
        for flag, kw in flags.items():
            s.add_argument(flag, **kw)
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads or 1)
    a.fn(a)


if __name__ == "__main__":
    main()
