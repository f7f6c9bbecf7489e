// What <attn-head> draws (attn-head.js keeps its state and the core's HeadLab): the
// toolbar, the three stages of cards, each a formula over a heatmap, the stepper and the
// explain panel. It draws whatever numbers it is handed: the lab's, the built-in head's
// before the core arrives (head-first.gen.js), or empty grids at the head's shapes.
//
// T = tokens, C = channels, d = head size.

import { h } from '../../ui/widget-base.js';
import { rampGradient } from '../../ui/palette.js';
import { tex } from '../../ui/tex.js';
import { subscripted as sub } from '../../ui/format.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';
import { setText } from '../../ui/matrix/attn-matrix-table.js';
import '../explain/attn-explain.js'; // the panel and the stepper it draws in its shadow root
import '../explain/attn-formula-steps.js';
import { followSteps } from '../explain/in-view.js';
import { touchScreen } from '../../ui/matrix/touch.js';

export const INPUTS = ['x', 'W_q', 'W_k', 'W_v'];
export const OUTPUTS = ['q', 'k', 'v', 'scores', 'masked_scores', 'weights', 'out'];
const LATEX = {
  x: 'x \\in \\mathbb{R}^{T\\times C}', W_q: 'W_q \\in \\mathbb{R}^{d\\times C}',
  W_k: 'W_k \\in \\mathbb{R}^{d\\times C}', W_v: 'W_v \\in \\mathbb{R}^{d\\times C}',
  q: 'q = x\\,W_q^{\\top}', k: 'k = x\\,W_k^{\\top}', v: 'v = x\\,W_v^{\\top}',
  scores: 'q\\,k^{\\top}', scoresScaled: 'q\\,k^{\\top} / \\sqrt{d_k}',
  masked_scores: '\\mathrm{mask}(\\text{scores})',
  weights: '\\mathrm{softmax}(\\mathrm{mask}(\\text{scores}))', out: '\\text{weights}\\cdot v',
};
// name → [title key, explanation key, palette]
const CARDS = {
  x: ['xName', 'xExplain'], W_q: ['WqName', 'WqExplain'], W_k: ['WkName', 'WkExplain'],
  W_v: ['WvName', 'WvExplain'], q: ['qName', 'qExplain'], k: ['kName', 'kExplain'],
  v: ['vName', 'vExplain'], scores: ['scoresTitle', 'scoresExplain'],
  masked_scores: ['maskedTitle', 'maskedExplainOn'], weights: ['weightsTitle', 'weightsExplain', 'weights'],
  out: ['outTitle', 'outExplain'],
};
// The built-in head's shapes (Rust's hou_defaults): what the grids look like before the
// core arrives when a state set before then says otherwise.
const DEFAULT_TOKENS = ['h', 'o', 'u'];
const DEFAULT_SHAPES = { x: [3, 3], W_q: [2, 3], W_k: [2, 3], W_v: [2, 3] };

export class HeadView {
  ui = {};
  blocks = {};
  cards = {};
  #widget;
  #onWord;
  #seqKey = '';
  #stepsKey = '';

  /** `widget`: the <attn-head> (its language, `readonly`, `sequence`); `on`: what the
   *  controls call, { switch(name, on), reset(), word(w) }. */
  constructor(widget, root, on) {
    this.#widget = widget;
    const ui = this.ui;
    const toggle = (cls) => {
      const input = h('input', { type: 'checkbox', class: `switch ${cls}` });
      const name = h('span', { class: 'toggle-name' });
      const hint = h('span', { class: 'toggle-hint' });
      return { input, name, hint, el: h('label', { class: 'toggle' }, input, h('span', { class: 'toggle-text' }, name, hint)) };
    };
    ui.causal = toggle('causal');
    ui.scaled = toggle('scaled');
    ui.causal.input.id = 'causal';
    ui.scaled.input.id = 'scaled';
    ui.scaled.hint.classList.add('scale-readout');
    ui.seq = h('span', { class: 'seq', role: 'group' });
    ui.reset = h('button', { type: 'button', id: 'reset', class: 'reset' });
    ui.tables = tableSwitch(widget, root);
    ui.legend = h('div', { class: 'legend', role: 'group' });
    ui.toolbar = h('div', { class: 'toolbar' }, ui.causal.el, ui.scaled.el, ui.seq, ui.reset, ui.tables.el, ui.legend);
    ui.message = h('p', { class: 'message', id: 'message', role: 'alert', hidden: true });
    ui.note = h('p', { class: 'note', id: 'note', hidden: true });
    ui.keyboard = h('p', { class: 'keyboard' });
    ui.steps = h('attn-formula-steps');
    ui.explain = h('attn-explain');
    ui.main = h('div', { class: 'main' },
      this.#stage(1, INPUTS, true), ui.message, this.#stage(2, ['q', 'k', 'v']),
      this.#stage(3, ['scores', 'masked_scores', 'weights', 'out']), ui.note);
    // The stepper's room before its steps come is set by its width (attn-head-css.js).
    const stepsRoom = h('div', { class: 'steps-room' }, ui.steps);
    const pinRoom = h('div', { 'aria-hidden': 'true' }); // room after the cards for a stuck stepper
    root.append(ui.toolbar, stepsRoom, ui.main, ui.explain, ui.keyboard, pinRoom);
    // Opened beside a row of cards, the panel spans the grid's row (see #placeExplain).
    ui.explain.style.gridColumn = '1 / -1';
    ui.causal.input.addEventListener('change', (e) => on.switch('causal', e.target.checked));
    ui.scaled.input.addEventListener('change', (e) => on.switch('scaled', e.target.checked));
    ui.reset.addEventListener('click', () => on.reset());
    this.#onWord = on.word;
    // A step outlines the card it makes (QKᵀ: the scores, before any scaling) and brings
    // it into view beside the stepper, whose buttons stay under the pointer.
    const follow = followSteps(stepsRoom, ui.steps, pinRoom);
    ui.steps.addEventListener('step-change', (e) => {
      const produces = e.detail?.produces === 'qk' ? 'scores' : e.detail?.produces;
      for (const [name, card] of Object.entries(this.cards)) card.el.classList.toggle('step-active', name === produces);
      const card = this.cards[produces];
      if (card) follow.show(card.el, this.blocks[produces].matrix);
    });
    // Before <attn-head> opens the panel for a clicked cell (its listener is on the root).
    ui.main.addEventListener('cell-explain', (e) => this.#placeExplain(e));
    ui.steps.setAttribute('data-pending', '');
  }

  #stage(n, names, inputs = false) {
    const title = h('span');
    const note = h('p', { class: 'stage-note' });
    const badge = inputs ? h('span', { class: 'badge' }) : null;
    const cards = names.map((name) => {
      const [, , palette = 'signed'] = CARDS[name];
      const block = matrixBlock({ label: name, palette, editable: inputs });
      block.matrix.id = name;
      if (!inputs) block.matrix.setAttribute('explainable', '');
      this.blocks[name] = block;
      const card = {
        name: h('span', { class: 'name' }), formula: h('div', { class: 'formula' }),
        explain: h('p', { class: 'explain' }),
      };
      card.el = h('article', { class: 'card', 'data-matrix': name },
        h('h4', {}, card.name), card.formula, block.el, card.explain);
      this.cards[name] = card;
      return card.el;
    });
    const section = h('section', { class: `stage${inputs ? '' : ' stage-out'}` },
      h('h3', {}, h('span', { class: 'step', 'aria-hidden': 'true' }, String(n)), title, badge), note,
      h('div', { class: 'cards' }, ...cards));
    this.ui[`stage${n}`] = { title, note, badge };
    return section;
  }

  /** Every text in the widget's language: switches, legend, stages and cards. */
  drawText() {
    const w = this.#widget;
    const ui = this.ui;
    ui.causal.name.textContent = w.t('causal');
    ui.causal.hint.textContent = w.t('causalHint');
    ui.scaled.name.replaceChildren(w.t('a.head.scaled'));
    ui.reset.textContent = w.t('reset');
    ui.reset.title = w.t('resetTitle');
    ui.tables.label();
    // A touch screen has no Tab or arrow keys at hand: what a tap does instead (or nothing
    // where the string table has no such line).
    const touch = touchScreen() ? w.t('keyboardTouch') : null;
    ui.keyboard.textContent = touch === 'keyboardTouch' ? '' : touch ?? w.t('keyboard');
    ui.seq.setAttribute('aria-label', w.t('a.head.sequence'));
    ui.legend.setAttribute('aria-label', w.t('legend'));
    const ramp = (p) => h('span', { class: 'ramp', 'aria-hidden': 'true', style: `background:${rampGradient(p)}` });
    ui.legend.replaceChildren(
      h('span', { class: 'legend-item' }, w.t('legendNeg'), ramp('signed'), w.t('legendPos')),
      h('span', { class: 'legend-item' }, `${w.t('legendWeights')} 0`, ramp('weights'), '1'),
      h('span', { class: 'legend-item' }, h('span', { class: 'swatch-masked', 'aria-hidden': 'true' }), w.t('legendMasked')));
    for (const n of [1, 2, 3]) {
      const st = ui[`stage${n}`];
      st.title.textContent = w.t(`stage${n}`);
      st.note.textContent = w.t(`stage${n}Note`);
      if (st.badge) st.badge.textContent = w.t('editableBadge');
    }
    for (const [name, card] of Object.entries(this.cards)) {
      const title = w.t(CARDS[name][0]);
      card.name.textContent = title === name ? name : `${name} · ${title}`;
      card.explain.textContent = w.t(CARDS[name][1]);
    }
    for (const name of INPUTS) this.blocks[name].matrix.toggleAttribute('editable', !w.readonly);
    if (ui.steps.hasAttribute('data-pending')) ui.steps.setAttribute('data-pending', w.language);
  }

  /** Empty grids at the shapes of state `p` (the built-in head's where it sets none), with
   *  its switches, sequence and formulas: before the core, when there are no numbers yet. */
  drawEmpty(p, { causal, scaled }) {
    const w = this.#widget;
    if (this.#stepsKey) {
      // the built-in head's steps were drawn: the stepper waits for the core's again
      this.#stepsKey = '';
      this.ui.steps.setAttribute('data-pending', w.language);
    }
    const shape = (name) => (p[name] ? [p[name].rows, p[name].cols] : DEFAULT_SHAPES[name]);
    const empty = ([rows, cols]) => ({ rows, cols, data: new Array(rows * cols).fill(NaN) });
    const [T, C] = shape('x');
    const tokens = p.tokens ?? (T === 3 ? DEFAULT_TOKENS : sub('t', T));
    const d = sub('d', shape('W_q')[0]);
    const dv = sub('d', shape('W_v')[0]);
    this.blocks.x.set(empty([T, C]), tokens, sub('c', C));
    for (const name of ['W_q', 'W_k', 'W_v']) this.blocks[name].set(empty(shape(name)), sub('d', shape(name)[0]), sub('c', C));
    for (const [name, cols] of [['q', d], ['k', d], ['v', dv], ['scores', tokens], ['masked_scores', tokens], ['weights', tokens], ['out', dv]]) {
      this.blocks[name].set(empty([T, cols.length]), tokens, cols);
    }
    const ui = this.ui;
    ui.causal.input.checked = causal;
    ui.scaled.input.checked = scaled;
    ui.reset.hidden = w.readonly;
    this.drawSequence(tokens);
    for (const name of INPUTS.concat(OUTPUTS)) this.#setFormula(name, LATEX[name]);
    this.#setFormula('scores', scaled ? LATEX.scoresScaled : LATEX.scores);
    setText(this.cards.masked_scores.explain, w.t(causal ? 'maskedExplainOn' : 'maskedExplainOff'));
    setText(ui.scaled.hint, scaled ? w.t('scaleOn', { d: '…', s: '…' }) : w.t('scaleOff'));
  }

  /** The stepper: the formula (it never changes: set once, re-typesetting it costs a
   *  frame) and the steps of state `s`. What it draws of a step (its name, term, factor
   *  1/√d, masked cells) follows from the switches and the shapes alone: the steps are
   *  asked for again (`steps()`, a slow call) only when they change, or on every redraw
   *  when the stepper also draws each step's output matrix. */
  drawSteps(s, latex, steps) {
    const ui = this.ui;
    if (ui.steps.latex !== latex) ui.steps.latex = latex;
    const stepsKey = JSON.stringify([s.causal, s.scaled, s.x.rows, s.x.cols, s.W_q.rows, s.W_k.rows, s.W_v.rows, this.#widget.language]);
    if (ui.steps.hasAttribute('show-output') || stepsKey !== this.#stepsKey) {
      this.#stepsKey = stepsKey;
      ui.steps.steps = steps();
      if (ui.steps.hasAttribute('data-pending')) ui.steps.removeAttribute('data-pending');
    }
  }

  /** The inputs of state `s` (the lab's, or the built-in head's before the core arrives),
   *  its switches, its sequence and what the mask says. */
  drawInputs(s) {
    const w = this.#widget;
    const tokens = s.tokens.slice();
    const ui = this.ui;
    this.blocks.x.set(s.x, tokens, sub('c', s.x.cols));
    for (const name of ['W_q', 'W_k', 'W_v']) this.blocks[name].set(s[name], sub('d', s[name].rows), sub('c', s[name].cols));
    ui.causal.input.checked = s.causal;
    ui.scaled.input.checked = s.scaled;
    ui.causal.input.disabled = w.readonly;
    ui.scaled.input.disabled = w.readonly;
    ui.reset.hidden = w.readonly;
    this.drawSequence(tokens);
    this.#setFormula('masked_scores', LATEX.masked_scores);
    setText(this.cards.masked_scores.explain, w.t(s.causal ? 'maskedExplainOn' : 'maskedExplainOff'));
  }

  /** Every intermediate of result `r` of state `s`, their formulas and the scale. */
  drawResult(s, r) {
    const tokens = s.tokens.slice();
    const ui = this.ui;
    const d = sub('d', r.q.cols);
    const dv = sub('d', r.v.cols);
    this.blocks.q.set(r.q, tokens, d);
    this.blocks.k.set(r.k, tokens, d);
    this.blocks.v.set(r.v, tokens, dv);
    this.blocks.scores.set(r.scores, tokens, tokens);
    this.blocks.masked_scores.set(r.masked_scores, tokens, tokens);
    const masked = Array.from(r.masked_scores.data, (v) => v === -Infinity);
    this.blocks.weights.set({ ...r.weights, masked }, tokens, tokens);
    this.blocks.out.set(r.out, tokens, dv);
    const rows = Array.from(r.fully_masked_rows ?? [], (i) => tokens[i] ?? i);
    if (ui.note.hidden !== (rows.length === 0)) ui.note.hidden = rows.length === 0;
    setText(ui.note, rows.length ? this.#widget.t('fullyMasked', { rows: rows.join(', ') }) : '');
    this.drawScale(s.scaled, r);
    for (const name of INPUTS.concat(OUTPUTS)) if (name !== 'masked_scores' && name !== 'scores') this.#setFormula(name, LATEX[name]);
    this.#setFormula('scores', s.scaled ? LATEX.scoresScaled : LATEX.scores);
  }

  /** The inputs cannot run: says why, greys the last valid result (kept on screen). */
  drawStale(msg, scaled, last) {
    const ui = this.ui;
    ui.message.textContent = msg;
    ui.message.hidden = false;
    ui.main.classList.add('stale');
    this.drawScale(scaled, last);
  }

  /** The result is valid again. */
  drawFresh() {
    const ui = this.ui;
    if (!ui.message.hidden) ui.message.hidden = true;
    ui.main.classList.remove('stale');
  }

  get stale() {
    return this.ui.main.classList.contains('stale');
  }

  #setFormula(name, latex) {
    const box = this.cards[name].formula;
    if (box.dataset.latex === latex) return;
    box.dataset.latex = latex;
    box.replaceChildren(tex(latex));
  }

  drawScale(scaled, r) {
    const w = this.#widget;
    setText(this.ui.scaled.hint, scaled && r ? w.t('scaleOn', { d: r.q.cols, s: r.scale.toFixed(2) }) : w.t('scaleOff'));
  }

  drawSequence(tokens) {
    const w = this.#widget;
    const words = (w.getAttribute('sequence') || '').split('|').map((x) => x.trim()).filter(Boolean);
    const seq = this.ui.seq;
    seq.hidden = words.length < 2;
    if (seq.hidden) return;
    const current = tokens.join('');
    // The buttons are made again only when what they say changes (not on every edit).
    const key = JSON.stringify([words, current, w.readonly, w.t('a.head.sequence')]);
    if (key === this.#seqKey) return;
    this.#seqKey = key;
    const buttons = words.map((word) => h('button', {
      type: 'button', class: 'word', 'aria-pressed': String(word === current), disabled: w.readonly,
      onclick: () => this.#onWord(word),
    }, word));
    seq.replaceChildren(h('span', { class: 'toggle-hint' }, w.t('a.head.sequence')), ...buttons);
  }

  /** The explanation of a clicked cell opens right under the row of cards that holds
   *  it, not under all three stages (on a phone, a screen or more below). */
  #placeExplain(e) {
    const card = e.composedPath().find((node) => node.classList?.contains('card'));
    if (!card) return;
    let last = card;
    for (let next = card.nextElementSibling; next?.classList.contains('card'); next = next.nextElementSibling) {
      if (!next.getClientRects().length) continue; // a card the layout hides
      if (next.offsetTop !== card.offsetTop) break;
      last = next;
    }
    if (last.nextElementSibling !== this.ui.explain) last.after(this.ui.explain);
  }

  /** Outlines the cells an explanation names (`sources`: { matrix, row, col }). */
  highlight(sources) {
    for (const [name, block] of Object.entries(this.blocks)) {
      if (typeof block.matrix.highlight === 'function') {
        block.matrix.highlight(sources.filter((s) => s.matrix === name));
      }
    }
  }
}
