// The page's side of the GPT worker (gpt-worker.js documents the protocol): one request
// = one promise; the loop's events go to the listener given to the constructor.

export class GptClient {
  #worker;
  #next = 1;
  #pending = new Map();

  /** `onEvent(msg)` receives the worker's events; a worker that dies (an uncaught error,
   *  a failed start) rejects every pending call and sends { event: 'stopped', reason:
   *  'crashed', message }: the page then needs a new GptClient. */
  constructor(onEvent) {
    this.#worker = new Worker(new URL('./gpt-worker.js', import.meta.url), { type: 'module' });
    this.#worker.onmessage = ({ data }) => {
      if (data.event) {
        onEvent(data);
        return;
      }
      const p = this.#pending.get(data.id);
      if (!p) return;
      this.#pending.delete(data.id);
      if (data.ok) p.resolve(data.result);
      else p.reject(new Error(data.error));
    };
    this.#worker.onerror = (e) => {
      e.preventDefault();
      const err = new Error(e.message || 'the GPT worker failed to start');
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
      onEvent({ event: 'stopped', reason: 'crashed', message: err.message });
    };
  }

  /** Sends `cmd` with `args`; resolves to its result or rejects with its message. */
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
