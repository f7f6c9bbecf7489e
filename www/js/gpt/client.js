// The page's side of the GPT worker (worker.js documents the protocol): one request
// = one promise; the loop's events go to the listener given to the constructor.

import { fromOtherOrigin, viaBlob } from '../core/cross-origin-worker.js';

/** An Error from a worker reply or event ({ error | message, code?, params? }), with the
 *  core's `code` and `params` back on it (message() in widget-base.js says it). */
export function workerError(data) {
  const err = new Error(data.error ?? data.message ?? '');
  if (typeof data.code === 'string') Object.assign(err, { code: data.code, params: data.params ?? {} });
  return err;
}

/** `url` with ?build=`build`. */
function withBuild(url, build) {
  url.searchParams.set('build', build);
  return url;
}

// Each worker is started by its literal URL, which a bundler (Vite, webpack: the npm
// package) recognises and builds as a worker; from a CDN through a blob:; a forced build
// (tests, benchmarks) as its ?build=.
function startGpt(build) {
  if (fromOtherOrigin(import.meta.url)) return viaBlob(new URL('./worker.js', import.meta.url).href, { name: build ?? '' });
  if (build) return new Worker(withBuild(new URL('./worker.js', import.meta.url), build), { type: 'module' });
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

function startGpt2(build) {
  if (fromOtherOrigin(import.meta.url)) return viaBlob(new URL('./gpt2-worker.js', import.meta.url).href, { name: build ?? '' });
  if (build) return new Worker(withBuild(new URL('./gpt2-worker.js', import.meta.url), build), { type: 'module' });
  return new Worker(new URL('./gpt2-worker.js', import.meta.url), { type: 'module' });
}

export class GptClient {
  #worker;
  #next = 1;
  #pending = new Map();

  /** `onEvent(msg)` receives the worker's events; a worker that dies (an uncaught error,
   *  a failed start) rejects every pending call (an error with `crashed: true`) and sends { event: 'stopped', reason:
   *  'crashed', message }: the page then needs a new GptClient. `build` ('fma' or
   *  'simd128') forces a wasm build; by default the worker picks the fastest (wasm-build.js).
   *  Without one the worker's URL and options are the literals a bundler (Vite, webpack: the
   *  npm package) recognises and builds as a worker; a forced build goes as its ?build=.
   *  `worker`: one the host started itself (the notebook's GPT-2, whose script has no URL). */
  constructor(onEvent, { build, gpt2 = false, worker } = {}) {
    this.#worker = worker ?? (gpt2 ? startGpt2(build) : startGpt(build));
    this.#worker.onmessage = ({ data }) => {
      if (data.event) {
        onEvent(data);
        return;
      }
      const p = this.#pending.get(data.id);
      if (!p) return;
      this.#pending.delete(data.id);
      if (data.ok) p.resolve(data.result);
      else p.reject(workerError(data));
    };
    this.#worker.onerror = (e) => {
      e.preventDefault();
      const err = Object.assign(new Error(e.message || 'the training could not start'), { crashed: true });
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
      onEvent({ event: 'stopped', reason: 'crashed', message: err.message });
    };
  }

  /** Sends `cmd` with `args`; resolves to its result or rejects with its error. */
  call(cmd, args = {}, transfer = []) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, cmd, ...args }, transfer);
    });
  }

  terminate() {
    this.#worker.terminate();
  }
}
