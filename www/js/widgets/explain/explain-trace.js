// Click-to-explain for the widgets whose results carry a head's trace ({ q, k, v, scale,
// masked_scores, weights, out }): their scores, weights and out grids explain
// themselves through core.explainTrace, which takes the trace back unchanged, so
// the panel explains exactly the numbers drawn. JS only picks the trace.
//
//   const ex = explainTraces(widget, {
//     grids: [this.weights, this.out],        // <attn-matrix> elements to make explainable
//     source: (grid) => ({ trace, causal, tokens? }),  // what `grid` draws now (null: nothing)
//     key: () => JSON.stringify(state),       // the numbers; a new key closes the panel
//     tokens: ['h', 'o', 'u'],                // row labels for matrices not drawn (v)
//   });
//   root.append(ex.panel);                    // a floating <attn-explain>
//   ex.sync();                                // in render(): closes a stale panel
//
// The kind explained is the grid's `matrix` attribute, else its label: "scores",
// "masked_scores", "weights" or "out". A drawn score that is −∞ is explained as
// masked, any other drawn score as its dot product; name a grid that draws the
// masked scores `matrix="masked_scores"` so that a weight outlines its row there.
// Where one widget draws two heads, wrap each head's grids in an element
// with `data-explain-scope` so that outlines stay within that head.

import { h, message } from '../../ui/widget-base.js';
import './attn-explain.js';

const KINDS = ['scores', 'masked_scores', 'weights', 'out'];

export function explainTraces(widget, { grids, source, key, tokens }) {
  const panel = h('attn-explain', { floating: '' });
  if (tokens) panel.tokens = tokens;
  let drawn = null; // key of the numbers on screen (set by sync() in render)
  let explained = null; // key of the numbers the open panel explains
  for (const g of grids) g.setAttribute('explainable', '');

  const kindOf = (grid, row, col) => {
    const name = grid.getAttribute('matrix') ?? grid.getAttribute('label');
    if (!KINDS.includes(name)) return null;
    const v = grid.value;
    const minusInf = v?.data[row * v.cols + col] === -Infinity;
    if (name === 'scores' || name === 'masked_scores') return minusInf ? 'masked_scores' : 'scores';
    return name;
  };

  widget.shadowRoot.addEventListener('cell-explain', (e) => {
    const grid = e.target;
    const { row, col } = e.detail ?? {};
    if (!grids.includes(grid) || !widget.core) return;
    const from = source(grid);
    const kind = kindOf(grid, row, col);
    if (!from || !kind) return;
    if (from.tokens) panel.tokens = from.tokens;
    try {
      panel.explanation = widget.core.explainTrace(from.trace, Boolean(from.causal), kind, row, col);
      explained = drawn;
    } catch (err) {
      widget.showError(message(err));
    }
  });

  return {
    panel,
    /** In render(), before drawing: closes the panel when the numbers it explained
     *  are about to be replaced. */
    sync() {
      drawn = key();
      if (panel.open && drawn !== explained) panel.explanation = null;
    },
  };
}
