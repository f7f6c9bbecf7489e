// <attn-sum-norm>: why raw scores cannot be normalised by their sum (LESSON §2).
//
//   <attn-sum-norm scores="2,-1,3">
//
// Rust divides the scores by their sum: a negative score gives a negative "weight",
// and scores that sum to 0 have no weights at all. state = { scores: number[] }.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { formatCell, formatFixed } from '../../ui/format.js';
import { LessonWidget } from '../base/lesson-widget.js';

const PRESETS = [[2, -1, 3], [1, -1, 0]];

class AttnSumNorm extends LessonWidget {
  static tag = 'attn-sum-norm';
  static attrs = ['scores'];

  #scores = null;
  #ui = {};

  get state() {
    return { scores: this.#value() };
  }

  set state(s) {
    const v = s?.scores;
    if (!Array.isArray(v) || v.length < 1 || v.length > 8 || !v.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      throw new Error('scores: expected 1 to 8 finite numbers');
    }
    this.#scores = v.slice();
    this.refresh();
  }

  #value() {
    if (this.#scores) return this.#scores.slice();
    const a = this.getAttribute('scores');
    if (!a) return PRESETS[0].slice();
    const parts = a.split(',').map((t) => t.trim());
    // Checked here so a bad attribute is a message, never NaN typed into the input.
    if (parts.length < 1 || parts.length > 8 || parts.some((t) => !t || !Number.isFinite(Number(t)))) {
      throw new Error(`scores="${a.slice(0, 30)}": expected 1 to 8 comma-separated numbers`);
    }
    return parts.map(Number);
  }

  make(root) {
    const ui = this.#ui;
    ui.labelText = h('span');
    ui.input = h('input', { type: 'text', class: 'words', autocomplete: 'off', spellcheck: 'false' });
    ui.input.addEventListener('input', () => this.#onInput());
    ui.presets = PRESETS.map((p) => h('button', { type: 'button', onclick: () => {
      this.#scores = p.slice();
      ui.input.value = '';
      this.refresh();
      this.emitChange();
    } }, `[${p.map((v) => formatFixed(v, 0)).join(', ')}]`));
    ui.inputMsg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
    ui.table = h('table', { class: 'plain' });
    ui.verdict = h('p', { class: 'msg', role: 'status' });
    root.append(h('div', { class: 'controls' }, h('label', { class: 'field' }, ui.labelText, ui.input), ...ui.presets),
      ui.inputMsg, ui.table, ui.verdict);
    // The final layout before the core arrives: the table with placeholder numbers.
    let scores = PRESETS[0];
    try {
      scores = this.#value();
    } catch {
      // the render says what is wrong with the attribute
    }
    ui.labelText.textContent = this.t('a.sum.scores');
    ui.input.value = scores.map((v) => String(v)).join(', ');
    const dots = () => scores.map(() => h('td', {}, '…'));
    this.#table(scores, dots(), h('td', { class: 'value' }, '…'), dots(), h('td', {}, '…'));
    ui.verdict.textContent = '\u00a0';
  }

  #table(scores, scoreCells, sum, weightCells, total) {
    this.#ui.table.replaceChildren(
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), ...scores.map((_, i) => h('th', { scope: 'col' }, String(i))),
        h('th', { scope: 'col' }, this.t('a.sum.sum')))),
      h('tbody', {},
        h('tr', {}, h('th', { scope: 'row' }, this.t('a.sum.scores')), ...scoreCells, sum),
        h('tr', {}, h('th', { scope: 'row' }, this.t('a.sum.weights')), ...weightCells, total)));
  }

  #onInput() {
    const parts = this.#ui.input.value.split(',').map((s) => s.trim()).filter(Boolean);
    try {
      if (parts.length < 1 || parts.length > 8) throw new Error(this.t('a.sum.count'));
      this.#scores = parts.map((p) => this.core.parseNumber(p));
    } catch (e) {
      this.#ui.inputMsg.textContent = message(e, this.language);
      this.#ui.inputMsg.hidden = false;
      return;
    }
    this.#ui.inputMsg.hidden = true;
    this.refresh();
    this.emitChange();
  }

  draw(core) {
    const ui = this.#ui;
    ui.labelText.textContent = this.t('a.sum.scores');
    const scores = this.#value();
    if (this.shadowRoot.activeElement !== ui.input) ui.input.value = scores.map((v) => String(v)).join(', ');
    const r = core.normalizeBySum(new Float64Array(scores));
    const negative = new Set(Array.from(r.negative));
    const cells = (values, cls) => Array.from(values, (v, i) => h('td', { class: cls?.(i) ?? '' }, formatCell(v)));
    this.#table(scores, cells(r.scores), h('td', { class: 'value' }, formatCell(r.sum)),
      r.weights ? cells(r.weights, (i) => (negative.has(i) ? 'bad' : '')) : scores.map(() => h('td', {}, '–')),
      h('td', {}, r.weights ? '1.00' : '–'));
    if (r.divides_by_zero) {
      ui.verdict.className = 'msg bad';
      ui.verdict.textContent = this.t('a.sum.zero');
    } else if (negative.size) {
      ui.verdict.className = 'msg bad';
      ui.verdict.textContent = this.t('a.sum.negative', { v: formatCell(r.weights[[...negative][0]]) });
    } else {
      ui.verdict.className = 'msg ok';
      ui.verdict.textContent = this.t('a.sum.fine');
    }
  }
}

define(AttnSumNorm);
