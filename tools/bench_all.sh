#!/usr/bin/env bash
# Every training engine back to back, in one run, on the same corpus and presets, and a
# table of tokens/s with the ratio to PyTorch at the same thread count. Prints; asserts
# nothing. Run it on a quiet machine: the load average is printed before and after.
#
#   tools/bench_all.sh [--presets "tiny small"] [--iters 300] [--data www/data/corpus.txt]
#                      [--python PYTHON] [--workers K]
#
#   PyTorch   tools/gpt_torch.py bench, 1 thread and all threads (skipped, with a message,
#             where PYTHON has no torch: python3 -m venv .venv && .venv/bin/pip install torch
#             numpy safetensors, then --python .venv/bin/python)
#   native    gpt bench --threads 1 and --threads N (N = nproc), release build
#   wasm      tools/bench_wasm.mjs in headless Chromium: simd128, relaxed SIMD (FMA),
#             FMA with K data-parallel workers (default N), cross-origin isolated (shared
#             memory) and plain (a static host without COOP/COEP: buffers transferred)
#   attention the causal attention forward alone (T = 256, d = 64): wasm against PyTorch's
#             scaled_dot_product_attention, 1 thread
#
# Needs ./build.sh build first (www/pkg-gpt, www/pkg-gpt-fma, the corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

presets="tiny small" iters=300 data=www/data/corpus.txt python=${PYTHON:-python3}
cores=$(nproc) workers=
while [ $# -gt 0 ]; do
  case "$1" in
    --presets) presets=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --python) python=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    *) echo "bench_all.sh: unknown flag $1" >&2; exit 2 ;;
  esac
done
workers=${workers:-$cores}
[ -f "$data" ] || { echo "bench_all.sh: no corpus at $data (run ./build.sh build)" >&2; exit 1; }
[ -f www/pkg-gpt-fma/attention_playground_bg.wasm ] || { echo "bench_all.sh: no www/pkg-gpt-fma (run ./build.sh build)" >&2; exit 1; }

out=$(mktemp) && trap 'rm -f "$out"' EXIT
# run LABEL THREADS CMD...: one JSON line of CMD's output, tagged, into $out
run() {
  local label=$1 threads=$2; shift 2
  printf '  %-28s' "$label" >&2
  local line
  if line=$("$@" 2>/dev/null | grep '^{' | tail -1) && [ -n "$line" ]; then
    printf '%s\n' "{\"label\": \"$label\", \"group\": $threads, \"r\": $line}" >>"$out"
    echo " done" >&2
  else
    echo " FAILED: $*" >&2
  fi
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $cores cores; $(date -u +%FT%TZ)"
cargo build --release --quiet --bin gpt
has_torch=1
"$python" -c 'import torch, numpy, safetensors' 2>/dev/null || {
  has_torch=0
  echo "PyTorch: skipped ($python has no torch, numpy and safetensors; see --python)"
}
for p in $presets; do
  echo "$p:" >&2
  if [ $has_torch = 1 ]; then
    run "pytorch 1 thread" 1 "$python" tools/gpt_torch.py bench --preset "$p" --data "$data" --iters "$iters" --threads 1
    run "pytorch $cores threads" "$cores" "$python" tools/gpt_torch.py bench --preset "$p" --data "$data" --iters "$iters" --threads "$cores"
  fi
  run "native 1 thread" 1 target/release/gpt bench --preset "$p" --data "$data" --iters "$iters" --threads 1
  run "native $cores threads" "$cores" target/release/gpt bench --preset "$p" --data "$data" --iters "$iters" --threads "$cores"
  run "wasm simd128" 1 node tools/bench_wasm.mjs --preset "$p" --iters "$iters" --build simd128
  run "wasm fma" 1 node tools/bench_wasm.mjs --preset "$p" --iters "$iters" --build fma
  run "wasm fma $workers workers" "$workers" node tools/bench_wasm.mjs --preset "$p" --iters "$iters" --build fma --workers "$workers"
  run "wasm fma $workers workers, plain" "$workers" node tools/bench_wasm.mjs --preset "$p" --iters "$iters" --build fma --workers "$workers" --plain
done
echo "attention forward (causal, T=256, d=64):" >&2
[ $has_torch = 1 ] && run "pytorch sdpa 1 thread" 1 "$python" tools/gpt_torch.py bench-attention --t 256 --d 64 --threads 1
run "wasm fma" 1 node tools/bench_wasm.mjs --attention --build fma
run "wasm simd128" 1 node tools/bench_wasm.mjs --attention --build simd128
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$out" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
train = [r for r in rows if "tokens_per_s" in r["r"]]
attn = [r for r in rows if "ms_median" in r["r"]]
def torch_at(preset, group):
    for r in train:
        if r["r"]["preset"] == preset and r["r"]["engine"] == "torch" and r["group"] == group:
            return r["r"]["tokens_per_s"]
print(f"\n{'preset':7} {'engine':30} {'ms/step':>9} {'tokens/s':>10} {'vs torch 1t':>12} {'vs torch same t':>16}  simd")
ratio = lambda x, ref: f"{x / ref:.2f}x" if ref else "-"
for r in train:
    j = r["r"]
    one, same = torch_at(j["preset"], 1), torch_at(j["preset"], r["group"])
    print(f"{j['preset']:7} {r['label']:30} {j['step_ms_median']:9.3f} {j['tokens_per_s']:10.0f} "
          f"{ratio(j['tokens_per_s'], one):>12} {ratio(j['tokens_per_s'], same):>16}  {j.get('simd', j.get('build', ''))}")
if attn:
    ref = next((a["r"]["ms_median"] for a in attn if a["r"]["engine"] == "torch sdpa"), None)
    print(f"\nattention forward, causal, T=256, d=64 (speed vs torch sdpa, 1 thread)")
    for a in attn:
        ms = a["r"]["ms_median"]
        print(f"  {a['label']:28} {ms:8.4f} ms  {f'{ref / ms:.2f}x' if ref else '-'}")
EOF
