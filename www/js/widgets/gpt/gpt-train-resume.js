// Saved runs back on the screen of <attn-gpt-train>: resume one, look at one another
// trainer trains, take one over; and before any run trains, make sure this trainer owns it
// and goes on from its newest save. The flows work on the element's host (gpt-train.js);
// what they ask of storage and of the run locks is gpt/run-saves.js's.

import { message } from '../../ui/widget-base.js';
import { formatGrouped } from '../../ui/format.js';
import { runName } from './gpt-train-saves.js';

/** Whether this trainer owns its run (claimed now if free). A run another trainer
 *  trains is offered to look at or take over; one another trainer saved since this
 *  one paused goes on from that save. */
export async function claimRun(host) {
  const { session: s, saves, widget } = host;
  const { owned, stored, newer } = await saves.claim();
  if (!owned) {
    // the run on screen is this run: offered as it is here when its save cannot be read
    const here = { ...saves.run, step: s.last.step, savedAt: saves.saved?.savedAt ?? Date.now() };
    saves.show(stored ?? here, true);
    host.say(() => widget.t('gpt.trainedElsewhere'));
    return false;
  }
  if (newer) {
    const at = s.last.step;
    if (!(await openRun(host, stored, 'paused'))) return false;
    host.say(() => widget.t('gpt.wentOnFrom', { step: formatGrouped(stored.step), was: formatGrouped(at) }));
  }
  return true;
}

/** Resumes saved run `rec` and trains on; one another trainer trains is offered instead. */
export async function resumeRun(host, rec) {
  if (!rec) return;
  if (await host.saves.busy(rec.id)) {
    host.saves.show(rec, true);
    return;
  }
  if (await openRun(host, rec, 'paused')) await host.widget.start();
}

/** Opens the run on offer without training it: another trainer owns it. */
export async function lookAtRun(host) {
  const { saves, widget } = host;
  const rec = saves.take();
  if (!rec?.state || !(await openRun(host, rec, 'paused'))) return;
  host.say(() => widget.t('gpt.looking', { name: runName(widget, rec) }));
}

/** Asks the trainer of the run on offer to pause, and trains the run here from the save
 *  its Pause makes. */
export async function takeOverRun(host) {
  const { session: s, saves, widget } = host;
  const offered = saves.take();
  if (!offered) return;
  const gen = host.begin();
  host.say(() => widget.t('gpt.askingToPause', { name: runName(widget, offered) }));
  const rec = await saves.handOver(offered);
  if (!s.current(gen)) return;
  // no save to go on from (only the run on screen is offered so): it trains on as it is
  if (!rec.state || (await openRun(host, rec, 'paused'))) await widget.start();
}

/** Rebuilds saved run `rec` (settings, model, optimizer, curves, sample) with `status`;
 *  true when it is on screen. A record that does not restore stays on offer. */
async function openRun(host, rec, status) {
  const { session: s, saves, ui, widget } = host;
  const gen = host.begin();
  s.status = 'resuming';
  host.paint();
  try {
    const text = await runText(host, rec);
    host.stopRebuild(); // the corpus arriving meanwhile scheduled a fresh model
    ui.settings.restore(rec);
    ui.causal.checked = !rec.causal;
    const bytes = rec.state.slice().buffer;
    const info = await s.client.call('restore', { bytes, text }, [bytes]);
    if (!s.current(gen)) return false;
    host.adopt(info, status, rec.source, text);
    ui.settings.locked = true;
    showRun(host, rec, info.steps);
    saves.adopt(rec);
    host.say(null);
    host.paint();
    return true;
  } catch (err) {
    if (!s.current(gen)) return false;
    host.say(() => widget.t('gpt.resumeFailed', { msg: message(err, widget.language) }));
    saves.show(rec); // still there: Discard, or try again
    await widget.reset();
    return false;
  }
}

/** The curves, sample and numbers of saved run `rec`, at `step`. */
function showRun(host, rec, step) {
  const { plot, sample, heads } = host.ui;
  plot.clear();
  // the loss curves, and the heads grid's (each plot draws the kinds it has)
  for (const [k, pts] of Object.entries(rec.plot ?? {})) for (const [x, y] of pts) plot.add(k, x, y);
  heads.clear(); // before the grid of this model arrives (adopt asked the worker for it)
  heads.curves = rec.plot ?? {};
  sample.textContent = rec.sample ?? '';
  host.session.restore(rec, step);
}

/** The text saved run `rec` trained on: its own, the repeated strings (made again by the
 *  core, the same), or the default corpus once it is here. */
export async function runText(host, rec) {
  if (rec.source === 'own') return rec.text;
  if (rec.source === 'repeat') return host.ui.settings.repeatText();
  await host.ui.settings.whenReady();
  return host.ui.settings.defaultText;
}
