// The model "Train a GPT" shows, apart from how it is shown: the worker it lives in (a
// GptClient), what it is doing, the worker's info on it, the numbers of its run and the
// text it trains on. The trainer element and its helpers (widgets/gpt/gpt-train*.js)
// share this one object, so none of them keeps a copy that could fall behind.
//
//   status  starting → idle (a fresh model, settings editable) → running ⇄ paused;
//           loaded (a file's model); building, resuming (waiting for the worker);
//           invalid (settings the core refused); crashed (the worker died)
//   info    the worker's info (worker.js), or null before a model
//   last    { step, loss, stepsPerSec, tokensPerSec } and, once known, engine, eval
//           ({ train, val }) and sampleStep
//   corpus  { source: 'default' | 'own' | 'repeat', text (own text only, else null: the
//           others are made again, the same) }
//
// Every model built, loaded or restored is a generation (begin()): what the worker answers
// is used only while its generation is current(gen), so a late reply for an older model (a
// Reset while a Load was in flight) never lands on the new one.

import { GptClient } from './client.js';

const FRESH = Object.freeze({ step: 0, loss: NaN, stepsPerSec: NaN, tokensPerSec: NaN });

export class TrainSession {
  status = 'starting';
  info = null;
  last = { ...FRESH };
  corpus = { source: 'default', text: null };
  client = null;
  #gen = 0;
  #onEvent;

  /** `onEvent(e)` gets the worker's events (GptClient's listener). */
  constructor(onEvent) {
    this.#onEvent = onEvent;
  }

  /** A worker of its own: the first, or a new one for a crashed one (which ends). */
  connect() {
    this.client?.terminate();
    this.client = new GptClient(this.#onEvent);
    return this.client;
  }

  disconnect() {
    this.client?.terminate();
    this.client = null;
  }

  /** A new model comes: what is in flight for the older one is stale from now. */
  begin() {
    return ++this.#gen;
  }

  current(gen) {
    return gen === this.#gen;
  }

  /** The model of `info` is the one on screen from now, with `status`, on `text` from `source`. */
  adopt(info, status, source, text) {
    this.corpus = { source, text: source === 'own' ? text : null };
    this.info = info;
    this.status = status;
  }

  /** A run starting over: no numbers. */
  clear() {
    this.last = { ...FRESH };
  }

  /** The numbers of saved run `rec`, at `step`: its last loss, estimate and sample step. */
  restore(rec, step) {
    this.last = { ...FRESH, step, loss: rec.plot?.batch?.at(-1)?.[1] ?? NaN,
      eval: rec.eval ?? undefined, sampleStep: rec.sampleStep ?? undefined };
  }

  /** The numbers a worker event brings ('progress', 'eval', 'sample'). */
  note(e) {
    if (e.event === 'progress') {
      Object.assign(this.last, { step: e.step, loss: e.loss, stepsPerSec: e.stepsPerSec, tokensPerSec: e.tokensPerSec, engine: e.engine });
    } else if (e.event === 'eval') this.last.eval = { train: e.train, val: e.val };
    else if (e.event === 'sample') this.last.sampleStep = e.step;
  }

  /** The model's training state to save ({ bytes, step }, worker.js `state`), or null:
   *  nothing trained, or another model (or worker) by the time the worker answered. */
  async trainedState() {
    if (!this.info?.trainable || !this.client || this.last.step <= 0) return null;
    const gen = this.#gen;
    const client = this.client;
    const state = await client.call('state');
    return this.current(gen) && client === this.client ? state : null;
  }
}
