// The GPT's worker: every training step and forward pass of "Train a GPT" runs here, so
// the page never freezes. It owns one GptLab (src/wasm/gpt/lab.rs); the page holds a
// GptClient (client.js). This file is the entry and its protocol; worker-commands.js does
// the work.
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
//   attention { prompt }                       → { tokens, layers: [[{rows, cols, data}]],
//                                                scores (the same), masked, probs:
//                                                [{char, p}], causal }: each map's data one
//                                                Float32Array (transferred), masked the
//                                                T·T booleans of every head (null: no mask)
//   explain   { prompt, layer, head, kind, row, col, maxTerms? } → explanation of one cell
//                                                (GptLab.explainAttention; kind "weights",
//                                                "scores", …) for <attn-explain>
//   generate  { prompt, n, temperature, topK, seed } → text   (temperature 0 = greedy)
//   heads     {}                               → every head's scores on the probe
//                                                (GptLab.headScores: src/wasm/gpt/heads.rs)
//   ablation  {}                               → each head's loss change when it is off
//   estimate  { iters }                        → [train, val]
//   save      {}                               → Uint8Array (transferred)
//   state     {}                               → { bytes, step }: bytes (transferred) =
//                                                the full training state (GptLab.stateBytes:
//                                                weights + AdamW m, v, t + step, seed,
//                                                sampler) for store.js, at step `step`
//   checkpointOf { bytes, text }               → Uint8Array: the .safetensors of a saved
//                                                run's `state` bytes (the model here untouched)
//   restore   { bytes, text }                  → info   a run from `state` bytes, on the
//                                                text it was trained on; continues
//                                                exactly where it was saved
//   setWorkers { k }                           → info (or { engine } before a model)
//                                                k data-parallel workers (pool.js), this
//                                                one included; default: cores − 1, at least 1
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
//   { event: 'heads', step, scores }      right after each 'eval': every head's scores on
//                                   the probe (GptLab.headScores, inspect-commands.js)
//   { event: 'sample', step, text }       200 characters sampled from "\n" (or the
//                                   vocab's first character when it has no "\n")
//   { event: 'stopped', reason, message?, code?, params? }
//                                   'diverged' (a loss was not finite), 'error', or
//                                   'crashed' (wasm trapped, e.g. out of memory: this
//                                   worker's lab is unusable; the page starts a new one)
//
// The page tests' commands (a crash, steps on demand, the weights) are not here: their
// worker, tests/page/gpt-test-worker.mjs, is this table plus those, served in place of
// this file to the pages they open (gpt-harness.mjs), so no page ever ships them.

import { commands, serve } from './worker-commands.js';

serve(commands);
