// <attn-note-encoder>: note 4 of §5. Encoder and decoder attention differ by one
// line: the mask. The learner toggles that line in the code and sees the h/o/u
// weights and outputs change (encoderDecoder() runs both).
//
//   state: { decoder }   (true: the mask line is in; false: commented out)
//   Weights and out explain a clicked cell (explainTrace on the drawn trace).

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { checkBool, checkObject } from '../../ui/cell-checks.js';
import { fillStrings, k } from '../base/labels.js';
import { CODE_WRAP_CSS, NOTE_WIDGET_CSS } from '../base/lesson-css.js';
import { heatmap, showMatrix } from '../base/matrix-block.js';
import { explainTraces } from '../explain/explain-trace.js';

const TOKENS = ['h', 'o', 'u'];
// [code, shape comment]: comments are aligned when the lines are joined.
const line = ([code, note]) => (note ? `${code.padEnd(46)}# ${note}` : code);
const BEFORE = [
  ['def attention(x):', 'x: (T, C)'],
  ['    q, k, v = x @ W_q.T, x @ W_k.T, x @ W_v.T', '(T, d) each'],
  ['    scores = q @ k.T', '(T, T)'],
].map(line);
const MASK = "    scores = scores.masked_fill(tril == 0, float('-inf'))";
const AFTER = [
  ['    weights = scores.softmax(dim=-1)', '(T, T), rows sum to 1'],
  ['    return weights @ v', '(T, d)'],
].map(line);

class NoteEncoder extends AttnWidget {
  static tag = 'attn-note-encoder';
  static css = `${NOTE_WIDGET_CSS}
    .seg { display: inline-flex; border: 1px solid var(--_line); border-radius: 999px; padding: 2px; gap: 2px; }
    .seg button { border: 0; border-radius: 999px; }
    pre.code .off { color: var(--_muted); text-decoration: line-through; }
    /* A line too long for a phone wraps, all of it in view, and goes on 8 columns in
       (past the code's own indent), so a wrapped comment does not read as a new line. */
    ${CODE_WRAP_CSS}
    pre.code .line { display: block; padding-left: 8ch; text-indent: -8ch; }`;

  #decoder = true;

  build(root) {
    const pick = (decoder) => () => {
      this.#decoder = decoder;
      this.refresh();
      this.emitChange();
    };
    this.btnDec = k('button', 'b.enc.decoder', { type: 'button', onclick: pick(true) });
    this.btnEnc = k('button', 'b.enc.encoder', { type: 'button', onclick: pick(false) });
    this.maskLine = h('span', { class: 'line changed' });
    const lines = (texts) => texts.map((text) => h('span', { class: 'line' }, `${text}\n`));
    this.code = h('pre', { class: 'code', tabindex: 0 }, ...lines(BEFORE), this.maskLine, ...lines(AFTER));
    this.weights = heatmap('weights', 'weights');
    this.out = heatmap('out', 'signed');
    this.explainer = explainTraces(this, {
      grids: [this.weights, this.out],
      source: () => this.run && { trace: this.#trace(), causal: this.#decoder },
      key: () => String(this.#decoder),
      tokens: TOKENS,
    });
    root.append(
      h('div', { class: 'head' }, k('span', 'b.tag4', { class: 'tag' }), k('h3', 'b.enc.title')),
      k('p', 'b.enc.lead', { class: 'lead' }),
      h('div', { class: 'controls' }, h('div', { class: 'seg', role: 'group', 'data-k-aria': 'b.enc.kind' }, this.btnDec, this.btnEnc)),
      h('div', { class: 'scroll-x' }, this.code),
      h('div', { class: 'row', style: 'margin-top:10px' },
        h('div', { class: 'col panel' }, k('h4', 'b.weights'), this.weights),
        h('div', { class: 'col panel' }, k('h4', 'b.out'), this.out)),
      k('p', 'b.enc.trap', { class: 'msg bad', style: 'margin-top:10px;font-weight:400' }),
      this.explainer.panel,
    );
    // The final layout before the core arrives: the texts, the code and both grids at
    // their (T, T) and (T, d) shapes with empty cells.
    this.#controls();
    showMatrix(this.weights, { rows: 3, cols: 3, data: new Array(9).fill(NaN) }, TOKENS, TOKENS);
    showMatrix(this.out, { rows: 3, cols: 2, data: new Array(6).fill(NaN) }, TOKENS, ['d₀', 'd₁']);
  }

  /** The texts, the switch and the code: no number from the core. */
  #controls() {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.btnDec.setAttribute('aria-pressed', String(this.#decoder));
    this.btnEnc.setAttribute('aria-pressed', String(!this.#decoder));
    this.maskLine.textContent = `${this.#decoder ? MASK : `    # ${MASK.trim()}   ← ${this.t('b.enc.removed')}`}\n`;
    this.maskLine.classList.toggle('off', !this.#decoder);
  }

  render(core) {
    this.clearError();
    this.#controls();
    // The default h/o/u head never changes: one call serves every redraw.
    this.run ??= core.encoderDecoder({});
    this.explainer.sync();
    const trace = this.#trace();
    showMatrix(this.weights, { ...trace.weights, masked: Array.from(trace.masked_scores.data, (v) => v === -Infinity) }, TOKENS, TOKENS);
    showMatrix(this.out, trace.out, TOKENS, ['d₀', 'd₁']);
  }

  #trace() {
    return this.#decoder ? this.run.decoder : this.run.encoder;
  }

  get state() {
    return { decoder: this.#decoder };
  }

  set state(s) {
    checkObject(s);
    this.#decoder = checkBool(s.decoder ?? true, 'decoder');
    this.refresh();
  }
}

define(NoteEncoder);
