// "Nothing lost" for <attn-gpt-train>: while a run trains, its full state (weights, AdamW
// moments, step, sampler), curves, sample and settings are saved to IndexedDB
// (gpt-store.js) every SAVE_MS, on Pause and when the tab is hidden; on a fresh page, or
// after the worker crashed, the last save is offered ("Resume training from step N
// (saved HH:MM)?", Resume / Discard). The widget rebuilds the run from the record.
//
//   const saves = new RunSaves({ snapshot, changed })
//     snapshot() → a record for putSave (runRecord), or null when there is nothing to save
//     changed()  → the saves' note or offer changed (paintSaves draws them)
//   saves.start() / stop()   periodic saves          saves.saveNow() → done when saved
//   saves.saved              { step, savedAt } | { error } | null: this page's last save
//   saves.offer              the stored record on offer, or null
//   saves.check(afterCrash)  offers the stored record (a fresh page: unless it saved since)
//   saves.take()             the offered record, no longer offered
//   saves.show(rec)          offers `rec` (again)      saves.discard()  drops the stored one
//   saves.resumed(rec)       the run of `rec` goes on  saves.forget()   a new run

import { message } from '../widget-base.js';
import { dropSave, loadSave, putSave } from '../gpt-store.js';
import { formatGrouped } from '../format.js';
import { hhmm } from './gpt-train-view.js';

/** How often a running model is saved to IndexedDB (and on every Pause). */
export const SAVE_MS = 10000;

export class RunSaves {
  saved = null;
  offer = null;
  #timer = 0;
  #saving = null;
  #snapshot;
  #changed;

  constructor({ snapshot, changed }) {
    this.#snapshot = snapshot;
    this.#changed = changed;
  }

  start() {
    clearInterval(this.#timer);
    this.#timer = setInterval(() => this.saveNow(), SAVE_MS);
  }

  stop() {
    clearInterval(this.#timer);
    this.#timer = 0;
  }

  /** Saves the run now (one save at a time: a second call gets the first's promise). */
  saveNow() {
    this.#saving ??= (async () => {
      try {
        const rec = await this.#snapshot();
        if (!rec) return;
        await putSave(rec);
        this.saved = { step: rec.step, savedAt: rec.savedAt };
        this.offer = null; // the newest save is this run's
      } catch (err) {
        this.saved = { error: err };
      } finally {
        this.#saving = null;
      }
      this.#changed();
    })();
    return this.#saving;
  }

  async check(afterCrash = false) {
    try {
      const rec = await loadSave();
      if (rec && (afterCrash || !this.saved)) this.show(rec);
    } catch {
      // no storage (private window, disabled): nothing to offer, nothing lost here
    }
  }

  show(rec) {
    this.offer = rec;
    this.#changed();
  }

  take() {
    const rec = this.offer;
    this.offer = null;
    this.#changed();
    return rec;
  }

  async discard() {
    this.take();
    try {
      await dropSave();
    } catch {
      // nothing stored, nothing to drop
    }
  }

  resumed(rec) {
    this.saved = { step: rec.step, savedAt: rec.savedAt };
    this.#changed();
  }

  /** A new run: the note speaks of its saves (the last one stays stored). */
  forget() {
    this.saved = null;
    this.#changed();
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

/** Draws the note on this page's last save and the offer of a stored one. */
export function paintSaves(u, widget, saves) {
  const s = saves.saved;
  u.saveNote.hidden = !s;
  if (s) {
    const why = (err) => (err.fault ? widget.t(`gpt.store.${err.fault}`, { detail: err.detail }) : message(err, widget.language));
    u.saveNote.textContent = s.error ? widget.t('gpt.saveFailed', { msg: why(s.error) })
      : widget.t('gpt.savedNote', { step: formatGrouped(s.step), time: hhmm(s.savedAt) });
  }
  const rec = saves.offer;
  u.offer.hidden = !rec;
  if (rec) u.offerText.textContent = widget.t('gpt.resumeOffer', { step: formatGrouped(rec.step), time: hhmm(rec.savedAt) });
}
