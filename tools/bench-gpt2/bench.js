// The GPT-2 benchmark's page (tools/bench_gpt2.mjs drives it through Playwright): each call
// runs one engine on this cross-origin-isolated page and resolves to plain numbers (ms).
//
//   ours({ build, text, iters, warmup })   the files picked in #files, opened in GPT-2's
//                                          worker as <attn-gpt2> opens them; a 64-token
//                                          prompt cut from `text`, its forward pass timed
//   ortRun({ model, threads, ids, iters, warmup })  onnxruntime-web's wasm backend
//   hubOpen({ hub, repo })                 openModel from the hub's layout: downloads into
//                                          the Cache API (the first time), then opens

import { GptClient } from './www/js/gpt/client.js';
import { openModel } from './www/js/widgets/gpt/gpt2-load.js';
import { keptModels } from './www/js/gpt/hub.js';
import { hasRelaxedSimd } from './www/js/core/wasm-build.js';

/** <attn-gpt2>'s DEFAULT_PROMPT: the heads it draws first. */
const FIRST_PROMPT = 'The cat sat on the mat. The dog sat on the log. The cat sat on the';
const TOKENS = 64;
const now = () => performance.now();

/** Opens `source` in a new GPT-2 worker as the widget does, then asks for its heads.
 *  load = start → model open; firstHead = start → the first `attention` result. */
async function open(build, source) {
  const t0 = now();
  const client = new GptClient(() => {}, { gpt2: true, build });
  let plan = null; // the core's own estimate of the worker's memory (gpt2Plan's memory_mb)
  await openModel(client, source, { onStep: (s) => { plan = s.plan ?? plan; } });
  const load = now() - t0;
  await client.call('attention', { prompt: FIRST_PROMPT });
  const firstHead = now() - t0;
  return { client, load, firstHead, memory: await client.call('memory'), planMb: plan?.memory_mb ?? null };
}

/** A prompt of exactly `n` tokens: the shortest prefix of `text`'s pieces that the
 *  tokenizer reads back as n tokens. */
async function promptOf(client, text, n) {
  const { pieces } = await client.call('tokenize', { text });
  for (let k = n; k <= pieces.length; k++) {
    const prompt = pieces.slice(0, k).join('');
    const { ids } = await client.call('tokenize', { text: prompt });
    if (ids.length === n) return { prompt, ids };
  }
  throw new Error(`no prefix of the text is ${n} tokens`);
}

window.ours = async ({ build, text, iters, warmup }) => {
  const files = [...document.getElementById('files').files];
  const { client, load, firstHead, memory, planMb } = await open(build, { files });
  try {
    const { prompt, ids } = await promptOf(client, text, TOKENS);
    const { probs } = await client.call('attention', { prompt }); // the top 10, for the check
    const run = await client.call('bench', { prompt, iters, warmup });
    return {
      build, relaxedSimd: hasRelaxedSimd(), load, firstHead, memory, planMb, prompt, ids,
      top: probs.map((p) => [p.id, p.p]), ms: run.ms, tokens: run.tokens, memoryAfter: run.memory,
    };
  } finally {
    client.terminate();
  }
};

window.ortRun = async ({ model, threads, ids, iters, warmup }) => {
  const ort = await import('./ort/ort.wasm.min.mjs');
  ort.env.wasm.numThreads = threads; // read once, when its wasm starts: one page per count
  ort.env.wasm.wasmPaths = new URL('ort/', location.href).href;
  const t0 = now();
  const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
  const create = now() - t0;
  const input = new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
  const ms = [];
  let out;
  for (let i = 0; i < warmup + iters; i++) {
    const t = now();
    out = await session.run({ input_ids: input });
    if (i >= warmup) ms.push(now() - t);
  }
  const { data, dims } = out.logits; // (1, T, V) or (1, 1, V)
  const logits = Array.from(data.subarray(data.length - dims[2]));
  await session.release();
  return { threads, create, ms, logits, version: ort.env.versions?.web ?? null };
};

window.hubOpen = async ({ hub, repo }) => {
  const { client, load, firstHead, memory } = await open(undefined, { hub, repo });
  client.terminate();
  const kept = (await keptModels()).find((m) => m.repo === repo);
  return { load, firstHead, memory, keptBytes: kept?.bytes ?? 0 };
};
