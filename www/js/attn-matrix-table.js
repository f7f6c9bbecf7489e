// The table view of <attn-matrix>: a plain <table> with a caption, row and column
// headers and every number as the shortest text that round-trips the float64 (exact
// values, for anyone who wants more than two decimals), or with two decimals as in the
// heatmap (`rounded`: a lesson's tables for screen readers, narrow enough for a card).
// In an explainable grid its value cells can be asked for their explanation like the
// heatmap's: each carries data-row/data-col, the hint and a roving tabindex.

import { formatCell, formatExact } from './format.js';

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
