// The "exact values" view of <attn-matrix>: a plain <table> with a caption, row and
// column headers and every number as the shortest text that round-trips the float64,
// for screen readers and for anyone who wants more than two decimals.

import { formatExact } from './format.js';

/**
 * Fills `table` with `value` = { rows, cols, data, masked? }; `text.caption` names it,
 * `text.masked` marks cells the mask hides that hold a finite number (a weight of 0).
 */
export function drawExactTable(table, value, rowLabels, colLabels, text) {
  const { rows, cols, data, masked } = value;
  const doc = table.ownerDocument;
  const make = (tag, content = '', props = {}) => Object.assign(doc.createElement(tag), props, { textContent: content });
  const head = make('tr');
  head.append(make('th'), ...Array.from({ length: cols }, (_, c) => make('th', colLabels[c] ?? String(c), { scope: 'col' })));
  const body = Array.from({ length: rows }, (_, r) => {
    const tr = make('tr');
    tr.append(make('th', rowLabels[r] ?? String(r), { scope: 'row' }), ...Array.from({ length: cols }, (_, c) => {
      const v = data[r * cols + c];
      const hidden = masked?.[r * cols + c] && v !== -Infinity;
      return make('td', hidden ? `${formatExact(v)} (${text.masked})` : formatExact(v));
    }));
    return tr;
  });
  const thead = make('thead');
  thead.append(head);
  const tbody = make('tbody');
  tbody.append(...body);
  table.replaceChildren(make('caption', text.caption), thead, tbody);
}
