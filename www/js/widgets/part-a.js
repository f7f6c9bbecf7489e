// Shared pieces of the section 1–4 widgets: a matrix block (a heatmap that shows a plain
// table of its numbers in table view), number text, state validation, and the link to a head.
// T = time (rows), C = channels, d = head size. No attention math here: numbers
// arrive from wasm and leave as text or colour.

import '../attn-matrix.js';
import { formatCell } from '../format.js';
import { AttnWidget, h, message } from '../widget-base.js';
import { adoptTex } from '../tex.js';

const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';

/** ['c₀', 'c₁', …]: column labels. */
export const sub = (prefix, n) => Array.from({ length: n }, (_, i) =>
  prefix + String(i).replace(/\d/g, (d) => SUBSCRIPTS[d]));

/** A number as text with a true minus sign; `digits` decimals; tiny errors as 1.2e-16. */
export function num(v, digits = 2) {
  if (v == null) return '–';
  if (digits === 2) return formatCell(v);
  if (!Number.isFinite(v)) return formatCell(v);
  const s = v.toFixed(digits);
  return (/^-0\.?0*$/.test(s) ? s.slice(1) : s).replace(/^-/, '−');
}

/** A max-error style number: 0, or 8.9e-16, or 0.667. */
export function err(v) {
  if (v == null || !Number.isFinite(v)) return '–';
  if (v === 0) return '0';
  if (Math.abs(v) < 1e-3) return v.toExponential(1).replace('-', '−');
  return num(v, Math.abs(v) >= 1 ? 2 : 3);
}

/** [4.67, 5.33] */
export const vec = (values, digits = 2) => `[${Array.from(values, (v) => num(v, digits)).join(', ')}]`;

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

/** The "show as tables" switch every part-A widget carries: it sets table="rounded" on
 *  each of the widget's <attn-matrix> grids (under `body`), which then show plain tables
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
    label() { button.textContent = widget.t('a.asTables'); },
  };
}

/** The largest magnitude a typed cell may hold (the core's parseNumber says the same). */
export const MAX_ABS = 1e300;

/** Throws unless `m` is a {rows, cols, data} matrix of numbers within ±1e300 (≤ 16×16). */
export function checkMatrix(m, name, maxSide = 16) {
  if (!m || typeof m !== 'object') throw new Error(`${name}: not a matrix`);
  const { rows, cols, data } = m;
  const ok = Number.isInteger(rows) && Number.isInteger(cols) && rows > 0 && cols > 0
    && rows <= maxSide && cols <= maxSide && Array.isArray(data) && data.length === rows * cols
    && data.every((v) => typeof v === 'number' && Number.isFinite(v));
  if (!ok) throw new Error(`${name}: expected {rows, cols, data} of finite numbers`);
  if (data.some((v) => Math.abs(v) > MAX_ABS)) throw new Error(`${name}: a number is too large (use values between -1e300 and 1e300)`);
  return { rows, cols, data: data.slice() };
}

/** An integer attribute: `fallback` when absent; throws a clear message unless an
 *  integer in [min, max] (so "-5" or "abc" never reaches the core). */
export function intAttr(el, name, fallback, min, max) {
  if (!el.hasAttribute(name)) return fallback;
  const text = el.getAttribute(name).trim();
  const v = Number(text);
  if (!/^[+-]?\d+$/.test(text) || v < min || v > max) {
    throw new Error(`${name}="${text.slice(0, 20)}": expected a whole number from ${min} to ${max}`);
  }
  return v;
}

/** A boolean attribute: absent → `fallback`; "", true/on/1/yes → true; false/off/0/no → false;
 *  anything else throws a clear message. */
export function boolAttr(el, name, fallback) {
  if (!el.hasAttribute(name)) return fallback;
  const text = el.getAttribute(name).trim();
  if (/^(|true|on|1|yes)$/i.test(text)) return true;
  if (/^(false|off|0|no)$/i.test(text)) return false;
  throw new Error(`${name}="${text.slice(0, 20)}": expected true or false`);
}

export function checkBool(v, name) {
  if (typeof v !== 'boolean') throw new Error(`${name}: expected true or false`);
  return v;
}

/** A plain copy of a wasm matrix (typed arrays become arrays) for `state`. */
export const plain = (m) => ({ rows: m.rows, cols: m.cols, data: Array.from(m.data) });

/**
 * A cell typed into `grid` (its cell-edit detail), parsed by the core: a copy of `m`
 * with that cell set, or null after marking the cell with why (in the grid's language).
 */
export function editedMatrix(widget, grid, m, { row, col, text }) {
  let v;
  try {
    v = widget.core.parseNumber(text);
  } catch (error) {
    grid.setCellError(row, col, (lang) => message(error, lang));
    return null;
  }
  grid.clearCellError(row, col);
  const next = plain(m);
  next.data[row * next.cols + col] = v;
  return next;
}

/** The state of the <attn-head> named by the widget's `for` attribute, or {} (the h/o/u head). */
export function linkedHead(widget) {
  const id = widget.getAttribute('for');
  const head = id ? document.getElementById(id) : null;
  if (!head || !head.core) return {};
  const s = head.state;
  return { x: s.x, W_q: s.W_q, W_k: s.W_k, W_v: s.W_v, causal: s.causal, scaled: s.scaled };
}

/** Re-renders `widget` whenever the head it is linked to (`for`) changes. */
export function followHead(widget) {
  const id = widget.getAttribute('for');
  if (!id) return () => {};
  const on = (e) => {
    if (e.target?.id === id) widget.refresh();
  };
  document.addEventListener('attn-change', on);
  document.addEventListener('attn-rendered', on);
  return () => {
    document.removeEventListener('attn-change', on);
    document.removeEventListener('attn-rendered', on);
  };
}

/** CSS shared by the part-A widgets (added to each widget's static css). */
export const PART_A_CSS = `
.mblock { display: flex; flex-direction: column; gap: 2px; min-width: 0; }
.mlabel { font-size: .82rem; font-weight: 600; color: var(--_muted); }
.mlabel:empty { display: none; }
button.tables { font-size: .8rem; font-weight: 500; padding: 2px 10px; }
.head-row { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: baseline; justify-content: space-between; margin-bottom: 6px; }
.lead { margin: 0 0 10px; max-width: 72ch; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 220px), 1fr)); gap: 14px; }
.panel { border: 1px solid var(--_line); border-radius: 10px; padding: 10px 12px; min-width: 0; }
.panel h4 { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
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

/**
 * Base of the part-A widgets: the DOM is made on the first render (build() runs inside
 * the base constructor, before a subclass's private fields exist). Subclasses
 * implement make(root) once and draw(core) on every render.
 */
export class PartAWidget extends AttnWidget {
  static css = PART_A_CSS;

  // A part-A widget with a `for` attribute follows that <attn-head> while connected:
  // it re-renders whenever the head changes (followHead; a no-op without `for`).
  connectedCallback() {
    super.connectedCallback();
    this._unfollow ??= followHead(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._unfollow?.();
    this._unfollow = null;
  }

  build(root) {
    this._root = root;
  }

  render(core) {
    if (!this._made) {
      this._made = true;
      this.make(this._root);
      adoptTex(this.shadowRoot).catch(() => {});
    }
    this.clearError();
    this.draw(core);
  }

  make() {}
  draw() {}
}

let corpusLab = null;

/** The count bigram of the default corpus (data/corpus.txt next to js/), built once per page. */
export function bigramLab(core) {
  corpusLab ??= fetch(new URL('../../data/corpus.txt', import.meta.url))
    .then((r) => {
      if (!r.ok) throw new Error(`data/corpus.txt: HTTP ${r.status}`);
      return r.text();
    })
    .then((text) => new core.BigramLab(text));
  return corpusLab;
}

/** A character as a learner can see it: space and newline made visible. */
export const showChar = (c) => (c === ' ' ? '␣' : c === '\n' ? '↵' : c);
