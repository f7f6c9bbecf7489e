// The timing loop of bench.html, in a worker. The wasm build comes from the worker URL's
// `build` query parameter: `simd128` (www/pkg-gpt/, the default) or `fma` (www/pkg-gpt-fma/,
// relaxed SIMD). Messages in: { preset, iters, seed, data } for the training bench, answered with
// { result } (the JSON of the native `gpt bench`, engine "rust-wasm"); { profile: preset,
// iters } for the per-op profile, answered with { result } (gptProfile's table and
// rows); { attention: { t, d }, iters } for the causal attention forward alone, answered
// with { result } (gptAttentionBench's JSON). { error } when anything fails.

import { BUILD_NAMES, buildNamed, startBuild } from '../core/wasm-build.js';

const build = new URLSearchParams(self.location.search).get('build') ?? 'simd128';
// Loaded by a promise, not a top-level await: a message arriving during the await would
// find no onmessage yet and be lost.
async function load() {
  if (!BUILD_NAMES.includes(build)) throw new Error(`unknown build ${build} (use ${BUILD_NAMES.join(', ')})`);
  return startBuild(buildNamed(build));
}
const ready = load();
ready.catch(() => {}); // reported by the first message's answer

const WARMUP_STEPS = 20; // as src/bin/gpt/bench.rs
const EVAL_ITERS = 50;

const round = (x, d) => Math.round(x * 10 ** d) / 10 ** d;

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

async function bench({ preset, iters, seed, data }) {
  const wasm = await ready;
  const r = await fetch(data);
  if (!r.ok) throw new Error(`${data}: HTTP ${r.status}`);
  const lab = new wasm.GptLab(JSON.stringify({ preset }), await r.text(), seed);
  const times = [];
  for (let i = 0; i < WARMUP_STEPS + iters; i++) {
    lab.nextBatch(); // batch sampling is not timed, as in the native bench
    const t0 = performance.now();
    lab.stepBatch();
    if (i >= WARMUP_STEPS) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const med = median(times);
  const [train, val] = lab.estimateLoss(EVAL_ITERS);
  const c = lab.config();
  return {
    preset,
    config: { block_size: c.block_size, vocab_size: c.vocab_size, n_layer: c.n_layer, n_head: c.n_head,
      n_embd: c.n_embd, dropout: 0.0, bias: c.bias },
    batch_size: c.batch_size, lr: c.lr, params: c.params, iters, warmup: WARMUP_STEPS,
    step_ms_median: round(med, 4), step_ms_min: round(times[0], 4),
    tokens_per_s: round((c.batch_size * c.block_size) / med * 1e3, 1),
    train_loss: round(train, 4), val_loss: round(val, 4),
    torch: null, engine: 'rust-wasm', simd: wasm.gptSimdLevel(), build, threads: 1,
    user_agent: navigator.userAgent, cross_origin_isolated: self.crossOriginIsolated === true,
  };
}

async function profile({ profile: preset, iters }) {
  const wasm = await ready;
  return { build, ...wasm.gptProfile(preset, iters) };
}

/** The causal attention forward alone: { op, t, d, ms_median, iters, engine, simd, build }. */
async function attention({ attention: { t, d }, iters }) {
  const wasm = await ready;
  return { ...wasm.gptAttentionBench(t, d, iters), build };
}

self.onmessage = ({ data }) => {
  (data.profile ? profile(data) : data.attention ? attention(data) : bench(data)).then(
    (result) => postMessage({ result }),
    (err) => postMessage({ error: String(err?.message ?? err) }),
  );
};
