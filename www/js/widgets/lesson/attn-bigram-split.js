// <attn-bigram-split>: split the bigram table into an embedding and a linear layer
// (LESSON §1). V = vocabulary size, C = n_embd.
//
//   <attn-bigram-split vocab="65" n-embd="32">
//
// Rust counts the parameters (V·V before; V·C + C·V + V after), the uniform loss ln V,
// PyTorch's Linear init bound 1/√C, and the initial losses measured on our corpus.
// state = { vocab_size, n_embd }.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { whenNear } from '../../ui/schedule.js';
import { intAttr } from '../../ui/cell-checks.js';
import { formatCell, formatFixed } from '../../ui/format.js';
import { bigramLab } from './bigram-lab.js';
import { LessonWidget } from '../base/lesson-widget.js';

const EMBD = [8, 16, 32, 64];

class AttnBigramSplit extends LessonWidget {
  static tag = 'attn-bigram-split';
  static attrs = ['vocab', 'n-embd'];

  #s = null;
  #ui = {};
  #lab = null;
  #losses = new Map();
  #loadLab = null;

  get state() {
    return this.#value();
  }

  set state(s) {
    const v = s?.vocab_size;
    const c = s?.n_embd;
    if (!Number.isInteger(v) || v < 2 || v > 1000) throw new Error('vocab_size: expected an integer 2..1000');
    if (!EMBD.includes(c)) throw new Error(`n_embd: expected one of ${EMBD.join(', ')}`);
    this.#s = { vocab_size: v, n_embd: c };
    this.refresh();
  }

  #value() {
    return this.#s ?? {
      vocab_size: intAttr(this, 'vocab', 65, 2, 1000),
      n_embd: nEmbdAttr(this),
    };
  }

  make(root) {
    const ui = this.#ui;
    ui.vText = h('span');
    ui.v = h('input', { type: 'number', min: '2', max: '1000', step: '1', class: 'n' });
    ui.cText = h('span');
    ui.c = h('select', {}, ...EMBD.map((c) => h('option', { value: String(c) }, String(c))));
    const change = () => {
      const v = Number(ui.v.value);
      if (!Number.isInteger(v) || v < 2 || v > 1000) return;
      this.#s = { vocab_size: v, n_embd: Number(ui.c.value) };
      this.refresh();
      this.emitChange();
    };
    ui.v.addEventListener('input', change);
    ui.c.addEventListener('change', change);
    ui.table = h('table', { class: 'plain params' });
    ui.facts = h('div', { class: 'col' });
    ui.corpus = h('div', { class: 'panel' });
    root.append(h('div', { class: 'controls' }, h('label', {}, ui.vText, ui.v), h('label', {}, ui.cText, ui.c)),
      h('div', { class: 'grid' }, h('div', { class: 'col' }, ui.table, ui.facts), ui.corpus));
  }

  draw(core) {
    const ui = this.#ui;
    const { vocab_size: V, n_embd: C } = this.#value();
    ui.vText.textContent = this.t('a.split.vocab');
    ui.cText.textContent = 'n_embd';
    if (this.shadowRoot.activeElement !== ui.v) ui.v.value = String(V);
    ui.c.value = String(C);
    let p;
    try {
      p = core.bigramParams(V, C);
    } catch (e) {
      this.showError(message(e));
      return;
    }
    const row = (name, shape, n, cls = '') => h('tr', { class: cls }, h('td', { class: 'mono' }, name),
      h('td', { class: 'mono' }, shape), h('td', { class: 'value' }, String(n)));
    ui.table.replaceChildren(
      h('caption', {}, this.t('a.split.caption')),
      h('thead', {}, h('tr', {}, ...['a.split.layer', 'a.split.shape', 'a.split.params'].map((k) => h('th', { scope: 'col' }, this.t(k))))),
      h('tbody', {},
        row(`Embedding(${V}, ${V})`, `${V}·${V}`, p.bigram, 'total'),
        row(`wte = Embedding(${V}, ${C})`, `${V}·${C}`, p.wte),
        row(`lm_head.weight`, `${C}·${V}`, p.lm_head_weight),
        row(`lm_head.bias`, `${V}`, p.lm_head_bias),
        row(this.t('a.split.total'), '', p.split, 'total')));
    ui.facts.replaceChildren(
      h('p', { class: 'fact' }, this.t('a.split.uniform', { v: V }), ' ', h('b', { class: 'value' }, formatCell(p.initial_loss))),
      h('p', { class: 'fact' }, this.t('a.split.bound', { c: C }), ' ',
        h('b', { class: 'value' }, `U(−${formatFixed(p.init_bound, 3)}, ${formatFixed(p.init_bound, 3)})`)));
    this.#drawCorpus(core, C);
  }

  /** The corpus panel's final layout, with placeholders, while the corpus loads. */
  #corpusSkeleton(C) {
    const line = (key) => h('tr', {}, h('td', {}, this.t(key, { v: '…', c: C })), h('td', { class: 'value' }, '…'));
    this.#ui.corpus.replaceChildren(
      h('h3', { class: 'muted' }, this.t('a.bigram.loading')),
      h('table', { class: 'plain' }, h('tbody', {},
        line('a.split.lossUniform'), line('a.split.lossBigram'), line('a.split.lossSplit'), line('a.split.lossCount'))),
      h('p', { class: 'muted' }, this.t('a.split.oursNote')));
    this.#ui.corpus.setAttribute('aria-busy', 'true');
  }

  #drawCorpus(core, C) {
    const ui = this.#ui;
    if (!this.#lab) {
      this.#corpusSkeleton(C);
      // The corpus is fetched once this panel is near the viewport.
      this.#loadLab ??= whenNear(ui.corpus).then(() => bigramLab(core))
        .then((lab) => { this.#lab = lab; this.refresh(); }).catch((e) => this.showError(message(e)));
      return;
    }
    if (!this.#losses.has(C)) this.#losses.set(C, this.#lab.initialLosses(C, 1337));
    const l = this.#losses.get(C);
    ui.corpus.removeAttribute('aria-busy');
    const line = (key, v) => h('tr', {}, h('td', {}, this.t(key, { v: l.vocab_size, c: C })), h('td', { class: 'value' }, formatCell(v)));
    ui.corpus.replaceChildren(
      h('h3', {}, this.t('a.split.ours', { v: l.vocab_size })),
      h('table', { class: 'plain' }, h('tbody', {},
        line('a.split.lossUniform', l.uniform), line('a.split.lossBigram', l.bigram_init),
        line('a.split.lossSplit', l.split_init), line('a.split.lossCount', l.count_model))),
      h('p', { class: 'muted' }, this.t('a.split.oursNote')));
  }
}

AttnBigramSplit.css = `${LessonWidget.css}
input.n { width: 6em; }
table.params tr.total td { font-weight: 700; }
table.plain caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
`;

define(AttnBigramSplit);

/** The n-embd attribute: one of the sizes the widget offers, else a clear message. */
function nEmbdAttr(el) {
  const c = intAttr(el, 'n-embd', 32, 1, 4096);
  if (!EMBD.includes(c)) throw new Error(`n-embd="${c}": expected one of ${EMBD.join(', ')}`);
  return c;
}
