// <attn-value-change>: a new W_v changes out, never the weights (LESSON §3).
//
//   <attn-value-change for="head">
//
// T = tokens, d = head size, C = channels. The learner edits a replacement W_v (d, C);
// Rust runs the linked head with the old and the new W_v and reports whether the
// weights stayed bit-identical and how far out moved. state = { W_v }.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { explainTraces } from '../explain/explain-trace.js';
import { FOLLOWER_CSS, drawsInFrame } from './draw-in-frame.js';
import { setAttr, setText } from '../../ui/matrix/attn-matrix-table.js';
import { checkMatrix, editedMatrix, plain } from '../../ui/cell-checks.js';
import { formatDiff, subscripted } from '../../ui/format.js';
import { LessonWidget, linkedHead } from '../base/lesson-widget.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';

const DEFAULT = { rows: 2, cols: 3, data: [0, 10, 5, 10, 0, 5] };

class AttnValueChange extends drawsInFrame(LessonWidget) {
  static tag = 'attn-value-change';
  static attrs = ['for'];

  #w = null;
  #ui = {};

  get state() {
    return { W_v: plain(this.#w ?? DEFAULT) };
  }

  set state(s) {
    this.#w = checkMatrix(s?.W_v, 'W_v', 16);
    this.refresh();
  }

  make(root) {
    const ui = this.#ui;
    ui.w = matrixBlock({ label: 'W_v', editable: true, caption: 'new W_v' });
    ui.w.matrix.addEventListener('cell-edit', (e) => this.#onEdit(e));
    ui.tables = tableSwitch(this, root);
    ui.before = { w: matrixBlock({ label: 'weights', palette: 'weights' }), out: matrixBlock({ label: 'out' }), title: h('h3') };
    ui.after = { w: matrixBlock({ label: 'weights', palette: 'weights' }), out: matrixBlock({ label: 'out' }), title: h('h3') };
    ui.verdict = h('p', { class: 'msg', role: 'status' });
    // Both heads' weights and outputs explain a clicked cell (explainTrace).
    const sideOf = (grid) => (grid === ui.after.w.matrix || grid === ui.after.out.matrix ? 'after' : 'before');
    ui.explain = explainTraces(this, {
      grids: [ui.before.w.matrix, ui.before.out.matrix, ui.after.w.matrix, ui.after.out.matrix],
      source: (grid) => this.run && { trace: this.run[sideOf(grid)], causal: this.runCausal, tokens: this.runTokens },
      key: () => JSON.stringify([this.state, linkedHead(this)]),
    });
    const panel = (p) => h('div', { class: 'panel', 'data-explain-scope': '' }, p.title, h('div', { class: 'row' }, p.w.el, p.out.el));
    root.append(h('div', { class: 'controls' }, ui.tables.el), h('div', { class: 'grid' },
      h('div', { class: 'panel' }, ui.w.el), panel(ui.before), panel(ui.after)), ui.verdict, ui.explain.panel);
  }

  #onEdit(e) {
    const next = editedMatrix(this, this.#ui.w.matrix, this.#w ?? DEFAULT, e.detail);
    if (!next) return;
    this.#w = next;
    this.refresh();
    this.emitChange();
  }

  draw(core) {
    const ui = this.#ui;
    const w = this.#w ?? DEFAULT;
    const tokens = document.getElementById(this.getAttribute('for'))?.state?.tokens ?? ['h', 'o', 'u'];
    ui.tables.label();
    ui.w.set(w, subscripted('d', w.rows), subscripted('c', w.cols));
    ui.explain.sync();
    let r;
    try {
      const head = linkedHead(this);
      r = core.valueChange(head, w);
      [this.run, this.runCausal, this.runTokens] = [r, head.causal ?? true, tokens];
    } catch (e) {
      ui.verdict.className = 'msg bad';
      ui.verdict.textContent = message(e);
      return;
    }
    for (const [key, trace] of [['before', r.before], ['after', r.after]]) {
      const p = ui[key];
      setText(p.title, this.t(`a.value.${key}`));
      const masked = Array.from(trace.masked_scores.data, (v) => v === -Infinity || v === null);
      p.w.set({ ...trace.weights, masked }, tokens, tokens);
      p.out.set(trace.out, tokens, subscripted('d', trace.out.cols));
      setText(p.w.caption, this.t('weightsTitle'));
      setText(p.out.caption, 'out');
    }
    setAttr(ui.verdict, 'class', `msg ${r.weights_identical ? 'ok' : 'bad'}`);
    setText(ui.verdict, this.t(r.weights_identical ? 'a.value.same' : 'a.value.differ', { e: formatDiff(r.out_max_change) }));
  }
}

AttnValueChange.css = `${LessonWidget.css}${FOLLOWER_CSS}`;

define(AttnValueChange);
