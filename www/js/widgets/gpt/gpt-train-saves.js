// The saves of <attn-gpt-train> on its screen: the note on this run's last save, the offer
// of a stored run, and how a run is named and dated in the page's language. The saves
// themselves (when, which run, who owns it) are gpt/run-saves.js's; their list is drawn by
// gpt-train-runs.js.

import { message } from '../../ui/widget-base.js';
import { formatDate, formatGrouped } from '../../ui/format.js';
import { hhmm } from './gpt-train-view.js';

/** Why storage failed, in the widget's language. */
export const storeFault = (widget, err) =>
  (err.fault ? widget.t(`gpt.store.${err.fault}`, { detail: err.detail }) : message(err, widget.language));

/** A date and time (ms since 1970) in the widget's language, in the page's one format
 *  (format.js formatDate), e.g. "2 Dec 2026, 23:29". */
export function dateText(widget, ms) {
  return formatDate(ms, widget.language, { time: true });
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
