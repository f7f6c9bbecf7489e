// <attn-matrix>: one matrix drawn as a heatmap table that prints its numbers.
//
//   el.value     = { rows, cols, data, masked? }   (data row-major: an array, or the typed
//                  array a core result holds, copied; masked: booleans)
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
// attn-matrix-views.js (which view is on screen, its cells and marks),
// attn-matrix-edit.js (typed text and error marks), attn-matrix-text.js (captions,
// hint, cell names), attn-matrix-events.js (clicks, keys, focus and typing, one set for
// both views), attn-matrix-keys.js (what a key does), attn-matrix-css.js.

import { styles } from './attn-matrix-css.js';
import { CellEdits } from './attn-matrix-edit.js';
import { listen } from './attn-matrix-events.js';
import { buildHeatmap, drawReadout, paintHeatmap, setAttr, setText } from './attn-matrix-table.js';
import { cellLabel, gridName, gridWords, spokenCell, tableWords } from './attn-matrix-text.js';
import { MatrixViews } from './attn-matrix-views.js';
import { signKey } from './attn-matrix-sign.js';
import { onTouchChange, touchScreen } from './touch.js';
import { langOf, onLangChange } from '../../i18n/i18n.js';

class AttnMatrix extends HTMLElement {
  static observedAttributes = ['editable', 'palette', 'label', 'explainable', 'table', 'lang'];

  #value = null;
  #rowLabels = [];
  #colLabels = [];
  #shape = '';
  #paint = [];
  #drawn = [];
  #focused = -1;
  #offLang = null;
  #offTouch = null;
  #views;
  #edits;
  #table;
  #toggle;
  #hint;
  #readout;
  #sign;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [styles()];
    root.innerHTML = '<div class="scroll heatmap"><table></table></div>'
      + '<div class="scroll exact" hidden><table class="plain"></table></div>'
      + '<div class="foot"><button type="button" class="sign" tabindex="-1" hidden>±</button>'
      + '<div class="readout" aria-hidden="true"></div>'
      + '<button type="button" class="as-table" aria-pressed="false" hidden></button></div>'
      + '<div class="error" role="alert"></div><span class="sr-only" id="hint"></span>';
    this.#table = root.querySelector('.heatmap table');
    const plain = root.querySelector('table.plain');
    this.#toggle = root.querySelector('button.as-table');
    this.#hint = root.querySelector('#hint');
    this.#readout = root.querySelector('.readout');
    this.#views = new MatrixViews(this, this.#table, plain);
    this.#edits = new CellEdits(root.querySelector('.error'), () => this.language,
      (i, text) => this.#cellEvent('cell-edit', i, { text }));
    this.#toggle.addEventListener('click', () => this.toggleAttribute('table'));
    this.#sign = root.querySelector('button.sign');
    signKey(this.#sign, this.#table, this.#views);
    listen(this, this.#table, plain, {
      views: this.#views,
      edits: this.#edits,
      value: () => this.#value,
      explain: (i) => this.#cellEvent('cell-explain', i, { label: gridName(this) }),
      focus: (i) => { this.#focused = i; this.#showReadout(i); },
      // the pointer's cell, else (the pointer gone) the focused one
      hover: (i) => this.#showReadout(i >= 0 ? i : this.#focused),
    });
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
    // the hint says "tap" on a touch screen
    this.#offTouch ??= onTouchChange(() => this.#value && this.#renderText());
  }

  disconnectedCallback() {
    this.#offLang?.();
    this.#offLang = null;
    this.#offTouch?.();
    this.#offTouch = null;
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
    this.#views.sources = next;
  }

  /** Marks the cell being explained (null clears). */
  markSelected(row, col) {
    this.#views.selected = row == null ? -1 : this.#index(row, col);
  }

  /** The element showing cell (row, col) in the current view, or null. */
  cellAt(row, col) {
    const i = this.#index(row, col);
    return i < 0 ? null : this.#views.cellAt(i);
  }

  /** Marks a cell as holding text that is not a number and shows `message` (a string,
   *  or (lang) => string to follow the grid's language). */
  setCellError(row, col, message) {
    const i = this.#index(row, col);
    if (i >= 0) this.#edits.mark(i, typeof message === 'function' ? message : () => String(message));
  }

  clearCellError(row, col) {
    const i = this.#index(row, col);
    if (i >= 0) this.#edits.unmark(i);
  }

  /** Drops every error mark and puts the last valid number back into those cells. */
  clearErrors() {
    this.#edits.unmarkAll(this.#value?.data);
  }

  /** clearErrors(), and every input shows the grid's own number again: text typed there
   *  that its widget has not taken (before its core arrived) is dropped. */
  revert() {
    this.clearErrors();
    if (this.#value) this.#edits.revert(this.#value.data);
  }

  get hasErrors() { return this.#edits.marked; }

  // ---- drawing ----

  #index(row, col) {
    const v = this.#value;
    if (!v || !Number.isInteger(row) || !Number.isInteger(col)) return -1;
    return row >= 0 && row < v.rows && col >= 0 && col < v.cols ? row * v.cols + col : -1;
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
    const { cells, inputs } = buildHeatmap(this.#table, rows, cols, editable, this.explainable);
    this.#views.reset(cells, inputs);
    this.#edits.reset(cells, inputs);
    this.#paint = new Array(rows * cols).fill(null);
    this.#drawn = new Array(rows * cols).fill(null);
  }

  /** Caption, hint, toggle, error line, and the view(s) on screen. */
  #renderText() {
    const { rows, cols } = this.#value;
    const lang = this.language;
    const name = gridName(this);
    const words = gridWords(name, rows, cols,
      { explainable: this.explainable, editable: this.editable, touch: touchScreen() }, lang);
    setText(this.#hint, words.hint);
    setText(this.#table.caption, words.caption);
    this.#toggle.hidden = !this.hasAttribute('table-toggle');
    setText(this.#toggle, words.toggle);
    setAttr(this.#sign, 'aria-label', words.sign);
    this.#edits.showError();
    setAttr(this.#toggle, 'aria-pressed', String(this.hasAttribute('table')));
    this.#views.show(this.#value, this.#rowLabels, this.#colLabels,
      () => tableWords(name, rows, cols, this.getAttribute('table') === 'rounded', lang));
  }

  #label(i) {
    return cellLabel(gridName(this), this.#rowLabels, this.#colLabels, this.#value.cols, i);
  }

  #render(previous) {
    const rebuilt = this.#shape !== `${this.#value.rows}x${this.#value.cols}:${this.editable}`;
    this.#build();
    const { data, cols } = this.#value;
    const { cells, inputs } = this.#views;
    paintHeatmap(this.#table, cells, this.#value, {
      rowLabels: this.#rowLabels, colLabels: this.#colLabels, name: this.getAttribute('label') ?? '',
      palette: this.getAttribute('palette') ?? 'none', label: (i) => this.#label(i), painted: this.#paint, drawn: this.#drawn,
      withText: !inputs.length,
    });
    const old = !rebuilt && previous && previous.data.length === data.length ? previous.data : null;
    inputs.forEach((input, i) => {
      setAttr(input, 'aria-label', spokenCell(gridName(this), this.#rowLabels, this.#colLabels, cols, i, this.language));
    });
    this.#edits.refresh(data, old, this.shadowRoot.activeElement);
    this.#renderText();
    this.#views.paintMarks();
    this.#showReadout(this.#focused);
  }

  #showReadout(i) {
    const v = this.#value;
    if (!v || i < 0 || i >= v.data.length) {
      if (this.#readout.firstChild) this.#readout.textContent = '';
      return;
    }
    drawReadout(this.#readout, this.#label(i), v.data[i]);
  }

  /** 'cell-edit' (`more`: { text }) or 'cell-explain' (`more`: { label }) for cell i:
   *  composed, so that a widget hears its grids through their shadow roots. */
  #cellEvent(type, i, more) {
    const { cols } = this.#value;
    this.dispatchEvent(new CustomEvent(type, {
      bubbles: true,
      composed: true,
      detail: { row: Math.floor(i / cols), col: i % cols, ...more },
    }));
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
