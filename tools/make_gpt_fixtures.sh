#!/usr/bin/env bash
# The exact commands that made tests/fixtures/gpt_tiny/ and tests/fixtures/gpt_small/.
# Needs the PyTorch reference (shared/reference/nanogpt_ref.py) and a Python with torch,
# numpy and safetensors, e.g.:
#   python3 -m venv /tmp/venv && /tmp/venv/bin/pip install torch numpy safetensors
# Usage: tools/make_gpt_fixtures.sh [PYTHON] [REFERENCE_DIR]
# The corpus is the reference's default, ../data/tinyshakespeare.txt (never committed here).
# Made with torch 2.15.0 (CPU, 1 thread).
set -euo pipefail
P=${1:-/tmp/venv/bin/python}
REF=${2:-/work/shared/reference}
OUT=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures
cd "$REF"

# Tests 2 (reference replay): init weights, 10 batches, logits/loss/grads at init,
# the 10 AdamW losses and the weights after them.
for preset in tiny small; do
  "$P" nanogpt_ref.py fixture --preset "$preset" --seed 1337 --steps 10 --out "$OUT/gpt_$preset"
done

# AdamW alone: the weights after one step from init (same seed: same init and gradients).
"$P" nanogpt_ref.py fixture --preset tiny --seed 1337 --steps 1 --out /tmp/gpt_tiny_step1
cp /tmp/gpt_tiny_step1/after.safetensors "$OUT/gpt_tiny/after1.safetensors"

# Test 6 (a trained checkpoint): the reference's eval loss and greedy sample on it.
CKPT=$OUT/gpt_tiny/trained.safetensors
"$P" nanogpt_ref.py train --preset tiny --iters 300 --out "$CKPT"
{
  printf '{"ckpt": "trained.safetensors", "train": "nanogpt_ref.py train --preset tiny --iters 300",\n'
  printf ' "evals": [\n'
  printf '  {"text": "First Ci", "result": %s},\n' \
    "$("$P" nanogpt_ref.py eval --ckpt "$CKPT" --text "First Ci")"
  printf '  {"text": "ROMEO:\\nO", "result": %s}\n' \
    "$("$P" nanogpt_ref.py eval --ckpt "$CKPT" --text $'ROMEO:\nO')"
  printf ' ],\n "samples": [\n'
  # print() appends one newline: strip exactly that one, keep the sample's own.
  for spec in "ROMEO:|100" "First Citizen:|60"; do
    prompt=${spec%|*} n=${spec#*|}
    "$P" nanogpt_ref.py sample --ckpt "$CKPT" --greedy -n "$n" --prompt "$prompt" >/tmp/gpt_sample.txt
    "$P" -c 'import json,sys; t=open(sys.argv[1]).read(); assert t.endswith("\n"); print(json.dumps({"prompt": sys.argv[2], "n": int(sys.argv[3]), "greedy": True, "text": t[:-1]}))' \
      /tmp/gpt_sample.txt "$prompt" "$n"
    [ "$spec" = "First Citizen:|60" ] || printf ','
  done
  printf ' ]}\n'
} >"$OUT/gpt_tiny/trained.json"
"$P" -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT/gpt_tiny/trained.json"
chmod 644 "$OUT"/gpt_tiny/* "$OUT"/gpt_small/*
du -sh "$OUT/gpt_tiny" "$OUT/gpt_small"
