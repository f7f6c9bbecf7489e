// The two tables of <attn-matrix>. The heatmap's (buildHeatmap): a cell per number, an
// <input> in each when editable. The table view (drawExactTable): a plain <table> with a caption, row and column
// headers and every number as the shortest text that round-trips the float64 (exact
// values, for anyone who wants more than two decimals), or with two decimals as in the
// heatmap (`rounded`: a lesson's tables for screen readers, narrow enough for a card).
// In an explainable grid its value cells can be asked for their explanation like the
// heatmap's: each carries data-row/data-col, the hint and a roving tabindex.

import { cellColours, colourRange } from '../palette.js';
import { formatCell, formatExact } from '../format.js';

/** DOM writes only when something changed: keeps redraws cheap. */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * Fills `table` with `value` = { rows, cols, data, masked? }; `text.caption` names it,
 * `text.masked` marks cells the mask hides that hold a finite number (a weight of 0),
 * `text.rounded` prints two decimals instead of the exact value.
 * `explainable` makes the value cells focusable (one at a time: tabindex 0 on the
 * first) and points them at the element with id "hint". The table is rebuilt only
 * when its shape changes, otherwise its text is updated in place (so a focused or
 * marked cell stays the same element). Returns the value cells, row-major.
 */
export function drawExactTable(table, value, rowLabels, colLabels, text, explainable = false) {
  const { rows, cols, data, masked } = value;
  const doc = table.ownerDocument;
  const shape = `${rows}x${cols}:${explainable}`;
  if (table.dataset.shape !== shape) {
    table.dataset.shape = shape;
    const make = (tag, props = {}) => Object.assign(doc.createElement(tag), props);
    const head = make('tr');
    head.append(make('th'), ...Array.from({ length: cols }, () => make('th', { scope: 'col' })));
    const body = Array.from({ length: rows }, (_, r) => {
      const tr = make('tr');
      tr.append(make('th', { scope: 'row' }), ...Array.from({ length: cols }, (_, c) => {
        const td = make('td');
        td.dataset.row = r;
        td.dataset.col = c;
        if (explainable) {
          td.className = 'explainable';
          td.tabIndex = r === 0 && c === 0 ? 0 : -1;
          td.setAttribute('aria-describedby', 'hint');
        }
        return td;
      }));
      return tr;
    });
    const thead = make('thead');
    thead.append(head);
    const tbody = make('tbody');
    tbody.append(...body);
    table.replaceChildren(make('caption'), thead, tbody);
  }
  const set = (node, s) => { if (node.textContent !== s) node.textContent = s; };
  set(table.caption, text.caption);
  const heads = table.tHead.rows[0].cells;
  for (let c = 0; c < cols; c++) set(heads[c + 1], colLabels[c] ?? String(c));
  const format = text.rounded ? formatCell : formatExact;
  const cells = [];
  [...table.tBodies[0].rows].forEach((tr, r) => {
    set(tr.cells[0], rowLabels[r] ?? String(r));
    for (let c = 0; c < cols; c++) {
      const td = tr.cells[c + 1];
      const v = data[r * cols + c];
      const hidden = Boolean(masked?.[r * cols + c]);
      set(td, hidden && v !== -Infinity ? `${format(v)} (${text.masked})` : format(v));
      td.classList.toggle('masked', hidden || v === -Infinity);
      cells.push(td);
    }
  });
  return cells;
}

/** Empties a table drawExactTable filled; returns its (no) cells. */
export function dropExactTable(table) {
  if (table.dataset.shape) {
    table.replaceChildren();
    delete table.dataset.shape;
  }
  return [];
}

/** The read-out's three parts: the grid's name, "[row, col] = ", the value. */
const READOUT = ['name', 'at', 'exact'];

/** The read-out under the grid: `name = ` and the exact value on one line of fixed
 *  height, so that showing it never moves the grid's neighbours (a click whose mouseup
 *  lands elsewhere would be lost). The value is never cut: where the line is too narrow
 *  the grid's name gives way (an ellipsis), its cell's [row, col] and the value stay. */
export function drawReadout(box, name, v) {
  const at = name.lastIndexOf('[');
  const texts = at > 0 ? [name.slice(0, at), `${name.slice(at)} = `, formatExact(v)] : [name, ' = ', formatExact(v)];
  const parts = [...box.children];
  if (parts.length === 3 && parts.every((p, i) => p.className === READOUT[i])) {
    // the same line, its text updated in place (a redraw while a cell is focused)
    parts.forEach((p, i) => setText(p, texts[i]));
    return;
  }
  const span = (cls, text) => Object.assign(box.ownerDocument.createElement('span'), { className: cls, textContent: text });
  box.replaceChildren(...texts.map((text, i) => span(READOUT[i], text)));
}

/**
 * Rebuilds `table` as the heatmap of a rows×cols grid: a screen-reader caption, row and
 * column headers, a cell (part="cell", data-row/data-col) per number holding an <input>
 * when `editable`; `explainable` cells point at the element with id "hint". Cells
 * without inputs are focusable one at a time (tabindex 0 on the first). Returns the
 * cells and the inputs, row-major.
 */
export function buildHeatmap(table, rows, cols, editable, explainable) {
  const make = (tag, props = {}) => Object.assign(table.ownerDocument.createElement(tag), props);
  const head = make('tr');
  head.append(make('th'), ...Array.from({ length: cols }, () => make('th', { scope: 'col' })));
  const body = make('tbody');
  const cells = [];
  const inputs = [];
  for (let r = 0; r < rows; r++) {
    const tr = make('tr');
    tr.append(make('th', { scope: 'row' }));
    for (let c = 0; c < cols; c++) {
      const td = make('td', { part: 'cell', className: editable ? 'editable' : '' });
      td.dataset.row = r;
      td.dataset.col = c;
      if (explainable) {
        td.classList.add('explainable');
        if (!editable) td.setAttribute('aria-describedby', 'hint');
      }
      if (editable) {
        // The decimal keypad: digits and a point, what a cell mostly takes. iOS's has no
        // minus sign: the grid's ± key gives it (attn-matrix-sign.js). A cell still takes
        // 1/3 and 1e-3 from a keyboard that has them. Enter moves down a row: "next".
        const input = make('input', { type: 'text', autocomplete: 'off', spellcheck: false, inputMode: 'decimal' });
        input.setAttribute('enterkeyhint', 'next');
        input.setAttribute('autocapitalize', 'off');
        input.setAttribute('autocorrect', 'off');
        input.dataset.row = r;
        input.dataset.col = c;
        if (explainable) input.setAttribute('aria-describedby', 'hint');
        td.append(input);
        inputs.push(input);
      } else {
        td.tabIndex = r === 0 && c === 0 ? 0 : -1;
      }
      tr.append(td);
      cells.push(td);
    }
    body.append(tr);
  }
  table.replaceChildren(make('caption', { className: 'sr-only' }), make('thead'), body);
  table.tHead.append(head);
  return { cells, inputs };
}

/**
 * Draws `value` = { rows, cols, data, masked? } into the heatmap `buildHeatmap` made:
 * the headers (`rowLabels`, `colLabels`, else indices; the table named `name`), each
 * cell's colours from `palette` (none for a masked cell), its title `label(i) = exact
 * value` and, `withText` (cells without inputs), its two-decimal text. `painted` holds
 * each cell's colours, so that a redraw writes only the ones that changed, and `drawn`
 * (optional) what each cell was drawn from (its number, the colour range, the labels),
 * so that a redraw skips the cells whose number did not change.
 */
export function paintHeatmap(table, cells, value, { rowLabels, colLabels, name, palette, label, painted, drawn, withText }) {
  const { rows, cols, data, masked } = value;
  const heads = table.querySelectorAll('thead th');
  for (let c = 0; c < cols; c++) setText(heads[c + 1], colLabels[c] ?? String(c));
  const rowHeads = table.querySelectorAll('tbody th');
  for (let r = 0; r < rows; r++) setText(rowHeads[r], rowLabels[r] ?? String(r));
  setAttr(table, 'aria-label', name);
  const range = palette === 'signed' ? colourRange(data) : 1;
  // What every cell's drawing depends on besides its own number and mask.
  const shared = drawn && [palette, range, name, withText, label(0), ...rowLabels, '', ...colLabels].join('\u0001');
  cells.forEach((td, i) => {
    const v = data[i];
    const isMasked = v === -Infinity || Boolean(masked && masked[i]);
    if (drawn) {
      const key = `${shared}\u0002${isMasked}\u0002${Object.is(v, -0) ? '-0' : v}`;
      if (drawn[i] === key) return;
      drawn[i] = key;
    }
    const { bg, fg } = isMasked ? { bg: '', fg: '' } : cellColours(palette, v, range);
    td.classList.toggle('masked', isMasked);
    if (painted[i] !== `${bg}|${fg}`) {
      painted[i] = `${bg}|${fg}`;
      td.style.backgroundColor = bg;
      td.style.color = fg;
    }
    setAttr(td, 'title', `${label(i)} = ${formatExact(v)}`);
    if (withText) setText(td, formatCell(v));
  });
}
