// Click-to-explain for the lesson grids drawn from a lesson function (the head probe's M,
// normalising, the position table, the exercise, practice, the proofs): a clicked
// cell (or Enter on a focused one) is explained by the core from the same arguments
// the grid was drawn with, in a floating <attn-explain>. JS only picks the call.
//
//   const ex = explainGrids(widget, {
//     grids: () => [this.a, this.b],          // <attn-matrix> elements (made explainable)
//     explain: (grid, row, col) => core.explainX(…same arguments…, row, col), // or null
//     key: () => JSON.stringify(state),       // the numbers drawn; a new key closes the panel
//     panel: (grid, panel) => { panel.tokens = …; panel.labels = …; },   // optional
//   });
//   root.append(ex.panel);
//   ex.sync();                                // in draw()/render(), before drawing

import { h, message } from '../../ui/widget-base.js';
import './attn-explain.js';

export function explainGrids(widget, { grids, explain, key, panel: setup }) {
  const panel = h('attn-explain', { floating: '' });
  let drawn = null; // key of the numbers on screen
  let explained = null; // key of the numbers the open panel explains
  const list = () => grids().filter(Boolean);
  for (const g of list()) g.setAttribute('explainable', '');

  widget.shadowRoot.addEventListener('cell-explain', (e) => {
    const grid = e.target;
    const { row, col } = e.detail ?? {};
    if (!list().includes(grid) || !widget.core) return;
    let ex;
    try {
      ex = explain(grid, row, col);
    } catch (err) {
      widget.showError(message(err, widget.language));
      return;
    }
    if (!ex) return;
    setup?.(grid, panel);
    panel.explanation = ex;
    explained = drawn;
  });

  return {
    panel,
    /** Before drawing: closes the panel when the numbers it explained are replaced. */
    sync() {
      drawn = key();
      if (panel.open && drawn !== explained) panel.explanation = null;
    },
  };
}
