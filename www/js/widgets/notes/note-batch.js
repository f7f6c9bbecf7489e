// <attn-note-batch>: note 3 of §5. Sequences in a batch never talk to each other:
// replace sequence 1 and sequence 0's output is bit-identical. BatchNorm is the
// counterexample: the same sample normalised in two different batches comes out
// different, while LayerNorm (per sample) does not care about its neighbours.
//
//   state: { seed }     numbers: batchIndependence(seed, 4, 4, 4), normCounterexample(seed)
//   Sequence 0's weights and both out₀ grids are `explainable`; a clicked cell
//   is explained by explainBatch (same seed, sequence 0, before or after) in a floating
//   <attn-explain>, which outlines its sources in x₀ and weights₀: never sequence 1.

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h, message } from '../../ui/widget-base.js';
import '../explain/attn-explain.js';
import { checkInt, checkObject } from '../../ui/cell-checks.js';
import { formatFixed, formatSci } from '../../ui/format.js';
import { fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS, stackedTable } from '../base/lesson-css.js';
import { heatmap, showMatrix } from '../base/matrix-block.js';

const T = 4;
const C = 4;
const D = 4;

class NoteBatch extends AttnWidget {
  static tag = 'attn-note-batch';
  static css = `${NOTE_WIDGET_CSS}
    .pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 10px; margin-bottom: 10px; }
    table.plain td { font-family: var(--_mono); font-variant-numeric: tabular-nums; }
    .scroll-x table { min-width: 320px; }
    ${stackedTable('.scroll-x', 'table.plain', C, 460)} /* a phone: each row's name above its C numbers */
    .msg.pending { font-weight: 500; } /* a verdict's weight, until the core's verdict */`;

  #seed = 0;

  build(root) {
    this.button = k('button', 'b.batch.replace', { type: 'button', class: 'primary', onclick: () => {
      this.#seed = (this.#seed + 1) % 1000;
      this.refresh();
      this.emitChange();
    } });
    this.seedOut = h('span', { class: 'muted value' });
    // `matrix` names what the explanation calls these grids (sequence 0's own rows).
    const grid = (label, palette, name, after) => {
      const m = heatmap(label, palette);
      if (name) m.setAttribute('matrix', name);
      if (after != null) {
        m.setAttribute('explainable', '');
        m.dataset.after = String(after);
      }
      return m;
    };
    this.x0 = grid('x₀', 'signed', 'x');
    this.w0 = grid('weights₀', 'weights', 'weights', false);
    this.x1a = grid('x₁ before', 'signed');
    this.x1b = grid('x₁ after', 'signed');
    this.o0a = grid('out₀ before', 'signed', 'out', false);
    this.o0b = grid('out₀ after', 'signed', 'out', true);
    this.explain = h('attn-explain', { floating: '' });
    root.addEventListener('cell-explain', (e) => this.#onExplain(e.target, e.detail));
    this.verdict = h('p', { class: 'msg ok', role: 'status', style: 'margin-top:10px' });
    this.normTable = h('table', { class: 'plain' });
    this.normVerdict = h('p', { class: 'result' });
    const panel = (key, el) => h('div', { class: 'col panel' }, k('h4', key), el);
    root.append(
      h('div', { class: 'head' }, k('span', 'b.tag3', { class: 'tag' }), k('h3', 'b.batch.title')),
      k('p', 'b.batch.lead', { class: 'lead' }),
      h('div', { class: 'controls' }, this.button, this.seedOut),
      h('div', { class: 'pair' },
        panel('b.batch.x0', this.x0), panel('b.batch.x1before', this.x1a), panel('b.batch.x1after', this.x1b)),
      h('div', { class: 'pair' },
        panel('b.batch.w0', this.w0), panel('b.batch.out0before', this.o0a), panel('b.batch.out0after', this.o0b)),
      this.verdict,
      k('p', 'b.batch.explainHint', { class: 'muted', style: 'font-size:.9rem' }),
      this.explain,
      k('h4', 'b.batch.normTitle', { style: 'margin-top:14px' }),
      k('p', 'b.batch.normLead', { class: 'lead' }),
      h('div', { class: 'scroll-x' }, this.normTable),
      this.normVerdict,
    );
    // The final layout before the core arrives: every grid at its shape with empty
    // cells, the table and the verdicts with placeholders.
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.seedOut.textContent = this.t('b.seed', { seed: this.#seed });
    const empty = { rows: T, cols: C, data: new Array(T * C).fill(NaN) };
    const rows = ['t0', 't1', 't2', 't3'];
    for (const m of [this.x0, this.x1a, this.x1b]) showMatrix(m, empty, rows, ['c0', 'c1', 'c2', 'c3']);
    showMatrix(this.w0, empty, rows, rows);
    for (const m of [this.o0a, this.o0b]) showMatrix(m, empty, rows, ['d₀', 'd₁', 'd₂', 'd₃']);
    this.verdict.textContent = this.t('b.batch.identical', { d0: '…', d1: '…' });
    this.verdict.className = 'msg pending';
    this.#normTable(new Array(C).fill(NaN), [], []);
    this.normVerdict.textContent = this.t('b.batch.normVerdict', { bn: '…', ln: '…' });
  }

  /** The BatchNorm / LayerNorm table: the sample, then each norm's two batches. */
  #normTable(sample, bn, ln) {
    const head = h('tr', {}, h('th'), ...sample.map((_, j) => h('th', { scope: 'col' }, `f${j}`)));
    const line = (key, vars, values = sample.map(() => NaN)) => h('tr', {}, h('th', { scope: 'row' }, this.t(key, vars)),
      // a placeholder as wide as a number (−0.1234): figure spaces are digit wide
      ...values.map((v) => h('td', {}, Number.isNaN(v) ? '\u2007\u2007\u2007…\u2007\u2007\u2007' : formatFixed(v, 4))));
    this.normTable.replaceChildren(h('thead', {}, head), h('tbody', {},
      line('b.batch.sample', {}, sample),
      line('b.batch.bn', { b: 'A' }, bn[0]), line('b.batch.bn', { b: 'B' }, bn[1]),
      line('b.batch.ln', { b: 'A' }, ln[0]), line('b.batch.ln', { b: 'B' }, ln[1])));
  }

  /** Explain hook: a clicked cell of weights₀ or out₀ is explained by Rust. */
  #onExplain(grid, { row, col } = {}) {
    if (!this.core || grid?.dataset?.after == null) return;
    const kind = grid === this.w0 ? 'weights' : 'out';
    try {
      this.explain.explanation = this.core.explainBatch(this.#seed, T, C, D,
        grid.dataset.after === 'true', 0, kind, row, col);
      this.#explained = this.#seed;
    } catch (err) {
      this.showError(message(err));
    }
  }

  /** The seed the open explanation was made with; a new draw closes it. */
  #explained = -1;

  render(core) {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.clearError();
    if (this.explain.open && this.#explained !== this.#seed) this.explain.explanation = null;
    const r = core.batchIndependence(this.#seed, T, C, D);
    this.seedOut.textContent = this.t('b.seed', { seed: this.#seed });
    const rows = ['t0', 't1', 't2', 't3'];
    this.explain.tokens = rows;
    showMatrix(this.x0, r.x_before[0], rows, ['c0', 'c1', 'c2', 'c3']);
    showMatrix(this.w0, r.before[0].weights, rows, rows);
    showMatrix(this.x1a, r.x_before[1], rows, ['c0', 'c1', 'c2', 'c3']);
    showMatrix(this.x1b, r.x_after[1], rows, ['c0', 'c1', 'c2', 'c3']);
    const dims = ['d₀', 'd₁', 'd₂', 'd₃'];
    showMatrix(this.o0a, r.before[0].out, rows, dims);
    showMatrix(this.o0b, r.after[0].out, rows, dims);
    this.verdict.textContent = this.t(r.seq0_bit_identical ? 'b.batch.identical' : 'b.batch.notIdentical', {
      d0: formatSci(r.seq0_max_change), d1: formatFixed(r.seq1_max_change, 4),
    });
    this.verdict.className = `msg ${r.seq0_bit_identical ? 'ok' : 'bad'}`;
    this.verdict.dataset.maxDiff = String(r.seq0_max_change);

    const n = core.normCounterexample(this.#seed);
    this.#normTable(Array.from(n.sample), n.batchnorm, n.layernorm);
    this.normVerdict.textContent = this.t('b.batch.normVerdict', {
      bn: formatFixed(n.batchnorm_max_diff, 4), ln: formatSci(n.layernorm_max_diff),
    });
  }

  get state() {
    return { seed: this.#seed };
  }

  set state(s) {
    checkObject(s);
    this.#seed = checkInt(s.seed ?? 0, 'seed', 0, 999);
    this.refresh();
  }
}

define(NoteBatch);
