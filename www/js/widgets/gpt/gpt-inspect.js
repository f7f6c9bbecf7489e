// <attn-gpt-inspect>: open a (paused) GPT. Type a prompt and see every layer's and head's
// attention weights as <attn-matrix> heatmaps, the next-character probabilities, and
// text generated with temperature, top-k or greedy. Part of <attn-gpt-train>.
//
//   el.client = GptClient        (the worker does every forward pass)
//   el.open(info, prompt?)       enable, with the model's info (GptLab.config())
//   el.focusHead(layer, head)    outline one head's figure and scroll to it (the heads grid)
//   el.close()                   disable (while training runs)
//   el.state → { prompt, tokens, heads, probs, generated }   (for tests)
//
// The prompt is cut to what the model reads (its last block_size characters, at most
// MAX_DRAWN): the cut-off start is shown greyed before the part read, and a caption says why.
//
// Explaining a number: the heatmaps are `explainable` (a visible hint says so: Click, or
// Tap on a touch screen); a clicked cell is explained by the worker (`explain` →
// GptLab.explainAttention) in an <attn-explain> placed in the flow, on a line of its own
// right under the line of heads holding the clicked one, as the lesson head's is inline (it
// covers nothing): a weight as the
// softmax over its row's scores, a score as the dot product q·k/√hs (the largest terms
// and the rest). "Heatmaps: weights | scores | both" picks what each head draws; with
// both, an explained weight outlines its row of scores beside it (each head's figure is
// its own data-explain-scope).

import { AttnWidget, define, h, message } from '../../ui/widget-base.js';
import { addStrings } from '../../i18n/i18n.js';
import GPT_STRINGS from '../../i18n/gpt.js';
import { showChar } from '../../ui/format.js';
import '../../ui/matrix/attn-matrix.js';
import '../explain/attn-explain.js';

addStrings(GPT_STRINGS);

/** Longest prompt drawn: T × T cells per head stay readable. */
const MAX_DRAWN = 24;

class AttnGptInspect extends AttnWidget {
  static tag = 'attn-gpt-inspect';
  static css = `
    label.col { align-items: stretch; }
    .prompt { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
    .prompt input[type="text"] { flex: 1 1 12rem; min-width: 0; font-family: var(--_mono); }
    .layer { margin: 10px 0 0; }
    .heads { display: flex; flex-wrap: wrap; gap: 10px 14px; }
    .pairs { display: flex; flex-wrap: wrap; gap: 4px 8px; }
    .view { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: center; border: 0; padding: 0; margin: 6px 0; }
    .view legend { float: left; margin-right: 8px; font-size: .9rem; font-weight: 600; }
    figure { margin: 0; min-width: 0; max-width: 100%; }
    figure.focus { outline: 3px solid var(--_accent); outline-offset: 4px; border-radius: 4px; }
    figcaption { font-size: .8rem; color: var(--_muted); font-weight: 600; }
    attn-matrix { --attn-cell-w: 1.75rem; --attn-cell-h: 1.45rem; }
    attn-matrix::part(cell) { font-size: .6rem; }
    .probs { list-style: none; padding: 0; margin: 4px 0 0; display: grid; gap: 2px; max-width: 26rem; }
    .probs li { display: grid; grid-template-columns: 2.2rem 1fr 3.6rem; gap: 8px; align-items: center; font-size: .85rem; }
    .probs .ch { font-family: var(--_mono); text-align: center; background: var(--_accent-soft); border-radius: 4px; }
    .probs .bar { height: .8rem; background: var(--_accent); border-radius: 3px; min-width: 1px; }
    .probs .p { font-family: var(--_mono); text-align: right; font-variant-numeric: tabular-nums; }
    .gen { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin-top: 8px; }
    .gen input[type="number"] { width: 5.2rem; }
    pre.out { white-space: pre-wrap; overflow-wrap: anywhere; min-height: 2.5rem; margin: 8px 0 0; padding: 8px 10px;
      border-radius: 8px; background: var(--_accent-soft); font-size: .85rem; }
    .off { opacity: .55; }
    .read { margin: 6px 0 0; font-size: .85rem; }
    .read .text { font-family: var(--_mono); white-space: pre-wrap; overflow-wrap: anywhere;
      background: var(--_accent-soft); border-radius: 4px; padding: 1px 4px; }
    .read .unread { color: var(--_muted); font-style: italic; } /* greyed, and still 4.5:1 (axe) */
    .read .kept { font-weight: 600; }
    .click-hint { margin: 4px 0 6px; font-weight: 600; }
    .explain-row { flex: 0 0 100%; min-width: 0; }
    h4 { margin-top: 12px; }
  `;

  #info = null;
  #err = null;
  #seed = 1;
  #busy = false;
  #state = { prompt: '', tokens: [], heads: 0, probs: [], generated: '' };
  #view = 'weights';
  #last = null;
  #drawn = 0; // bumped by every redraw of the heatmaps: an answer for older grids is dropped
  #read = null; // { cut, kept, block }: the last prompt drawn, the part the model did not read and did
  #touch = matchMedia('(hover: none)');

  build(root) {
    const u = (this.ui = {});
    const num = (attrs) => h('input', { type: 'number', ...attrs });
    u.prompt = h('input', { type: 'text', value: 'To be, or not', spellcheck: false, autocomplete: 'off',
      onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); this.showAttention(); } } });
    u.show = h('button', { type: 'button', class: 'primary', onclick: () => this.showAttention() });
    u.msg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
    u.hint = h('p', { class: 'muted', role: 'status' });
    u.readText = h('span', { class: 'text' });
    u.readNote = h('span', { class: 'muted' });
    u.read = h('p', { class: 'read', hidden: true }, u.readText, ' ', u.readNote);
    u.clickHint = h('p', { class: 'click-hint' });
    u.layers = h('div', { class: 'layers' });
    u.views = ['weights', 'scores', 'both'].map((v) => h('input', { type: 'radio', name: 'view', value: v,
      checked: v === 'weights', onchange: () => this.#setView(v) }));
    u.view = h('fieldset', { class: 'view' }, h('legend', { 'data-t': 'gpt.view' }),
      ...u.views.map((input) => h('label', {}, input, h('span', { 'data-t': `gpt.view.${input.value}` }))));
    u.probs = h('ol', { class: 'probs' });
    u.explain = h('attn-explain');
    u.explainRow = h('div', { class: 'explain-row' }, u.explain); // a line of the heads' own
    root.addEventListener('cell-explain', (e) => this.explainCell(e.target, e.detail));
    this.#touch.addEventListener?.('change', () => this.render());
    u.n = num({ min: 1, max: 2000, value: 200 });
    u.temp = num({ min: 0.05, max: 5, step: 0.05, value: 0.8 });
    u.topk = num({ min: 0, max: 1000, value: 0 });
    u.greedy = h('input', { type: 'checkbox', onchange: () => { u.temp.disabled = u.topk.disabled = u.greedy.checked; } });
    u.gen = h('button', { type: 'button', onclick: () => this.generate() });
    u.out = h('pre', { class: 'out', 'aria-live': 'polite' });
    const lab = (key, input) => h('label', {}, h('span', { 'data-t': key }), input);
    u.box = h('div', {},
      h('label', { class: 'col' }, h('span', { 'data-t': 'gpt.prompt' }), h('div', { class: 'prompt' }, u.prompt, u.show)),
      u.read, u.msg, u.hint,
      h('h4', { 'data-t': 'gpt.attnTitle' }), h('p', { class: 'muted', 'data-t': 'gpt.attnNote' }), u.view, u.clickHint, u.layers,
      h('h4', { 'data-t': 'gpt.probsTitle' }), u.probs,
      h('h4', { 'data-t': 'gpt.genTitle' }),
      h('div', { class: 'gen' }, lab('gpt.genN', u.n), lab('gpt.temperature', u.temp), lab('gpt.topK', u.topk),
        lab('gpt.greedy', u.greedy), u.gen),
      u.out);
    root.append(u.box, u.explainRow);
  }

  render() {
    for (const node of this.shadowRoot.querySelectorAll('[data-t]')) node.textContent = this.t(node.dataset.t);
    this.ui.show.textContent = this.t('gpt.showAttention');
    this.ui.gen.textContent = this.t('gpt.generate');
    if (!this.#info) this.ui.hint.textContent = this.t('gpt.inspectClosed');
    this.ui.clickHint.textContent = this.t(this.#touch.matches ? 'gpt.tapHint' : 'gpt.clickHint');
    this.#paintRead();
    this.#captions();
    this.#paintError();
  }

  get state() {
    return { ...this.#state, probs: this.#state.probs.slice() };
  }

  /** Enables the panel for the model described by `info` and draws its attention. */
  open(info, prompt) {
    this.#info = info;
    if (prompt) this.ui.prompt.value = prompt;
    this.#enable(true);
    this.ui.hint.textContent = '';
    return this.showAttention();
  }

  /** Outlines head (layer, head) of the drawn prompt and scrolls it into view. */
  focusHead(layer, head) {
    for (const f of this.ui.layers.querySelectorAll('figure.focus')) f.classList.remove('focus');
    const fig = this.ui.layers.querySelector(`attn-matrix[data-l="${layer}"][data-h="${head}"]`)?.closest('figure');
    if (!fig) return;
    fig.classList.add('focus');
    fig.scrollIntoView({ block: 'center', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  }

  close() {
    this.#info = null;
    this.ui.explain.explanation = null;
    this.#enable(false);
    this.ui.hint.textContent = this.t('gpt.inspectClosed');
  }

  #enable(on) {
    for (const el of this.ui.box.querySelectorAll('input, button')) el.disabled = !on;
    if (on) this.ui.temp.disabled = this.ui.topk.disabled = this.ui.greedy.checked;
    this.ui.box.classList.toggle('off', !on);
  }

  /** Shows `err` (an error, said in the widget's language, or a string key of the
   *  tables) until the next success; it follows a language switch. */
  #error(err) {
    this.#err = err;
    this.#paintError();
  }

  #paintError() {
    const err = this.#err;
    // a dead worker (gpt/client.js `crashed`) is said in plain words, its own message as the title
    this.ui.msg.textContent = !err ? '' : err.key ? this.t(err.key) : err.crashed ? this.t('gpt.crashed') : message(err, this.language);
    this.ui.msg.title = err?.crashed ? err.message : '';
    this.ui.msg.hidden = !err;
  }

  async showAttention() {
    if (!this.#info || !this.client || this.#busy) return;
    const chars = [...this.ui.prompt.value];
    const block = this.#info.block_size;
    const n = Math.min(MAX_DRAWN, block);
    const prompt = chars.slice(-n).join('');
    this.#busy = true;
    try {
      const a = await this.client.call('attention', { prompt });
      this.#error(null);
      this.#read = { cut: chars.slice(0, -n).join(''), kept: prompt, n, block };
      this.#paintRead();
      this.#drawHeads(a);
      this.#drawProbs(a.probs);
      this.#state = { ...this.#state, prompt, tokens: a.tokens, heads: a.layers.flat().length, probs: a.probs };
      this.dataset.heads = String(this.#state.heads);
    } catch (err) {
      this.#error(err);
    } finally {
      this.#busy = false;
    }
  }

  /** The prompt drawn, its unread start greyed, and what the model reads (and why). */
  #paintRead() {
    const r = this.#read;
    this.ui.read.hidden = !r;
    if (!r) return;
    this.ui.readText.replaceChildren(
      r.cut ? h('span', { class: 'unread' }, r.cut) : '', h('span', { class: 'kept' }, r.kept));
    const key = `gpt.${r.n === r.block ? 'readsLast' : 'drawsLast'}${r.cut ? 'Cut' : 'Whole'}`;
    this.ui.readNote.textContent = this.t(key, { n: r.n, block: r.block });
  }

  #setView(view) {
    if (view === this.#view) return;
    this.#view = view;
    if (this.#last) this.#drawHeads(this.#last);
  }

  #drawHeads(a) {
    this.#last = a;
    this.#drawn++;
    const labels = a.tokens.map(showChar);
    const view = this.#view;
    const shape = `${a.layers.length}x${a.layers[0]?.length ?? 0}:${view}`;
    const grid = (l, hd, scores) => h('attn-matrix', {
      palette: scores ? 'signed' : 'weights', label: `L${l + 1} H${hd + 1}${scores ? ' q·k/√hs' : ''}`,
      matrix: scores ? 'masked_scores' : 'weights', explainable: '', 'data-l': l, 'data-h': hd,
      'data-kind': scores ? 'scores' : 'weights' });
    if (this.ui.layers.dataset.shape !== shape) {
      this.ui.layers.dataset.shape = shape;
      this.ui.layers.replaceChildren(...a.layers.map((heads, l) => h('section', { class: 'layer' },
        h('h4', { 'data-layer': l }),
        h('div', { class: 'heads' }, ...heads.map((_, hd) => h('figure', { 'data-explain-scope': '' },
          h('figcaption', { 'data-head': hd }),
          h('div', { class: 'pairs' },
            view !== 'weights' ? grid(l, hd, true) : null,
            view !== 'scores' ? grid(l, hd, false) : null)))))));
    }
    this.#captions();
    this.ui.explain.explanation = null;
    this.ui.explain.tokens = labels;
    for (const m of this.ui.layers.querySelectorAll('attn-matrix')) {
      const src = (m.dataset.kind === 'scores' ? a.scores : a.layers)[m.dataset.l][m.dataset.h];
      m.rowLabels = labels;
      m.colLabels = labels;
      m.value = { rows: src.rows, cols: src.cols, data: src.data, masked: a.masked };
    }
  }

  /** Explains a clicked weight of the heatmap `grid` (its layer and head in data-l, data-h). */
  async explainCell(grid, { row, col } = {}) {
    const { prompt } = this.#state;
    const generation = this.#drawn;
    if (!this.#info || !this.client || !prompt || grid?.dataset?.l == null) return;
    // A drawn score is a dot product, or −∞ where the mask hid the key.
    const drawn = grid.value;
    const masked = drawn?.data[row * drawn.cols + col] === -Infinity;
    const kind = grid.dataset.kind === 'scores' ? (masked ? 'masked_scores' : 'scores') : 'weights';
    try {
      const ex = await this.client.call('explain', {
        prompt, layer: Number(grid.dataset.l), head: Number(grid.dataset.h), kind, row, col,
      });
      // Only if the clicked grid is still the one on screen (the view or prompt may
      // have changed while the worker computed).
      if (this.#info && generation === this.#drawn && grid.isConnected) {
        this.#placeExplain(grid);
        this.ui.explain.explanation = ex;
      }
      this.#error(null);
    } catch (err) {
      this.#error(err);
    }
  }

  /** Puts the explanation in the flow right under the row of heads holding `grid`: after
   *  the last head of the clicked one's line, on a line of its own (a narrow screen stacks
   *  the heads: right under the clicked one). Moved before it opens: moving it drops focus. */
  #placeExplain(grid) {
    const figure = grid.closest('figure');
    if (!figure) return;
    const row = this.ui.explainRow;
    row.remove(); // out of the line it was on, so that the heads' lines are measured without it
    const top = figure.getBoundingClientRect().top;
    let last = figure;
    while (last.nextElementSibling?.localName === 'figure'
      && Math.abs(last.nextElementSibling.getBoundingClientRect().top - top) < 1) last = last.nextElementSibling;
    last.after(row);
  }

  #captions() {
    for (const cap of this.ui.layers.querySelectorAll('[data-layer]')) {
      cap.textContent = this.t('gpt.layer', { l: Number(cap.dataset.layer) + 1 });
    }
    for (const cap of this.ui.layers.querySelectorAll('[data-head]')) {
      cap.textContent = this.t('gpt.head', { h: Number(cap.dataset.head) + 1 });
    }
  }

  #drawProbs(probs) {
    this.ui.probs.replaceChildren(...probs.map(({ char, p }) => {
      const pct = Number.isFinite(p) ? p * 100 : 0;
      return h('li', {},
        h('span', { class: 'ch', title: JSON.stringify(char) }, showChar(char)),
        h('span', { class: 'bar', style: `width: ${pct.toFixed(1)}%` }),
        h('span', { class: 'p' }, `${pct.toFixed(1)} %`));
    }));
  }

  async generate() {
    if (!this.#info || !this.client) return;
    const u = this.ui;
    const greedy = u.greedy.checked;
    const n = Math.max(1, Math.min(2000, Math.trunc(Number(u.n.value)) || 200));
    const temperature = greedy ? 0 : Number(u.temp.value);
    if (!greedy && !(temperature > 0)) {
      this.#error({ key: 'gpt.badTemperature' });
      return;
    }
    u.gen.disabled = true;
    try {
      const text = await this.client.call('generate', {
        prompt: u.prompt.value, n, temperature, topK: Math.max(0, Math.trunc(Number(u.topk.value)) || 0), seed: this.#seed++,
      });
      this.#error(null);
      u.out.textContent = u.prompt.value + text;
      this.#state.generated = text;
      this.dataset.generated = String(text.length);
    } catch (err) {
      this.#error(err);
    } finally {
      u.gen.disabled = !this.#info;
    }
  }
}

define(AttnGptInspect);
