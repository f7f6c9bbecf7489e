// What the reader does to <attn-matrix>, alike in its heatmap and its table view: clicks,
// keys, focus, hovering and typing, each turned into the index of its cell and handed to
// the part that answers it (the typed text, the element's events, the read-out, the
// focus). The element's state stays private to it: it lends this module callbacks.

import { isExplainKey, keyTarget } from './attn-matrix-keys.js';

/**
 * Listens to the two views' <table>s, `heatmap` and `table`, of `host` (the element,
 * whose `explainable` is read at each event). `grid.views` and `grid.edits` are its
 * MatrixViews and CellEdits, `grid.value()` its numbers now; `grid.explain(i)` asks for
 * cell i's explanation; `grid.focus(i)` and `grid.hover(i)` say which heatmap cell has
 * the focus and which one the pointer is over (-1: none), for the read-out.
 */
export function listen(host, heatmap, table, grid) {
  const { views, edits } = grid;
  for (const [view, inTable] of [[heatmap, false], [table, true]]) {
    view.addEventListener('click', (e) => {
      // an input takes its clicks: there Shift+Enter explains
      if (!host.explainable || (!inTable && views.inputs.length)) return;
      const i = views.indexOf(e.target, inTable);
      if (i >= 0) grid.explain(i);
    });
    view.addEventListener('keydown', (e) => onKey(e, inTable, host, grid));
    view.addEventListener('focusin', (e) => {
      const i = views.indexOf(e.target, inTable);
      if (i < 0) return;
      // Tab comes back to this cell; the read-out follows the heatmap's focus only
      views.rove(i, inTable);
      if (!inTable) grid.focus(i);
    });
  }
  heatmap.addEventListener('input', (e) => {
    const i = views.inputs.indexOf(e.target);
    if (i >= 0) edits.send(i);
  });
  heatmap.addEventListener('focusout', () => grid.focus(-1));
  heatmap.addEventListener('mouseover', (e) => grid.hover(views.indexOf(e.target)));
  heatmap.addEventListener('mouseleave', () => grid.hover(-1));
}

/** One handler for both views (the table's cells take keys in explainable grids
 *  only: other tables take no focus): explain, Escape in an input, or a move. */
function onKey(e, inTable, host, { views, edits, value, explain }) {
  const i = views.indexOf(e.target, inTable);
  if (i < 0 || (inTable && !host.explainable) || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
  const input = inTable ? null : views.inputs[i];
  if (host.explainable && isExplainKey(e, input)) {
    e.preventDefault();
    // what was typed counts before it is explained
    if (input) edits.sendChanged(i);
    explain(i);
    return;
  }
  const { rows, cols, data } = value();
  if (input && e.key === 'Escape') {
    edits.restore(i, data);
    e.preventDefault();
    return;
  }
  const j = keyTarget(e, i, rows, cols, input);
  if (j < 0) return;
  e.preventDefault();
  if (input && e.key === 'Enter') edits.sendChanged(i);
  const target = inTable ? views.tableCells[j] : views.inputs[j] ?? views.cells[j];
  target?.focus();
  target?.select?.();
}
