// What the GPT's worker does (worker.js documents the protocol): it holds one GptLab
// (src/wasm/gpt/lab.rs), answers the page's commands on it and runs the training loop,
// data-parallel over gradient workers (pool.js) when asked for more than one.
//
// It is apart from worker.js so that a worker can be built from this table plus commands
// of its own without any of those in the page's worker: the page tests' worker
// (tests/page/gpt-test-worker.mjs) adds its test-only commands (a crash, steps on demand,
// the weights) this way, through serve(), need(), stepOnce() and engine().

import { GradPool } from './pool.js';
import { loadBuild } from '../core/wasm-build.js';
import { inspectCommands } from './inspect-commands.js';
import { errorOf, serveTable } from './worker-serve.js';

const CHUNK_MS = 100; // one progress event per chunk of steps
const EVAL_ITERS = 10;
const SAMPLE_CHARS = 200;

// The wasm build: relaxed SIMD (FMA) where this browser validates it, else simd128;
// `?build=simd128|fma` on this worker's URL, or its name when it was started through a blob:
// (from a CDN, cross-origin-worker.js), forces one (tests, benchmarks).
let build = null;
let GptLab = null;
let pool = null;
const forced = new URL(self.location.href).searchParams.get('build') ?? (self.name || null);
const ready = loadBuild(forced).then((b) => {
  build = b;
  GptLab = b.wasm.GptLab;
  pool = new GradPool(b, b.wasm.gptSplitRows);
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
export function engine() {
  return { build: build.name, workers: pool.workers, lost: pool.lost, shared: pool.shared };
}

/** The model, or the error a command on no model answers. */
export function need() {
  if (!lab) throw new Error('no model yet: build or load one first');
  return lab;
}

function replace(next) {
  running = false;
  lab?.free();
  lab = next;
  return info();
}

/** The page's commands (worker.js lists them with their arguments and results). */
export const commands = {
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
  setCausal: ({ on }) => {
    need().setCausal(Boolean(on));
    return info();
  },
  ...inspectCommands(need), // attention, explain, generate
  estimate: ({ iters }) => Array.from(need().estimateLoss(iters >>> 0)),
  save: () => need().toBytes(),
  state: () => ({ bytes: need().stateBytes(), step: lab.steps() }),
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
export function stepOnce() {
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
  // what each head attends to on the probe, at the same steps: the heads grid and its curves
  let scores = null;
  try {
    scores = lab.headScores();
  } catch {
    // a block too short for a probe (block_size < 4): the grid says why when it asks
  }
  if (scores) postMessage({ event: 'heads', step: lab.steps(), scores });
}

/** Answers this worker's requests from `table` once the wasm build has started and never
 *  between two halves of a step (worker-serve.js). */
export function serve(table) {
  serveTable(table, { ready, idle: () => busy });
}
