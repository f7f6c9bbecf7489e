// <attn-bias>: a key bias changes no weight; a query bias does (LESSON §3).
//
//   <attn-bias for="head">
//
// T = tokens, d = head size. With k = x W_kᵀ + b_k every score in row i gains the same
// q_i · b_k, and softmax ignores a constant added to a whole row; with q = x W_qᵀ + b_q
// row i gains b_q · k_j, different per column. Rust runs the head three times (base,
// k-bias, q-bias) and reports the largest weight change. state = { k_bias, q_bias, b_k, b_q }.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { explainTraces } from '../explain/explain-trace.js';
import { FOLLOWER_CSS, drawsInFrame } from './draw-in-frame.js';
import { setAttr, setText } from '../../ui/matrix/attn-matrix-table.js';
import { checkBool } from '../../ui/cell-checks.js';
import { formatCells, formatDiff } from '../../ui/format.js';
import { LessonWidget, linkedHead } from '../base/lesson-widget.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';

const DEFAULT = { k_bias: true, q_bias: false, b_k: [1, -2], b_q: [1, 1] };

class AttnBias extends drawsInFrame(LessonWidget) {
  static tag = 'attn-bias';
  static attrs = ['for'];

  #s = null;
  #ui = {};

  get state() {
    const s = this.#s ?? DEFAULT;
    return { ...s, b_k: s.b_k.slice(), b_q: s.b_q.slice() };
  }

  set state(s) {
    const vecOk = (v) => Array.isArray(v) && v.length >= 1 && v.length <= 16 && v.every((n) => typeof n === 'number' && Number.isFinite(n));
    if (!vecOk(s?.b_k) || !vecOk(s?.b_q)) throw new Error('b_k, b_q: expected lists of finite numbers');
    this.#s = { k_bias: checkBool(s.k_bias, 'k_bias'), q_bias: checkBool(s.q_bias, 'q_bias'), b_k: s.b_k.slice(), b_q: s.b_q.slice() };
    this.refresh();
  }

  #update(fn) {
    this.changeState(fn, (s) => { this.#s = s; });
  }

  make(root) {
    const ui = this.#ui;
    const side = (key) => {
      const box = h('input', { type: 'checkbox', class: `toggle-${key}` });
      box.addEventListener('change', () => this.#update((s) => { s[`${key}_bias`] = box.checked; }));
      const field = h('input', { type: 'text', class: 'words bias', autocomplete: 'off', spellcheck: 'false' });
      field.addEventListener('input', () => {
        try {
          const v = field.value.split(',').map((p) => p.trim()).filter(Boolean).map((p) => this.core.parseNumber(p));
          field.removeAttribute('aria-invalid');
          field.title = '';
          this.#update((s) => { s[`b_${key}`] = v; });
        } catch (e) {
          field.setAttribute('aria-invalid', 'true');
          field.title = message(e, this.language); // why, on hover (the last valid bias stays)
        }
      });
      const p = { box, field, text: h('span'), scores: matrixBlock({ label: 'scores' }), weights: matrixBlock({ label: 'weights', palette: 'weights' }),
        verdict: h('p', { class: 'msg', role: 'status' }), title: h('h3') };
      p.el = h('div', { class: `panel ${key}-panel`, 'data-explain-scope': '' }, p.title, h('div', { class: 'controls' }, h('label', {}, box, p.text), field),
        h('div', { class: 'row' }, p.scores.el, p.weights.el), p.verdict);
      return p;
    };
    ui.base = { title: h('h3'), scores: matrixBlock({ label: 'scores' }), weights: matrixBlock({ label: 'weights', palette: 'weights' }) };
    ui.base.el = h('div', { class: 'panel', 'data-explain-scope': '' }, ui.base.title, h('div', { class: 'row' }, ui.base.scores.el, ui.base.weights.el));
    ui.k = side('k');
    ui.q = side('q');
    ui.tables = tableSwitch(this, root);
    ui.msg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
    // Every scores and weights grid explains a clicked cell from its own run
    // (explainTrace: the biased q or k is what the dot product reads).
    const runs = { base: (r) => r.base, k: (r) => r.k_bias.trace, q: (r) => r.q_bias.trace };
    // The scores grids draw the masked scores a weight is the softmax of.
    for (const b of ['base', 'k', 'q']) ui[b].scores.matrix.setAttribute('matrix', 'masked_scores');
    const blockOf = (grid) => ['base', 'k', 'q'].find((b) => [ui[b].scores.matrix, ui[b].weights.matrix].includes(grid));
    ui.explain = explainTraces(this, {
      grids: ['base', 'k', 'q'].flatMap((b) => [ui[b].scores.matrix, ui[b].weights.matrix]),
      source: (grid) => this.run && { trace: runs[blockOf(grid)](this.run), causal: this.runCausal, tokens: this.runTokens },
      key: () => JSON.stringify([this.state, linkedHead(this)]),
    });
    root.append(h('div', { class: 'controls' }, ui.tables.el), ui.msg, h('div', { class: 'grid' }, ui.base.el, ui.k.el, ui.q.el),
      ui.explain.panel);
  }

  #draw(block, trace, tokens, which) {
    const masked = Array.from(trace.masked_scores.data, (v) => v === -Infinity || v === null);
    block.scores.set(which === 'masked' ? trace.masked_scores : trace.masked_scores, tokens, tokens);
    block.weights.set({ ...trace.weights, masked }, tokens, tokens);
    setText(block.scores.caption, this.t('maskedTitle'));
    setText(block.weights.caption, this.t('weightsTitle'));
  }

  draw(core) {
    const ui = this.#ui;
    const s = this.state;
    const head = linkedHead(this);
    const tokens = document.getElementById(this.getAttribute('for'))?.state?.tokens ?? ['h', 'o', 'u'];
    ui.tables.label();
    setText(ui.base.title, this.t('a.bias.base'));
    const zeros = (v) => v.map(() => 0);
    ui.explain.sync();
    let r;
    try {
      r = core.biasEffect(head, new Float64Array(s.q_bias ? s.b_q : zeros(s.b_q)), new Float64Array(s.k_bias ? s.b_k : zeros(s.b_k)));
      [this.run, this.runCausal, this.runTokens] = [r, head.causal ?? true, tokens];
    } catch (e) {
      ui.msg.textContent = message(e);
      ui.msg.hidden = false;
      return;
    }
    if (!ui.msg.hidden) ui.msg.hidden = true;
    this.#draw(ui.base, r.base, tokens);
    for (const key of ['k', 'q']) {
      const p = ui[key];
      const on = s[`${key}_bias`];
      const res = r[`${key}_bias`];
      setText(p.title, this.t(`a.bias.${key}Title`));
      setText(p.text, this.t(`a.bias.${key}Toggle`));
      if (p.box.checked !== on) p.box.checked = on;
      setAttr(p.field, 'aria-label', `b_${key}`);
      if (this.shadowRoot.activeElement !== p.field) {
        const text = s[`b_${key}`].join(', ');
        if (p.field.value !== text) p.field.value = text;
        p.field.removeAttribute('aria-invalid'); // the valid value is back
        if (p.field.title) p.field.title = '';
      }
      this.#draw(p, res.trace, tokens);
      const changed = res.max_weight_change > 1e-12;
      setAttr(p.verdict, 'class', `msg ${on ? (changed ? 'bad' : 'ok') : ''}`);
      setText(p.verdict, !on ? this.t('a.bias.off')
        : this.t(`a.bias.${key}${changed ? 'Changed' : 'Same'}`, { e: formatDiff(res.max_weight_change), shift: formatCells(r.k_row_shift) }));
    }
  }
}

AttnBias.css = `${LessonWidget.css}${FOLLOWER_CSS}
input.bias { width: 7em; }
input[aria-invalid="true"] { outline: 2px solid var(--_error); }
`;

define(AttnBias);
