// Small helpers shared by the widgets of sections 5–8: number text, localised
// labels filled on every render, and the CSS they have in common. No math here:
// every number comes from the wasm core and is only turned into text.

import { h } from '../widget-base.js';
import '../attn-matrix.js';
import { addStrings } from '../i18n.js';
import PART_B from '../i18n/part-b.js';

/** Fixed decimals with a true minus sign; "−∞" for masked scores, "–" for NaN. */
export function num(v, digits = 2) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (typeof v !== 'number' || Number.isNaN(v)) return '–';
  const s = v.toFixed(digits);
  if (/^-0\.?0*$/.test(s)) return s.slice(1);
  return s.startsWith('-') ? `−${s.slice(1)}` : s;
}

/** A small error for a max-difference read-out: "0" when exactly zero, else 1.23e-16. */
export function err(v) {
  if (typeof v !== 'number' || Number.isNaN(v)) return '–';
  if (v === 0) return '0';
  return v.toExponential(2).replace('e-', 'e−').replace('e+', 'e');
}

/** A number as short as it can be: up to `digits` decimals, trailing zeros dropped. */
export function short(v, digits = 4) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return num(v);
  const s = String(Number(v.toFixed(digits)));
  return s.startsWith('-') ? `−${s.slice(1)}` : s;
}

/** "[0.19, 0.14, …]" */
export function list(values, digits = 2) {
  return `[${Array.from(values, (v) => num(v, digits)).join(', ')}]`;
}

/** An element whose text is the string `key`, refilled by fillStrings on each render. */
export function k(tag, key, attrs = {}) {
  return h(tag, { ...attrs, 'data-k': key });
}

/** Fills every [data-k] (text) and [data-k-aria] (aria-label) under `root`. */
export function fillStrings(root, t) {
  for (const el of root.querySelectorAll('[data-k]')) {
    const s = t(el.dataset.k);
    if (el.textContent !== s) el.textContent = s;
  }
  for (const el of root.querySelectorAll('[data-k-aria]')) el.setAttribute('aria-label', t(el.dataset.kAria));
  for (const el of root.querySelectorAll('[data-k-title]')) el.title = t(el.dataset.kTitle);
}

/** A labelled checkbox; `onChange(checked)`. */
export function checkbox(key, onChange) {
  const input = h('input', { type: 'checkbox', onchange: (e) => onChange(e.target.checked) });
  return { input, label: h('label', {}, input, k('span', key)) };
}

/** An <attn-matrix> heatmap. */
export function matrix(label, palette = 'weights') {
  return h('attn-matrix', { label, palette });
}

/** Sets an attn-matrix's value and labels together. */
export function show(el, value, rowLabels, colLabels) {
  if (rowLabels) el.rowLabels = rowLabels;
  if (colLabels) el.colLabels = colLabels;
  el.value = value;
}

/** Throws unless `v` is a boolean. */
export function bool(v, name) {
  if (typeof v !== 'boolean') throw new Error(`${name} must be true or false`);
  return v;
}

/** Throws unless `v` is an integer in [lo, hi]. */
export function int(v, name, lo, hi) {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new Error(`${name} must be a whole number from ${lo} to ${hi}`);
  return v;
}

/** Throws unless `s` is a plain object. */
export function object(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) throw new Error('the state must be an object');
  return s;
}

export const B_CSS = `
:host { margin-block: 14px; }
.head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; margin-bottom: 6px; }
.tag { font: 600 .72rem/1 var(--_font); letter-spacing: .04em; text-transform: uppercase;
  color: var(--_accent); background: var(--_accent-soft); border-radius: 999px; padding: 4px 8px; }
.lead { max-width: 70ch; }
.msg.ok, .msg.bad { font-weight: 500; }
.panel { border: 1px solid var(--_line); border-radius: 10px; padding: 10px 12px; min-width: 0; }
.panel h4 { font-size: .9rem; }
.big { font: 600 1.05rem var(--_mono); font-variant-numeric: tabular-nums; }
.result { margin: 8px 0 0; }
.busy { opacity: .6; }
.tex-display { display: block; overflow-x: auto; overflow-y: hidden; padding: 2px 0; }
.scroll-x { overflow-x: auto; max-width: 100%; }
.formulas { display: flex; flex-wrap: wrap; justify-content: center; align-items: center; gap: 0 48px; }
fieldset { border: 1px solid var(--_line); border-radius: 10px; padding: 6px 12px 10px; margin: 0; min-width: 0; }
legend { font-weight: 600; font-size: .9rem; padding: 0 4px; }
fieldset label { display: flex; margin: 4px 0; font-size: .9rem; }
fieldset code { font-size: .8rem; overflow-wrap: anywhere; }
@media (max-width: 480px) { .frame { padding: 12px 10px; } }
`;

// The strings of sections 5–8, registered once whichever widget loads first.
addStrings(PART_B);
