// Shadow-DOM styles of <attn-head> (kept apart so the element's logic stays short).

// The stepper's measured height while it waits for its steps, by the width of its room
// (.steps-room) it is narrower than: [width px, min-height px], per language.
const PENDING_ROOM = {
  en: [[614, 233.95], [406, 263.56], [331, 285.17], [243, 306.78], [242, 328.86], [229, 368.47], [226, 387.66], [195, 409.27], [183, 430.88]],
  zh: [[342, 241.95], [322, 263.56], [188, 285.17]],
};
const pendingRoom = () => Object.entries(PENDING_ROOM).flatMap(([lang, rows]) => rows.map(([w, px]) =>
  `@container (width < ${w}px) { attn-formula-steps[data-pending="${lang}"]::part(frame) { min-height: ${px}px; } }`)).join('\n');

export const HEAD_CSS = `
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 10px 24px; margin: 0 0 4px; }
.toggle { display: inline-flex; align-items: center; gap: 10px; cursor: pointer; }
.toggle-text { display: flex; flex-direction: column; line-height: 1.25; }
.toggle-name { font-weight: 600; }
.toggle-hint { font-size: .8rem; color: var(--_muted); }
.scale-readout { font-family: var(--_mono); }
input.switch { appearance: none; flex: none; position: relative; width: 40px; height: 22px; margin: 0;
  border-radius: 999px; background: #bfc4cf; cursor: pointer; transition: background-color .15s; }
input.switch::before { content: ""; position: absolute; top: 3px; left: 3px; width: 16px; height: 16px;
  border-radius: 50%; background: #fff; box-shadow: 0 1px 2px rgb(0 0 0 / .3); transition: transform .15s; }
input.switch:checked { background: var(--_accent); }
input.switch:checked::before { transform: translateX(18px); }
input.switch:disabled { opacity: .5; cursor: default; }
.seq { display: inline-flex; gap: 4px; align-items: center; }
.legend { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 16px; margin-left: auto;
  font-size: .8rem; color: var(--_muted); }
.legend-item { display: inline-flex; align-items: center; gap: 6px; }
.ramp { display: inline-block; width: 64px; height: 12px; border-radius: 3px; box-shadow: inset 0 0 0 1px rgb(0 0 0 / .08); }
.swatch-masked { display: inline-block; width: 18px; height: 12px; border-radius: 3px;
  background: repeating-linear-gradient(135deg, #dfe1e7 0 3px, #f4f5f8 3px 7px); box-shadow: inset 0 0 0 1px rgb(0 0 0 / .08); }
.stage { margin: 16px 0 6px; }
.stage h3 { display: flex; align-items: center; gap: 10px; margin: 0; font-size: 1.05rem; }
.step { display: inline-grid; place-items: center; flex: none; width: 24px; height: 24px; border-radius: 50%;
  background: var(--_accent-soft); color: var(--_accent); font-size: .8rem; font-weight: 700; }
.badge { font-size: .66rem; font-weight: 600; text-transform: uppercase; letter-spacing: .05em;
  color: var(--_accent); background: var(--_accent-soft); border-radius: 999px; padding: 2px 9px; }
.stage-note { margin: 4px 0 10px 34px; color: var(--_muted); font-size: .9rem; max-width: 85ch; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 240px), 1fr)); gap: 12px; }
.card { min-width: 0; background: var(--_bg); border: 1px solid var(--_line); border-radius: 10px;
  padding: 12px 14px 10px; transition: box-shadow .15s, border-color .15s; }
.card.step-active { border-color: var(--_accent); box-shadow: 0 0 0 3px var(--_accent-soft); }
.card h4 { display: flex; align-items: baseline; flex-wrap: wrap; gap: 0 8px; margin: 0; font-size: .95rem; }
.card h4 .sym { color: var(--_accent); }
.card .formula { margin: 2px 0 8px; min-height: 1.6em; color: var(--_fg); }
/* An edit redraws every card: each is laid out and painted on its own (the page around
   keeps its recorded paint, so one frame holds the whole redraw). */
.card, attn-formula-steps { contain: layout style; }
.card .explain { margin: 6px 0 0; font-size: .84rem; color: var(--_muted); line-height: 1.4; }
.keyboard { margin: 8px 0 0; font-size: .8rem; color: var(--_muted); }
.message { margin: 12px 0 0; padding: 8px 12px; border-radius: 8px; border: 1px solid #f3c1c1;
  background: var(--_error-bg); color: var(--_error); font-size: .92rem; }
.note { margin: 8px 0 0; font-size: .88rem; color: var(--_muted); }
.stale .stage-out attn-matrix { opacity: .45; filter: grayscale(.5); }
attn-formula-steps, attn-explain { display: block; margin-top: 10px; }
attn-formula-steps:not(:defined), attn-explain:not(:defined) { display: none; }
/* Until the core hands the stepper its steps (data-pending = the widget's language), it is
   an empty card of the size it will have: room for the typeset formula and the first
   step's lines, which wrap as the stepper narrows (measured in Chromium at each width,
   in both languages: .steps-room is the container the widths are of). Its content is
   hidden meanwhile, so that nothing in it moves when the formula lands. */
.steps-room { container-type: inline-size; }
attn-formula-steps[data-pending] { border-radius: 12px; background: var(--_bg); box-shadow: inset 0 0 0 1px var(--_line); }
attn-formula-steps[data-pending]::part(frame) { min-height: 212.34px; visibility: hidden; }
${pendingRoom()}
@media (max-width: 640px) { .legend { margin-left: 0; } .stage-note { margin-left: 0; } }
/* <attn-play>: the head of the page's first screen. Inputs, weights and out, nothing else to
   read: no stepper, legend, notes, q/k/v or scores (the lesson's head shows them). On a
   phone it is x and the weights side by side. The explanation of a clicked number still
   opens under it. */
:host(attn-play) :is(.steps-room, .legend, .stage-note, .card .explain, .card .formula, .keyboard, .main > .stage:nth-child(3), .toolbar .tables, .toggle:has(.scaled)),
:host(attn-play) .card:is([data-matrix="scores"], [data-matrix="masked_scores"]),
:host(attn-play) .toggle-hint:not(.scale-readout) { display: none; }
:host(attn-play) .stage { margin: 8px 0 0; }
:host(attn-play) .cards { align-items: start; } /* a 2-row W card is not stretched to x's 3 rows */
:host(attn-play) .stage h3 { font-size: .95rem; }
:host(attn-play) .stage h3 .step { display: none; }
:host(attn-play) .toolbar { gap: 8px 18px; }
@media (max-width: 640px) {
  :host(attn-play) .card:is([data-matrix="W_q"], [data-matrix="W_k"], [data-matrix="W_v"], [data-matrix="out"]),
  :host(attn-play) .stage h3 { display: none; }
  :host(attn-play) :is(.stage, .cards) { display: contents; }
  :host(attn-play) .main { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
  :host(attn-play) .main > :is(.message, .note) { grid-column: 1 / -1; }
  :host(attn-play) { --attn-cell-w: 2.5rem; }
  :host(attn-play) .card { padding: 8px 6px 6px; }
}
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;
