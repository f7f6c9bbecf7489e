// Runs the Var(q·k) experiment off the main thread: one message per d so the page
// can show progress, and no long task blocks the learner's clicks (d = 512 with
// 20 000 samples takes about a second). The numbers come from the same wasm core.

import init, { varianceExperiment } from '../../../pkg/attention_playground.js';

const ready = init();

self.onmessage = async ({ data: { id, seed, dims, n } }) => {
  try {
    await ready;
    for (const d of dims) {
      const [row] = varianceExperiment(seed, new Uint32Array([d]), n);
      self.postMessage({ id, row });
    }
    self.postMessage({ id, done: true });
  } catch (e) {
    self.postMessage({ id, error: String(e?.message ?? e) });
  }
};
