// Shadow-DOM styles of <attn-matrix> (kept apart so the element's logic stays short).
// Hosts may theme it with --attn-cell-w, --attn-cell-h, --attn-muted, --attn-mono, --attn-focus.

import { sheet } from '../widget-css.js';

export const CSS = `
:host { display: block; max-width: 100%; font-variant-numeric: tabular-nums;
  --cell-w: var(--attn-cell-w, 3.4rem); --cell-h: var(--attn-cell-h, 2.15rem);
  /* A redraw of the grid (new numbers, colours, a read-out) is laid out and painted
     inside it: the page around it keeps its layout and its recorded paint. */
  contain: layout style; }
:host([hidden]) { display: none; }
.scroll { overflow-x: auto; max-width: 100%; padding: 3px; margin: -3px; }
table { border-collapse: separate; border-spacing: 3px; margin: 0; }
th { font-weight: 600; font-size: .78rem; color: var(--attn-muted, #5a6072); padding: 0 .3rem;
  font-family: var(--attn-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace); }
thead th { height: 1.3rem; vertical-align: bottom; }
tbody th { text-align: right; padding-right: .45rem; }
td { width: var(--cell-w); min-width: var(--cell-w); height: var(--cell-h); padding: 0;
  text-align: center; font-size: .88rem; border-radius: 6px; background: #f3f4f6; color: #14161c;
  box-shadow: inset 0 0 0 1px rgb(0 0 0 / .07); }
td:focus { outline: none; }
td:focus-visible, td:focus-within { outline: 2.5px solid var(--attn-focus, #1d4ed8); outline-offset: 1px; }
td.editable { box-shadow: inset 0 0 0 1px rgb(0 0 0 / .28); }
td.editable:hover { box-shadow: inset 0 0 0 2px rgb(0 0 0 / .45); }
td.masked { background: repeating-linear-gradient(135deg, #dfe1e7 0 3px, #f4f5f8 3px 7px);
  color: #4b5060; font-style: italic; }
td.invalid { background: #fff5f5; color: #9b1c1c; outline: 2.5px solid #c62828; outline-offset: 1px; }
input { all: unset; box-sizing: border-box; width: 100%; height: var(--cell-h); padding: 0 .2rem;
  text-align: center; font: inherit; color: inherit; cursor: text; }
/* The read-out and error lines stay inside the grid's width instead of widening a
   shrink-to-fit card on hover (which would move the cell under the pointer); the
   read-out has a fixed height for the same reason. */
.foot, .error { contain: inline-size; }
.foot { display: flex; gap: .5rem; align-items: flex-start; justify-content: space-between; }
.readout { flex: 1; min-width: 0; display: flex; height: 1.25em; line-height: 1.25; margin-top: .15rem;
  font-size: .76rem; white-space: nowrap; overflow: hidden;
  color: var(--attn-muted, #5a6072); font-family: var(--attn-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace); }
/* One line: the grid's name gives way to the cell and its value. */
.readout span { flex: none; white-space: pre; } /* pre: the space after "=" stays */
.readout .name { flex: 0 1 auto; min-width: 1ch; overflow: hidden; text-overflow: ellipsis; }
.error { margin-top: .2rem; font-size: .8rem; color: #9b1c1c; line-height: 1.35; }
.error:empty { display: none; }
td.explainable { cursor: pointer; }
td.explainable:not(.editable):hover { box-shadow: inset 0 0 0 2px rgb(0 0 0 / .45); }
/* Where an explained number came from: a dashed ring that reads on every palette colour. */
td.source { outline: 3px dashed var(--attn-source, #0f766e); outline-offset: 1px;
  box-shadow: inset 0 0 0 2px #fff; }
/* The explained cell itself. */
td.selected { outline: 3px solid var(--attn-selected, #14161c); outline-offset: 1px;
  box-shadow: inset 0 0 0 2px #fff; }
td.selected:focus-visible { outline-color: var(--attn-focus, #1d4ed8); }
/* the ± key (touch screens, while a cell is edited): a finger's size */
button.sign { all: unset; flex: none; box-sizing: border-box; min-width: 2.75rem; height: 2.25rem; margin-top: .2rem;
  border: 1px solid #c9cdd8; border-radius: 8px; background: #fff; color: #1b1e27; text-align: center;
  font: 600 1.15rem/2.1rem var(--attn-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace); cursor: pointer; }
button.sign[hidden] { display: none; }
button.as-table { all: unset; flex: none; margin-top: .1rem; padding: 0 .4rem; border-radius: 5px;
  font-size: .72rem; line-height: 1.3rem; color: var(--attn-muted, #5a6072); cursor: pointer;
  border: 1px solid rgb(0 0 0 / .18); }
button.as-table[aria-pressed="true"] { background: #ece9f8; color: #2e1f75; }
button.as-table:focus-visible { outline: 2.5px solid var(--attn-focus, #1d4ed8); outline-offset: 1px; }
[hidden] { display: none !important; }
table.plain { border-collapse: collapse; border-spacing: 0; font-size: .8rem;
  font-family: var(--attn-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace); }
table.plain caption { text-align: left; font-size: .76rem; color: var(--attn-muted, #5a6072); padding-bottom: .2rem; }
table.plain td { width: auto; min-width: 0; height: auto; padding: .15rem .45rem; border-radius: 0;
  background: none; box-shadow: none; text-align: right; border-bottom: 1px solid #e1e4eb; }
/* Explainable exact values: the same click target as a heatmap cell, and the marks of an
   explanation drawn inside the cell (collapsed borders leave no gap for an outer ring). */
table.plain thead th { text-align: right; padding: 0 .45rem; }
table.plain td.explainable:hover { background: #f1f0fb; box-shadow: none; }
table.plain td:focus-visible, table.plain td.source, table.plain td.selected { outline-offset: -3px; }
table.plain td.selected { background: #ece9f8; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; margin: -1px; padding: 0; border: 0; }
`;

/** The shared sheet of every <attn-matrix> (made once). */
export function styles() {
  return sheet(CSS);
}
