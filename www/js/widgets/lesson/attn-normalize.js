// <attn-normalize>: which direction to normalise, and the lost-keepdim trap (LESSON §2).
//
//   <attn-normalize>
//
// A (T, T) is editable. Rust normalises it by rows, by columns and as a whole
// (attention needs rows that sum to 1), and divides it by its row sums with and
// without keepdim: without it the sums broadcast along the wrong axis. state = { a }.
// Every normalised cell explains itself (core.explainNormalize with the same
// A): the entry of A over the sum it is divided by, outlined in A.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { explainGrids } from '../explain/explain-grids.js';
import { checkMatrix, editedMatrix, plain } from '../../ui/cell-checks.js';
import { formatCell, formatCells, formatDiff, subscripted } from '../../ui/format.js';
import { LessonWidget } from '../base/lesson-widget.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';

const DEFAULT = { rows: 3, cols: 3, data: [1, 1, 0, 2, 1, 1, 3, 3, 2] };

class AttnNormalize extends LessonWidget {
  static tag = 'attn-normalize';

  #a = null;
  #ui = {};

  get state() {
    return { a: plain(this.#a ?? DEFAULT) };
  }

  set state(s) {
    const a = checkMatrix(s?.a, 'a', 6);
    if (a.rows !== a.cols) throw new Error('a: expected a square matrix');
    this.#a = a;
    this.refresh();
  }

  make(root) {
    const ui = this.#ui;
    ui.a = matrixBlock({ label: 'A', editable: true });
    ui.a.matrix.addEventListener('cell-edit', (e) => this.#onEdit(e));
    ui.reset = h('button', { type: 'button', onclick: () => { this.#a = null; ui.a.matrix.clearErrors(); this.refresh(); this.emitChange(); } });
    ui.tables = tableSwitch(this, root);
    ui.sums = h('p', { class: 'fact' });
    const panel = (key) => {
      const p = { title: h('h3'), block: matrixBlock({ label: key, palette: 'weights' }), note: h('p', { class: 'fact' }) };
      p.el = h('div', { class: `panel ${key}` }, p.title, p.block.el, p.note);
      return p;
    };
    ui.dirs = { by_rows: panel('by_rows'), by_columns: panel('by_columns'), whole: panel('whole') };
    ui.trapTitle = h('h3', { class: 'side-title' });
    ui.right = { code: h('pre', { class: 'code' }, 'wei / wei.sum(1, keepdim=True)   # (T,T) / (T,1)'), block: matrixBlock({ label: 'right', palette: 'weights' }), note: h('p', { class: 'fact' }) };
    ui.wrong = { code: h('pre', { class: 'code' }, 'wei / wei.sum(1)                 # (T,T) / (T,)'), block: matrixBlock({ label: 'wrong', palette: 'weights' }), note: h('p', { class: 'fact' }) };
    // The row sums beside the grid: the code line makes the card wide, the grid is small.
    const trap = (p, cls) => h('div', { class: `panel ${cls}` }, p.code, h('div', { class: 'row trap-body' }, p.block.el, p.note));
    ui.verdict = h('p', { class: 'msg bad', role: 'status' });
    const kinds = new Map([...Object.entries(ui.dirs).map(([k, p]) => [p.block.matrix, k]),
      [ui.right.block.matrix, 'right'], [ui.wrong.block.matrix, 'wrong']]);
    ui.explain = explainGrids(this, {
      grids: () => [...kinds.keys()],
      explain: (grid, row, col) => this.core.explainNormalize(this.#a ?? DEFAULT, kinds.get(grid), row, col),
      key: () => JSON.stringify(this.#a ?? DEFAULT),
    });
    root.append(h('div', { class: 'controls' }, ui.reset, ui.tables.el), h('div', { class: 'row' }, ui.a.el, ui.sums),
      h('div', { class: 'grid' }, ui.dirs.by_rows.el, ui.dirs.by_columns.el, ui.dirs.whole.el),
      ui.trapTitle, h('div', { class: 'grid' }, trap(ui.right, 'right'), trap(ui.wrong, 'wrong')), ui.verdict, ui.explain.panel);
    this.#drawAll(null); // the final layout before the core arrives: placeholder numbers
  }

  #onEdit(e) {
    const next = editedMatrix(this, this.#ui.a.matrix, this.#a ?? DEFAULT, e.detail);
    if (!next) return;
    this.#a = next;
    this.refresh();
    this.emitChange();
  }

  draw(core) {
    this.#drawAll(core);
  }

  /** Everything; without the core (before it arrives) every number is a placeholder and
   *  every grid has its final shape with empty cells. */
  #drawAll(core) {
    const ui = this.#ui;
    const a = this.#a ?? DEFAULT;
    const nan = (n) => new Array(n).fill(NaN);
    const empty = { rows: a.rows, cols: a.cols, data: nan(a.rows * a.cols) };
    if (core) ui.explain.sync();
    const labels = subscripted('r', a.rows);
    const cols = subscripted('c', a.cols);
    ui.a.set(a, labels, cols);
    ui.reset.textContent = this.t('reset');
    ui.tables.label();
    const d = core ? core.normalizeDirections(a)
      : { row_sums: nan(a.rows), col_sums: nan(a.cols), total: NaN, by_rows: empty, by_columns: empty, whole: empty };
    // before the core: placeholders as wide as the numbers (2.00), figure spaces being digit wide
    const cells = (v) => (core ? formatCells(v) : `[${Array.from(v, () => '\u2007…\u2007').join(', ')}]`);
    ui.sums.replaceChildren(
      h('span', {}, this.t('a.norm.rowSums'), ' ', h('b', { class: 'value' }, cells(d.row_sums))), h('br'),
      h('span', {}, this.t('a.norm.colSums'), ' ', h('b', { class: 'value' }, cells(d.col_sums))), h('br'),
      h('span', {}, this.t('a.norm.total'), ' ', h('b', { class: 'value' }, core ? formatCell(d.total) : '\u2007…\u2007\u2007')));
    for (const [key, p] of Object.entries(ui.dirs)) {
      p.title.textContent = this.t(`a.norm.${key}`);
      p.note.textContent = this.t(`a.norm.${key}Note`);
      if (d[key]) p.block.set(d[key], labels, cols);
      else p.note.textContent = this.t('a.norm.zero');
    }
    ui.trapTitle.textContent = this.t('a.norm.trap');
    if (!core) {
      for (const p of [ui.right, ui.wrong]) {
        p.block.set(empty, labels, cols);
        p.note.replaceChildren(this.t('a.norm.rowSumsNow'), ' ', h('b', { class: 'value' }, cells(nan(a.rows))));
      }
      ui.verdict.className = 'msg pending';
      ui.verdict.textContent = this.t('a.norm.trapBad', { e: '…' });
      return;
    }
    let k;
    try {
      k = core.keepdimTrap(a);
    } catch (e) {
      ui.verdict.textContent = message(e);
      return;
    }
    ui.right.block.set(k.right, labels, cols);
    ui.wrong.block.set(k.wrong, labels, cols);
    ui.right.note.replaceChildren(this.t('a.norm.rowSumsNow'), ' ', h('b', { class: 'value ok' }, formatCells(k.right_row_sums)));
    ui.wrong.note.replaceChildren(this.t('a.norm.rowSumsNow'), ' ', h('b', { class: 'value bad' }, formatCells(k.wrong_row_sums)));
    ui.verdict.className = k.max_err > 0 ? 'msg bad' : 'msg ok';
    ui.verdict.textContent = k.max_err > 0 ? this.t('a.norm.trapBad', { e: formatDiff(k.max_err) }) : this.t('a.norm.trapSame');
  }
}

AttnNormalize.css = `${LessonWidget.css}
.side-title { margin: 16px 0 8px; }
.panel.by_rows { border-color: var(--_accent); }
.msg.pending { font-weight: 600; } /* a verdict's weight (.ok, .bad), until the core's verdict */
`;

define(AttnNormalize);
