// GPT-2's worker: its 500 MB of weights and every forward pass live here, so the page never
// freezes (src/wasm/gpt/gpt2.rs). The page streams model.safetensors in, chunk by chunk, and
// then asks what <attn-gpt-inspect> asks of the GPT's worker (inspect-commands.js). The table
// of requests is gpt2-commands.js, which the notebook's worker serves too.
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
import { gpt2Commands } from './gpt2-commands.js';
import { serveTable } from './worker-serve.js';

const forced = new URL(self.location.href).searchParams.get('build') ?? (self.name || null);
let wasm = null;
let memory = null;
const ready = loadBuild(forced).then(async (b) => {
  wasm = b.wasm;
  memory = (await wasm.default()).memory; // the glue's init again: its cached instance exports
});

serveTable(gpt2Commands(() => wasm, () => memory), { ready });
