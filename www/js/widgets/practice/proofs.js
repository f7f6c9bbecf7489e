// <attn-proofs>: §7, three checks that the mask and the hand-written backward work,
// run in the page on random inputs: (1) the manual head equals a naive loop version,
// (2) finite differences agree with the analytic gradients of Q, K and V,
// (3) changing future values moves earlier outputs by exactly 0 with the mask,
// and by a lot without it.
//
//   state: { seed, from }   numbers: manualVsNaive, gradCheck, futureChange (T = 4, d = 8)
//   The four output grids explain themselves (explainFutureChange with the
//   same seed and `from`): out = weights · v, with that grid's mask and values.

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { adoptTex, tex, usePrebuilt } from '../../ui/tex.js';
import { proofs as TYPESET } from '../../ui/formulas.gen.js';
import { checkInt as int, checkObject as object } from '../../ui/cell-checks.js';
import { formatFixed as num, formatSci as err } from '../../ui/format.js';
import { fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS as B_CSS } from '../base/lesson-css.js';
import { heatmap as matrix, showMatrix as show } from '../base/matrix-block.js';
import { explainGrids } from '../explain/explain-grids.js';

usePrebuilt(TYPESET);

const T = 4;
const D = 8;
const ROWS = ['t0', 't1', 't2', 't3'];
const COLS = ['0', '1', '2', '3', '4', '5', '6', '7'];
/** A placeholder as wide as an n-character number: '…' between figure spaces (digit
 *  wide, unbreakable), so that a line wraps where the number's line will. */
const ph = (n) => `${'\u2007'.repeat(Math.floor((n - 1) / 2))}…${'\u2007'.repeat(Math.ceil((n - 1) / 2))}`;

class Proofs extends AttnWidget {
  static tag = 'attn-proofs';
  static css = `${B_CSS}
    .proof { border: 1px solid var(--_line); border-radius: 10px; padding: 10px 12px; margin-top: 12px; }
    .proof h3 { display: flex; gap: 8px; align-items: baseline; }
    .num { display: inline-grid; place-items: center; width: 1.6em; height: 1.6em; border-radius: 50%;
      background: var(--_accent); color: #fff; font-size: .8rem; flex: none; }
    table.plain td { font-family: var(--_mono); font-variant-numeric: tabular-nums; }
    .msg.pending { font-weight: 500; } /* a verdict's weight, until the core's verdict */
    .quad { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 490px), 1fr)); gap: 10px; margin-top: 8px; }`;

  #s = { seed: 0, from: 2 };

  build(root) {
    adoptTex(this.shadowRoot);
    this.again = k('button', 'b.proofs.again', { type: 'button', class: 'primary', onclick: () => {
      this.#s.seed = (this.#s.seed + 1) % 1000;
      this.refresh();
      this.emitChange();
    } });
    this.seedOut = h('span', { class: 'muted value', role: 'status' });
    this.from = h('select', { 'data-k-aria': 'b.proofs.from', onchange: (e) => {
      this.#s.from = Number(e.target.value);
      this.refresh();
      this.emitChange();
    } }, ...[1, 2, 3].map((t) => h('option', { value: t }, `t${t}`)));
    this.p1 = h('p', { class: 'msg' });
    this.grad = h('table', { class: 'plain' });
    this.p2 = h('p', { class: 'msg', style: 'margin-top:8px' });
    this.p3 = h('p', { class: 'msg', style: 'margin-top:8px' });
    this.mats = { masked_before: null, masked_after: null, unmasked_before: null, unmasked_after: null };
    const panels = Object.keys(this.mats).map((name) => {
      this.mats[name] = matrix(name, 'signed');
      return h('div', { class: 'col panel' }, k('h3', `b.proofs.${name}`), h('div', { class: 'scroll-x' }, this.mats[name]));
    });
    const names = new Map(Object.entries(this.mats).map(([name, el]) => [el, name]));
    // Labels for the matrices an output is made from (not drawn here).
    const labels = { out: { rows: ROWS, cols: COLS }, v: { rows: ROWS, cols: COLS }, weights: { rows: ROWS, cols: ROWS } };
    this.explainer = explainGrids(this, {
      grids: () => [...names.keys()],
      explain: (grid, row, col) => this.core.explainFutureChange(this.#s.seed, T, D, this.#s.from, names.get(grid), 'out', row, col),
      key: () => JSON.stringify(this.#s),
      // Each grid titled by its own heading: all four are "out".
      panel: (grid, panel) => {
        panel.labels = { ...labels, [names.get(grid)]: { rows: ROWS, cols: COLS, title: this.t(`b.proofs.${names.get(grid)}`) } };
      },
    });
    const title = (n, key) => h('h3', {}, h('span', { class: 'num', 'aria-hidden': 'true' }, String(n)), k('span', key));
    root.append(
      k('p', 'b.proofs.lead', { class: 'lead' }),
      h('div', { class: 'controls' }, this.again, this.seedOut),
      h('div', { class: 'proof', 'data-proof': 'naive' }, title(1, 'b.proofs.naiveTitle'),
        k('p', 'b.proofs.naiveLead', { class: 'lead' }), this.p1),
      h('div', { class: 'proof', 'data-proof': 'grad' }, title(2, 'b.proofs.gradTitle'),
        k('p', 'b.proofs.gradLead', { class: 'lead' }),
        tex('\\frac{\\partial L}{\\partial x_i}\\approx\\frac{L(x_i+h)-L(x_i-h)}{2h}', true),
        h('div', { class: 'scroll-x' }, this.grad), this.p2),
      h('div', { class: 'proof', 'data-proof': 'future' }, title(3, 'b.proofs.futureTitle'),
        k('p', 'b.proofs.futureLead', { class: 'lead' }),
        h('div', { class: 'controls' }, h('label', {}, k('span', 'b.proofs.from'), this.from)),
        this.p3, h('div', { class: 'quad' }, ...panels)),
      this.explainer.panel,
    );
    // The final layout before the core arrives: every line and grid, placeholder numbers.
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.seedOut.textContent = this.t('b.seed', { seed: this.#s.seed });
    this.from.value = String(this.#s.from);
    for (const p of [this.p1, this.p2, this.p3]) p.classList.add('pending');
    this.p1.textContent = this.t('b.proofs.naiveResult', { err: ph(7) });
    this.#gradTable(() => ['…', '…']);
    this.p2.textContent = this.t('b.proofs.gradPassed', { h: ph(6), err: ph(7) });
    this.p3.textContent = this.t('b.proofs.futureResult', {
      from: `t${this.#s.from}`, earlier: ROWS.slice(0, this.#s.from).join(', '), with: ph(1), without: ph(8),
    });
    for (const el of Object.values(this.mats)) show(el, { rows: T, cols: D, data: new Array(T * D).fill(NaN) }, ROWS, COLS);
  }

  /** The gradient check's table; `cells(name)` = its two numbers' text. */
  #gradTable(cells) {
    const row = (name) => h('tr', { 'data-grad': name }, h('th', { scope: 'row' }, `d${name.toUpperCase()}`),
      ...cells(name).map((text) => h('td', {}, text)));
    this.grad.replaceChildren(
      h('thead', {}, h('tr', {}, h('th'), k('th', 'b.proofs.rel', { scope: 'col' }), k('th', 'b.proofs.abs', { scope: 'col' }))),
      h('tbody', {}, row('q'), row('k'), row('v')));
    fillStrings(this.grad, (key) => this.t(key));
  }

  render(core) {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.clearError();
    const { seed, from } = this.#s;
    this.explainer.sync();
    this.seedOut.textContent = this.t('b.seed', { seed });
    this.from.value = String(from);

    const naive = core.manualVsNaive(seed, T, D, true);
    this.p1.textContent = this.t('b.proofs.naiveResult', { err: err(naive.max_err) });
    this.p1.className = `msg ${naive.max_err < 1e-12 ? 'ok' : 'bad'}`;
    this.p1.dataset.maxErr = String(naive.max_err);

    const g = core.gradCheck(seed, T, D, true);
    this.#gradTable((name) => [err(g[name].max_rel_err), err(g[name].max_abs_err)]);
    this.p2.textContent = this.t(g.passed ? 'b.proofs.gradPassed' : 'b.proofs.gradFailed', { h: err(g.h), err: err(g.max_rel_err) });
    this.p2.className = `msg ${g.passed ? 'ok' : 'bad'}`;
    this.p2.dataset.passed = String(g.passed);

    const f = core.futureChange(seed, T, D, from);
    this.p3.textContent = this.t('b.proofs.futureResult', {
      from: `t${f.from}`, earlier: ROWS.slice(0, f.from).join(', '), with: err(f.with_mask), without: num(f.without_mask, 6),
    });
    this.p3.className = `msg ${f.with_mask === 0 && f.without_mask > 0 ? 'ok' : 'bad'}`;
    this.p3.dataset.withMask = String(f.with_mask);
    this.p3.dataset.withoutMask = String(f.without_mask);
    for (const [name, el] of Object.entries(this.mats)) show(el, f[name], ROWS, COLS);
  }

  get state() {
    return { ...this.#s };
  }

  set state(s) {
    object(s);
    this.#s = { seed: int(s.seed ?? 0, 'seed', 0, 999), from: int(s.from ?? 2, 'from', 1, T - 1) };
    this.refresh();
  }
}

define(Proofs);
