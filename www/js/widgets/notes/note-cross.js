// <attn-note-cross>: note 5 of §5. Cross-attention: queries come from one sequence
// (x_q, T_out rows), keys and values from another (x_kv, T_in rows), so the
// weights are T_out × T_in, not square. Both inputs are editable; rows can be
// added or removed. W_q, W_k, W_v are the 2×2 identity so the numbers stay readable.
//
//   state: { x_q: number[][], x_kv: number[][], scaled }
//   numbers: crossAttention({x_q, x_kv, W_q, W_k, W_v}, false, scaled); parseNumber
//   The scores, weights and out grids are `explainable`; a clicked cell is
//   explained by explainCross (same input and flags) in a floating <attn-explain>.

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { message } from '../../ui/widget-base.js';
import { adoptTex, tex, usePrebuilt } from '../../ui/tex.js';
import { noteCross as TYPESET } from '../../ui/formulas.gen.js';
import { checkBool, checkObject } from '../../ui/cell-checks.js';
import { checkbox, fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS } from '../base/lesson-css.js';
import { heatmap, showMatrix } from '../base/matrix-block.js';

usePrebuilt(TYPESET);

const C = 2;
const MAX_OUT = 4;
const MAX_IN = 6;
const EYE = { rows: C, cols: C, data: [1, 0, 0, 1] };
const Q_NAMES = ['q₀', 'q₁', 'q₂', 'q₃'];
const K_NAMES = ['k₀', 'k₁', 'k₂', 'k₃', 'k₄', 'k₅'];

const toMat = (rows) => ({ rows: rows.length, cols: C, data: rows.flat() });

class NoteCross extends AttnWidget {
  static tag = 'attn-note-cross';
  static css = `${NOTE_WIDGET_CSS}
    .inputs { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, max-content)); gap: 10px 16px; }
    .rows { display: flex; gap: 6px; margin-top: 4px; }
    .rows button { padding: 2px 10px; }
    .shape { color: var(--_muted); font-size: .88rem; }`;

  #s = { x_q: [[1, 0], [0, 2]], x_kv: [[2, 0], [0, 2], [1, 1], [-1, 0]], scaled: false };

  build(root) {
    this.xq = h('attn-matrix', { label: 'x_q', palette: 'signed', editable: '' });
    this.xkv = h('attn-matrix', { label: 'x_kv', palette: 'signed', editable: '' });
    this.xq.addEventListener('cell-edit', (e) => this.#edit('x_q', this.xq, e.detail));
    this.xkv.addEventListener('cell-edit', (e) => this.#edit('x_kv', this.xkv, e.detail));
    const rowsCtl = (name, max) => h('div', { class: 'rows' },
      k('button', 'b.cross.add', { type: 'button', 'data-k-aria': 'b.cross.addRow', onclick: () => this.#resize(name, +1, max) }),
      k('button', 'b.cross.remove', { type: 'button', 'data-k-aria': 'b.cross.removeRow', onclick: () => this.#resize(name, -1, max) }));
    const scaled = checkbox('b.scaleBy', (on) => { this.#s.scaled = on; this.refresh(); this.emitChange(); });
    this.scaledBox = scaled.input;
    this.scores = heatmap('scores', 'signed');
    this.weights = heatmap('weights', 'weights');
    this.out = heatmap('out', 'signed');
    for (const m of [this.scores, this.weights, this.out]) m.setAttribute('explainable', '');
    // No mask here, so the drawn scores are the masked scores a weight is made from:
    // the panel outlines its sources in this grid.
    this.scores.setAttribute('matrix', 'masked_scores');
    this.explain = h('attn-explain', { floating: '' });
    root.addEventListener('cell-explain', (e) => this.#onExplain(e));
    this.shape = h('p', { class: 'shape', role: 'status' });
    adoptTex(this.shadowRoot);
    root.append(
      h('div', { class: 'head' }, k('span', 'b.tag5', { class: 'tag' }), k('h3', 'b.cross.title')),
      k('p', 'b.cross.lead', { class: 'lead' }),
      tex('\\underbrace{\\operatorname{softmax}\\!\\big(\\underbrace{x_q W_q^{\\top}}_{T_\\text{out}\\times d}'
        + '\\,\\underbrace{(x_{kv} W_k^{\\top})^{\\top}}_{d\\times T_\\text{in}}\\big)}_{T_\\text{out}\\times T_\\text{in}}'
        + '\\;\\underbrace{x_{kv} W_v^{\\top}}_{T_\\text{in}\\times d}', true),
      h('div', { class: 'inputs' },
        h('div', { class: 'col' }, k('h4', 'b.cross.xq'), this.xq, rowsCtl('x_q', MAX_OUT)),
        h('div', { class: 'col' }, k('h4', 'b.cross.xkv'), this.xkv, rowsCtl('x_kv', MAX_IN))),
      h('div', { class: 'controls', style: 'margin-top:10px' }, scaled.label),
      this.shape,
      h('div', { class: 'row' },
        h('div', { class: 'col panel' }, k('h4', 'b.scores'), this.scores),
        h('div', { class: 'col panel' }, k('h4', 'b.weights'), this.weights),
        h('div', { class: 'col panel' }, k('h4', 'b.out'), this.out)),
      this.explain,
    );
    // The final layout before the core arrives: the inputs, and the three results at
    // their shapes (a row per x_q row, a column per x_kv row) with empty cells.
    const { qNames, kNames } = this.#inputs();
    const empty = (rows, cols) => ({ rows: rows.length, cols: cols.length, data: new Array(rows.length * cols.length).fill(NaN) });
    this.shape.textContent = this.t('b.cross.shape', { out: '…', in: '…' });
    showMatrix(this.scores, empty(qNames, kNames), qNames, kNames);
    showMatrix(this.weights, empty(qNames, kNames), qNames, kNames);
    showMatrix(this.out, empty(qNames, ['d₀', 'd₁']), qNames, ['d₀', 'd₁']);
  }

  /** The texts, the switch and both input grids: no number from the core. */
  #inputs() {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    const s = this.#s;
    this.scaledBox.checked = s.scaled;
    const qNames = Q_NAMES.slice(0, s.x_q.length);
    const kNames = K_NAMES.slice(0, s.x_kv.length);
    showMatrix(this.xq, toMat(s.x_q), qNames, ['c0', 'c1']);
    showMatrix(this.xkv, toMat(s.x_kv), kNames, ['c0', 'c1']);
    return { qNames, kNames };
  }

  #input() {
    const s = this.#s;
    return { x_q: toMat(s.x_q), x_kv: toMat(s.x_kv), W_q: EYE, W_k: EYE, W_v: EYE };
  }

  /** Explain hook: a clicked cell of scores, weights or out is explained by Rust. */
  #onExplain(e) {
    const { row, col, label } = e.detail ?? {};
    if (!this.core || !['scores', 'weights', 'out'].includes(label)) return;
    let ex;
    try {
      ex = this.core.explainCross(this.#input(), false, this.#s.scaled, label, row, col);
    } catch (err) {
      this.showError(message(err));
      return;
    }
    this.#explained = this.#key();
    this.explain.explanation = ex;
  }

  /** The numbers an open explanation was made from; other numbers close it. */
  #explained = '';
  #key() {
    return JSON.stringify([this.#s.x_q, this.#s.x_kv, this.#s.scaled]);
  }

  #edit(name, el, { row, col, text }) {
    try {
      this.#s[name][row][col] = this.core.parseNumber(text);
      el.clearCellError(row, col);
      this.refresh();
      this.emitChange();
    } catch (e) {
      el.setCellError(row, col, (lang) => message(e, lang));
    }
  }

  #resize(name, delta, max) {
    const rows = this.#s[name];
    if (delta > 0 && rows.length < max) rows.push([0, 0]);
    if (delta < 0 && rows.length > 1) rows.pop();
    this.refresh();
    this.emitChange();
  }

  render(core) {
    const s = this.#s;
    if (this.explain.open && this.#key() !== this.#explained) this.explain.explanation = null;
    const { qNames, kNames } = this.#inputs();
    const r = this.attempt(() => core.crossAttention(this.#input(), false, s.scaled));
    if (!r) return;
    this.clearError();
    this.shape.textContent = this.t('b.cross.shape', { out: r.weights.rows, in: r.weights.cols });
    showMatrix(this.scores, r.scores, qNames, kNames);
    showMatrix(this.weights, r.weights, qNames, kNames);
    showMatrix(this.out, r.out, qNames, ['d₀', 'd₁']);
  }

  get state() {
    return structuredClone(this.#s);
  }

  set state(s) {
    checkObject(s);
    const grid = (v, name, max) => {
      if (!Array.isArray(v) || v.length < 1 || v.length > max
        || !v.every((r) => Array.isArray(r) && r.length === C && r.every((x) => typeof x === 'number' && Number.isFinite(x)))) {
        throw new Error(`${name} must be 1 to ${max} rows of ${C} numbers`);
      }
      return v.map((r) => r.slice());
    };
    this.#s = {
      x_q: grid(s.x_q ?? this.#s.x_q, 'x_q', MAX_OUT),
      x_kv: grid(s.x_kv ?? this.#s.x_kv, 'x_kv', MAX_IN),
      scaled: checkBool(s.scaled ?? false, 'scaled'),
    };
    this.refresh();
  }
}

define(NoteCross);
