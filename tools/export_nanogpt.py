#!/usr/bin/env python3
"""export_nanogpt.py: our GPT (a checkpoint or a training state) to a nanoGPT out_dir, so
that karpathy/nanoGPT's train.py continues training it and its sample.py samples it.

    python tools/export_nanogpt.py --ckpt model.safetensors --out-dir out-playground \
        [--text corpus.txt] [--dataset NAME]

--ckpt takes either file the GPT writes:
  - a checkpoint (.safetensors: the page's "Download .safetensors", `gpt train --out`):
    weights only, so the optimizer starts afresh (empty AdamW state, as a new run) at
    iter_num --iter-num (default 0);
  - a training state (`gpt train --state`, GptLab.stateBytes; starts with APGPTST1): the
    weights plus AdamW's moments m, v and step t, the step count, lr and weight decay;
    nanoGPT's AdamW continues with exactly those moments.

Writes into DIR:
  ckpt.pt   nanoGPT's checkpoint dict: model (its state_dict: our tensors in its order, and
            lm_head.weight, the same tensor as transformer.wte.weight), optimizer (torch's
            AdamW state_dict with nanoGPT's two parameter groups: weight decay on tensors
            with dim >= 2, none on the rest; betas (0.9, 0.99), eps 1e-8, as ours),
            model_args, iter_num, best_val_loss (--best-val-loss, default nanoGPT's 1e9),
            config (ours, in nanoGPT's keys; config["dataset"] is --dataset).
  meta.pkl  {vocab_size, itos, stoi}, as nanoGPT's data/shakespeare_char/prepare.py writes.
  train.bin, val.bin (with --text): the text in our vocab as uint16 ids, the first 90 %
            train, as prepare.py splits it (nanoGPT reads data/<dataset>/{train,val}.bin).

--dataset defaults to DIR's absolute path: nanoGPT looks for data in
os.path.join('data', dataset), which is DIR itself when dataset is absolute, so
`train.py --dataset=DIR` reads DIR/train.bin and sample.py finds DIR/meta.pkl. The
commands to continue and to sample are printed at the end. Needs torch (for torch.save).
"""
import argparse, array, json, os, pickle, struct, sys

from nanogpt_format import SIZES, decays, expected_names, expected_shapes

STATE_MAGIC = b"APGPTST1"
BETAS, EPS = (0.9, 0.99), 1e-8  # src/gpt/adamw.rs
NANOGPT_BEST_VAL_LOSS = 1e9  # train.py's value before any evaluation


class ExportError(Exception):
    pass


def read_safetensors(buf, what):
    """({name: (shape, f32 bytes)}, metadata) of a safetensors file in `buf`."""
    if len(buf) < 8:
        raise ExportError(f"{what} is too short to be a safetensors file")
    (hlen,) = struct.unpack_from("<Q", buf)
    if hlen > len(buf) - 8:
        raise ExportError(f"{what} is not a safetensors file (header length {hlen})")
    try:
        header = json.loads(buf[8:8 + hlen])
    except ValueError as e:
        raise ExportError(f"{what} has a damaged header: {e}") from None
    data = memoryview(buf)[8 + hlen:]
    meta = header.pop("__metadata__", {}) or {}
    tensors = {}
    for name, t in header.items():
        if t.get("dtype") != "F32":
            raise ExportError(f"{what}: {name} is {t.get('dtype')}, expected F32")
        start, end = t["data_offsets"]
        if not 0 <= start <= end <= len(data):
            raise ExportError(f"{what}: {name} lies outside the file")
        tensors[name] = (tuple(t["shape"]), bytes(data[start:end]))
    return tensors, meta


def read_input(path):
    """(config, vocab, tensors, state) of our checkpoint or training state at `path`; state
    is None for a checkpoint, else its header plus m and v (bytes, the params' layout)."""
    with open(path, "rb") as f:
        buf = f.read()
    state = None
    if buf[:8] == STATE_MAGIC:
        if len(buf) < 12:
            raise ExportError(f"{path}: the training state is truncated")
        (hlen,) = struct.unpack_from("<I", buf, 8)
        try:
            state = json.loads(buf[12:12 + hlen])
        except ValueError as e:
            raise ExportError(f"{path}: the training state is damaged: {e}") from None
        rest, n, clen = buf[12 + hlen:], state["n_params"], state["checkpoint_len"]
        if len(rest) != clen + 8 * n:
            raise ExportError(f"{path}: the training state has {len(rest)} bytes after its "
                              f"header, expected {clen + 8 * n}")
        buf, state["m"], state["v"] = rest[:clen], rest[clen:clen + 4 * n], rest[clen + 4 * n:]
    tensors, meta = read_safetensors(buf, path)
    missing = [k for k in (*SIZES, "bias", "vocab") if k not in meta]
    if missing:
        raise ExportError(f"{path} is not one of our checkpoints: its metadata lacks {missing}")
    cfg = {k: int(meta[k]) for k in SIZES}
    cfg["bias"] = meta["bias"] == "true"
    vocab = json.loads(meta["vocab"])
    if len(vocab) != cfg["vocab_size"]:
        raise ExportError(f"{path}: vocab has {len(vocab)} entries, vocab_size is {cfg['vocab_size']}")
    shapes = expected_shapes(cfg)
    if set(tensors) != set(shapes):
        raise ExportError(f"{path}: tensor names do not match: missing "
                          f"{sorted(set(shapes) - set(tensors))}, unexpected {sorted(set(tensors) - set(shapes))}")
    for n, (shape, _) in tensors.items():
        if shape != shapes[n]:
            raise ExportError(f"{path}: {n} has shape {shape}, expected {shapes[n]}")
    if state is not None and state["n_params"] != sum(len(b) // 4 for _, b in tensors.values()):
        raise ExportError(f"{path}: the optimizer state has {state['n_params']} values per "
                          "moment; the model has a different number of parameters")
    return cfg, vocab, tensors, state


def f32_tensor(torch, raw, shape):
    return torch.frombuffer(bytearray(raw), dtype=torch.float32).reshape(shape)


def nanogpt_checkpoint(torch, cfg, tensors, state, a):
    """The dict nanoGPT's train.py saves (and reads on --init_from=resume)."""
    names = expected_names(cfg["n_layer"], cfg["bias"])
    params = {n: torch.nn.Parameter(f32_tensor(torch, tensors[n][1], tensors[n][0])) for n in names}
    lr = a.lr if a.lr is not None else (state["lr"] if state else 1e-3)
    wd = a.weight_decay if a.weight_decay is not None else (state["weight_decay"] if state else 0.1)
    # nanoGPT's configure_optimizers: named_parameters order (the tied matrix once, as
    # transformer.wte.weight), split by dim; torch numbers the parameters group by group.
    decay = [n for n in names if decays(tensors[n][0])]
    no_decay = [n for n in names if not decays(tensors[n][0])]
    opt = torch.optim.AdamW([{"params": [params[n] for n in decay], "weight_decay": wd},
                             {"params": [params[n] for n in no_decay], "weight_decay": 0.0}],
                            lr=lr, betas=BETAS, eps=EPS)
    if state is not None and state["adam_t"] > 0:
        offset = 0
        for n in names:  # m and v follow our flat layout: the tensors in `names` order
            size = len(tensors[n][1])
            m = f32_tensor(torch, state["m"][offset:offset + size], tensors[n][0])
            v = f32_tensor(torch, state["v"][offset:offset + size], tensors[n][0])
            opt.state[params[n]] = {"step": torch.tensor(float(state["adam_t"])),
                                    "exp_avg": m, "exp_avg_sq": v}
            offset += size
    model = {n: params[n].data for n in names}
    model["lm_head.weight"] = model["transformer.wte.weight"]  # tied: one storage, two names
    iter_num = state["step"] if state else a.iter_num
    model_args = dict(n_layer=cfg["n_layer"], n_head=cfg["n_head"], n_embd=cfg["n_embd"],
                      block_size=cfg["block_size"], bias=cfg["bias"],
                      vocab_size=cfg["vocab_size"], dropout=0.0)
    config = dict(out_dir=a.out_dir, dataset=a.dataset, init_from="scratch",
                  gradient_accumulation_steps=1,
                  batch_size=state["batch_size"] if state else a.batch_size,
                  block_size=cfg["block_size"], n_layer=cfg["n_layer"], n_head=cfg["n_head"],
                  n_embd=cfg["n_embd"], dropout=0.0, bias=cfg["bias"], learning_rate=lr,
                  max_iters=iter_num, weight_decay=wd, beta1=BETAS[0], beta2=BETAS[1],
                  grad_clip=0.0, decay_lr=False, device="cpu", dtype="float32", compile=False)
    return {"model": model, "optimizer": opt.state_dict(), "model_args": model_args,
            "iter_num": iter_num, "best_val_loss": a.best_val_loss, "config": config}


def encode(text, stoi, path):
    unknown = sorted({c for c in text if c not in stoi})
    if unknown:
        raise ExportError(f"{path} has {len(unknown)} characters outside the model's vocab: "
                          f"{''.join(unknown[:20])!r}")
    ids = array.array("H", (stoi[c] for c in text))
    if sys.byteorder != "little":
        ids.byteswap()  # nanoGPT reads np.uint16, little-endian on every machine it runs on
    return ids


def export(a):
    try:
        import torch
    except ImportError:
        raise ExportError("needs PyTorch (pip install torch): torch.save writes ckpt.pt") from None
    cfg, vocab, tensors, state = read_input(a.ckpt)
    a.out_dir = os.path.abspath(a.out_dir)
    a.dataset = a.dataset or a.out_dir
    ids = None
    if a.text:
        with open(a.text, encoding="utf-8") as f:
            ids = encode(f.read(), {c: i for i, c in enumerate(vocab)}, a.text)
        if len(ids) < 10 * (cfg["block_size"] + 1):
            raise ExportError(f"{a.text} has {len(ids)} characters: each split needs more "
                              f"than block_size + 1 = {cfg['block_size'] + 1}")
    ckpt = nanogpt_checkpoint(torch, cfg, tensors, state, a)
    os.makedirs(a.out_dir, exist_ok=True)
    torch.save(ckpt, os.path.join(a.out_dir, "ckpt.pt"))
    meta = {"vocab_size": len(vocab), "itos": dict(enumerate(vocab)),
            "stoi": {c: i for i, c in enumerate(vocab)}}
    with open(os.path.join(a.out_dir, "meta.pkl"), "wb") as f:
        pickle.dump(meta, f)
    written = ["ckpt.pt", "meta.pkl"]
    if ids is not None:
        n = int(len(ids) * 0.9)  # prepare.py: train_data = data[:int(n*0.9)]
        for name, part in (("train.bin", ids[:n]), ("val.bin", ids[n:])):
            with open(os.path.join(a.out_dir, name), "wb") as f:
                part.tofile(f)
        written += ["train.bin", "val.bin"]
    c = ckpt["config"]
    resume = (f"python train.py --init_from=resume --out_dir={a.out_dir} --dataset={a.dataset} "
              f"--block_size={cfg['block_size']} --batch_size={c['batch_size']} "
              f"--learning_rate={c['learning_rate']} --decay_lr=False --grad_clip=0.0 "
              f"--dropout=0.0 --max_iters={ckpt['iter_num'] + 500} "
              "--device=cpu --compile=False --dtype=float32")
    return {"out_dir": a.out_dir, "written": written,
            "config": {**{k: cfg[k] for k in SIZES}, "bias": cfg["bias"]},
            "iter_num": ckpt["iter_num"],
            "optimizer": "continued (AdamW step %d)" % state["adam_t"]
            if state and state["adam_t"] else "fresh",
            "resume": resume,
            "sample": f"python sample.py --out_dir={a.out_dir} --device=cpu --compile=False"}


def run(argv=None):
    """export() of the command line `argv`; a bad input exits with "error: ..."."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ckpt", required=True, help="our .safetensors checkpoint or training state")
    p.add_argument("--out-dir", required=True, help="nanoGPT's out_dir to write")
    p.add_argument("--text", help="the training text (in the model's vocab): train.bin, val.bin")
    p.add_argument("--dataset", help="config['dataset'] (default: DIR's absolute path)")
    p.add_argument("--iter-num", type=int, default=0, help="a checkpoint's step (a state has its own)")
    p.add_argument("--best-val-loss", type=float, default=NANOGPT_BEST_VAL_LOSS)
    p.add_argument("--lr", type=float, help="AdamW lr (default: the state's, else 1e-3)")
    p.add_argument("--weight-decay", type=float, help="(default: the state's, else 0.1)")
    p.add_argument("--batch-size", type=int, default=12, help="config batch_size of a checkpoint")
    try:
        return export(p.parse_args(argv))
    except (ExportError, OSError) as e:
        sys.exit(f"error: {e}")


if __name__ == "__main__":
    print(json.dumps(run(), indent=1, ensure_ascii=False))
