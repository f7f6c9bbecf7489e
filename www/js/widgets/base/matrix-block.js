// Heatmaps inside a widget: a bare <attn-matrix>, a matrix block (a heatmap under a
// caption), and the "show as tables" switch. Numbers arrive from wasm and are only
// handed to the grid, which draws them.

import '../../ui/matrix/attn-matrix.js';
import { h } from '../../ui/widget-base.js';

/** An <attn-matrix> heatmap. */
export function heatmap(label, palette = 'weights') {
  return h('attn-matrix', { label, palette });
}

/** Sets an attn-matrix's value and the labels given (absent labels stay as they were). */
export function showMatrix(el, value, rowLabels, colLabels) {
  if (rowLabels) el.rowLabels = rowLabels;
  if (colLabels) el.colLabels = colLabels;
  el.value = value;
}

/** A heatmap (<attn-matrix>) under an optional caption; in table view (tableSwitch)
 *  the grid itself shows its numbers as a plain table. */
export function matrixBlock({ label, palette = 'signed', editable = false, caption = '' }) {
  const matrix = h('attn-matrix', { label, palette, editable });
  const cap = h('div', { class: 'mlabel' }, caption);
  const el = h('div', { class: 'mblock' }, cap, matrix);
  return {
    el,
    matrix,
    caption: cap,
    set(value, rowLabels, colLabels) {
      matrix.rowLabels = rowLabels;
      matrix.colLabels = colLabels;
      matrix.value = value;
    },
  };
}

/** The "show as tables" switch every matrix-block widget carries: it sets table="rounded"
 *  on each of the widget's <attn-matrix> grids (under `body`), which then show plain tables
 *  of the drawn two-decimal numbers (editable grids keep their cells to type in, with
 *  the table under them).
 *  It changes only how the numbers are shown, so `readonly` leaves it working (data-view,
 *  widget-base.js), and an open explanation stays open: the explained cell and its
 *  sources are the same cells of the same grids, now outlined in the tables, and
 *  explainable table cells explain themselves like heatmap cells. */
export function tableSwitch(widget, body) {
  const button = h('button', { type: 'button', class: 'tables', 'aria-pressed': 'false', 'data-view': '' });
  button.addEventListener('click', () => {
    const on = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(on));
    for (const grid of body.querySelectorAll('attn-matrix')) {
      if (on) grid.setAttribute('table', 'rounded'); else grid.removeAttribute('table');
    }
  });
  return {
    el: button,
    label() {
      const text = widget.t('a.asTables');
      if (button.textContent !== text) button.textContent = text;
    },
  };
}
