// <attn-exercise>: §6, the lesson-1 exercise replayed. The learner fills the three
// blanks of the NumPy solution (score line, mask, softmax axis) from candidates,
// sees the code with those choices, and what each choice does: the weights, their
// row and column sums, NaN warnings, and the max error against the expected output.
// Below: the batched multi-head version (B, H, T, d_k) = (2, 4, 5, 16) checked
// against the reference path.
//
//   state: { score, mask, axis, seed, causal }  (score/mask/axis null until chosen)
//   numbers: exerciseRun(score, mask, axis), multiHeadCheck(seed, 2, 4, 5, 16, causal)
//   Both weights grids explain themselves: explainExercise (the chosen blanks'
//   softmax, along the chosen axis; NaN where NumPy gives NaN) and explainMultiHead
//   (head 0 of the same seed and mask).

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { adoptTex, tex, usePrebuilt } from '../../ui/tex.js';
import { exercise as TYPESET } from '../../ui/formulas.gen.js';
import { checkBool as bool, checkInt as int, checkObject as object } from '../../ui/cell-checks.js';
import { formatFixed as num, formatList as list, formatSci as err } from '../../ui/format.js';
import { checkbox, fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS as B_CSS } from '../base/lesson-css.js';
import { heatmap as matrix, showMatrix as show } from '../base/matrix-block.js';
import { explainGrids } from '../explain/explain-grids.js';

usePrebuilt(TYPESET);

const CHOICES = {
  score: ['unscaled', 'dk', 'scaled'],
  mask: ['none', 'diagonal', 'lower', 'upper'],
  axis: ['receivers', 'last'],
};
const LINE = { score: 0, mask: 1, axis: 2 };
const TOKENS = ['t0', 't1', 't2', 't3'];
const MH_SHAPE = [2, 4, 5, 16]; // (B, H, T, d_k) of the multi-head check
const MH_TOKENS = ['0', '1', '2', '3', '4'];
const BLANK = '________';
// The code around the three blanks: [text, shape comment]; null marks a blank.
const CONTEXT = [
  ['def attention(X, W_q, W_k, W_v):', 'X: (T, d_model)'],
  ['    Q, K, V = X @ W_q, X @ W_k, X @ W_v', '(T, d_k), (T, d_k), (T, d_v)'],
  ['    T, d_k = K.shape', ''],
  ['score', '(T, T)'],
  ['mask', '(T, T), True = hidden'],
  ['    scores = np.where(mask, -np.inf, scores)', ''],
  ['axis', '(T, T), rows sum to 1'],
  ['    return weights @ V', '(T, d_v)'],
];
const pad = (code, note) => (note ? `${code.padEnd(50)}# ${note}` : code);

class Exercise extends AttnWidget {
  static tag = 'attn-exercise';
  static css = `${B_CSS}
    .blanks { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 10px; margin-bottom: 10px; }
    pre.code .blank { background: #fde68a; color: #1b1e27; border-radius: 3px; }
    pre.code .chosen { background: var(--_bg); border-radius: 3px; box-shadow: inset 0 -2px 0 var(--_accent); }
    .sums td { font-family: var(--_mono); }
    .printed { margin-top: 8px; }
    .msg.pending { font-weight: 500; } /* a verdict's weight, until the core's verdict */
    .mh { margin-top: 16px; padding-top: 12px; border-top: 1px dashed var(--_line); }`;

  #s = { score: null, mask: null, axis: null, seed: 0, causal: true };
  #code = null; // candidate code lines from the core, per blank and choice

  build(root) {
    this.groups = {};
    const sets = Object.entries(CHOICES).map(([blank, options]) => {
      const labels = options.map((opt) => {
        const input = h('input', { type: 'radio', name: blank, value: opt, onchange: () => {
          this.#s[blank] = opt;
          this.refresh();
          this.emitChange();
        } });
        return h('label', {}, input, h('code', { 'data-blank': blank, 'data-opt': opt }));
      });
      this.groups[blank] = labels.map((l) => l.firstChild);
      return h('fieldset', {}, k('legend', `b.ex.blank.${blank}`), ...labels);
    });
    this.code = h('pre', { class: 'code', tabindex: 0, 'data-k-aria': 'b.ex.codeAria' });
    this.weights = matrix('weights', 'weights');
    this.sums = h('table', { class: 'plain sums' });
    this.verdict = h('p', { class: 'msg', role: 'status' });
    this.hints = h('ul', { class: 'muted' });
    this.printed = h('pre', { class: 'code printed', hidden: true });
    this.result = h('div', { hidden: true, 'data-explain-scope': '' },
      h('div', { class: 'row' },
        h('div', { class: 'col panel' }, k('h3', 'b.weights'), this.weights),
        h('div', { class: 'col panel' }, k('h3', 'b.ex.sums'), this.sums)),
      h('div', { style: 'margin-top:10px' }, this.verdict, this.hints, this.printed));
    this.waiting = k('p', 'b.ex.waiting', { class: 'muted' });
    adoptTex(this.shadowRoot);
    const mh = this.buildMultiHead();
    this.explainer = explainGrids(this, {
      grids: () => [this.weights, this.mhWeights],
      explain: (grid, row, col) => {
        const s = this.#s;
        if (grid === this.mhWeights) return this.core.explainMultiHead(s.seed, ...MH_SHAPE, s.causal, 'weights', row, col);
        return s.score && s.mask && s.axis ? this.core.explainExercise(s.score, s.mask, s.axis, 'weights', row, col) : null;
      },
      key: () => JSON.stringify(this.#s),
      panel: (grid, panel) => { panel.tokens = grid === this.mhWeights ? MH_TOKENS : TOKENS; },
    });
    root.append(
      h('div', { class: 'formulas' },
        tex('\\text{out}=\\operatorname{softmax}\\!\\Big(\\frac{QK^{\\top}}{\\sqrt{d_k}}+M\\Big)\\,V', true),
        tex('M_{ts}=\\begin{cases}0 & s\\le t\\\\ -\\infty & s>t\\end{cases}', true)),
      k('p', 'b.ex.lead', { class: 'lead' }),
      h('div', { class: 'blanks' }, ...sets),
      h('div', { class: 'scroll-x' }, this.code),
      h('div', { style: 'margin-top:10px' }, this.waiting, this.result),
      mh,
      this.explainer.panel,
    );
    // The final layout before the core arrives (it writes the candidate lines): the
    // blanks, the code and the multi-head check with placeholders.
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.#drawCode(null);
    this.waiting.hidden = false;
    this.mhCausal.checked = this.#s.causal;
    this.mhResult.className = 'msg pending';
    this.mhResult.textContent = this.t('b.mh.result', {
      shape: `(${MH_SHAPE.join(', ')})`, err: '…', seed: this.#s.seed, verdict: this.t('b.mh.close'),
    });
    show(this.mhWeights, { rows: MH_SHAPE[2], cols: MH_SHAPE[2], data: new Array(MH_SHAPE[2] ** 2).fill(NaN) }, MH_TOKENS, MH_TOKENS);
  }

  /** The candidates and the code with the chosen lines: `code` from the core, or null
   *  (before it arrives: placeholders where a line goes). */
  #drawCode(code) {
    const s = this.#s;
    const line = (blank, opt) => (code ? code[blank][opt] : '…');
    for (const el of this.shadowRoot.querySelectorAll('code[data-blank]')) {
      el.textContent = line(el.dataset.blank, el.dataset.opt);
    }
    for (const [blank, inputs] of Object.entries(this.groups)) {
      for (const input of inputs) input.checked = input.value === s[blank];
    }
    this.code.replaceChildren(...CONTEXT.flatMap(([text, note], i) => {
      const nl = i ? '\n' : '';
      if (!(text in CHOICES)) return [nl, pad(text, note)];
      const chosen = s[text] ? line(text, s[text]) : BLANK;
      const gap = ' '.repeat(Math.max(1, 46 - chosen.length));
      return [nl, '    ', h('span', { class: s[text] ? 'chosen' : 'blank' }, chosen), note ? `${gap}# ${note}` : ''];
    }));
  }

  buildMultiHead() {
    const causal = checkbox('b.causalMask', (on) => { this.#s.causal = on; this.refresh(); this.emitChange(); });
    this.mhCausal = causal.input;
    this.mhButton = k('button', 'b.newSeed', { type: 'button', onclick: () => {
      this.#s.seed = (this.#s.seed + 1) % 1000;
      this.refresh();
      this.emitChange();
    } });
    this.mhResult = h('p', { class: 'msg', role: 'status' });
    this.mhWeights = matrix('head 0 weights', 'weights');
    return h('div', { class: 'mh', 'data-explain-scope': '' },
      k('h3', 'b.mh.title'), k('p', 'b.mh.lead', { class: 'lead' }),
      h('div', { class: 'controls' }, causal.label, this.mhButton),
      this.mhResult,
      h('div', { class: 'col', style: 'margin-top:8px' }, k('h3', 'b.mh.head0'), this.mhWeights));
  }

  #candidates(core) {
    if (this.#code) return this.#code;
    const pick = { score: 'scaled', mask: 'upper', axis: 'last' };
    this.#code = { lines: core.exerciseRun('scaled', 'upper', 'last').code };
    for (const [blank, options] of Object.entries(CHOICES)) {
      this.#code[blank] = {};
      for (const opt of options) {
        const args = { ...pick, [blank]: opt };
        this.#code[blank][opt] = core.exerciseRun(args.score, args.mask, args.axis).code[LINE[blank]];
      }
    }
    return this.#code;
  }

  render(core) {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.clearError();
    const s = this.#s;
    this.explainer.sync();
    this.#drawCode(this.#candidates(core));
    const ready = s.score && s.mask && s.axis;
    this.waiting.hidden = Boolean(ready);
    this.result.hidden = !ready;
    if (ready) this.#showRun(core.exerciseRun(s.score, s.mask, s.axis));
    this.#showMultiHead(core);
  }

  #showRun(r) {
    const s = this.#s;
    show(this.weights, { ...r.weights, masked: Array.from(r.masked_scores.data, (v) => v === -Infinity) }, TOKENS, TOKENS);
    // NaN is the lesson here, so it is printed as NaN rather than a dash.
    const cell = (v) => (Number.isNaN(v) ? h('td', { class: 'bad' }, 'NaN') : h('td', {}, num(v, 2)));
    const row = (key, values) => h('tr', {}, h('th', { scope: 'row' }, this.t(key)), ...values.map(cell));
    this.sums.replaceChildren(
      h('thead', {}, h('tr', {}, h('th'), ...TOKENS.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, row('b.ex.rowSums', r.row_sums), row('b.ex.colSums', r.col_sums)));
    const vars = { w: err(r.weights_max_err), o: err(r.out_max_err) };
    this.verdict.textContent = this.t(r.matches_expected ? 'b.ex.matches' : r.has_nan ? 'b.ex.nan' : 'b.ex.differs', vars);
    this.verdict.className = `msg ${r.matches_expected ? 'ok' : 'bad'}`;
    this.verdict.dataset.matches = String(r.matches_expected);
    const hints = [];
    if (s.score !== 'scaled') hints.push(`b.ex.hint.${s.score}`);
    if (s.mask !== 'upper') hints.push(`b.ex.hint.${s.mask}`);
    if (s.axis !== 'last') hints.push('b.ex.hint.receivers');
    this.hints.replaceChildren(...(r.matches_expected ? [] : hints.map((key) => h('li', {}, this.t(key)))));
    this.printed.hidden = !r.matches_expected;
    if (r.matches_expected) {
      const w = r.weights;
      const rows = Array.from({ length: w.rows }, (_, i) => list(w.data.slice(i * w.cols, (i + 1) * w.cols)));
      this.printed.textContent = `>>> print(weights.round(2))\n[${rows.join(',\n ')}]\n>>> ${this.t('b.ex.printedSums')} ${list(r.row_sums)}`;
    }
  }

  #showMultiHead(core) {
    const s = this.#s;
    this.mhCausal.checked = s.causal;
    const r = core.multiHeadCheck(s.seed, ...MH_SHAPE, s.causal);
    this.mhResult.textContent = this.t('b.mh.result', {
      shape: `(${r.shape.join(', ')})`, err: err(r.max_err), seed: s.seed,
      verdict: this.t(r.allclose ? 'b.mh.close' : 'b.mh.far'),
    });
    this.mhResult.className = `msg ${r.allclose ? 'ok' : 'bad'}`;
    this.mhResult.dataset.maxErr = String(r.max_err);
    show(this.mhWeights, r.head0_weights, MH_TOKENS, MH_TOKENS);
  }

  get state() {
    return { ...this.#s };
  }

  set state(s) {
    object(s);
    const next = {};
    for (const [blank, options] of Object.entries(CHOICES)) {
      const v = s[blank] ?? null;
      if (v !== null && !options.includes(v)) throw new Error(`${blank} must be one of ${options.join(', ')}`);
      next[blank] = v;
    }
    next.seed = int(s.seed ?? 0, 'seed', 0, 999);
    next.causal = bool(s.causal ?? true, 'causal');
    this.#s = next;
    this.refresh();
  }
}

define(Exercise);
