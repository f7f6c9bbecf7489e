// Checks of what reaches a widget from outside (an attribute, a `state` from a link or
// a script, a typed cell): each returns a clean value or throws a message that names
// the field and says what it expects, so a bad link never reaches the core.

import { message } from './widget-base.js';

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

/** Throws unless `v` is a boolean. */
export function checkBool(v, name) {
  if (typeof v !== 'boolean') throw new Error(`${name}: expected true or false`);
  return v;
}

/** Throws unless `v` is an integer in [lo, hi]. */
export function checkInt(v, name, lo, hi) {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new Error(`${name}: expected a whole number from ${lo} to ${hi}`);
  return v;
}

/** Throws unless `s` is a plain object (a widget's whole `state`). */
export function checkObject(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) throw new Error('the state must be an object');
  return s;
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
