// Shared Shadow-DOM styles of every widget. Hosts theme widgets only through these
// custom properties (documented in embed.html); everything else is encapsulated.
//
//   --attn-font     body font            --attn-mono     numbers and code
//   --attn-fg       text colour          --attn-muted    secondary text
//   --attn-bg       widget background    --attn-line     borders
//   --attn-accent   controls, highlights --attn-focus    keyboard focus ring
//   --attn-error    error text           --attn-error-bg error background
//
// theme="dark", or theme="auto" where the host page is dark (its CSS color-scheme, else
// the reader's prefers-color-scheme: color-scheme.js), switches the defaults; explicit
// custom properties always win.

// The dark palette: theme="dark", or theme="auto" on a dark host (color-scheme.js).
const DARK = `color-scheme: dark;
  --_fg: var(--attn-fg, #e8e9ee); --_muted: var(--attn-muted, #a4a9b8);
  --_bg: var(--attn-bg, #1c1f27); --_line: var(--attn-line, #353a48);
  --_accent: var(--attn-accent, #a99bf2); --_accent-soft: var(--attn-accent-soft, #2d2a48);
  --_focus: var(--attn-focus, #7aa2ff);
  --_error: var(--attn-error, #ffb4b4); --_error-bg: var(--attn-error-bg, #3a1c1c);
  --_ok: var(--attn-ok, #9be3b0); --_ok-bg: var(--attn-ok-bg, #183a24);`;

export const BASE_CSS = `
:host {
  display: block; max-width: 100%; box-sizing: border-box; color-scheme: light;
  --_font: var(--attn-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    "Noto Sans", "PingFang SC", "Microsoft YaHei", sans-serif);
  --_mono: var(--attn-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace);
  --_fg: var(--attn-fg, #1b1e27); --_muted: var(--attn-muted, #5a6072);
  --_bg: var(--attn-bg, #ffffff); --_line: var(--attn-line, #e1e4eb);
  --_accent: var(--attn-accent, #4b3a9c); --_accent-soft: var(--attn-accent-soft, #ece9f8);
  --_focus: var(--attn-focus, #1d4ed8);
  --_error: var(--attn-error, #9b1c1c); --_error-bg: var(--attn-error-bg, #fdecec);
  --_ok: var(--attn-ok, #166534); --_ok-bg: var(--attn-ok-bg, #e8f5ec);
  font: 15px/1.5 var(--_font); color: var(--_fg); text-align: left;
  letter-spacing: normal; text-transform: none; font-style: normal; font-weight: 400;
}
:host([theme="dark"]) { ${DARK} }
/* A rule of its own: a browser without :state() drops just this one. */
:host(:state(dark)) { ${DARK} }
@supports not selector(:state(dark)) {
  @media (prefers-color-scheme: dark) { :host([theme="auto"]) { ${DARK} } }
}
:host([hidden]) { display: none; }
*, *::before, *::after { box-sizing: border-box; }
/* The host element loses to any page rule that matches it (e.g. * { letter-spacing }),
   so the text resets are repeated inside, where page CSS cannot reach. */
.frame { letter-spacing: normal; word-spacing: normal; text-indent: 0; text-transform: none;
  font: 15px/1.5 var(--_font); font-style: normal; font-weight: 400; text-align: left; }
.frame { background: var(--_bg); color: var(--_fg); border: 1px solid var(--_line);
  border-radius: 12px; padding: 14px 16px; }
:host([frameless]) .frame { border: 0; padding: 0; background: transparent; }
.widget-error { margin: 0 0 10px; padding: 8px 10px; border-radius: 8px;
  background: var(--_error-bg); color: var(--_error); font-weight: 600; font-size: .9rem; }
.widget-error[hidden] { display: none; }
h3, h4 { margin: 0 0 6px; font-size: 1rem; line-height: 1.3; }
p { margin: 0 0 8px; }
.muted { color: var(--_muted); font-size: .88rem; }
.mono, code, pre { font-family: var(--_mono); }
.row { display: flex; flex-wrap: wrap; gap: 12px 18px; align-items: flex-start; }
.col { display: flex; flex-direction: column; gap: 6px; min-width: 0; }
.controls { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 0 0 10px; }
label { display: inline-flex; gap: 6px; align-items: center; cursor: pointer; }
button, select, input[type="text"], input[type="number"] {
  font: inherit; font-size: .9rem; color: var(--_fg); background: var(--_bg);
  border: 1px solid var(--_line); border-radius: 8px; padding: 4px 10px; }
button { cursor: pointer; font-weight: 600; }
button:hover { border-color: var(--_accent); }
button[aria-pressed="true"], button.primary { background: var(--_accent); color: #fff; border-color: var(--_accent); }
button:disabled { opacity: .45; cursor: not-allowed; }
select:disabled, input:disabled { opacity: .65; cursor: not-allowed; }
button:disabled:hover { border-color: var(--_line); }
button.primary:disabled:hover { border-color: var(--_accent); }
input[type="checkbox"], input[type="radio"], input[type="range"] { accent-color: var(--_accent); }
:focus-visible { outline: 2.5px solid var(--_focus); outline-offset: 2px; }
.value { font-family: var(--_mono); font-variant-numeric: tabular-nums; }
.ok { color: var(--_ok); font-weight: 600; }
.bad { color: var(--_error); font-weight: 600; }
.msg { padding: 6px 10px; border-radius: 8px; font-size: .9rem; }
.msg.bad { background: var(--_error-bg); }
.msg.ok { background: var(--_ok-bg); }
table.plain { border-collapse: collapse; font-size: .88rem; }
table.plain th, table.plain td { border-bottom: 1px solid var(--_line); padding: 3px 10px; text-align: right; }
table.plain th:first-child, table.plain td:first-child { text-align: left; }
pre.code { margin: 0; padding: 8px 10px; border-radius: 8px; background: var(--_accent-soft);
  font-size: .8rem; line-height: 1.45; overflow-x: auto; white-space: pre; }
pre.code .changed { display: inline-block; width: 100%; background: #fde68a; color: #1b1e27; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

const made = new Map();
/**
 * The constructed stylesheet of `css`, one per text (a constructed sheet, not a <style>
 * element: a strict style-src 'self' allows only the former). The widgets' sizes are
 * written in rem of 16 px and fixed to px here: in a shadow root rem still follows the
 * host page's root font size, and mdBook's 62.5% (10 px) would shrink every widget.
 */
export function sheet(css) {
  let s = made.get(css);
  if (!s) {
    s = new CSSStyleSheet();
    s.replaceSync(css.replace(/(\d*\.?\d+)rem\b/g, (_, n) => `${+(n * 16).toFixed(3)}px`));
    made.set(css, s);
  }
  return s;
}
