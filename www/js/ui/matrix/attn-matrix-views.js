// The two views of <attn-matrix>, the heatmap and the table of values, and what follows
// a switch between them: which one is on screen, which cell of either holds a node, which
// cell Tab reaches, and the marks of an explained number (the cells it came from, the
// selected cell), drawn in the view on screen and cleared from a hidden one.

import { drawExactTable, dropExactTable } from './attn-matrix-table.js';

export class MatrixViews {
  /** The heatmap's cells and their inputs (editable grids only), row-major. */
  cells = [];
  inputs = [];
  /** The table view's value cells, row-major; none out of table view. */
  tableCells = [];
  #sources = new Set();
  #selected = -1;
  #host;
  #heatmap;
  #table;

  /** `host`: the element, whose attributes say which view is asked for; `heatmap`,
   *  `table`: the two <table>s, each in its own scrolling box. */
  constructor(host, heatmap, table) {
    this.#host = host;
    this.#heatmap = heatmap;
    this.#table = table;
  }

  /** A new heatmap: the marks of the old one are dropped. */
  reset(cells, inputs) {
    this.cells = cells;
    this.inputs = inputs;
    this.#sources = new Set();
    this.#selected = -1;
  }

  get tableShown() {
    return this.#host.hasAttribute('table') && this.tableCells.length > 0;
  }

  /** The heatmap is hidden in table view, except in an editable grid (its cells are
   *  where one types). */
  get heatmapShown() {
    return !this.#host.hasAttribute('table') || this.#host.editable;
  }

  /** Shows the views the attributes ask for; in table view draws `value` there, with
   *  `text` for drawExactTable. */
  show(value, rowLabels, colLabels, text) {
    const asTable = this.#host.hasAttribute('table');
    const heatmap = this.#heatmap.parentElement;
    const exact = this.#table.parentElement;
    if (heatmap.hidden !== !this.heatmapShown) heatmap.hidden = !this.heatmapShown;
    if (exact.hidden !== !asTable) exact.hidden = !asTable;
    // Out of table view the table is dropped, so a cell (row, col) exists once in the DOM.
    this.tableCells = asTable
      ? drawExactTable(this.#table, value, rowLabels, colLabels, text(), this.#host.explainable)
      : dropExactTable(this.#table);
  }

  /** The index of the cell holding `node` in the heatmap (in the table view: `inTable`), or -1. */
  indexOf(node, inTable = false) {
    const td = node instanceof Element ? node.closest('td') : null;
    return td ? (inTable ? this.tableCells : this.cells).indexOf(td) : -1;
  }

  /** The element showing cell i in the view on screen (the input of an editable cell). */
  cellAt(i) {
    if (this.tableShown) return this.tableCells[i] ?? null;
    return this.inputs[i] ?? this.cells[i] ?? null;
  }

  /** Cell i of its view becomes the one Tab reaches: cells without inputs take focus one
   *  at a time. */
  rove(i, inTable) {
    if (inTable || !this.inputs.length) {
      (inTable ? this.tableCells : this.cells).forEach((td, j) => { td.tabIndex = j === i ? 0 : -1; });
    }
  }

  /** The cells an explained number came from (a Set of indices). */
  set sources(cells) {
    this.#sources = cells;
    this.paintMarks();
  }

  /** The cell being explained, or -1. */
  set selected(i) {
    this.#selected = i;
    this.paintMarks();
  }

  paintMarks() {
    const paint = (cells, shown) => cells.forEach((td, i) => {
      td.classList.toggle('source', shown && this.#sources.has(i));
      td.classList.toggle('selected', shown && i === this.#selected);
    });
    paint(this.cells, this.heatmapShown);
    paint(this.tableCells, this.tableShown);
  }
}
