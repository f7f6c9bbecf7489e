#!/usr/bin/env python3
"""convert_nanogpt.py: a nanoGPT checkpoint (out/ckpt.pt + data/<name>/meta.pkl) to the
Rust GPT's safetensors format, which the page and `gpt sample/eval` load.

    python tools/convert_nanogpt.py --ckpt out-shakespeare-char/ckpt.pt \
        --meta data/shakespeare_char/meta.pkl --out shakespeare_char.safetensors

Format (src/gpt/checkpoint.rs, tools/gpt_torch.py): f32, PyTorch layouts, nanoGPT's state_dict names
without lm_head.weight (tied to transformer.wte.weight, checked equal here) and without
the attn.bias causal-mask buffers; string metadata vocab (JSON array of the one-character
strings in id order, from meta.pkl's itos), vocab_size, block_size, n_layer, n_head,
n_embd, bias ("true"/"false"). Only character-level models (every itos entry one char).
`torch.load` runs with weights_only=True unless --trust-pickle (trusted files only).
Needs torch and safetensors.
"""
import argparse, json, pickle, re, sys

import torch
from safetensors.torch import save_file

from nanogpt_format import SIZES, expected_names, expected_shapes


def convert(ckpt_path, meta_path, out_path, trust_pickle=False):
    ckpt = torch.load(ckpt_path, map_location="cpu", weights_only=not trust_pickle)
    sd = {k.removeprefix("_orig_mod."): v for k, v in ckpt["model"].items()}
    args = ckpt["model_args"]
    with open(meta_path, "rb") as f:
        itos = pickle.load(f)["itos"]
    vocab = [itos[i] for i in range(len(itos))]
    if args["vocab_size"] != len(vocab) or any(len(c) != 1 for c in vocab):
        sys.exit(f"error: vocab_size {args['vocab_size']} needs as many one-character itos "
                 f"entries in {meta_path}; it has {len(vocab)}")
    if len(set(vocab)) != len(vocab):
        sys.exit("error: meta.pkl's itos lists a character twice")
    head = sd.pop("lm_head.weight", None)
    if head is not None and not torch.equal(head, sd["transformer.wte.weight"]):
        sys.exit("error: lm_head.weight differs from transformer.wte.weight (not tied)")
    # nanoGPT registers the causal mask as attn.bias when flash attention is absent
    sd = {k: v for k, v in sd.items() if not re.fullmatch(r"transformer\.h\.\d+\.attn\.bias", k)}
    bias = bool(args.get("bias", True))
    if args["n_embd"] % args["n_head"]:
        sys.exit(f"error: n_embd {args['n_embd']} is not divisible by n_head {args['n_head']}")
    names = expected_names(args["n_layer"], bias)
    missing, extra = sorted(set(names) - set(sd)), sorted(set(sd) - set(names))
    if missing or extra:
        sys.exit(f"error: tensor names do not match: missing {missing}, unexpected {extra}")
    shapes = expected_shapes({**args, "bias": bias})
    for n in names:
        if tuple(sd[n].shape) != shapes[n]:
            sys.exit(f"error: {n} has shape {tuple(sd[n].shape)}, expected {shapes[n]}")
    meta = {k: str(args[k]) for k in SIZES}
    # as src/gpt/checkpoint.rs writes it (serde_json: compact, non-ASCII as is)
    meta.update(vocab=json.dumps(vocab, separators=(",", ":"), ensure_ascii=False),
                bias="true" if bias else "false")
    save_file({n: sd[n].detach().float().contiguous().clone() for n in names}, out_path, metadata=meta)
    return {"out": out_path, "config": {**{k: args[k] for k in SIZES}, "bias": bias},
            "tensors": len(names)}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ckpt", required=True, help="nanoGPT ckpt.pt")
    p.add_argument("--meta", required=True, help="the dataset's meta.pkl (itos)")
    p.add_argument("--out", required=True, help="FILE.safetensors")
    p.add_argument("--trust-pickle", action="store_true",
                   help="torch.load(weights_only=False): trusted files only")
    a = p.parse_args()
    print(json.dumps(convert(a.ckpt, a.meta, a.out, a.trust_pickle)))


if __name__ == "__main__":
    main()
