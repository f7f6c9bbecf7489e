// <attn-schemes>: the four ways to average the past, side by side (LESSON §2).
//
//   <attn-schemes lang="zh">
//
// T = tokens (3), C = channels (2). One editable x (T, C); Rust runs the loop average,
// the matrix average, softmax over a −∞ mask, and (rung 4) a head whose q = k = v = x
// (W_q = W_k = W_v = I), and reports each scheme's max |difference| from the loop.
// Below: the all-ones (reads the future) and plain lower-triangular (sums) variants,
// and the loop's cost at B, T. state = { x }.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { checkMatrix, editedMatrix, plain } from '../../ui/cell-checks.js';
import { formatDiff, subscripted } from '../../ui/format.js';
import { LessonWidget } from '../base/lesson-widget.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';

const DATA = {
  hou: { rows: 3, cols: 2, data: [2, 7, 6, 4, 6, 5] },
  other: { rows: 3, cols: 2, data: [2, 0, 0, 4, 4, 2] },
};
// The code of each rung; `changed` = lines that differ from the previous rung.
const CODE = [
  { lines: ['xbow = torch.zeros((B, T, C))', 'for b in range(B):', '    for t in range(T):',
    '        xprev = x[b, :t+1]  # (t+1, C)', '        xbow[b, t] = xprev.mean(0)'], changed: [] },
  { lines: ['tril = torch.tril(torch.ones(T, T))', 'wei = tril / tril.sum(1, keepdim=True)',
    'xbow2 = wei @ x  # (T,T)@(B,T,C) -> (B,T,C)'], changed: [0, 1, 2] },
  { lines: ['tril = torch.tril(torch.ones(T, T))', 'wei = torch.zeros((T, T))',
    "wei = wei.masked_fill(tril == 0, float('-inf'))", 'wei = F.softmax(wei, dim=-1)', 'xbow3 = wei @ x'],
  changed: [1, 2, 3] },
  { lines: ['tril = torch.tril(torch.ones(T, T))', 'wei = q @ k.transpose(-2, -1)',
    "wei = wei.masked_fill(tril == 0, float('-inf'))", 'wei = F.softmax(wei, dim=-1)', 'out = wei @ v'],
  changed: [1, 4] },
];
const IDENTITY = { rows: 2, cols: 2, data: [1, 0, 0, 1] };

class AttnSchemes extends LessonWidget {
  static tag = 'attn-schemes';

  #x = null;
  #ui = {};
  #rungs = [];
  #variants = {};

  get state() {
    return { x: plain(this.#x ?? DATA.hou) };
  }

  set state(s) {
    const x = checkMatrix(s?.x, 'x', 8);
    if (x.rows < 1 || x.cols > 4) throw new Error('x: expected at most 8 rows and 4 columns');
    this.#x = x;
    this.refresh();
  }

  make(root) {
    const ui = this.#ui;
    ui.x = matrixBlock({ label: 'x', editable: true });
    ui.x.matrix.addEventListener('cell-edit', (e) => this.#onEdit(e));
    ui.sets = Object.keys(DATA).map((key) => h('button', { type: 'button', 'data-set': key, onclick: () => {
      this.#x = plain(DATA[key]);
      ui.x.matrix.clearErrors();
      this.refresh();
      this.emitChange();
    } }));
    ui.tables = tableSwitch(this, root);
    ui.xNote = h('p', { class: 'muted' });
    ui.ladder = h('div', { class: 'ladder' });
    this.#rungs = CODE.map((code, i) => {
      const r = { title: h('h3'), code: h('pre', { class: 'code' }), weights: matrixBlock({ label: 'wei', palette: 'weights', caption: 'wei' }),
        out: matrixBlock({ label: 'out', caption: i === 3 ? 'out' : 'xbow' }), diff: h('p', { class: 'fact diff' }) };
      r.code.append(...code.lines.map((line, j) => h('span', { class: code.changed.includes(j) ? 'changed' : '' }, `${line}\n`)));
      r.el = h('div', { class: `panel rung rung-${i + 1}` }, r.title, r.code, h('div', { class: 'mats' }, r.weights.el, r.out.el), r.diff);
      if (i < 3) {
        r.weights.matrix.setAttribute('explainable', '');
        r.out.matrix.setAttribute('explainable', '');
      }
      ui.ladder.append(r.el);
      return r;
    });
    for (const key of ['all_ones', 'tril_sums']) {
      const v = { title: h('h3'), code: h('pre', { class: 'code' }), weights: matrixBlock({ label: 'wei', palette: 'weights', caption: 'wei' }),
        out: matrixBlock({ label: 'out', caption: 'xbow' }), note: h('p', { class: 'fact' }) };
      v.el = h('div', { class: 'panel' }, v.title, v.code, h('div', { class: 'row' }, v.weights.el, v.out.el), v.note);
      this.#variants[key] = v;
    }
    ui.bText = h('span');
    ui.b = h('input', { type: 'number', min: '1', max: '4096', value: '64', class: 'n' });
    ui.tText = h('span');
    ui.t = h('input', { type: 'number', min: '1', max: '8192', value: '256', class: 'n' });
    ui.loops = h('p', { class: 'fact' });
    for (const el of [ui.b, ui.t]) el.addEventListener('input', () => this.refresh());
    ui.cost = h('div', { class: 'panel cost' }, h('div', { class: 'controls' }, h('label', {}, ui.bText, ui.b), h('label', {}, ui.tText, ui.t)), ui.loops);
    // The two variants share a row (wide enough for wei and xbow side by side); the short
    // cost card goes under them, as wide as its text, instead of stretched beside them.
    ui.side = h('div', { class: 'grid' }, this.#variants.all_ones.el, this.#variants.tril_sums.el);
    // A side road of the path: folded, one click (its summary) or one link (the page's
    // #side-scheme2, pages/lesson.js) away.
    ui.sideTitle = h('span');
    ui.sideRoad = h('details', { class: 'side-road', id: 'side-scheme2' },
      h('summary', {}, ui.sideTitle), ui.side, ui.cost);
    ui.explain = h('attn-explain');
    root.addEventListener('cell-explain', (e) => this.#onExplain(e));
    root.append(h('div', { class: 'controls' }, ...ui.sets, ui.tables.el),
      h('div', { class: 'row' }, ui.x.el, ui.xNote), ui.ladder, ui.explain, ui.sideRoad);
    this.#drawAll(null); // the final layout before the core arrives: placeholder numbers
  }

  #onEdit(e) {
    const next = editedMatrix(this, this.#ui.x.matrix, this.#x ?? DATA.hou, e.detail);
    if (!next) return;
    this.#x = next;
    this.refresh();
    this.emitChange();
  }

  /** Explain hook: a clicked cell of rungs 1–3 is explained by Rust (explainScheme). */
  #onExplain(e) {
    const i = this.#rungs.findIndex((r) => r.el.contains(e.target));
    const { row, col, label } = e.detail ?? {};
    if (i < 0 || i > 2) return;
    const kind = label === 'wei' ? 'weights' : 'out';
    let ex;
    try {
      ex = this.core.explainScheme(['loop', 'matrix', 'softmax'][i], this.#x ?? DATA.hou, kind, row, col);
    } catch (error) {
      this.showError(message(error));
      return;
    }
    this.#ui.explain.explanation = ex;
    const sources = Array.from(ex?.sources ?? []);
    const targets = [[this.#ui.x.matrix, 'x'], ...this.#rungs.map((r, j) => [r.weights.matrix, j === i ? 'weights' : null])];
    for (const [m, name] of targets) {
      if (typeof m.highlight === 'function') {
        m.highlight(sources.filter((src) => src.matrix === name).map(({ row, col }) => ({ row, col })));
      }
    }
  }

  draw(core) {
    this.#drawAll(core);
  }

  /** Everything; without the core (before it arrives) every number is a placeholder and
   *  every grid has its final shape with empty cells. */
  #drawAll(core) {
    const ui = this.#ui;
    const x = this.#x ?? DATA.hou;
    const tokens = x.rows === 3 && x.data.join() === DATA.hou.data.join() ? ['h', 'o', 'u'] : subscripted('t', x.rows);
    ui.x.set(x, tokens, subscripted('c', x.cols));
    ui.sets.forEach((b) => {
      b.textContent = this.t(`a.schemes.set.${b.dataset.set}`);
      b.setAttribute('aria-pressed', String(DATA[b.dataset.set].data.join() === x.data.join()));
    });
    ui.tables.label();
    ui.xNote.textContent = this.t('a.schemes.xNote');
    const empty = (rows, cols) => ({ rows, cols, data: new Array(rows * cols).fill(NaN) });
    const none = { weights: empty(x.rows, x.rows), out: empty(x.rows, x.cols) };
    const r = core ? core.averagingLadder(x)
      : { loop_average: none, matrix_average: none, softmax_average: none, all_ones: none, tril_sums: none };
    const head = core ? this.#rung4(core, x) : x.cols === 2 ? none : null;
    const rungs = [r.loop_average, r.matrix_average, r.softmax_average, head];
    const errs = [null, r.max_err_matrix_vs_loop, r.max_err_softmax_vs_loop, null];
    this.#rungs.forEach((g, i) => {
      g.title.textContent = `${i + 1} · ${this.t(`a.schemes.r${i + 1}`)}`;
      const res = rungs[i];
      if (!res) return;
      g.weights.set(res.weights, tokens, tokens);
      g.out.set(res.out, tokens, subscripted('c', x.cols));
      g.diff.replaceChildren(i === 0 ? this.t('a.schemes.reference')
        : i === 3 ? this.t('a.schemes.content')
          : h('span', {}, this.t('a.schemes.maxDiff'), ' ', h('b', { class: 'value' }, core ? formatDiff(errs[i]) : '…')));
    });
    this.#drawVariant('all_ones', r.all_ones, tokens, x, 'wei = torch.ones(T, T)\nxbow = wei @ x');
    this.#drawVariant('tril_sums', r.tril_sums, tokens, x, 'wei = torch.tril(torch.ones(T, T))\nxbow = wei @ x');
    ui.sideTitle.textContent = this.t('a.schemes.side');
    ui.bText.textContent = 'B';
    ui.tText.textContent = 'T';
    const b = Number(ui.b.value);
    const t = Number(ui.t.value);
    try {
      ui.loops.textContent = this.t('a.schemes.loops', { b, t, n: core ? core.loopIterations(b, t) : '…' });
    } catch (e) {
      ui.loops.textContent = message(e);
    }
  }

  /** Rung 4: a causal, unscaled head with W_q = W_k = W_v = I, so q = k = v = x. */
  #rung4(core, x) {
    if (x.cols !== 2) return null;
    const lab = new core.HeadLab();
    try {
      lab.setMatrix('x', x.rows, x.cols, new Float64Array(x.data));
      for (const w of ['W_q', 'W_k', 'W_v']) lab.setMatrix(w, 2, 2, new Float64Array(IDENTITY.data));
      lab.setTokens(subscripted('t', x.rows));
      const t = lab.compute();
      return { weights: t.weights, out: t.out };
    } catch {
      return null;
    } finally {
      lab.free();
    }
  }

  #drawVariant(key, res, tokens, x, code) {
    const v = this.#variants[key];
    v.title.textContent = this.t(`a.schemes.${key}`);
    v.code.textContent = code;
    v.weights.set(res.weights, tokens, tokens);
    v.out.set(res.out, tokens, subscripted('c', x.cols));
    v.note.textContent = this.t(`a.schemes.${key}Note`);
  }
}

AttnSchemes.css = `${LessonWidget.css}
.ladder { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 380px), 1fr)); gap: 12px; margin-top: 10px; }
.rung { display: flex; flex-direction: column; gap: 8px; }
.rung pre.code { min-height: 7.6em; }
.rung .mats { display: flex; flex-wrap: wrap; gap: 8px 18px; }
.diff { margin-top: auto; }
.side-road { margin-top: 16px; border: 1px solid var(--_line); border-radius: 10px; }
.side-road > summary { cursor: pointer; padding: 10px 14px; font-weight: 600; border-radius: 10px; }
.side-road > summary:focus-visible { outline: 2.5px solid var(--attn-focus, #1d4ed8); outline-offset: 2px; }
.side-road[open] > summary { border-bottom: 1px solid var(--_line); border-radius: 10px 10px 0 0; }
.side-road > :not(summary) { margin: 12px 14px; }
attn-explain { display: block; margin-top: 10px; }
attn-explain:not(:defined) { display: none; }
input.n { width: 6em; }
.cost { width: fit-content; max-width: 100%; margin-top: 14px; }
`;

define(AttnSchemes);
