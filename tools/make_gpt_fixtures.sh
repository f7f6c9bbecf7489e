#!/usr/bin/env bash
# The exact commands that make tests/fixtures/gpt_tiny/ and tests/fixtures/gpt_small/, with
# our PyTorch GPT (tools/gpt_torch.py), so `cargo test` needs no Python.
#
# Usage: PYTHON=/path/to/venv/bin/python tools/make_gpt_fixtures.sh CORPUS [OUT_DIR]
#   CORPUS   the text the committed fixtures were made from: Tiny Shakespeare (Karpathy's
#            char-rnn input.txt, 1,115,394 bytes, sha256 86c4e6aa…565ed; third-party data,
#            never committed). Or set GPT_CORPUS.
#   OUT_DIR  default tests/fixtures; give a temporary directory to compare before replacing.
#   PYTHON   a Python with torch, numpy and safetensors (default python3), e.g.
#            python3 -m venv .venv && .venv/bin/pip install torch numpy safetensors (then PYTHON=.venv/bin/python)
# Made with torch 2.15.0 (CPU, 1 thread). The CPU's vector unit changes float rounding
# (~1e-7 in logits, ~3e-6 in the weights after 10 AdamW steps), far under the tests'
# tolerances; on one machine the script gives the same bytes every run.
set -euo pipefail
CORPUS=${1:-${GPT_CORPUS:-}}
if [ -z "$CORPUS" ] || [ ! -f "$CORPUS" ]; then
  echo "usage: $0 CORPUS [OUT_DIR] (or GPT_CORPUS=CORPUS; PYTHON=python with torch)" >&2
  exit 2
fi
CORPUS=$(cd "$(dirname "$CORPUS")" && pwd)/$(basename "$CORPUS")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$ROOT/tests/fixtures}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
P=${PYTHON:-python3}
G() { "$P" "$ROOT/tools/gpt_torch.py" "$@"; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The reference replay (tests/gpt_reference.rs): init weights, 10 batches, logits/loss/grads
# at init, the 10 AdamW losses and the weights after them.
for preset in tiny small; do
  G fixture --preset "$preset" --data "$CORPUS" --seed 1337 --steps 10 --out "$OUT/gpt_$preset"
done

# AdamW alone: the weights after one step from init (same seed: same init and gradients).
G fixture --preset tiny --data "$CORPUS" --seed 1337 --steps 1 --out "$TMP/step1"
cp "$TMP/step1/after.safetensors" "$OUT/gpt_tiny/after1.safetensors"

# A trained checkpoint (tests/gpt_model.rs): its eval losses and greedy samples.
CKPT=$OUT/gpt_tiny/trained.safetensors
G train --preset tiny --data "$CORPUS" --iters 300 --out "$CKPT"
{
  printf '{"ckpt": "trained.safetensors", "train": "gpt_torch.py train --preset tiny --iters 300",\n'
  printf ' "evals": [\n'
  printf '  {"text": "First Ci", "result": %s},\n' "$(G eval --ckpt "$CKPT" --text "First Ci")"
  printf '  {"text": "ROMEO:\\nO", "result": %s}\n' "$(G eval --ckpt "$CKPT" --text $'ROMEO:\nO')"
  printf ' ],\n "samples": [\n'
  # print() appends one newline: strip exactly that one, keep the sample's own.
  for spec in "ROMEO:|100" "First Citizen:|60"; do
    prompt=${spec%|*} n=${spec#*|}
    G sample --ckpt "$CKPT" --greedy -n "$n" --prompt "$prompt" >"$TMP/sample.txt"
    "$P" -c 'import json,sys; t=open(sys.argv[1]).read(); assert t.endswith("\n"); print(json.dumps({"prompt": sys.argv[2], "n": int(sys.argv[3]), "greedy": True, "text": t[:-1]}))' \
      "$TMP/sample.txt" "$prompt" "$n"
    [ "$spec" = "First Citizen:|60" ] || printf ','
  done
  printf ' ]}\n'
} >"$OUT/gpt_tiny/trained.json"
"$P" -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT/gpt_tiny/trained.json"
chmod 644 "$OUT"/gpt_tiny/* "$OUT"/gpt_small/*
du -sh "$OUT/gpt_tiny" "$OUT/gpt_small"
