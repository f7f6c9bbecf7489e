// Synchronous data-parallel training, as PyTorch's DDP does it, for the GPT worker
// (worker.js, the coordinator and worker 0): each step's batch is cut into k row
// slices; k − 1 gradient workers (grad-worker.js, each its own wasm instance) and the
// coordinator compute the gradient of one slice each, at once; the coordinator adds them
// in slice order (so the same seed and k give the same run, bit for bit), takes the one
// AdamW step and hands the new weights out with the next batch.
//
// Weights and gradients travel as transferred ArrayBuffers, which works on any static host
// and in notebooks; a cross-origin-isolated page (COOP/COEP, e.g. `./build.sh serve`) shares
// them in SharedArrayBuffers instead, with nothing copied through postMessage.
// A gradient worker that dies is replaced; the step it was in is done again by the workers
// left, so no step is lost; one that keeps dying is given up (fewer workers).

const RESPAWNS = 3; // deaths after which a slot is given up

import { fromOtherOrigin, viaBlob } from '../core/cross-origin-worker.js';

class Died extends Error {}

/** One gradient worker: requests answered in order, a death rejects what waits. */
class GradWorker {
  #worker = fromOtherOrigin(import.meta.url)
    ? viaBlob(new URL('./grad-worker.js', import.meta.url).href) // the package from a CDN
    : new Worker(new URL('./grad-worker.js', import.meta.url), { type: 'module' });
  #next = 1;
  #pending = new Map();
  dead = false;
  shared = null; // { grads: Float32Array } when the pool shares memory

  constructor() {
    this.#worker.onmessage = ({ data }) => {
      const p = this.#pending.get(data.id);
      this.#pending.delete(data.id);
      if (!p) return;
      if (data.ok) p.resolve(data);
      else p.reject(Object.assign(new Error(data.message), data.code ? { code: data.code, params: data.params ?? {} } : {}));
    };
    this.#worker.onerror = (e) => {
      e.preventDefault();
      this.kill();
    };
  }

  call(cmd, args = {}, transfer = []) {
    if (this.dead) return Promise.reject(new Died('gradient worker is gone'));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, cmd, ...args }, transfer);
    });
  }

  kill() {
    this.dead = true;
    this.#worker.terminate();
    for (const p of this.#pending.values()) p.reject(new Died('a gradient worker died'));
    this.#pending.clear();
  }
}

export class GradPool {
  #build; // the wasm build every worker loads: { module, wasmUrl } (wasm-build.js)
  #workers = []; // ready gradient workers, in slice order 1..k−1
  #want = 0; // gradient workers asked for (k − 1)
  #deaths = 0;
  #config = null; // the replicaConfig() the workers were built with
  #sab = null; // { params: Float32Array } on a SharedArrayBuffer, when isolated
  #batch = 0; // rows of a batch
  #used = 0; // workers of the last step (0: none since the last resize or new model)
  #split; // the core's gptSplitRows: B rows, k workers → [row0, rows, …]
  lost = 0; // gradient workers that died so far (for the page)

  /** `build`: the wasm build's { module (its JS glue's URL), wasmUrl }; `splitRows`: its
   *  gptSplitRows. */
  constructor(build, splitRows) {
    this.#build = { module: build.module, wasmUrl: build.wasmUrl };
    this.#split = splitRows;
  }

  /** Workers that computed the last step's gradients, the coordinator included (before
   *  the first step: those asked for). */
  get workers() {
    return this.#used || this.wanted;
  }

  /** True when weights and gradients travel in SharedArrayBuffers (an isolated page). */
  get shared() {
    return Boolean(this.#sab);
  }

  /** Workers asked for, the coordinator included (more than `workers` while they start). */
  get wanted() {
    return this.#want + 1;
  }

  /** Asks for k workers in all (k − 1 gradient workers besides the coordinator). */
  resize(k) {
    this.#want = Math.max(0, (k >>> 0) - 1);
    this.#deaths = 0;
    this.#used = 0;
    while (this.#workers.length > this.#want) this.#workers.pop().kill();
  }

  terminate() {
    this.resize(1);
  }

  /** One data-parallel training step of `lab` on its next batch; returns the batch's loss. */
  async step(lab) {
    lab.nextBatch();
    await this.#ready(lab);
    for (;;) {
      try {
        return await this.#once(lab);
      } catch (err) {
        if (!(err instanceof Died)) throw err;
        this.#bury();
        await this.#ready(lab); // the same batch again, with the workers left (and new ones)
      }
    }
  }

  /** Removes dead workers; gives a slot up after RESPAWNS deaths. */
  #bury() {
    const alive = this.#workers.filter((w) => !w.dead);
    const died = this.#workers.length - alive.length;
    this.lost += died;
    this.#deaths += died;
    if (this.#deaths >= RESPAWNS && this.#want > alive.length) {
      this.#want = alive.length;
      this.#deaths = 0;
    }
    this.#workers = alive;
  }

  /** Builds (or rebuilds for a new model) the gradient workers wanted. */
  async #ready(lab) {
    const config = lab.replicaConfig();
    if (config !== this.#config) {
      for (const w of this.#workers) w.kill();
      this.#workers = [];
      this.#config = config;
      this.#batch = JSON.parse(config).batch_size;
      this.#used = 0;
      this.#sab = null;
    }
    const n = lab.paramCount();
    if (globalThis.crossOriginIsolated && this.#want > 0 && !this.#sab) {
      this.#sab = { params: new Float32Array(new SharedArrayBuffer(4 * n)) };
      for (const w of this.#workers) await this.#share(w, n);
    }
    while (this.#workers.length < this.#want) {
      const w = new GradWorker();
      try {
        await w.call('init', { build: this.#build, config });
        if (this.#sab) await this.#share(w, n);
        this.#workers.push(w);
      } catch (err) {
        w.kill();
        if (!(err instanceof Died)) throw err; // a refused config is the caller's error
        this.#want = this.#workers.length; // this browser cannot start more workers
      }
    }
  }

  async #share(w, n) {
    w.shared = { grads: new Float32Array(new SharedArrayBuffer(4 * n)) };
    await w.call('share', { params: this.#sab.params.buffer, grads: w.shared.grads.buffer });
  }

  /** The step on the current batch: slices out, the coordinator's slice here, sums in order. */
  async #once(lab) {
    const flat = this.#split(this.#batch, this.#workers.length + 1);
    const slices = Array.from({ length: flat.length / 2 }, (_, i) => ({ row0: flat[2 * i], rows: flat[2 * i + 1] }));
    const workers = this.#workers.slice(0, slices.length - 1);
    this.#used = slices.length;
    const { x, y } = lab.batch();
    const t = x.length / this.#batch;
    const params = this.#sab ? null : lab.params();
    if (this.#sab) this.#sab.params.set(lab.params());
    const replies = workers.map((w, i) => {
      const { row0, rows } = slices[i + 1];
      const part = { x: x.slice(row0 * t, (row0 + rows) * t), y: y.slice(row0 * t, (row0 + rows) * t) };
      const p = params && (i === workers.length - 1 ? params : params.slice());
      const msg = { ...part, rows, batchRows: this.#batch, ...(p ? { params: p } : {}) };
      return w.call('grads', msg, [part.x.buffer, part.y.buffer, ...(p ? [p.buffer] : [])]);
    });
    // their slices run while the coordinator does slice 0
    let lossSum = lab.sliceGrads(slices[0].row0, slices[0].rows);
    const done = await Promise.all(replies);
    done.forEach((r, i) => {
      lab.addGrads(workers[i].shared ? workers[i].shared.grads : r.grads);
      lossSum += r.lossSum;
    });
    return lab.applyStep(lossSum);
  }
}
