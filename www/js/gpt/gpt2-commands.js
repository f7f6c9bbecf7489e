// What GPT-2's worker answers (gpt2-worker.js documents the requests): the model loaded
// chunk by chunk into a Gpt2Loader, then opened as a Gpt2Lab and asked what
// <attn-gpt-inspect> asks of the GPT's worker (inspect-commands.js). The site's worker and
// the notebook's (pages/notebook/gpt2-worker.js, started from a blob:) serve this same table.

import { inspectCommands } from './inspect-commands.js';

/** The requests, on the wasm glue `glue()` returns (its exports, once started); `wasmMemory()`
 *  is the instance's memory (the glue does not export it), or null where unknown. */
export function gpt2Commands(glue, wasmMemory = () => null) {
  let loader = null;
  let lab = null;
  const need = () => {
    if (!lab) throw new Error('no GPT-2 open yet');
    return lab;
  };
  const info = () => need().config();
  const letGo = () => {
    loader?.free();
    lab?.free();
    loader = lab = null;
  };
  const memory = () => wasmMemory()?.buffer.byteLength ?? null;
  return {
    plan: ({ config }) => glue().gpt2Plan(String(config)),
    begin: ({ config }) => {
      letGo();
      const plan = glue().gpt2Plan(String(config));
      loader = new (glue().Gpt2Loader)(String(config));
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
      const l = need();
      const ms = [];
      let tokens = 0;
      for (let i = 0; i < warmup + iters; i++) {
        l.clearAblated(); // a changed ablation set forces the pass to run again
        const t0 = performance.now();
        tokens = l.forwardOnly(String(prompt));
        if (i >= warmup) ms.push(performance.now() - t0);
      }
      return { ms, tokens, memory: memory() };
    },
    memory,
    ...inspectCommands(need),
  };
}
