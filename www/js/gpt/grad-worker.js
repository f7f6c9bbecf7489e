// A gradient worker of data-parallel training (pool.js): one GptReplica
// (src/wasm/gpt/replica.rs) in its own wasm instance, computing the gradient of its
// slice of each batch against the weights the coordinator (worker.js) sends.
//
// Requests (coordinator → this worker), each answered once with { id, ok, ... }:
//   init  { build, config }    the wasm build to load ({ module, wasmUrl }: pkg-gpt/ or pkg-gpt-fma/) and the
//                              lab's replicaConfig()                       → { ok }
//   grads { params, x, y, rows, batchRows }   params: Float32Array (or absent when
//                              shared: see below), x, y: Uint32Array (rows × T)
//                              → { grads: Float32Array (transferred), lossSum }
//   share { params, grads }    SharedArrayBuffers (cross-origin isolated pages only): from
//                              now on `grads` reads the weights from `params` and writes
//                              the gradient into `grads` instead of carrying them
//
// A dying gradient worker is the page tests' to make (tests/page/gpt-test-worker.mjs wraps
// this one): nothing here is for them.

import { startBuild } from '../core/wasm-build.js';

let rep = null;
let shared = null;

const commands = {
  async init({ build, config }) {
    const mod = await startBuild(build);
    rep?.free();
    rep = new mod.GptReplica(config);
    return {};
  },
  share({ params, grads }) {
    shared = { params: new Float32Array(params), grads: new Float32Array(grads) };
    return {};
  },
  grads({ params, x, y, rows, batchRows }) {
    const g = rep.grads(shared ? shared.params : params, x, y, rows, batchRows);
    const lossSum = rep.lossSum();
    if (shared) {
      shared.grads.set(g);
      return { lossSum };
    }
    return { grads: g, lossSum };
  },
};

self.onmessage = async ({ data }) => {
  const { id, cmd, ...args } = data;
  try {
    const result = await commands[cmd](args);
    postMessage({ id, ok: true, ...result }, result.grads ? [result.grads.buffer] : []);
  } catch (err) {
    postMessage({ id, ok: false, message: String(err?.message ?? err), code: err?.code, params: err?.params });
  }
};
