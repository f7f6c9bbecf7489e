// The list of saved runs of <attn-gpt-train> (gpt/run-saves.js keeps them): newest
// first, each with its name, model, corpus, step, val loss, when it was saved and a
// sparkline of its loss; resume, rename, download (.safetensors or the training state),
// delete (asked twice). It also says how much space the runs take, names damaged records
// (skipped; they can be deleted) and asks before the limit drops the oldest run.
//
//   const runs = runsView({ resume, rename, drop, download, dropOldest })
//   runs.el                       the panel        runs.paint(saves, widget)   draws it
//
// on.resume(rec), on.rename(id, name), on.drop(id), on.download(rec, 'state' | 'model'),
// on.dropOldest(yes).

import { h } from '../../ui/widget-base.js';
import { formatGrouped } from '../../ui/format.js';
import { MAX_RUNS } from '../../gpt/run-saves.js';
import { dateText, runName } from './gpt-train-saves.js';

const SPARK = { w: 96, h: 24 };
const NS = 'http://www.w3.org/2000/svg';

export const RUNS_CSS = `
  .runs ul { list-style: none; margin: 6px 0 0; padding: 0; display: grid; gap: 8px; }
  .runs li { border: 1px solid var(--_line); border-radius: 8px; padding: 6px 10px; display: grid; gap: 4px; }
  .runs .run-head { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; }
  .runs .run-name { font-weight: 600; overflow-wrap: anywhere; }
  .runs .run-facts { font-size: .85rem; font-variant-numeric: tabular-nums; }
  .runs .run-actions { display: flex; flex-wrap: wrap; gap: 6px; }
  .runs .run-actions button { font-size: .85rem; }
  .runs svg { margin-left: auto; width: ${SPARK.w}px; height: ${SPARK.h}px; flex: none; }
  .runs svg polyline { fill: none; stroke: var(--_accent); stroke-width: 1.5; }
  .runs .tag { font-size: .8rem; border-radius: 6px; padding: 0 6px; background: var(--_accent-soft); }
  .runs .ask { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; }
  .runs input.rename { min-width: 0; flex: 1 1 10rem; }
  .runs [hidden] { display: none; } /* last: over .ask's display */
`;

/** A loss sparkline of `points` ([[step, loss]…]), or nothing for fewer than two. */
function sparkline(points, label) {
  if (points.length < 2) return null;
  const pts = points.length > 60 ? points.filter((_, i) => i % Math.ceil(points.length / 60) === 0) : points;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const sx = (x) => (SPARK.w - 2) * ((x - x0) / (x1 - x0 || 1)) + 1;
  const sy = (y) => (SPARK.h - 2) * (1 - (y - y0) / (y1 - y0 || 1)) + 1;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${SPARK.w} ${SPARK.h}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const line = document.createElementNS(NS, 'polyline');
  line.setAttribute('points', pts.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' '));
  svg.append(line);
  return svg;
}

const megabytes = (n) => formatGrouped(n / 1e6, n < 1e7 ? 1 : 0);

/** "tiny · 1 layer × 32 · Tiny Shakespeare" of a record. */
function modelText(t, rec) {
  const c = rec.config ?? {};
  const shape = Number.isFinite(c.n_layer) && Number.isFinite(c.n_embd)
    ? t('gpt.runs.shape', { layers: c.n_layer, embd: c.n_embd }) : '';
  const corpus = t(rec.source === 'own' ? 'gpt.runs.ownText' : 'gpt.runs.defaultText');
  return [rec.preset && rec.preset !== 'custom' ? rec.preset : t('gpt.runs.custom'), shape, corpus].filter(Boolean).join(' · ');
}

export function runsView(on) {
  const el = h('div', { class: 'panel runs' });
  const title = h('h3');
  const space = h('p', { class: 'muted run-space' });
  const ask = h('div', { class: 'ask', role: 'alert', hidden: true });
  const damaged = h('ul', { class: 'damaged' });
  const list = h('ul', { class: 'run-list' });
  el.append(title, space, ask, list, damaged);
  let renaming = null; // the id whose name is being edited
  let deleting = null; // the id whose Delete asks again
  let last = null;

  const paint = (saves, widget) => {
    last = [saves, widget];
    const t = (k, v) => widget.t(k, v);
    const { runs, damaged: bad, usage, error } = saves.list;
    title.textContent = t('gpt.runs.title', { n: runs.length });
    space.textContent = error ? t('gpt.runs.unreadable')
      : runs.length === 0 ? t('gpt.runs.none')
        : usage ? t('gpt.runs.space', { mb: megabytes(usage.usage), quota: megabytes(usage.quota) }) : '';
    const old = saves.prompt;
    ask.hidden = !old;
    if (old) {
      ask.replaceChildren(h('span', {}, t('gpt.runs.limit', { max: MAX_RUNS, name: runName(widget, old), step: formatGrouped(old.step) })),
        h('button', { type: 'button', onclick: () => on.dropOldest(true) }, t('gpt.runs.dropOldest')),
        h('button', { type: 'button', onclick: () => on.dropOldest(false) }, t('gpt.runs.keepAll')));
    }
    const button = (text, onclick, cls) => h('button', { type: 'button', class: cls, onclick }, text);
    list.replaceChildren(...runs.map((rec) => {
      const name = runName(widget, rec);
      const here = rec.id === saves.run.id;
      const head = h('div', { class: 'run-head' },
        renaming === rec.id ? renameField(rec, name, t) : h('span', { class: 'run-name' }, name),
        here ? h('span', { class: 'tag' }, t('gpt.runs.onScreen')) : null,
        rec.kind === 'other' ? h('span', { class: 'tag' }, t('gpt.runs.otherVersion')) : null,
        sparkline(rec.plot.val.length > 1 ? rec.plot.val : rec.plot.batch, t('gpt.runs.curve', { name })));
      const val = rec.eval?.val ?? rec.plot.val.at(-1)?.[1];
      const facts = h('div', { class: 'run-facts muted' }, [modelText(t, rec),
        t('gpt.runs.facts', { step: formatGrouped(rec.step), val: Number.isFinite(val) ? formatGrouped(val, 3) : '–',
          at: dateText(widget, rec.savedAt) })].join(' · '));
      const actions = deleting === rec.id
        ? [h('span', {}, t('gpt.runs.reallyDelete', { name })),
          button(t('gpt.runs.delete'), () => { deleting = null; on.drop(rec.id); }, 'danger'),
          button(t('gpt.runs.cancel'), () => { deleting = null; repaint(); })]
        : [rec.kind === 'run' && !here ? button(t('gpt.runs.resume'), () => on.resume(rec), 'primary') : null,
          button(t('gpt.runs.rename'), () => { renaming = rec.id; repaint(); focusRename(); }),
          rec.kind === 'run' ? button(t('gpt.runs.model'), () => on.download(rec, 'model')) : null,
          button(t('gpt.runs.state'), () => on.download(rec, 'state')),
          button(t('gpt.runs.delete'), () => { deleting = rec.id; repaint(); })];
      return h('li', { 'data-run': rec.id }, head, facts, h('div', { class: 'run-actions' }, ...actions.filter(Boolean)));
    }));
    damaged.replaceChildren(...bad.map(({ id, why }) => h('li', { 'data-damaged': id },
      h('span', {}, t('gpt.runs.damaged', { id, why: t(`gpt.runs.why.${why}`) })),
      h('div', { class: 'run-actions' }, button(t('gpt.runs.delete'), () => on.drop(id))))));
  };

  const repaint = () => last && paint(...last);
  const focusRename = () => el.querySelector('input.rename')?.focus();

  function renameField(rec, name, t) {
    const input = h('input', { type: 'text', class: 'rename', maxlength: '80', value: name, 'aria-label': t('gpt.runs.nameLabel') });
    const done = (keep) => {
      renaming = null;
      const v = input.value.trim();
      if (keep && v && v !== name) on.rename(rec.id, v);
      else repaint();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') done(true);
      else if (e.key === 'Escape') done(false);
    });
    return h('span', { class: 'ask' }, input,
      h('button', { type: 'button', onclick: () => done(true) }, t('gpt.runs.saveName')),
      h('button', { type: 'button', onclick: () => done(false) }, t('gpt.runs.cancel')));
  }

  return { el, paint };
}
