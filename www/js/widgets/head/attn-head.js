// <attn-head>: one self-attention head the learner edits (LESSON §3, page section 4).
//
//   <attn-head weights="hou" sequence="hou|you" causal scaled="false" readonly lang="zh">
//
// T = tokens, C = channels, d = head size. x (T, C) and W_q, W_k, W_v (d, C) are
// editable grids; Rust's HeadLab computes q, k, v, scores, masked scores, weights
// and out, drawn as heatmaps. A bad cell is marked beside itself and the last valid
// result stays on screen. state = { x, W_q, W_k, W_v, causal, scaled, tokens }.
// Explaining a number: output grids carry `explainable`; their bubbling `cell-explain`
// fills <attn-explain>, and <attn-formula-steps> gets the formula's steps.

import { t } from '../../i18n/i18n.js';
import { AttnWidget, define, h, message } from '../../ui/widget-base.js';
import { rampGradient } from '../../ui/palette.js';
import { adoptTex, tex, usePrebuilt } from '../../ui/tex.js';
import { head as TYPESET } from '../../ui/formulas.gen.js';
import { HEAD_FIRST } from './head-first.gen.js';
import { HEAD_CSS } from './attn-head-css.js';
import { boolAttr, checkBool, checkMatrix, plain } from '../../ui/cell-checks.js';
import { subscripted as sub } from '../../ui/format.js';
import { LESSON_WIDGET_CSS } from '../base/lesson-css.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';
import { setText } from '../../ui/matrix/attn-matrix-table.js';
import '../explain/attn-explain.js'; // the panel and the stepper it draws in its shadow root
import '../explain/attn-formula-steps.js';

usePrebuilt(TYPESET);

const INPUTS = ['x', 'W_q', 'W_k', 'W_v'];
const OUTPUTS = ['q', 'k', 'v', 'scores', 'masked_scores', 'weights', 'out'];
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
// A switch as its attribute sets it; a bad value draws the default (render() says what
// was wrong).
const flag = (el, name, fallback) => {
  try {
    return boolAttr(el, name, fallback);
  } catch {
    return fallback;
  }
};
// The built-in head's shapes (Rust's hou_defaults): what the grids look like before the
// core arrives when a state set before then says otherwise (else they hold the built-in
// head's own numbers, HEAD_FIRST).
const DEFAULT_TOKENS = ['h', 'o', 'u'];
const DEFAULT_SHAPES = { x: [3, 3], W_q: [2, 3], W_k: [2, 3], W_v: [2, 3] };

class AttnHead extends AttnWidget {
  static tag = 'attn-head';
  static attrs = ['weights', 'scaled', 'causal', 'sequence'];
  static css = LESSON_WIDGET_CSS + HEAD_CSS;

  #lab = null;
  #attrKey = '';
  #pending = null;
  #last = null;
  #ui = {};
  #blocks = {};
  #cards = {};
  #state = null; // the lab's state as plain data, until the lab changes (#changed)
  #seqKey = '';
  #stepsKey = '';
  #early = []; // cells typed before the core arrived: [grid, name, row, col, text]
  #switched = false; // a switch was turned before the core arrived (into #pending)
  #firstSteps = null; // the built-in head whose steps the stepper is to draw before the core

  attributeChangedCallback(name, oldValue, newValue) {
    super.attributeChangedCallback(name, oldValue, newValue);
    // Before the core (render() waits for it): the head drawn so far follows at once.
    if (oldValue !== newValue && this.#ui.main && !this.#lab) {
      this.#drawText();
      this.#drawPlaceholder();
    }
  }

  build(root) {
    const ui = this.#ui;
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
    ui.tables = tableSwitch(this, root);
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
    root.append(ui.toolbar, h('div', { class: 'steps-room' }, ui.steps), ui.main, ui.explain, ui.keyboard);
    ui.causal.input.addEventListener('change', (e) => this.#setSwitch('causal', e.target.checked));
    ui.scaled.input.addEventListener('change', (e) => this.#setSwitch('scaled', e.target.checked));
    ui.reset.addEventListener('click', () => this.#reset());
    root.addEventListener('cell-edit', (e) => this.#onCellEdit(e));
    root.addEventListener('cell-explain', (e) => this.#onExplain(e));
    ui.steps.addEventListener('step-change', (e) => this.#onStep(e));
    adoptTex(this.shadowRoot).catch(() => {});
    // The final layout before the core arrives, so that its numbers land in place: every
    // text, switch and formula, the stepper's room, and each grid at its final shape.
    ui.steps.setAttribute('data-pending', '');
    this.#drawText();
    this.#drawPlaceholder();
  }

  /** Before the first draw. The built-in head (no matrices or tokens set before the
   *  core arrived) is drawn with its own numbers, which the core computed when the site
   *  was built (tools/head-first.mjs): they are on screen in the page's first frame, not a
   *  frame after the wasm has arrived and compiled. Otherwise the grids are drawn at the
   *  shapes the head will have, their cells empty. The switches, the sequence and the
   *  formulas are as the attributes (or that state) set them. */
  #drawPlaceholder() {
    const p = this.#pending ?? {};
    const { causal, scaled } = this.#switches(p);
    const first = INPUTS.some((name) => p[name]) || p.tokens ? null : HEAD_FIRST[`${causal}|${scaled}`];
    if (first) {
      this.#drawInputs(first.state);
      this.#drawResult(first.state, first.result);
      // The stepper (its room is kept) in a task after that frame: its formula's DOM and
      // layout would make the first frame some 25 ms later (traced, a cold one-head load).
      this.#firstSteps = first;
      requestAnimationFrame(() => setTimeout(() => {
        if (!this.#lab && this.#firstSteps === first) this.#drawSteps(first.state, first.latex, () => first.steps);
      }, 0));
      return;
    }
    this.#firstSteps = null;
    if (this.#stepsKey) {
      // the built-in head's steps were drawn: the stepper waits for the core's again
      this.#stepsKey = '';
      this.#ui.steps.setAttribute('data-pending', this.language);
    }
    const shape = (name) => (p[name] ? [p[name].rows, p[name].cols] : DEFAULT_SHAPES[name]);
    const empty = ([rows, cols]) => ({ rows, cols, data: new Array(rows * cols).fill(NaN) });
    const [T, C] = shape('x');
    const tokens = p.tokens ?? (T === 3 ? DEFAULT_TOKENS : sub('t', T));
    const d = sub('d', shape('W_q')[0]);
    const dv = sub('d', shape('W_v')[0]);
    this.#blocks.x.set(empty([T, C]), tokens, sub('c', C));
    for (const name of ['W_q', 'W_k', 'W_v']) this.#blocks[name].set(empty(shape(name)), sub('d', shape(name)[0]), sub('c', C));
    for (const [name, cols] of [['q', d], ['k', d], ['v', dv], ['scores', tokens], ['masked_scores', tokens], ['weights', tokens], ['out', dv]]) {
      this.#blocks[name].set(empty([T, cols.length]), tokens, cols);
    }
    const ui = this.#ui;
    ui.causal.input.checked = causal;
    ui.scaled.input.checked = scaled;
    ui.reset.hidden = this.readonly;
    this.#drawSequence(tokens);
    for (const name of INPUTS.concat(OUTPUTS)) this.#setFormula(name, LATEX[name]);
    this.#setFormula('scores', scaled ? LATEX.scoresScaled : LATEX.scores);
    setText(this.#cards.masked_scores.explain, this.t(causal ? 'maskedExplainOn' : 'maskedExplainOff'));
    setText(ui.scaled.hint, scaled ? this.t('scaleOn', { d: '…', s: '…' }) : this.t('scaleOff'));
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
      this.#blocks[name] = block;
      const card = {
        name: h('span', { class: 'name' }), formula: h('div', { class: 'formula' }),
        explain: h('p', { class: 'explain' }),
      };
      card.el = h('article', { class: 'card', 'data-matrix': name },
        h('h4', {}, card.name), card.formula, block.el, card.explain);
      this.#cards[name] = card;
      return card.el;
    });
    const section = h('section', { class: `stage${inputs ? '' : ' stage-out'}` },
      h('h3', {}, h('span', { class: 'step', 'aria-hidden': 'true' }, String(n)), title, badge), note,
      h('div', { class: 'cards' }, ...cards));
    this.#ui[`stage${n}`] = { title, note, badge };
    return section;
  }

  // ---- state ----

  get state() {
    if (!this.#lab) return this.#pending ?? {};
    // Read once from Rust per change of the lab: the followers, the URL and the explain
    // keys all ask for it after each edit. Each caller gets its own copy.
    if (!this.#state) {
      const s = this.#lab.state();
      this.#state = {
        x: plain(s.x), W_q: plain(s.W_q), W_k: plain(s.W_k), W_v: plain(s.W_v),
        causal: s.causal, scaled: s.scaled, tokens: Array.from(s.tokens),
      };
    }
    const s = this.#state;
    const copy = (m) => ({ rows: m.rows, cols: m.cols, data: m.data.slice() });
    return {
      x: copy(s.x), W_q: copy(s.W_q), W_k: copy(s.W_k), W_v: copy(s.W_v),
      causal: s.causal, scaled: s.scaled, tokens: s.tokens.slice(),
    };
  }

  /** What the core computed from the state on screen: `{ q, k, v, scores, masked_scores,
   *  weights, out }`, each `{ rows, cols, data }` (masked scores hold -Infinity), copied;
   *  null before the first draw and while the inputs cannot run (the page shows the last
   *  valid result greyed). */
  get result() {
    const r = this.#last;
    if (!r || this.#ui.main?.classList.contains('stale')) return null;
    return Object.fromEntries(OUTPUTS.map((name) => [name, plain(r[name])]));
  }

  /** The lab's numbers changed: the cached state is stale. */
  #changed() {
    this.#state = null;
  }

  set state(s) {
    if (!s || typeof s !== 'object') throw new Error('state: expected an object');
    const next = {};
    for (const name of INPUTS) if (s[name] != null) next[name] = checkMatrix(s[name], name);
    if (s.causal != null) next.causal = checkBool(s.causal, 'causal');
    if (s.scaled != null) next.scaled = checkBool(s.scaled, 'scaled');
    if (s.tokens != null) {
      const ok = Array.isArray(s.tokens) && s.tokens.every((t) => typeof t === 'string' && t.length <= 8);
      if (!ok) throw new Error('tokens: expected a list of short strings');
      next.tokens = s.tokens.slice();
    }
    this.#dropEarly(); // a whole new state: what was typed or switched before it is gone
    if (!this.core || !this.#lab) {
      // Before the first draw: check it now (a link's numbers the core refuses make
      // the page's URL notice, not a late inline error), draw it on first render.
      if (this.core) this.#makeLab(next).free();
      this.#pending = next;
      if (!this.#lab) this.#drawPlaceholder(); // its shapes, until the first draw
      return;
    }
    const lab = this.#makeLab(next); // throws on shapes the head cannot run
    this.#lab?.free();
    this.#lab = lab;
    this.#changed();
    this.#pending = null;
    this.#redraw(true);
  }

  /** The switches of state `over` where it sets them, else as the attributes set them. */
  #switches(over) {
    return { causal: over.causal ?? flag(this, 'causal', true), scaled: over.scaled ?? flag(this, 'scaled', false) };
  }

  /** A HeadLab from the attributes, then `over` (validated state); throws if it cannot run. */
  #makeLab(over = {}) {
    const lab = new this.core.HeadLab();
    try {
      const { causal, scaled } = this.#switches(over);
      lab.setCausal(causal);
      lab.setScaled(scaled);
      for (const name of INPUTS) {
        const m = over[name];
        if (m) lab.setMatrix(name, m.rows, m.cols, new Float64Array(m.data));
      }
      const rows = lab.state().x.rows;
      if (over.tokens && over.tokens.length !== rows) throw new Error('tokens: one per row of x');
      if (over.tokens || rows !== 3) lab.setTokens(over.tokens ?? sub('t', rows));
      lab.compute();
    } catch (e) {
      lab.free();
      throw e;
    }
    return lab;
  }

  // ---- drawing ----

  render() {
    const weights = this.getAttribute('weights');
    // An unknown name or a bad switch is said, and the built-in head is drawn (the switch
    // at its default): never empty cards.
    let bad = weights && weights !== 'hou' ? this.t('a.head.badWeights', { w: weights }) : null;
    for (const name of ['causal', 'scaled']) {
      try {
        boolAttr(this, name, false);
      } catch (e) {
        bad ??= message(e);
      }
    }
    const key = ['weights', 'scaled', 'causal'].map((a) => this.getAttribute(a)).join('|');
    if (!this.#lab || key !== this.#attrKey || this.#pending) {
      this.#attrKey = key;
      const pending = this.#pending;
      this.#pending = null;
      let lab;
      try {
        lab = this.#makeLab(pending ?? {});
      } catch (e) {
        this.showError(message(e));
        lab = this.#makeLab();
      }
      this.#lab?.free();
      this.#lab = lab;
      this.#changed();
    }
    this.#drawText();
    this.#redraw(false);
    // Cells typed before the core arrived, now that there is a lab to take them; they and
    // the switches turned meanwhile are the learner's change.
    const early = this.#early.splice(0).filter((cell) => this.#setCell(...cell));
    if (early.length) this.#redraw(false);
    if (early.length || this.#switched) this.emitChange();
    this.#switched = false;
    if (bad) this.showError(bad);
  }

  #drawText() {
    const ui = this.#ui;
    ui.causal.name.textContent = this.t('causal');
    ui.causal.hint.textContent = this.t('causalHint');
    ui.scaled.name.replaceChildren(this.t('a.head.scaled'));
    ui.reset.textContent = this.t('reset');
    ui.reset.title = this.t('resetTitle');
    ui.tables.label();
    ui.keyboard.textContent = this.t('keyboard');
    ui.seq.setAttribute('aria-label', this.t('a.head.sequence'));
    ui.legend.setAttribute('aria-label', this.t('legend'));
    const ramp = (p) => h('span', { class: 'ramp', 'aria-hidden': 'true', style: `background:${rampGradient(p)}` });
    ui.legend.replaceChildren(
      h('span', { class: 'legend-item' }, this.t('legendNeg'), ramp('signed'), this.t('legendPos')),
      h('span', { class: 'legend-item' }, `${this.t('legendWeights')} 0`, ramp('weights'), '1'),
      h('span', { class: 'legend-item' }, h('span', { class: 'swatch-masked', 'aria-hidden': 'true' }), this.t('legendMasked')));
    for (const n of [1, 2, 3]) {
      const st = ui[`stage${n}`];
      st.title.textContent = this.t(`stage${n}`);
      st.note.textContent = this.t(`stage${n}Note`);
      if (st.badge) st.badge.textContent = this.t('editableBadge');
    }
    for (const [name, card] of Object.entries(this.#cards)) {
      const title = this.t(CARDS[name][0]);
      card.name.textContent = title === name ? name : `${name} · ${title}`;
      card.explain.textContent = this.t(CARDS[name][1]);
    }
    for (const name of INPUTS) this.#blocks[name].matrix.toggleAttribute('editable', !this.readonly);
    if (ui.steps.hasAttribute('data-pending')) ui.steps.setAttribute('data-pending', this.language);
  }

  /** Draws the inputs Rust holds, then every intermediate (or keeps the last on error). */
  #redraw(inputsToo) {
    this.state; // fills the cache
    const s = this.#state;
    const ui = this.#ui;
    if (inputsToo || !this.#last) for (const name of INPUTS) this.#blocks[name].matrix.clearErrors?.();
    this.#drawInputs(s);
    let r;
    try {
      r = this.#lab.compute();
    } catch (e) {
      ui.message.textContent = this.t('computeFailed', { msg: message(e) });
      ui.message.hidden = false;
      ui.main.classList.add('stale');
      this.#drawScale(s.scaled, this.#last);
      return false;
    }
    this.#last = r;
    if (!ui.message.hidden) ui.message.hidden = true;
    ui.main.classList.remove('stale');
    this.#drawResult(s, r);
    this.#drawSteps(s, this.#lab.formulaLatex?.() ?? this.core.formulaLatex(), () => this.#lab.formulaSteps());
    return true;
  }

  /** The stepper: the formula (it never changes: set once, re-typesetting it costs a
   *  frame) and the steps of state `s`. What it draws of a step (its name, term, factor
   *  1/√d, masked cells) follows from the switches and the shapes alone: the steps are
   *  asked for again (`steps()`, a slow call) only when they change, or on every redraw
   *  when the stepper also draws each step's output matrix. */
  #drawSteps(s, latex, steps) {
    const ui = this.#ui;
    if (ui.steps.latex !== latex) ui.steps.latex = latex;
    const stepsKey = JSON.stringify([s.causal, s.scaled, s.x.rows, s.x.cols, s.W_q.rows, s.W_k.rows, s.W_v.rows, this.language]);
    if (ui.steps.hasAttribute('show-output') || stepsKey !== this.#stepsKey) {
      this.#stepsKey = stepsKey;
      ui.steps.steps = steps();
      if (ui.steps.hasAttribute('data-pending')) ui.steps.removeAttribute('data-pending');
    }
  }

  /** The inputs of state `s` (the lab's, or the built-in head's before the core arrives),
   *  its switches, its sequence and what the mask says. */
  #drawInputs(s) {
    const tokens = s.tokens.slice();
    const ui = this.#ui;
    this.#blocks.x.set(s.x, tokens, sub('c', s.x.cols));
    for (const name of ['W_q', 'W_k', 'W_v']) this.#blocks[name].set(s[name], sub('d', s[name].rows), sub('c', s[name].cols));
    ui.causal.input.checked = s.causal;
    ui.scaled.input.checked = s.scaled;
    ui.causal.input.disabled = this.readonly;
    ui.scaled.input.disabled = this.readonly;
    ui.reset.hidden = this.readonly;
    this.#drawSequence(tokens);
    this.#setFormula('masked_scores', LATEX.masked_scores);
    setText(this.#cards.masked_scores.explain, this.t(s.causal ? 'maskedExplainOn' : 'maskedExplainOff'));
  }

  /** Every intermediate of result `r` of state `s`, their formulas and the scale. */
  #drawResult(s, r) {
    const tokens = s.tokens.slice();
    const ui = this.#ui;
    const d = sub('d', r.q.cols);
    const dv = sub('d', r.v.cols);
    this.#blocks.q.set(r.q, tokens, d);
    this.#blocks.k.set(r.k, tokens, d);
    this.#blocks.v.set(r.v, tokens, dv);
    this.#blocks.scores.set(r.scores, tokens, tokens);
    this.#blocks.masked_scores.set(r.masked_scores, tokens, tokens);
    const masked = Array.from(r.masked_scores.data, (v) => v === -Infinity);
    this.#blocks.weights.set({ ...r.weights, masked }, tokens, tokens);
    this.#blocks.out.set(r.out, tokens, dv);
    const rows = Array.from(r.fully_masked_rows ?? [], (i) => tokens[i] ?? i);
    if (ui.note.hidden !== (rows.length === 0)) ui.note.hidden = rows.length === 0;
    setText(ui.note, rows.length ? this.t('fullyMasked', { rows: rows.join(', ') }) : '');
    this.#drawScale(s.scaled, r);
    for (const name of INPUTS.concat(OUTPUTS)) if (name !== 'masked_scores' && name !== 'scores') this.#setFormula(name, LATEX[name]);
    this.#setFormula('scores', s.scaled ? LATEX.scoresScaled : LATEX.scores);
  }

  #setFormula(name, latex) {
    const box = this.#cards[name].formula;
    if (box.dataset.latex === latex) return;
    box.dataset.latex = latex;
    box.replaceChildren(tex(latex));
  }

  #drawScale(scaled, r) {
    const hint = this.#ui.scaled.hint;
    setText(hint, scaled && r ? this.t('scaleOn', { d: r.q.cols, s: r.scale.toFixed(2) }) : this.t('scaleOff'));
  }

  #drawSequence(tokens) {
    const words = (this.getAttribute('sequence') || '').split('|').map((w) => w.trim()).filter(Boolean);
    const seq = this.#ui.seq;
    seq.hidden = words.length < 2;
    if (seq.hidden) return;
    const current = tokens.join('');
    // The buttons are made again only when what they say changes (not on every edit).
    const key = JSON.stringify([words, current, this.readonly, this.t('a.head.sequence')]);
    if (key === this.#seqKey) return;
    this.#seqKey = key;
    const buttons = words.map((w) => h('button', {
      type: 'button', class: 'word', 'aria-pressed': String(w === current), disabled: this.readonly,
      onclick: () => this.#setWord(w),
    }, w));
    seq.replaceChildren(h('span', { class: 'toggle-hint' }, this.t('a.head.sequence')), ...buttons);
  }

  // ---- interaction ----

  /** A switch the learner turned: into the lab, or, before the core has arrived, into the
   *  state the lab will be made from (the built-in head's numbers follow it). */
  #setSwitch(name, on) {
    if (this.readonly) return;
    if (!this.#lab) {
      this.#pending = { ...this.#pending, [name]: on };
      this.#switched = true;
      this.#drawPlaceholder();
      return;
    }
    this.#edit(() => (name === 'causal' ? this.#lab.setCausal(on) : this.#lab.setScaled(on)));
  }

  /** Applies a change to the lab, redraws, and tells the host. */
  #edit(fn) {
    if (!this.#lab) return;
    try {
      fn();
    } catch (e) {
      this.#changed(); // fn may have changed part of the lab before it threw
      this.showError(message(e));
      return;
    }
    this.#changed();
    this.clearError();
    this.#redraw(false);
    this.#announce();
  }

  #announce() {
    this.emitChange();
    this.dispatchEvent(new CustomEvent('attn-rendered', { bubbles: true, composed: true }));
  }

  #setWord(word) {
    this.#edit(() => {
      const x = this.core.compareWords(word, word, {}).a.x; // the word's one-hot rows, from Rust
      this.#lab.setMatrix('x', x.rows, x.cols, new Float64Array(x.data));
      this.#lab.setTokens([...word]);
    });
  }

  #onCellEdit(e) {
    const el = e.composedPath()[0]?.closest?.('attn-matrix') ?? e.target;
    const name = el.id;
    if (!INPUTS.includes(name) || this.readonly) return;
    const { row, col, text } = e.detail;
    if (!this.#lab) {
      // Typed while the core is on its way (the built-in head's numbers are on screen by
      // then): kept, and given to the lab once it is made (render).
      this.#early.push([el, name, row, col, text]);
      return;
    }
    if (!this.#setCell(el, name, row, col, text)) return;
    this.#redraw(false); // draws the edited grid too (the cell being typed in keeps its text)
    this.#announce();
  }

  /** Forgets the cells typed and the switches turned before the core arrived; each grid
   *  typed in shows its own numbers again. */
  #dropEarly() {
    for (const [grid] of this.#early) grid.revert();
    this.#early = [];
    this.#switched = false;
  }

  /** One cell's text into the lab (the core reads the number); false, with the cell
   *  marked, when it is not one. */
  #setCell(el, name, row, col, text) {
    try {
      this.#lab.setCell(name, row, col, text);
    } catch (err) {
      // Number errors come with a code and are said in the grid's language, live.
      el.setCellError(row, col, (lang) => (err?.code ? '' : t('invalidPrefix', {}, lang)) + message(err, lang));
      return false;
    }
    this.#changed();
    el.clearCellError(row, col);
    return true;
  }

  #reset() {
    if (!this.#lab) {
      // Before the core: back to the attributes' head, nothing typed or switched kept.
      this.#pending = null;
      this.#dropEarly();
      this.#drawPlaceholder();
      return;
    }
    this.#lab.free();
    this.#lab = this.#makeLab();
    this.#changed();
    this.clearError();
    for (const name of INPUTS) this.#blocks[name].matrix.clearErrors();
    this.#redraw(true);
    this.#announce();
  }

  #onExplain(e) {
    const { row, col, label } = e.detail ?? {};
    if (!this.#lab || !OUTPUTS.includes(label)) return;
    let ex;
    try {
      ex = this.#lab.explain(label, row, col);
    } catch (err) {
      this.showError(message(err));
      return;
    }
    this.#ui.explain.explanation = ex;
    const sources = Array.from(ex?.sources ?? []);
    for (const [name, block] of Object.entries(this.#blocks)) {
      if (typeof block.matrix.highlight === 'function') {
        block.matrix.highlight(sources.filter((s) => s.matrix === name));
      }
    }
  }

  #onStep(e) {
    const produces = e.detail?.produces;
    for (const [name, card] of Object.entries(this.#cards)) card.el.classList.toggle('step-active', name === produces);
  }
}

define(AttnHead);
