// <attn-note-batch>: note 3 of §5. Sequences in a batch never talk to each other:
// replace sequence 1 and sequence 0's output is bit-identical. BatchNorm is the
// counterexample: the same sample normalised in two different batches comes out
// different, while LayerNorm (per sample) does not care about its neighbours.
//
//   state: { seed }     numbers: batchIndependence(seed, 4, 4, 4), normCounterexample(seed)

import { AttnWidget, define, h } from '../widget-base.js';
import { B_CSS, err, fillStrings, int, k, matrix, num, object, show } from './b-util.js';

const T = 4;
const C = 4;
const D = 4;

class NoteBatch extends AttnWidget {
  static tag = 'attn-note-batch';
  static css = `${B_CSS}
    .pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 10px; }
    table.plain td { font-family: var(--_mono); font-variant-numeric: tabular-nums; }
    .scroll-x table { min-width: 320px; }`;

  #seed = 0;

  build(root) {
    this.button = k('button', 'b.batch.replace', { type: 'button', class: 'primary', onclick: () => {
      this.#seed = (this.#seed + 1) % 1000;
      this.refresh();
      this.emitChange();
    } });
    this.seedOut = h('span', { class: 'muted value' });
    this.x1a = matrix('x₁ before', 'signed');
    this.x1b = matrix('x₁ after', 'signed');
    this.o0a = matrix('out₀ before', 'signed');
    this.o0b = matrix('out₀ after', 'signed');
    this.verdict = h('p', { class: 'msg ok', role: 'status', style: 'margin-top:10px' });
    this.normTable = h('table', { class: 'plain' });
    this.normVerdict = h('p', { class: 'result' });
    const panel = (key, el) => h('div', { class: 'col panel' }, k('h4', key), el);
    root.append(
      h('div', { class: 'head' }, k('span', 'b.tag3', { class: 'tag' }), k('h3', 'b.batch.title')),
      k('p', 'b.batch.lead', { class: 'lead' }),
      h('div', { class: 'controls' }, this.button, this.seedOut),
      h('div', { class: 'pair' },
        panel('b.batch.x1before', this.x1a), panel('b.batch.x1after', this.x1b),
        panel('b.batch.out0before', this.o0a), panel('b.batch.out0after', this.o0b)),
      this.verdict,
      k('h4', 'b.batch.normTitle', { style: 'margin-top:14px' }),
      k('p', 'b.batch.normLead', { class: 'lead' }),
      h('div', { class: 'scroll-x' }, this.normTable),
      this.normVerdict,
    );
  }

  render(core) {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.clearError();
    const r = core.batchIndependence(this.#seed, T, C, D);
    this.seedOut.textContent = this.t('b.seed', { seed: this.#seed });
    const rows = ['t0', 't1', 't2', 't3'];
    show(this.x1a, r.x_before[1], rows, ['c0', 'c1', 'c2', 'c3']);
    show(this.x1b, r.x_after[1], rows, ['c0', 'c1', 'c2', 'c3']);
    show(this.o0a, r.before[0].out, rows, ['0', '1', '2', '3']);
    show(this.o0b, r.after[0].out, rows, ['0', '1', '2', '3']);
    this.verdict.textContent = this.t(r.seq0_bit_identical ? 'b.batch.identical' : 'b.batch.notIdentical', {
      d0: err(r.seq0_max_change), d1: num(r.seq1_max_change, 4),
    });
    this.verdict.className = `msg ${r.seq0_bit_identical ? 'ok' : 'bad'}`;
    this.verdict.dataset.maxDiff = String(r.seq0_max_change);

    const n = core.normCounterexample(this.#seed);
    const head = h('tr', {}, h('th'), ...n.sample.map((_, j) => h('th', { scope: 'col' }, `f${j}`)));
    const line = (key, vars, values) => h('tr', {}, h('th', { scope: 'row' }, this.t(key, vars)),
      ...values.map((v) => h('td', {}, num(v, 4))));
    this.normTable.replaceChildren(h('thead', {}, head), h('tbody', {},
      line('b.batch.sample', {}, n.sample),
      line('b.batch.bn', { b: 'A' }, n.batchnorm[0]), line('b.batch.bn', { b: 'B' }, n.batchnorm[1]),
      line('b.batch.ln', { b: 'A' }, n.layernorm[0]), line('b.batch.ln', { b: 'B' }, n.layernorm[1])));
    this.normVerdict.textContent = this.t('b.batch.normVerdict', {
      bn: num(n.batchnorm_max_diff, 4), ln: err(n.layernorm_max_diff),
    });
  }

  get state() {
    return { seed: this.#seed };
  }

  set state(s) {
    object(s);
    this.#seed = int(s.seed ?? 0, 'seed', 0, 999);
    this.refresh();
  }
}

define(NoteBatch);
