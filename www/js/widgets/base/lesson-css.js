// The CSS two families of lesson widgets share (added to each widget's static css, after
// the base's BASE_CSS): the matrix-block widgets built on LessonWidget, and the notes,
// exercise, proofs and practice with their tag line and localised labels.

/** Matrix blocks, the "show as tables" switch, panels, facts and word inputs. */
export const LESSON_WIDGET_CSS = `
.mblock { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.mlabel { font-size: .82rem; font-weight: 600; color: var(--_muted); }
.mlabel:empty { display: none; }
button.tables { font-size: .8rem; font-weight: 500; padding: 2px 10px; }
.head-row { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: baseline; justify-content: space-between; margin-bottom: 6px; }
.lead { margin: 0 0 10px; max-width: 72ch; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 220px), 1fr)); gap: 14px; }
.panel { border: 1px solid var(--_line); border-radius: 10px; padding: 10px 12px; min-width: 0; }
.panel h3, .panel h4 { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.fact { font-size: .92rem; margin: 6px 0 0; }
.fact b, .value b { font-weight: 700; }
.tex-display { display: block; overflow-x: auto; overflow-y: hidden; padding: 2px 0; }
.katex { font-size: 1.05em; }
input.word { width: 7em; font-family: var(--_mono); }
input.words { width: min(18em, 60vw); font-family: var(--_mono); }
.msg.info { background: var(--_accent-soft); }
.grid + .msg, .grid + p, .row + .grid { margin-top: 10px; }
mark { background: #fde68a; color: #1b1e27; border-radius: 3px; padding: 0 2px; }
.word { font-size: 1.1rem; font-weight: 700; }
label.field { flex-wrap: wrap; }
pre.code { white-space: pre-wrap; overflow-wrap: anywhere; }
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
.tex-display { display: block; overflow-x: auto; overflow-y: hidden; padding: 2px 0; }
.scroll-x { overflow-x: auto; max-width: 100%; }
.formulas { display: flex; flex-wrap: wrap; justify-content: center; align-items: center; gap: 0 48px; }
fieldset { border: 1px solid var(--_line); border-radius: 10px; padding: 6px 12px 10px; margin: 0; min-width: 0; }
legend { font-weight: 600; font-size: .9rem; padding: 0 4px; }
fieldset label { display: flex; align-items: center; min-height: 24px; margin: 4px 0; font-size: .9rem; } /* WCAG 2.2 target size: radios 24 px apart */
fieldset code { font-size: .8rem; overflow-wrap: anywhere; }
@media (max-width: 480px) { .frame { padding: 12px 10px; } }
`;
