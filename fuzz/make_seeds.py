#!/usr/bin/env python3
"""Writes the mutated checkpoint seeds of fuzz/corpus/checkpoint/ from the two real ones.

The real ones are made by the GPT code itself (debug build, a few steps on a tiny text):
  gpt train --preset tiny --n-layer 1 --n-head 2 --n-embd 8 --block-size 4 --batch-size 2 \
      --iters 3 --data small.txt --out bias.safetensors
  gpt train --preset tiny --n-layer 2 --n-head 1 --n-embd 4 --block-size 3 --batch-size 2 \
      --iters 3 --no-bias --data small.txt --out nobias.safetensors
Usage: fuzz/make_seeds.py fuzz/corpus/checkpoint  (reads real_*.safetensors there)
"""
import json
import struct
import sys
from pathlib import Path


def split(b):
    (n,) = struct.unpack("<Q", b[:8])
    return json.loads(b[8 : 8 + n]), b[8 + n :]


def join(header, data):
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + data


def main(out):
    out = Path(out)
    real = out / "real_bias.safetensors"
    good = real.read_bytes()
    header, data = split(good)
    meta = header["__metadata__"]
    names = [k for k in header if k != "__metadata__"]

    def variant(name, edit):
        h = json.loads(json.dumps(header))
        d = edit(h)
        (out / f"{name}.safetensors").write_bytes(join(h, d if isinstance(d, bytes) else data))

    variant("meta_n_layer_huge", lambda h: h["__metadata__"].update(n_layer="999990", n_embd="1", n_head="1"))
    variant("meta_n_head_3", lambda h: h["__metadata__"].update(n_head="3"))
    variant("meta_bias_yes", lambda h: h["__metadata__"].update(bias="yes"))
    variant("meta_bias_false", lambda h: h["__metadata__"].update(bias="false"))
    variant("meta_vocab_size_plus1", lambda h: h["__metadata__"].update(vocab_size=str(int(meta["vocab_size"]) + 1)))
    variant("meta_vocab_dup", lambda h: h["__metadata__"].update(vocab=json.dumps(["a"] * int(meta["vocab_size"]))))
    variant("meta_vocab_bad_json", lambda h: h["__metadata__"].update(vocab="[1, 2"))
    variant("meta_n_embd_word", lambda h: h["__metadata__"].update(n_embd="five"))
    variant("meta_missing", lambda h: h.pop("__metadata__"))
    variant("shape_swapped", lambda h: h[names[0]].update(shape=list(reversed(h[names[0]]["shape"]))))
    variant("shape_rank3", lambda h: h[names[0]].update(shape=h[names[0]]["shape"] + [1]))
    variant("dtype_f16", lambda h: h[names[-1]].update(dtype="F16"))
    variant("tensor_missing", lambda h: h.pop(names[-1]))
    variant("tensor_renamed", lambda h: h.update({names[-1] + "_x": h.pop(names[-1])}))
    variant("offsets_past_end", lambda h: h[names[-1]].update(data_offsets=[0, len(data) + 4]))
    (out / "truncated.safetensors").write_bytes(good[: len(good) // 2])
    (out / "header_len_huge.safetensors").write_bytes(struct.pack("<Q", 2**62) + good[8:])


if __name__ == "__main__":
    main(sys.argv[1])
