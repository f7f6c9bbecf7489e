// <attn-compare-words>: the same weights on two sequences give different attention
// weights (LESSON §3): weights are computed from content, they are not parameters.
//
//   <attn-compare-words for="head" a="hou" b="you">
//
// T = tokens. Rust runs one head (the linked <attn-head>'s W_q, W_k, W_v; x built
// from each word's letters h, o, u, y) on both words. state = { a, b }.
// Each word's weights explain a clicked cell (explainTrace on its trace).

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { formatDiff, subscripted } from '../../ui/format.js';
import { LessonWidget, linkedHead } from '../base/lesson-widget.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';
import { explainTraces } from '../explain/explain-trace.js';
import { FOLLOWER_CSS, drawsInFrame } from './draw-in-frame.js';
import { setAttr, setText } from '../../ui/matrix/attn-matrix-table.js';

const WORD = /^[houy]{1,8}$/;

class AttnCompareWords extends drawsInFrame(LessonWidget) {
  static tag = 'attn-compare-words';
  static attrs = ['for', 'a', 'b'];

  #s = null;
  #ui = {};

  get state() {
    return { ...(this.#s ?? { a: this.getAttribute('a') || 'hou', b: this.getAttribute('b') || 'you' }) };
  }

  set state(s) {
    if (!WORD.test(s?.a ?? '') || !WORD.test(s?.b ?? '')) throw new Error('a, b: words of the letters h, o, u, y');
    this.#s = { a: s.a, b: s.b };
    this.refresh();
  }

  make(root) {
    const ui = this.#ui;
    ui.inputs = ['a', 'b'].map((key) => {
      const input = h('input', { type: 'text', class: 'word', maxlength: '8', autocomplete: 'off', spellcheck: 'false' });
      input.addEventListener('input', () => {
        const w = input.value.trim();
        const ok = WORD.test(w);
        input.toggleAttribute('aria-invalid', !ok);
        if (!ok) return;
        this.#s = { ...this.state, [key]: w };
        this.refresh();
        this.emitChange();
      });
      return input;
    });
    ui.tables = tableSwitch(this, root);
    ui.sides = [0, 1].map(() => ({ x: matrixBlock({ label: 'x' }), w: matrixBlock({ label: 'weights', palette: 'weights' }), title: h('h3', { class: 'mono' }) }));
    ui.verdict = h('p', { class: 'msg', role: 'status' });
    ui.hint = h('p', { class: 'muted' });
    ui.explain = explainTraces(this, {
      grids: ui.sides.map((s) => s.w.matrix),
      source: (grid) => {
        const side = this.run?.[grid === ui.sides[0].w.matrix ? 'a' : 'b'];
        return side && { trace: side.trace, causal: this.runCausal, tokens: [...side.word] };
      },
      key: () => JSON.stringify([this.state, linkedHead(this)]),
    });
    root.append(h('div', { class: 'controls' }, h('label', { class: 'field' }, '1', ui.inputs[0]),
      h('label', { class: 'field' }, '2', ui.inputs[1]), ui.tables.el), ui.hint,
    h('div', { class: 'grid' }, ...ui.sides.map((s) => h('div', { class: 'panel', 'data-explain-scope': '' }, s.title, h('div', { class: 'row' }, s.x.el, s.w.el)))),
    ui.verdict, ui.explain.panel);
  }

  draw(core) {
    const ui = this.#ui;
    const s = this.state;
    ui.inputs.forEach((input, i) => {
      setAttr(input, 'aria-label', this.t('a.words.word', { n: i + 1 }));
      const word = i ? s.b : s.a;
      if (this.shadowRoot.activeElement !== input && input.value !== word) input.value = word;
    });
    ui.tables.label();
    setText(ui.hint, this.t('a.words.hint'));
    ui.explain.sync();
    let r;
    try {
      const head = linkedHead(this);
      r = core.compareWords(s.a, s.b, head);
      this.run = r;
      this.runCausal = head.causal ?? true;
    } catch (e) {
      ui.verdict.className = 'msg bad';
      ui.verdict.textContent = message(e);
      return;
    }
    [r.a, r.b].forEach((side, i) => {
      const ui2 = ui.sides[i];
      const tokens = [...side.word];
      setText(ui2.title, side.word);
      ui2.x.set(side.x, tokens, subscripted('c', side.x.cols));
      setText(ui2.x.caption, 'x');
      const masked = Array.from(side.trace.masked_scores.data, (v) => v === -Infinity || v === null);
      ui2.w.set({ ...side.trace.weights, masked }, tokens, tokens);
      setText(ui2.w.caption, this.t('weightsTitle'));
    });
    const differ = r.weights_max_diff > 0;
    setAttr(ui.verdict, 'class', `msg ${differ ? 'ok' : 'bad'}`);
    setText(ui.verdict, this.t(differ ? 'a.words.differ' : 'a.words.same', { e: formatDiff(r.weights_max_diff) }));
  }
}

AttnCompareWords.css = `${LessonWidget.css}${FOLLOWER_CSS}`;

define(AttnCompareWords);
