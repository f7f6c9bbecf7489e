// "Nothing lost" for "Train a GPT", apart from the screen: every run is its own record in
// IndexedDB (store.js), saved every SAVE_MS while it trains, on Pause and when the tab is
// hidden, and written only by the trainer that owns it (its Web Lock, run-lock.js), so two
// trainers (two tabs, or two trainers of one page) never write one run.
// On a fresh page, or after the worker crashed, a run is offered: the one this tab was
// training (sessionStorage survives a reload), else the newest. One that another trainer
// is training is offered to look at or to take over. The list of saved runs (newest
// first, with their space) lets the learner resume, rename, download and delete them.
// The trainer's screen draws all this (widgets/gpt/gpt-train-saves.js, gpt-train-runs.js).
//
//   const saves = new RunSaves({ snapshot, changed })
//     snapshot() → a record for putRun (runRecord), or null when there is nothing to save
//     changed()  → the note, the offer or the list changed
//   saves.run               { id, name, startedAt } of the run on screen (newRun, adopt)
//   saves.claim()           → { owned, stored, newer }: claims the run (its lock) if free
//   saves.owned             whether this trainer holds the run     saves.release() lets it go
//   saves.handOver(rec)     → the save to go on from, once run rec's trainer let it go
//   saves.onAskedToPause(fn)  fn() when another trainer asks for the run this one holds
//   saves.busy(id)          → whether another trainer holds run `id` now
//   saves.start() / stop()  periodic saves          saves.saveNow() → done when saved
//   saves.saved             { step, savedAt } | { error } | null: this run's last save here
//   saves.offer             { rec, busy } on offer, or null; check(afterCrash) finds one
//   saves.show(rec, busy)   offers rec              saves.take() → it, no longer offered
//   saves.list              { runs, damaged, usage, error }; refresh() reads it again
//   saves.prompt            the oldest run, when there are more than MAX_RUNS (dropOldest)

import { dropRun, listRuns, loadSave, putRun, renameRun, usage } from './store.js';
import { askToPause, claim, heldElsewhere, onAskToPause, waitFor } from './run-lock.js';

/** How often a running model is saved to IndexedDB (and on every Pause). */
export const SAVE_MS = 10000;
/** How many runs are kept before the page asks to drop the oldest. */
export const MAX_RUNS = 8;
/** A run saved this recently is never dropped to make room (another tab may train it). */
const RECENT_MS = 60000;
const TAB_RUN = 'attention-playground.gpt.run'; // sessionStorage: this tab's run

const newId = () => `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function tabRun(id) {
  try {
    if (id === undefined) return sessionStorage.getItem(TAB_RUN);
    sessionStorage.setItem(TAB_RUN, id);
  } catch {
    // no session storage: a reload offers the newest run instead
  }
  return null;
}

export class RunSaves {
  saved = null;
  offer = null;
  list = { runs: [], damaged: [], usage: null, error: null };
  prompt = null;
  run = { id: newId(), name: null, startedAt: Date.now() };
  #lock = null;
  #timer = 0;
  #saving = null;
  #again = null; // the save that follows the one in flight
  #snapshot;
  #changed;
  #declined = new Set(); // oldest runs the learner chose to keep

  constructor({ snapshot, changed }) {
    this.#snapshot = snapshot;
    this.#changed = changed;
  }

  /** A new run on screen (not saved until it has trained). */
  newRun() {
    this.release();
    this.run = { id: newId(), name: null, startedAt: Date.now() };
    this.saved = null;
    this.#changed();
  }

  /** Saved run `rec` is the one on screen now. */
  adopt(rec) {
    if (rec.id !== this.run.id) this.release();
    this.run = { id: rec.id, name: rec.name, startedAt: rec.startedAt };
    this.saved = { step: rec.step, savedAt: rec.savedAt };
    tabRun(rec.id);
    this.#changed();
  }

  // ---- who trains the run: its lock (run-lock.js) ----

  /** Claims the run on screen, unless this trainer holds it already: `owned` says whether
   *  it does now. `stored` is the run's save in storage, if one can be read, and `newer`
   *  whether another trainer saved it after this one did, so the caller goes on from there. */
  async claim() {
    if (this.#lock) return { owned: true, stored: null, newer: false };
    const { stored, newer } = await this.#storedSave();
    // a claim that raced this one may hold it by now: claiming it again would fail and lose it
    if (!this.#lock) this.#lock = await claim(this.run.id);
    return { owned: Boolean(this.#lock), stored, newer };
  }

  release() {
    this.#lock?.release();
    this.#lock = null;
  }

  get owned() {
    return Boolean(this.#lock);
  }

  /** This run's stored save, and whether another trainer saved it after this one did. */
  async #storedSave() {
    try {
      const stored = await loadSave(this.run.id);
      return { stored, newer: Boolean(stored && stored.savedAt > (this.saved?.savedAt ?? 0)) };
    } catch {
      return { stored: null, newer: false };
    }
  }

  /** Asks the trainer of run `rec` to pause and waits until it has let the run go (its
   *  Pause saves first); resolves to that save, or to `rec` when storage cannot say. The
   *  lock is let go at once: starting the run claims it again. */
  async handOver(rec) {
    const lock = waitFor(rec.id);
    askToPause(rec.id);
    (await lock)?.release();
    try {
      return (await loadSave(rec.id)) ?? rec;
    } catch {
      return rec; // storage gone: the offered save it is
    }
  }

  /** Calls `fn()` whenever another trainer asks for the run this one holds now; returns
   *  the unsubscribe. */
  onAskedToPause(fn) {
    return onAskToPause((id) => {
      if (id === this.run.id && this.owned) fn();
    });
  }

  /** Whether another trainer holds run `id` now. */
  busy(id) {
    return heldElsewhere(id);
  }

  // ---- saving ----

  start() {
    clearInterval(this.#timer);
    this.#timer = setInterval(() => this.saveNow(), SAVE_MS);
  }

  stop() {
    clearInterval(this.#timer);
    this.#timer = 0;
  }

  /** Saves the run now if this trainer owns it. One save at a time: a call while one is
   *  in flight gets a save that follows it (that one read the model before this call:
   *  Pause's save must hold the paused step), and calls meanwhile share that one. */
  saveNow() {
    if (this.#saving) {
      this.#again ??= this.#saving.then(() => {
        this.#again = null;
        return this.saveNow();
      });
      return this.#again;
    }
    this.#saving = (async () => {
      try {
        if (!this.#lock) return;
        const rec = await this.#snapshot();
        if (!rec) return;
        const first = !this.saved || this.saved.error;
        const saved = { ...rec, ...this.run };
        await putRun(saved);
        this.saved = { step: rec.step, savedAt: rec.savedAt };
        tabRun(this.run.id);
        if (this.offer?.rec.id === this.run.id) this.offer = null;
        // The list shows this save's step at once (not the step it was first listed at).
        if (first) await this.refresh();
        else await this.#listed(saved);
      } catch (err) {
        // a dead worker is no storage fault: the last save stands (the page offers it)
        if (!err?.crashed) this.saved = { error: err };
      } finally {
        this.#saving = null;
      }
      this.#changed();
    })();
    return this.#saving;
  }

  // ---- the list of saved runs ----

  /** Reads the list of saved runs again (and the space they take). */
  async refresh() {
    try {
      const { runs, damaged } = await listRuns();
      this.list = { runs, damaged, usage: await usage(), error: null };
    } catch (err) {
      this.list = { runs: [], damaged: [], usage: null, error: err };
    }
    this.prompt = await this.#oldest();
    this.#changed();
  }

  /** The list with run `rec` as just saved, newest first, and the space taken now: what
   *  refresh() would read, without reading every run's weights again at each save. */
  async #listed(rec) {
    if (this.list.error) return;
    const runs = [{ ...rec, kind: 'run' }, ...this.list.runs.filter((r) => r.id !== rec.id)];
    runs.sort((a, b) => b.savedAt - a.savedAt);
    this.list = { ...this.list, runs, usage: await usage() };
  }

  /** The run the limit would drop: the oldest, unless saved in the last minute, trained
   *  somewhere now, or kept by the learner. */
  async #oldest() {
    const { runs } = this.list;
    if (runs.length <= MAX_RUNS) return null;
    const rec = runs.at(-1);
    if (rec.id === this.run.id || Date.now() - rec.savedAt < RECENT_MS || this.#declined.has(rec.id)) return null;
    return (await heldElsewhere(rec.id)) ? null : rec;
  }

  async dropOldest(yes) {
    const rec = this.prompt;
    this.prompt = null;
    if (!rec) return;
    if (yes) await this.drop(rec.id);
    else this.#declined.add(rec.id);
    this.#changed();
  }

  async drop(id) {
    try {
      await dropRun(id);
    } catch {
      // gone already, or storage off: the list says what is there
    }
    if (this.offer?.rec.id === id) this.offer = null;
    if (id === this.run.id) this.saved = null;
    await this.refresh();
  }

  async rename(id, name) {
    try {
      await renameRun(id, name);
      if (id === this.run.id) this.run.name = name;
    } catch (err) {
      this.list.error = err;
    }
    await this.refresh();
  }

  // ---- the run on offer ----

  /** Offers a stored run: this tab's (or, after a crash, the one on screen), else the
   *  newest; `busy` when another trainer trains it now. Not on a page that saved since. */
  async check(afterCrash = false) {
    await this.refresh();
    if (!afterCrash && this.saved) return;
    const mine = afterCrash ? this.run.id : tabRun();
    const runs = this.list.runs.filter((r) => r.kind === 'run');
    const rec = runs.find((r) => r.id === mine) ?? runs[0];
    if (rec) this.show(rec, await heldElsewhere(rec.id));
  }

  show(rec, busy = false) {
    this.offer = { rec, busy };
    this.#changed();
  }

  take() {
    const rec = this.offer?.rec ?? null;
    this.offer = null;
    this.#changed();
    return rec;
  }

  async discard() {
    const rec = this.take();
    if (rec) await this.drop(rec.id);
  }
}

/** The record of a run (store.js lists its fields): `state` = the worker's state bytes at
 *  `step`; the curves are cut at `step`, the points after it not being in it. */
export function runRecord(state, step, run) {
  const { corpus, preset, config, causal, plot, sample, last } = run;
  for (const k of Object.keys(plot)) plot[k] = plot[k].filter(([s]) => s <= step);
  return {
    state, step, savedAt: Date.now(), ...corpus, preset, config, causal, plot, sample,
    sampleStep: last.sampleStep ?? null, eval: last.eval ?? null,
  };
}
