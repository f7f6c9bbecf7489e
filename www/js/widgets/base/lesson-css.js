// The CSS two families of lesson widgets share (added to each widget's static css, after
// the base's BASE_CSS): the matrix-block widgets built on LessonWidget, and the notes,
// exercise, proofs and practice with their tag line and localised labels.

/** Display formulas scroll sideways only when wider than the widget. The 2 px on the right
 *  hold KaTeX's 2 px struts (.vlist-s) that poke out of a formula ending in a subscript,
 *  which would otherwise make it scroll by 2 px. */
const TEX_DISPLAY_CSS = '.tex-display { display: block; overflow-x: auto; overflow-y: hidden; padding: 2px 2px 2px 0; }';

/** Code that wraps at the widget's edge instead of scrolling sideways (a line that does
 *  not fit continues on the next; on a wide screen nothing changes). */
export const CODE_WRAP_CSS = 'pre.code { white-space: pre-wrap; overflow-wrap: anywhere; }';

/** Matrix blocks, the "show as tables" switch, panels, facts and word inputs. */
export const LESSON_WIDGET_CSS = `
.mblock { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.mlabel { font-size: .82rem; font-weight: 600; color: var(--_muted); }
.mlabel:empty { display: none; }
button.tables { font-size: .8rem; font-weight: 500; padding: 2px 10px; }
.head-row { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: baseline; justify-content: space-between; margin-bottom: 6px; }
.lead { margin: 0 0 10px; max-width: 72ch; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 220px), 1fr)); gap: 14px; }
/* Cards as tall as their own content, not their row's tallest, */
.grid.content-height { align-items: start; }
/* and as wide as their content (a small grid gets a small card), left-aligned. */
.grid.content-width { grid-template-columns: repeat(auto-fit, minmax(min(100%, 220px), max-content)); }
.panel { border: 1px solid var(--_line); border-radius: 10px; padding: 10px 12px; min-width: 0; }
.panel h3, .panel h4 { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.fact { font-size: .92rem; margin: 6px 0 0; }
.fact b, .value b { font-weight: 700; }
${TEX_DISPLAY_CSS}
.katex { font-size: 1.05em; }
input.word { width: 7em; font-family: var(--_mono); }
input.words { width: min(18em, 60vw); font-family: var(--_mono); }
.msg.info { background: var(--_accent-soft); }
.grid + .msg, .grid + p, .row + .grid { margin-top: 10px; }
mark { background: #fde68a; color: #1b1e27; border-radius: 3px; padding: 0 2px; }
.word { font-size: 1.1rem; font-weight: 700; }
label.field { flex-wrap: wrap; }
${CODE_WRAP_CSS}
pre.code .changed { display: inline; width: auto; box-shadow: -4px 0 0 #fde68a, 4px 0 0 #fde68a; }
@media (max-width: 520px) { .frame { padding: 10px; } }
`;

/** The tag line ("Note 1"), panels, fieldsets of switches and the result read-outs. */
export const NOTE_WIDGET_CSS = `
:host { margin-block: 14px; }
.head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; margin-bottom: 6px; }
.tag { font: 600 .72rem/1 var(--_font); letter-spacing: .04em; text-transform: uppercase;
  color: var(--_accent); background: var(--_accent-soft); border-radius: 999px; padding: 4px 8px; }
.lead { max-width: 70ch; }
.msg.ok, .msg.bad { font-weight: 500; }
.panel { border: 1px solid var(--_line); border-radius: 10px; padding: 10px 12px; min-width: 0; }
.panel h3, .panel h4 { font-size: .9rem; }
.big { font: 600 1.05rem var(--_mono); font-variant-numeric: tabular-nums; }
.result { margin: 8px 0 0; }
.busy { opacity: .6; }
${TEX_DISPLAY_CSS}
.scroll-x { overflow-x: auto; max-width: 100%; }
.formulas { display: flex; flex-wrap: wrap; justify-content: center; align-items: center; gap: 0 48px; }
fieldset { border: 1px solid var(--_line); border-radius: 10px; padding: 6px 12px 10px; margin: 0; min-width: 0; }
legend { font-weight: 600; font-size: .9rem; padding: 0 4px; }
fieldset label { display: flex; align-items: center; min-height: 24px; margin: 4px 0; font-size: .9rem; } /* WCAG 2.2 target size: radios 24 px apart */
fieldset code { font-size: .8rem; overflow-wrap: anywhere; }
@media (max-width: 480px) { .frame { padding: 12px 10px; } }
`;

/**
 * CSS for a table that is too wide for a phone: while `wrap` (the table's box, made a
 * size container) is narrower than `width` px, each row of `table` shows its header on a
 * line of its own and its `cols` cells on the line below, so every column stays in view
 * without a sideways scroll. Wider, it is the plain table.
 */
export function stackedTable(wrap, table, cols, width) {
  return `
${wrap} { container-type: inline-size; }
@container (max-width: ${width}px) {
  ${table}, ${table} > thead, ${table} > tbody { display: block; }
  ${table} tr { display: grid; grid-template-columns: repeat(${cols}, minmax(0, 1fr)); }
  ${table} tr > :first-child { grid-column: 1 / -1; border-bottom: 0; padding-bottom: 0; }
  ${table} tr > :first-child:empty { display: none; }
}`;
}

/**
 * CSS for heatmaps that should fit a phone whole: while the size container around them
 * (an element given container-type) is narrower than `width` px, their cells are `cell`
 * wide, with numbers in `font` (a CSS size) when given.
 */
export function compactGrids(width, cell, font) {
  return `
@container (max-width: ${width}px) {
  attn-matrix { --attn-cell-w: ${cell}; }
  ${font ? `attn-matrix::part(cell) { font-size: ${font}; }` : ''}
}`;
}
