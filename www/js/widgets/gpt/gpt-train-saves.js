// "Nothing lost" for <attn-gpt-train>: every run is its own record in IndexedDB
// (gpt-store.js), saved every SAVE_MS while it trains, on Pause and when the tab is
// hidden, and written only by the trainer that owns it (its Web Lock, gpt-run-lock.js).
// On a fresh page, or after the worker crashed, a run is offered: the one this tab was
// training (sessionStorage survives a reload), else the newest. One that another trainer
// is training is offered to look at or to take over. The list of saved runs (newest
// first, with their space) lets the learner resume, rename, download and delete them.
//
//   const saves = new RunSaves({ snapshot, changed })
//     snapshot() → a record for putRun (runRecord), or null when there is nothing to save
//     changed()  → the note, the offer or the list changed (paintSaves draws them)
//   saves.run               { id, name, startedAt } of the run on screen (newRun, adopt)
//   saves.own() → whether this trainer owns the run now (claims its lock if free)
//   saves.release()         lets the run go (after its last save)
//   saves.start() / stop()  periodic saves          saves.saveNow() → done when saved
//   saves.saved             { step, savedAt } | { error } | null: this run's last save here
//   saves.offer             { rec, busy } on offer, or null; check(afterCrash) finds one
//   saves.take()            the offered record, no longer offered
//   saves.list              { runs, damaged, usage, error }; refresh() reads it again
//   saves.prompt            the oldest run, when there are more than MAX_RUNS (dropOldest)

import { message } from '../../ui/widget-base.js';
import { dropRun, listRuns, loadSave, putRun, renameRun, usage } from '../../gpt/store.js';
import { claim, heldElsewhere } from '../../gpt/run-lock.js';
import { formatGrouped } from '../../ui/format.js';
import { hhmm } from './gpt-train-view.js';

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

  async own() {
    if (!this.#lock) this.#lock = await claim(this.run.id);
    return Boolean(this.#lock);
  }

  release() {
    this.#lock?.release();
    this.#lock = null;
  }

  get owned() {
    return Boolean(this.#lock);
  }

  /** This run's stored save, and whether another trainer saved it after this one did. */
  async storedSave() {
    try {
      const stored = await loadSave(this.run.id);
      return { stored, newer: Boolean(stored && stored.savedAt > (this.saved?.savedAt ?? 0)) };
    } catch {
      return { stored: null, newer: false };
    }
  }

  start() {
    clearInterval(this.#timer);
    this.#timer = setInterval(() => this.saveNow(), SAVE_MS);
  }

  stop() {
    clearInterval(this.#timer);
    this.#timer = 0;
  }

  /** Saves the run now if this trainer owns it (one save at a time: a second call gets
   *  the first's promise). */
  saveNow() {
    this.#saving ??= (async () => {
      try {
        if (!this.#lock) return;
        const rec = await this.#snapshot();
        if (!rec) return;
        const first = !this.saved || this.saved.error;
        await putRun({ ...rec, ...this.run });
        this.saved = { step: rec.step, savedAt: rec.savedAt };
        tabRun(this.run.id);
        if (this.offer?.rec.id === this.run.id) this.offer = null;
        if (first) await this.refresh();
      } catch (err) {
        this.saved = { error: err };
      } finally {
        this.#saving = null;
      }
      this.#changed();
    })();
    return this.#saving;
  }

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

/** The record of a run (gpt-store.js lists its fields): `state` = the worker's state
 *  bytes at `step`; the curves are cut at `step`, the points after it not being in it. */
export function runRecord(state, step, run) {
  const { corpus, preset, config, causal, plot, sample, last } = run;
  for (const k of Object.keys(plot)) plot[k] = plot[k].filter(([s]) => s <= step);
  return {
    state, step, savedAt: Date.now(), ...corpus, preset, config, causal, plot, sample,
    sampleStep: last.sampleStep ?? null, eval: last.eval ?? null,
  };
}

/** Why storage failed, in the widget's language. */
export const storeFault = (widget, err) =>
  (err.fault ? widget.t(`gpt.store.${err.fault}`, { detail: err.detail }) : message(err, widget.language));

/** A date and time (ms since 1970) in the widget's language, e.g. "2 Dec 2026, 23:29". */
export function dateText(widget, ms) {
  const when = new Date(ms);
  return Number.isFinite(when.getTime())
    ? when.toLocaleString(widget.language === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '–';
}

/** The name a run shows: its own, else when it started. */
export function runName(widget, run) {
  return run.name || widget.t('gpt.runs.untitled', { at: dateText(widget, run.startedAt) });
}

/** Draws the note on this run's last save and the offer of a stored one. */
export function paintSaves(u, widget, saves) {
  const s = saves.saved;
  u.saveNote.hidden = !s;
  if (s) {
    u.saveNote.textContent = s.error ? widget.t('gpt.saveFailed', { msg: storeFault(widget, s.error) })
      : widget.t('gpt.savedNote', { step: formatGrouped(s.step), time: hhmm(s.savedAt) });
  }
  const o = saves.offer;
  u.offer.hidden = !o;
  if (o) {
    const vars = { step: formatGrouped(o.rec.step), time: hhmm(o.rec.savedAt), name: runName(widget, o.rec) };
    u.offerText.textContent = widget.t(o.busy ? 'gpt.busyOffer' : 'gpt.resumeOffer', vars);
    u.offerResume.hidden = o.busy;
    u.offerDiscard.hidden = o.busy;
    u.offerLook.hidden = !o.busy;
    u.offerTake.hidden = !o.busy;
  }
  u.runs.paint(saves, widget);
}
