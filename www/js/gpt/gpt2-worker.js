// GPT-2's worker: its 500 MB of weights and every forward pass live here, so the page never
// freezes (src/wasm/gpt/gpt2.rs). The page streams model.safetensors in, chunk by chunk, and
// then asks what <attn-gpt-inspect> asks of the GPT's worker (inspect-commands.js).
//
//   new Worker(new URL('./gpt2-worker.js', import.meta.url), { type: 'module' })
//
// Requests (worker-serve.js: one reply each, errors with the core's code and params):
//   plan     { config }                 → what config.json describes and the memory it needs
//                                          (gpt2Plan), before anything is loaded
//   begin    { config }                 → plan; the weights reserved (the model open before
//                                          is let go first)
//   push     { chunk }                  → bytes read so far; chunk an ArrayBuffer (transferred)
//   finish   { tokenizer?, vocab?, merges? } → info: the model opened (Gpt2Lab.config())
//   abort    {}                         → null; a load given up
//   tokenize { text }                   → { ids, pieces }
//   ablate   { layer, head, off }       → info; a head switched off or back on
//   clearAblated {}                     → info
//   attention, explain, generate, heads → as the GPT's worker (inspect-commands.js)
//   bench    { prompt, iters, warmup }  → { ms: [each forward pass], tokens, memory } (the
//                                          benchmark page: tools/bench_gpt2.mjs)
//   memory   {}                         → bytes of this worker's wasm memory (its peak: wasm
//                                          memory never shrinks)

import { loadBuild } from '../core/wasm-build.js';
import { inspectCommands } from './inspect-commands.js';
import { serveTable } from './worker-serve.js';

const forced = new URL(self.location.href).searchParams.get('build') ?? (self.name || null);
let wasm = null;
const ready = loadBuild(forced).then((b) => { wasm = b.wasm; });
let loader = null;
let lab = null;

function need() {
  if (!lab) throw new Error('no GPT-2 open yet');
  return lab;
}

function info() {
  return need().config();
}

function letGo() {
  loader?.free();
  lab?.free();
  loader = lab = null;
}

serveTable({
  plan: ({ config }) => wasm.gpt2Plan(String(config)),
  begin: ({ config }) => {
    letGo();
    const plan = wasm.gpt2Plan(String(config));
    loader = new wasm.Gpt2Loader(String(config));
    return plan;
  },
  push: ({ chunk }) => {
    if (!loader) throw new Error('no load under way');
    loader.push(new Uint8Array(chunk));
    return loader.bytesRead();
  },
  finish: ({ tokenizer, vocab, merges }) => {
    if (!loader) throw new Error('no load under way');
    const l = loader;
    loader = null; // finish takes it, whether it opens the model or not
    lab = l.finish(tokenizer ?? undefined, vocab ?? undefined, merges ?? undefined);
    return info();
  },
  abort: () => {
    letGo();
    return null;
  },
  tokenize: ({ text }) => need().tokenize(String(text)),
  ablate: ({ layer, head, off }) => {
    need().setAblated(layer >>> 0, head >>> 0, Boolean(off));
    return info();
  },
  clearAblated: () => {
    need().clearAblated();
    return info();
  },
  bench: ({ prompt, iters = 5, warmup = 1 }) => {
    const lab = need();
    const ms = [];
    let tokens = 0;
    for (let i = 0; i < warmup + iters; i++) {
      lab.clearAblated(); // a changed ablation set forces the pass to run again
      const t0 = performance.now();
      tokens = lab.forwardOnly(String(prompt));
      if (i >= warmup) ms.push(performance.now() - t0);
    }
    return { ms, tokens, memory: wasm.memory?.buffer.byteLength ?? null };
  },
  memory: () => wasm.memory?.buffer.byteLength ?? null,
  ...inspectCommands(need),
}, { ready });
