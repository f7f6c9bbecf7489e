// The GPT's worker: every training step and forward pass of "Train a GPT" runs here, so
// the page never freezes. It owns one GptLab (src/wasm/gpt.rs); the page holds a
// GptClient (gpt-client.js).
//
//   new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
//
// Requests (page → worker): { id, cmd, ...args }; every request gets exactly one reply
// { id, ok: true, result } or { id, ok: false, error, code?, params? } (error = a
// learner-facing message in English; code and params, when the core gave them, let the
// page say it in the learner's language: errorText in i18n.js).
//
//   create    { config, text, seed }           → info   a fresh model (config: the JSON
//                                                       object of GptLab, e.g. {preset})
//   load      { bytes, text?, config?, seed }  → info   a checkpoint (.safetensors bytes)
//   start     {}                               → info   starts the training loop
//   pause     {}                               → info   stops it after the current chunk
//                                                       (posting a last eval and sample)
//   setCausal { on }                           → info   trains/runs with or without the mask
//   attention { prompt }                       → { tokens, layers: [[{rows, cols, data,
//                                                 masked}]], probs: [{char, p}], causal }
//   explain   { prompt, layer, head, kind, row, col, maxTerms? } → explanation of one cell
//                                                (GptLab.explainAttention; kind "weights",
//                                                "scores", …) for <attn-explain>
//   generate  { prompt, n, temperature, topK, seed } → text   (temperature 0 = greedy)
//   estimate  { iters }                        → [train, val]
//   save      {}                               → Uint8Array (transferred)
//   state     {}                               → { bytes, step }: bytes (transferred) =
//                                                the full training state (GptLab.stateBytes:
//                                                weights + AdamW m, v, t + step, seed,
//                                                sampler) for gpt-store.js, at step `step`
//   checkpointOf { bytes, text }               → Uint8Array: the .safetensors of a saved
//                                                run's `state` bytes (the model here untouched)
//   restore   { bytes, text }                  → info   a run from `state` bytes, on the
//                                                text it was trained on; continues
//                                                exactly where it was saved
//   setWorkers { k }                           → info (or { engine } before a model)
//                                                k data-parallel workers (gpt-pool.js), this
//                                                one included; default: cores − 1, at least 1
//   steps     { n }                            → { losses, step, engine }  n steps now
//   params    {}                               → Float32Array of the weights (tests)
//   bench     { iters, warmup }                → { step_ms_median, step_ms_min,
//                                                tokens_per_s, engine } (tools/bench_wasm.mjs)
//
// info = GptLab.config(): { vocab_size, block_size, n_layer, n_head, n_embd, bias,
// batch_size, lr, weight_decay, causal, params, steps, trainable, untrainable_reason,
// untrainable ({ code, params, message } or null), vocab, train_tokens, val_tokens } plus
// running (bool) and engine = { build: 'fma' | 'simd128', workers, lost, shared }: the wasm
// build, the workers of the last step, the gradient workers that died, whether buffers are
// shared (an isolated page) or transferred.
//
// Events (worker → page, no id) while the loop runs:
//   { event: 'progress', step, loss, stepsPerSec, tokensPerSec, engine }  ~10 per second;
//                                   loss = mean training loss of the chunk's batches
//   { event: 'eval', step, train, val }   a fixed-batch estimate, ≤ 10 % of the time
//   { event: 'sample', step, text }       200 characters sampled from "\n" (or the
//                                   vocab's first character when it has no "\n")
//   { event: 'stopped', reason, message?, code?, params? }
//                                   'diverged' (a loss was not finite), 'error', or
//                                   'crashed' (wasm trapped, e.g. out of memory: this
//                                   worker's lab is unusable; the page starts a new one)
//
//   crashForTest {}  → null, then an uncaught error in this worker (the page tests'
//                      stand-in for a crash; GptClient reports it as reason 'crashed')
//   crashGradWorkerForTest {} → the first gradient worker dies in its next step

import { GradPool } from './pool.js';
import { loadBuild } from '../core/wasm-build.js';
import { inspectCommands } from './inspect-commands.js';

const CHUNK_MS = 100; // one progress event per chunk of steps
const EVAL_ITERS = 10;
const SAMPLE_CHARS = 200;

// The wasm build: relaxed SIMD (FMA) where this browser validates it, else simd128;
// `?build=simd128|fma` on this worker's URL forces one (tests, benchmarks).
let build = null;
let GptLab = null;
let pool = null;
const ready = loadBuild(new URL(self.location.href).searchParams.get('build')).then((b) => {
  build = b;
  GptLab = b.wasm.GptLab;
  pool = new GradPool(b.module, b.wasm.gptSplitRows);
  pool.resize(defaultWorkers());
});
let lab = null;
let running = false;
let loop = null; // state of the running loop
let busy = null; // the chunk of steps in flight (commands wait for it)
const yieldTick = new MessageChannel(); // a zero-delay yield between chunks

/** One worker per core but the page's own, at least one. */
function defaultWorkers() {
  return Math.max(1, (navigator.hardwareConcurrency || 2) - 1);
}

function info() {
  return { ...lab.config(), running, engine: engine() };
}

/** Which path trains: the build ('fma' | 'simd128') and the workers computing gradients. */
function engine() {
  return { build: build.name, workers: pool.workers, lost: pool.lost, shared: pool.shared };
}

function need() {
  if (!lab) throw new Error('no model yet: build or load one first');
  return lab;
}

function replace(next) {
  running = false;
  lab?.free();
  lab = next;
  return info();
}

const commands = {
  create: ({ config, text, seed = 1337 }) => replace(new GptLab(JSON.stringify(config ?? {}), text, seed)),
  load: ({ bytes, text, config, seed = 1337 }) =>
    replace(GptLab.fromBytes(new Uint8Array(bytes), text || undefined, config ? JSON.stringify(config) : undefined, seed)),
  start: () => {
    const { untrainable } = need().config();
    if (untrainable) throw untrainable;
    if (!running) {
      running = true;
      loop = { perStep: 0, lastEval: -Infinity, evalMs: 0, evalStep: -1, lastSample: -Infinity, sampleMs: 0 };
      schedule();
    }
    return info();
  },
  pause: () => {
    const was = running;
    running = false;
    if (was && lab.steps() > loop.evalStep) {
      evaluate(); // the curves end where training stopped, with a sample of that model
      sample();
    }
    return info();
  },
  setWorkers: ({ k }) => {
    pool.resize(Math.max(1, Math.min(64, k >>> 0 || 1)));
    return lab ? info() : { engine: engine() };
  },
  steps: async ({ n }) => {
    const losses = [];
    for (let i = 0; i < (n >>> 0); i++) losses.push(await stepOnce());
    return { losses, step: need().steps(), engine: engine() };
  },
  params: () => need().params(),
  bench: async ({ iters = 200, warmup = 20 }) => {
    const times = [];
    for (let i = 0; i < warmup + iters; i++) {
      const t0 = performance.now();
      await stepOnce();
      if (i >= warmup) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const mid = times.length >> 1;
    const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
    return { step_ms_median: median, step_ms_min: times[0], tokens_per_s: (lab.tokensPerStep() / median) * 1e3, engine: engine() };
  },
  crashGradWorkerForTest: () => pool.crashOneForTest(),
  setCausal: ({ on }) => {
    need().setCausal(Boolean(on));
    return info();
  },
  ...inspectCommands(need), // attention, explain, generate
  estimate: ({ iters }) => Array.from(need().estimateLoss(iters >>> 0)),
  save: () => need().toBytes(),
  state: () => ({ bytes: need().stateBytes(), step: lab.steps() }),
  crashForTest: () => {
    setTimeout(() => {
      running = false;
      throw new Error('the worker crashed (a test asked it to)');
    });
    return null;
  },
  checkpointOf: ({ bytes, text }) => {
    const saved = GptLab.fromState(new Uint8Array(bytes), String(text ?? ''));
    try {
      return saved.toBytes();
    } finally {
      saved.free();
    }
  },
  restore: ({ bytes, text }) => replace(GptLab.fromState(new Uint8Array(bytes), String(text ?? ''))),
};

function schedule() {
  yieldTick.port2.postMessage(null);
}

yieldTick.port1.onmessage = async () => {
  if (!running || !lab) return;
  try {
    busy = chunk();
    await busy;
  } catch (err) {
    running = false;
    const crashed = err instanceof WebAssembly.RuntimeError;
    postMessage({ event: 'stopped', reason: crashed ? 'crashed' : 'error', ...errorOf(err) });
    return;
  } finally {
    busy = null;
  }
  if (running) schedule();
};

/** One training step: in this wasm alone, or data-parallel over the pool's workers. */
function stepOnce() {
  return pool.wanted > 1 ? pool.step(lab) : lab.step(1)[0];
}

/** `n` training steps; their losses. One wasm call when there is no pool to wait for. */
async function steps(n) {
  if (pool.wanted <= 1) return lab.step(n);
  const losses = [];
  for (let i = 0; i < n && running; i++) losses.push(await pool.step(lab));
  return losses;
}

/** Runs about CHUNK_MS of steps, then maybe an estimate and a sample. */
async function chunk() {
  const t0 = performance.now();
  if (t0 - loop.lastEval >= Math.max(500, 10 * loop.evalMs)) evaluate();
  const want = loop.perStep > 0 ? Math.max(1, Math.min(2000, Math.round(CHUNK_MS / loop.perStep))) : 1;
  const s0 = performance.now();
  const losses = await steps(want);
  if (!losses.length) return; // paused before the first step of the chunk
  const ms = performance.now() - s0;
  const n = losses.length;
  loop.perStep = loop.perStep ? 0.7 * loop.perStep + 0.3 * (ms / n) : ms / n;
  let sum = 0;
  for (const l of losses) sum += l;
  const loss = sum / losses.length;
  if (!Number.isFinite(loss)) {
    running = false;
    postMessage({ event: 'stopped', reason: 'diverged', step: lab.steps() });
    return;
  }
  const stepsPerSec = (1000 * n) / Math.max(ms, 1e-3);
  postMessage({
    event: 'progress', step: lab.steps(), loss, stepsPerSec, tokensPerSec: stepsPerSec * lab.tokensPerStep(), engine: engine(),
  });
  if (performance.now() - loop.lastSample >= Math.max(2500, 10 * loop.sampleMs)) sample();
}

function sample() {
  const t0 = performance.now();
  // from "\n" as nanoGPT, or from the first character of a vocab without one (own text)
  const vocab = lab.vocab();
  const from = vocab.includes('\n') ? '\n' : [...vocab][0];
  const text = lab.generate(from, SAMPLE_CHARS, 1.0, 0, lab.steps() >>> 0);
  loop.sampleMs = performance.now() - t0;
  loop.lastSample = performance.now();
  postMessage({ event: 'sample', step: lab.steps(), text });
}

function evaluate() {
  const t0 = performance.now();
  const [train, val] = lab.estimateLoss(EVAL_ITERS);
  loop.evalMs = performance.now() - t0;
  loop.lastEval = performance.now();
  loop.evalStep = lab.steps();
  if (Number.isFinite(train) && Number.isFinite(val)) postMessage({ event: 'eval', step: lab.steps(), train, val });
}

/** What postMessage can carry of an error: { message, code?, params? }. An Error is
 *  cloned without the core's `code` and `params`, so they travel beside it. */
function errorOf(err) {
  const out = { message: String(err?.message ?? err).replace(/\.$/, '') };
  if (typeof err?.code === 'string') Object.assign(out, { code: err.code, params: err.params ?? {} });
  return out;
}

self.onmessage = async ({ data }) => {
  const { id, cmd, ...args } = data ?? {};
  try {
    await ready;
    await busy; // a command never lands between two halves of a step
    const fn = commands[cmd];
    if (!fn) throw new Error(`unknown command ${JSON.stringify(cmd)}`);
    const result = await fn(args);
    const bytes = result instanceof Uint8Array ? result : result?.bytes;
    const transfer = bytes instanceof Uint8Array ? [bytes.buffer] : [];
    postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    const { message, ...coded } = errorOf(err);
    postMessage({ id, ok: false, error: message, ...coded });
  }
};
