// <attn-matrix>: one matrix drawn as a heatmap table that prints its numbers.
//
//   el.value     = { rows, cols, data, masked? }   (data row-major; masked: booleans)
//   el.rowLabels = ['h', 'o', 'u'];  el.colLabels = [...]
//   attributes:  editable (cells become <input>s), palette = signed | weights | none,
//                label (matrix name used in titles and the read-out line),
//                explainable (a click, or Enter/Space on a focused cell, asks for the
//                cell's explanation; in editable grids Shift+Enter does, since Enter commits),
//                table (show a plain table of exact values instead of the heatmap;
//                  table="rounded": of two-decimal values, as the heatmap prints them; an
//                  editable grid keeps its cells to type in and shows the table under them.
//                  In an explainable grid the table's cells explain themselves like the
//                  heatmap's: click, or Enter/Space on a focused cell, with the arrow keys,
//                  Home and End moving between them),
//                table-toggle (a small button that switches `table` on and off),
//                lang (en | zh; default: the page's language)
//   events:      'cell-edit' {row, col, text}  (bubbles, composed; on every keystroke)
//                'cell-explain' {row, col, label}  (bubbles, composed; explainable only)
//   methods:     setCellError(row, col, message), clearCellError(row, col): `message`
//                  is a string or a function (lang) => string, said again in the new
//                  language when the page's language changes,
//                clearErrors() (also restores the last valid text of marked cells),
//                revert() (clearErrors, and every input shows the grid's number again),
//                highlight([{row, col, matrix?}] | null)  outlines the cells an explained
//                  number came from (entries whose `matrix` names another grid are skipped),
//                markSelected(row, col) | markSelected(null)  marks the explained cell
//                  (both marks are drawn in the view on screen, heatmap or table, and
//                  follow a switch between them),
//                cellAt(row, col)  the element that shows that cell now (the table's cell
//                  in table view, else the heatmap cell or its input): where focus goes back
//
// Cells print 2 decimals; hovering or focusing a cell shows the exact value in a
// read-out line under the grid (and in the cell's title). Arrow keys move between
// cells, Enter commits and moves down, Escape restores the last valid number.
// The element does no attention math: it only turns numbers into text and colour.
// Its parts: attn-matrix-table.js (the heatmap's and the table view's DOM),
// attn-matrix-keys.js (the keyboard, one for both views), attn-matrix-css.js.

import { formatInput } from '../format.js';
import { styles } from './attn-matrix-css.js';
import { buildHeatmap, drawExactTable, drawReadout, dropExactTable, paintHeatmap, setAttr, setText } from './attn-matrix-table.js';
import { isExplainKey, keyTarget } from './attn-matrix-keys.js';
import { addStrings, langOf, onLangChange, t } from '../../i18n/i18n.js';
import PART_C from '../../i18n/part-c.js';

addStrings(PART_C);

class AttnMatrix extends HTMLElement {
  static observedAttributes = ['editable', 'palette', 'label', 'explainable', 'table', 'lang'];

  #value = null;
  #rowLabels = [];
  #colLabels = [];
  #shape = '';
  #cells = [];
  #plainCells = [];
  #inputs = [];
  #sent = [];
  #paint = [];
  #drawn = [];
  #errors = new Map();
  #focused = -1;
  #sources = new Set();
  #selected = -1;
  #offLang = null;
  #table;
  #plain;
  #toggle;
  #hint;
  #readout;
  #error;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [styles()];
    root.innerHTML = '<div class="scroll heatmap"><table></table></div>'
      + '<div class="scroll exact" hidden><table class="plain"></table></div>'
      + '<div class="foot"><div class="readout" aria-hidden="true"></div>'
      + '<button type="button" class="as-table" aria-pressed="false" hidden></button></div>'
      + '<div class="error" role="alert"></div><span class="sr-only" id="hint"></span>';
    this.#table = root.querySelector('.heatmap table');
    this.#plain = root.querySelector('table.plain');
    this.#toggle = root.querySelector('button.as-table');
    this.#hint = root.querySelector('#hint');
    this.#readout = root.querySelector('.readout');
    this.#error = root.querySelector('.error');
    this.#toggle.addEventListener('click', () => this.toggleAttribute('table'));
    // the heatmap and the table view answer clicks, keys and focus alike
    for (const [view, inTable] of [[this.#table, false], [this.#plain, true]]) {
      view.addEventListener('click', (e) => this.#onClick(e, inTable));
      view.addEventListener('keydown', (e) => this.#onKey(e, inTable));
      view.addEventListener('focusin', (e) => this.#onFocus(e, inTable));
    }
    this.#table.addEventListener('input', (e) => this.#onInput(e));
    this.#table.addEventListener('focusout', () => { this.#focused = -1; this.#showReadout(-1); });
    this.#table.addEventListener('mouseover', (e) => {
      const i = this.#indexOf(e.target);
      this.#showReadout(i >= 0 ? i : this.#focused);
    });
    this.#table.addEventListener('mouseleave', () => this.#showReadout(this.#focused));
  }

  get value() {
    const v = this.#value;
    return v && { rows: v.rows, cols: v.cols, data: v.data.slice() };
  }

  set value(v) {
    if (!v || !(v.rows > 0) || !(v.cols > 0) || !v.data || v.data.length !== v.rows * v.cols) return;
    const previous = this.#value;
    // The same numbers again (a follower redrawn after an edit that did not reach it):
    // nothing to draw. Labels, attributes and the language redraw through their own paths.
    if (previous && sameValue(previous, v)) return;
    this.#value = {
      rows: v.rows, cols: v.cols, data: Array.from(v.data),
      masked: v.masked ? Array.from(v.masked) : null,
    };
    this.#render(previous);
  }

  get rowLabels() { return this.#rowLabels.slice(); }
  set rowLabels(labels) { this.#setLabels('row', labels); }
  get colLabels() { return this.#colLabels.slice(); }
  set colLabels(labels) { this.#setLabels('col', labels); }

  get editable() { return this.hasAttribute('editable'); }
  get explainable() { return this.hasAttribute('explainable'); }

  /** This grid's language: its own or its widget's `lang` attribute, else the page's. */
  get language() {
    return langOf(this);
  }

  connectedCallback() {
    this.#offLang ??= onLangChange(() => {
      if (!this.hasAttribute('lang') && this.#value) this.#render(null);
    }, this);
  }

  disconnectedCallback() {
    this.#offLang?.();
    this.#offLang = null;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue || !this.#value) return;
    if (name === 'editable' || name === 'explainable') this.#shape = '';
    this.#render(null);
  }

  /** Outlines the cells an explained number came from; null or [] clears. */
  highlight(cells) {
    const own = [this.getAttribute('matrix'), this.id, this.getAttribute('label')].filter(Boolean);
    const next = new Set();
    for (const c of cells ?? []) {
      if (c?.matrix != null && own.length && !own.includes(c.matrix)) continue;
      const i = this.#index(c?.row, c?.col);
      if (i >= 0) next.add(i);
    }
    this.#sources = next;
    this.#paintMarks();
  }

  /** Marks the cell being explained (null clears). */
  markSelected(row, col) {
    this.#selected = row == null ? -1 : this.#index(row, col);
    this.#paintMarks();
  }

  /** The element showing cell (row, col) in the current view, or null. */
  cellAt(row, col) {
    const i = this.#index(row, col);
    if (i < 0) return null;
    if (this.#tableShown()) return this.#plainCells[i] ?? null;
    return this.#inputs[i] ?? this.#cells[i] ?? null;
  }

  /** Marks a cell as holding text that is not a number and shows `message` (a string,
   *  or (lang) => string to follow the grid's language). */
  setCellError(row, col, message) {
    const i = this.#index(row, col);
    if (i < 0) return;
    this.#errors.delete(i);
    this.#errors.set(i, typeof message === 'function' ? message : () => String(message));
    this.#paintError(i);
  }

  clearCellError(row, col) {
    const i = this.#index(row, col);
    if (i < 0 || !this.#errors.delete(i)) return;
    this.#paintError(i);
  }

  /** Drops every error mark and puts the last valid number back into those cells. */
  clearErrors() {
    const marked = [...this.#errors.keys()];
    this.#errors.clear();
    for (const i of marked) {
      this.#paintError(i);
      const input = this.#inputs[i];
      if (input) {
        input.value = formatInput(this.#value.data[i]);
        this.#sent[i] = input.value;
      }
    }
  }

  /** clearErrors(), and every input shows the grid's own number again: text typed there
   *  that its widget has not taken (before its core arrived) is dropped. */
  revert() {
    this.clearErrors();
    const v = this.#value;
    if (!v) return;
    this.#inputs.forEach((input, i) => {
      const text = formatInput(v.data[i]);
      if (input.value === text) return;
      input.value = text;
      this.#sent[i] = text;
    });
  }

  get hasErrors() { return this.#errors.size > 0; }

  // ---- drawing ----

  #index(row, col) {
    const v = this.#value;
    if (!v || !Number.isInteger(row) || !Number.isInteger(col)) return -1;
    return row >= 0 && row < v.rows && col >= 0 && col < v.cols ? row * v.cols + col : -1;
  }

  /** The index of the cell holding `node` in the heatmap (in the table view: `inTable`), or -1. */
  #indexOf(node, inTable = false) {
    const td = node instanceof Element ? node.closest('td') : null;
    return td ? (inTable ? this.#plainCells : this.#cells).indexOf(td) : -1;
  }

  #tableShown() {
    return this.hasAttribute('table') && this.#plainCells.length > 0;
  }

  /** The heatmap is hidden in table view, except in an editable grid (its cells are
   *  where one types). */
  #heatmapShown() {
    return !this.hasAttribute('table') || this.editable;
  }

  #setLabels(which, labels) {
    const next = Array.from(labels ?? [], String);
    const current = which === 'row' ? this.#rowLabels : this.#colLabels;
    if (next.length === current.length && next.every((s, i) => s === current[i])) return;
    if (which === 'row') this.#rowLabels = next; else this.#colLabels = next;
    if (this.#value) this.#render(null);
  }

  #build() {
    const { rows, cols } = this.#value;
    const editable = this.editable;
    const shape = `${rows}x${cols}:${editable}`;
    if (shape === this.#shape) return;
    this.#shape = shape;
    this.#errors.clear();
    ({ cells: this.#cells, inputs: this.#inputs } = buildHeatmap(this.#table, rows, cols, editable, this.explainable));
    this.#sent = new Array(rows * cols).fill(null);
    this.#paint = new Array(rows * cols).fill(null);
    this.#drawn = new Array(rows * cols).fill(null);
    this.#sources = new Set();
    this.#selected = -1;
    this.#error.textContent = '';
  }

  /** Source outlines and the selected mark, in each view that is on screen (and
   *  cleared from a hidden one, so a view switch carries them over). */
  #paintMarks() {
    const paint = (cells, shown) => cells.forEach((td, i) => {
      td.classList.toggle('source', shown && this.#sources.has(i));
      td.classList.toggle('selected', shown && i === this.#selected);
    });
    paint(this.#cells, this.#heatmapShown());
    paint(this.#plainCells, this.#tableShown());
  }

  /** Caption, hint, toggle and the plain table of exact values (in table view). */
  #renderText() {
    const { rows, cols } = this.#value;
    const lang = this.language;
    const name = this.getAttribute('label') ?? this.id ?? '';
    const explain = this.explainable ? t(this.editable ? 'c.cellHintEdit' : 'c.cellHint', {}, lang) : '';
    setText(this.#hint, explain);
    const caption = t('c.caption', { name, rows, cols }, lang);
    setText(this.#table.caption, explain ? `${caption} ${explain}` : caption);
    const asTable = this.hasAttribute('table');
    this.#toggle.hidden = !this.hasAttribute('table-toggle');
    setText(this.#toggle, t('c.asTable', {}, lang));
    this.#showErrorText();
    setAttr(this.#toggle, 'aria-pressed', String(asTable));
    const heatmap = this.#table.parentElement;
    const exact = this.#plain.parentElement;
    if (heatmap.hidden !== !this.#heatmapShown()) heatmap.hidden = !this.#heatmapShown();
    if (exact.hidden !== !asTable) exact.hidden = !asTable;
    // Out of table view the table is dropped, so a cell (row, col) exists once in the DOM.
    if (!asTable) {
      this.#plainCells = dropExactTable(this.#plain);
      return;
    }
    const rounded = this.getAttribute('table') === 'rounded';
    this.#plainCells = drawExactTable(this.#plain, this.#value, this.#rowLabels, this.#colLabels, {
      caption: t(rounded ? 'c.caption' : 'c.exactCaption', { name, rows, cols }, lang),
      masked: t('c.masked', {}, lang),
      rounded,
    }, this.explainable);
  }

  #label(i) {
    const { cols } = this.#value;
    const r = Math.floor(i / cols);
    const c = i % cols;
    const name = this.getAttribute('label') ?? this.id ?? '';
    return `${name}[${this.#rowLabels[r] ?? r}, ${this.#colLabels[c] ?? c}]`;
  }

  /** Cell i as a screen reader says it: "W_q row d0 column c2" (subscripts as digits). */
  #spoken(i) {
    const { cols } = this.#value;
    const [r, c] = [Math.floor(i / cols), i % cols];
    const plain = (s) => String(s).replace(/[\u2080-\u2089]/g, (d) => String(d.charCodeAt(0) - 0x2080));
    return t('cellName', {
      name: this.getAttribute('label') ?? this.id ?? '',
      row: plain(this.#rowLabels[r] ?? r),
      col: plain(this.#colLabels[c] ?? c),
    }, this.language);
  }

  #render(previous) {
    const rebuilt = this.#shape !== `${this.#value.rows}x${this.#value.cols}:${this.editable}`;
    this.#build();
    const { data } = this.#value;
    paintHeatmap(this.#table, this.#cells, this.#value, {
      rowLabels: this.#rowLabels, colLabels: this.#colLabels, name: this.getAttribute('label') ?? '',
      palette: this.getAttribute('palette') ?? 'none', label: (i) => this.#label(i), painted: this.#paint, drawn: this.#drawn,
      withText: !this.#inputs.length,
    });
    const active = this.shadowRoot.activeElement;
    const old = !rebuilt && previous && previous.data.length === data.length ? previous.data : null;
    this.#inputs.forEach((input, i) => {
      setAttr(input, 'aria-label', this.#spoken(i));
      const changed = !old || !Object.is(old[i], data[i]);
      if (changed && input !== active && !this.#errors.has(i)) {
        input.value = formatInput(data[i]);
        this.#sent[i] = input.value;
      }
    });
    this.#renderText();
    this.#paintMarks();
    this.#showReadout(this.#focused);
  }

  #paintError(i) {
    const td = this.#cells[i];
    const bad = this.#errors.has(i);
    td.classList.toggle('invalid', bad);
    const target = this.#inputs[i] ?? td;
    if (bad) target.setAttribute('aria-invalid', 'true'); else target.removeAttribute('aria-invalid');
    this.#showErrorText();
  }

  /** The newest cell error, in the grid's language, under the grid. */
  #showErrorText() {
    const say = [...this.#errors.values()].at(-1);
    setText(this.#error, say ? say(this.language) : '');
  }

  #showReadout(i) {
    const v = this.#value;
    if (!v || i < 0 || i >= v.data.length) {
      if (this.#readout.firstChild) this.#readout.textContent = '';
      return;
    }
    drawReadout(this.#readout, this.#label(i), v.data[i]);
  }

  // ---- interaction ----

  #emit(i) {
    const input = this.#inputs[i];
    const { cols } = this.#value;
    this.#sent[i] = input.value;
    this.dispatchEvent(new CustomEvent('cell-edit', {
      bubbles: true,
      composed: true,
      detail: { row: Math.floor(i / cols), col: i % cols, text: input.value },
    }));
  }

  #explain(i) {
    const { cols } = this.#value;
    this.dispatchEvent(new CustomEvent('cell-explain', {
      bubbles: true,
      composed: true,
      detail: { row: Math.floor(i / cols), col: i % cols, label: this.getAttribute('label') ?? this.id ?? '' },
    }));
  }

  #onClick(e, inTable) {
    if (!this.explainable || (!inTable && this.#inputs.length)) return;
    const i = this.#indexOf(e.target, inTable);
    if (i >= 0) this.#explain(i);
  }

  #onInput(e) {
    const i = this.#inputs.indexOf(e.target);
    if (i >= 0) this.#emit(i);
  }

  /** A focused cell: the one of its view that Tab reaches (cells without inputs take
   *  focus one at a time) and, in the heatmap, the one the read-out shows. */
  #onFocus(e, inTable) {
    const i = this.#indexOf(e.target, inTable);
    if (i < 0) return;
    if (inTable || !this.#inputs.length) {
      (inTable ? this.#plainCells : this.#cells).forEach((td, j) => { td.tabIndex = j === i ? 0 : -1; });
    }
    if (inTable) return;
    this.#focused = i;
    this.#showReadout(i);
  }

  /** One handler for both views (the table's cells take keys in explainable grids
   *  only: other tables take no focus): explain, Escape in an input, or a move. */
  #onKey(e, inTable) {
    const i = this.#indexOf(e.target, inTable);
    if (i < 0 || (inTable && !this.explainable) || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
    const input = inTable ? null : this.#inputs[i];
    if (this.explainable && isExplainKey(e, input)) {
      e.preventDefault();
      if (input && input.value !== this.#sent[i]) this.#emit(i);
      this.#explain(i);
      return;
    }
    if (input && e.key === 'Escape') {
      input.value = formatInput(this.#value.data[i]);
      this.#emit(i);
      input.select();
      e.preventDefault();
      return;
    }
    const j = keyTarget(e, i, this.#value.rows, this.#value.cols, input);
    if (j < 0) return;
    e.preventDefault();
    if (input && e.key === 'Enter' && input.value !== this.#sent[i]) this.#emit(i);
    const target = inTable ? this.#plainCells[j] : this.#inputs[j] ?? this.#cells[j];
    target?.focus();
    target?.select?.();
  }
}

/** Whether `v` holds exactly the numbers (and masked cells) already drawn. */
function sameValue(a, v) {
  if (a.rows !== v.rows || a.cols !== v.cols) return false;
  const { data } = v;
  for (let i = 0; i < data.length; i++) if (!Object.is(a.data[i], data[i])) return false;
  const m = v.masked;
  if (!m !== !a.masked || (m && m.length !== a.masked.length)) return false;
  if (m) for (let i = 0; i < m.length; i++) if (Boolean(a.masked[i]) !== Boolean(m[i])) return false;
  return true;
}

if (!customElements.get('attn-matrix')) customElements.define('attn-matrix', AttnMatrix);

export { AttnMatrix };
