// <attn-note-scale>: note 6 of §5, why scores are divided by √d_k.
// (1) a d_k slider over 6 tokens with fixed N(0, 1) queries and keys: the weights
//     sharpen towards one-hot as d_k grows unless the scores are scaled;
// (2) the Var(q·k) ≈ d table, re-measured on a click (<attn-variance>);
// (3) softmax of one score row multiplied by 1, 4, 8: larger scores, peakier weights.
//
//   state: { dk, scaled, causal }
//   numbers: dkSlider, softmaxSharpening, avgMaxWeight (and varianceExperiment)

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { adoptTex, tex, usePrebuilt } from '../../ui/tex.js';
import { noteScale as TYPESET } from '../../ui/formulas.gen.js';
import { explainTraces } from '../explain/explain-trace.js';
import { checkBool, checkInt, checkObject } from '../../ui/cell-checks.js';
import { formatFixed, formatList } from '../../ui/format.js';
import { checkbox, fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS, compactGrids } from '../base/lesson-css.js';
import { heatmap, showMatrix } from '../base/matrix-block.js';
import './variance.js';

usePrebuilt(TYPESET);

const SEED = 0;
const TOKENS = ['t0', 't1', 't2', 't3', 't4', 't5'];
const ROW = [0.1, -0.2, 0.3, -0.2, 0.5];
const FACTORS = [1, 4, 8];
const PICKS = [1, 4, 16, 64, 256, 512];

class NoteScale extends AttnWidget {
  static tag = 'attn-note-scale';
  static css = `${NOTE_WIDGET_CSS}
    .slider { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; }
    .slider input { width: min(360px, 100%); }
    .picks { display: inline-flex; flex-wrap: wrap; gap: 4px; }
    .picks button { padding: 2px 8px; font-family: var(--_mono); font-weight: 500; }
    .stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 8px; margin: 0; }
    .stats div { border: 1px solid var(--_line); border-radius: 8px; padding: 6px 10px; }
    .stats dt { font-size: .8rem; color: var(--_muted); }
    .stats dd { margin: 0; }
    .grid2 { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: 12px 18px; align-items: start; }
    @media (max-width: 640px) { .grid2 { grid-template-columns: minmax(0, 1fr); } }
    .grid2 { container-type: inline-size; } /* on a phone the 6 × 6 weights fit whole: */
    ${compactGrids(400, '2.9rem')}
    .bars { display: flex; flex-wrap: wrap; gap: 12px 22px; }
    .group { display: flex; flex-direction: column; gap: 4px; }
    .plot { display: flex; align-items: flex-end; gap: 4px; height: 120px; width: max-content; border-bottom: 1px solid var(--_muted); }
    .bar { width: 30px; display: flex; flex-direction: column; justify-content: flex-end; align-items: center; height: 100%; }
    .bar span { font: 11px var(--_mono); color: var(--_fg); }
    .bar i { display: block; width: 100%; background: var(--_accent); border-radius: 3px 3px 0 0; min-height: 1px; }
    .xs { display: flex; gap: 4px; font: 11px var(--_mono); color: var(--_muted); }
    .xs span { width: 30px; text-align: center; }
    section { margin-top: 16px; padding-top: 12px; border-top: 1px dashed var(--_line); }`;

  #s = { dk: 16, scaled: false, causal: true };

  build(root) {
    adoptTex(this.shadowRoot);
    this.slider = h('input', { type: 'range', min: 1, max: 512, step: 1, 'data-k-aria': 'b.scale.dk',
      oninput: (e) => { this.#s.dk = Number(e.target.value); this.refresh(); this.emitChange(); } });
    this.dkOut = h('output', { class: 'big' });
    const scaled = checkbox('b.scaleBy', (on) => { this.#s.scaled = on; this.refresh(); this.emitChange(); });
    const causal = checkbox('b.causalMask', (on) => { this.#s.causal = on; this.refresh(); this.emitChange(); });
    this.scaledBox = scaled.input;
    this.causalBox = causal.input;
    this.weights = heatmap('weights', 'weights');
    // A clicked weight is explained as the softmax over its row of scores
    // (explainTrace on the slider's q, k and scale; there is no v here).
    this.explainer = explainTraces(this, {
      grids: [this.weights],
      source: () => this.run && { trace: { q: this.run.q, k: this.run.k, scale: this.run.scale }, causal: this.run.causal },
      key: () => JSON.stringify(this.state),
      tokens: TOKENS,
    });
    const stat = (key) => {
      const dd = h('dd', { class: 'big' });
      return [h('div', {}, k('dt', key), dd), dd];
    };
    const [s1, std] = stat('b.scale.std');
    const [s2, maxw] = stat('b.scale.maxw');
    const [s3, scale] = stat('b.scale.scale');
    this.std = std;
    this.maxw = maxw;
    this.scaleOut = scale;
    this.bars = h('div', { class: 'bars' });
    this.avg = h('p', { class: 'result' });
    root.append(
      h('div', { class: 'head' }, k('span', 'b.tag6', { class: 'tag' }), k('h3', 'b.scale.title')),
      k('p', 'b.scale.lead', { class: 'lead' }),
      h('div', { class: 'formulas' },
        tex('\\operatorname{Var}(q\\cdot k)=\\sum_{i=1}^{d_k}\\operatorname{Var}(q_i k_i)=d_k', true),
        tex('\\operatorname{Var}\\!\\left(\\frac{q\\cdot k}{\\sqrt{d_k}}\\right)=1', true)),
      h('div', { class: 'controls slider' }, h('label', {}, tex('d_k'), ' ', this.dkOut), this.slider,
        h('span', { class: 'picks', role: 'group', 'data-k-aria': 'b.scale.picks' }, ...PICKS.map((d) =>
          h('button', { type: 'button', 'data-dk': d, onclick: () => { this.#s.dk = d; this.refresh(); this.emitChange(); } }, String(d))))),
      h('div', { class: 'controls' }, scaled.label, causal.label),
      h('div', { class: 'grid2' },
        h('div', { class: 'col' }, k('h4', 'b.scale.weights'), this.weights),
        h('dl', { class: 'stats' }, s1, s2, s3)),
      this.explainer.panel,
      h('section', {}, h('attn-variance', { frameless: '' })),
      h('section', {}, k('h4', 'b.scale.sharpTitle'), k('p', 'b.scale.sharpLead', { class: 'lead' }), this.bars, this.avg),
    );
    // The final layout before the core arrives: the controls, the (T, T) grid with empty
    // cells, the stats, and each sharpening plot with its bars still flat.
    this.#controls();
    showMatrix(this.weights, { rows: TOKENS.length, cols: TOKENS.length, data: new Array(TOKENS.length ** 2).fill(NaN) }, TOKENS, TOKENS);
    for (const dd of [this.std, this.maxw]) dd.textContent = '…';
    this.scaleOut.textContent = this.#s.scaled ? `1/√${this.#s.dk} = …` : '1';
    this.#figures(FACTORS.map((factor) => ({ factor, weights: ROW.map(() => NaN) })));
    // placeholders as wide as the numbers (1000 rows of 8 keys at d 512, 0.123): figure
    // spaces are digit wide, so the line wraps where the numbers' line will
    const ph = (n) => `${'\u2007'.repeat(Math.floor((n - 1) / 2))}…${'\u2007'.repeat(Math.ceil((n - 1) / 2))}`;
    this.avg.textContent = this.t('b.scale.avg', { rows: ph(4), keys: ph(1), d: ph(3), u: ph(5), s: ph(5) });
  }

  /** The texts, the slider and the switches: no number from the core. */
  #controls() {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    const s = this.#s;
    this.slider.value = String(s.dk);
    this.dkOut.textContent = String(s.dk);
    for (const b of this.shadowRoot.querySelectorAll('.picks button')) b.setAttribute('aria-pressed', String(Number(b.dataset.dk) === s.dk));
    this.scaledBox.checked = s.scaled;
    this.causalBox.checked = s.causal;
  }

  render(core) {
    this.clearError();
    this.#controls();
    const s = this.#s;
    this.explainer.sync();
    const r = core.dkSlider(SEED, s.dk, s.scaled, s.causal);
    this.run = { ...r, causal: s.causal };
    const masked = Array.from(r.masked_scores.data, (v) => v === -Infinity);
    showMatrix(this.weights, { ...r.weights, masked }, TOKENS, TOKENS);
    this.std.textContent = formatFixed(r.score_std, 2);
    this.maxw.textContent = formatFixed(r.mean_max_weight, 3);
    this.scaleOut.textContent = s.scaled ? `1/√${r.d_k} = ${formatFixed(r.scale, 4)}` : '1';
    this.#drawBars(core);
  }

  #drawBars(core) {
    if (this.bars.childElementCount && this.bars.dataset.lang === this.language) return;
    this.bars.dataset.lang = this.language;
    this.#figures(core.softmaxSharpening(new Float64Array(ROW), new Float64Array(FACTORS)));
    const a = core.avgMaxWeight(SEED, 1000, 8, 512);
    this.avg.textContent = this.t('b.scale.avg', { rows: a.rows, keys: a.keys, d: a.d, u: formatFixed(a.unscaled, 3), s: formatFixed(a.scaled, 3) });
  }

  /** One plot per run = { factor, weights }; NaN weights (before the core) are flat bars
   *  under a placeholder. */
  #figures(runs) {
    // a placeholder as wide as a weight (0.19): figure spaces are digit wide
    const list = (ws) => (ws.some(Number.isNaN) ? `[${ws.map(() => '\u2007…\u2007\u2007').join(', ')}]` : formatList(ws));
    this.bars.replaceChildren(...runs.map((run) => h('figure', { class: 'group', style: 'margin:0', 'data-factor': run.factor },
      h('figcaption', {}, h('b', {}, `× ${run.factor}`), ' ', h('span', { class: 'muted value' }, list(run.weights))),
      h('div', { class: 'plot', role: 'img', 'aria-label': this.t('b.scale.barsAria', { f: run.factor, w: list(run.weights) }) },
        ...run.weights.map((w) => h('div', { class: 'bar' }, h('span', {}, Number.isNaN(w) ? '…' : formatFixed(w)),
          h('i', { style: `height:${Number.isNaN(w) ? 0 : (w * 100).toFixed(1)}%` })))),
      h('div', { class: 'xs', 'aria-hidden': 'true' }, ...ROW.map((x) => h('span', {}, formatFixed(x, 1)))))));
  }

  get state() {
    return { ...this.#s };
  }

  set state(s) {
    checkObject(s);
    this.#s = {
      dk: checkInt(s.dk ?? 16, 'dk', 1, 512),
      scaled: checkBool(s.scaled ?? false, 'scaled'),
      causal: checkBool(s.causal ?? true, 'causal'),
    };
    this.refresh();
  }
}

define(NoteScale);
