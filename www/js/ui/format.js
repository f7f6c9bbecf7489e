// Number → text, and characters → visible text, for every widget. Never produces "NaN"
// or "undefined". Each function is one way of writing a number the page uses.

const minus = (s) => (s.startsWith('-') ? `−${s.slice(1)}` : s);

/** Two decimals (1.2e7 style past 100000) with a true minus sign; −∞ for masked scores; never "NaN". */
export function formatCell(v) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (!Number.isFinite(v)) return '–';
  // toFixed switches to exponents past 1e21; keep huge numbers short and readable.
  if (Math.abs(v) >= 1e5) return minus(v.toExponential(1).replace('e+', 'e'));
  return formatFixed(v, 2);
}

/** The exact value (shortest text that round-trips the float64). */
export function formatExact(v) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (!Number.isFinite(v)) return '–';
  return v < 0 ? `−${String(-v)}` : String(v);
}

/** Text put into an editable cell for a value set from outside. */
export function formatInput(v) {
  if (!Number.isFinite(v)) return '';
  const s = String(v);
  return s.length <= 9 ? s : String(Number(v.toPrecision(6)));
}


/**
 * A result in an explanation: `digits` decimals; numbers too small to show that way
 * as 2.1e−9 (so a tiny e^x never reads as 0.00); −∞ and ∞ as symbols.
 */
export function formatNum(v, digits = 2) {
  if (!Number.isFinite(v)) return formatCell(v);
  if (v !== 0 && Math.abs(v) < 0.5 * 10 ** -digits) {
    return minus(v.toExponential(1).replace('e-', 'e−').replace('e+', 'e'));
  }
  if (Math.abs(v) >= 1e5) return formatCell(v);
  return formatFixed(v, digits);
}

/** p/q with a true minus sign: "1/3", "−14/3". */
export function formatFraction(f) {
  return f ? minus(`${f.num}/${f.den}`) : '';
}

/**
 * An operand written into a sum: its short exact decimal when it has one (2, 0.5, 10),
 * else its fraction when it is a small-denominator rational (1/3), else 2 decimals (0.80).
 */
export function formatOperand(v, fraction = null) {
  if (Number.isFinite(v) && Math.abs(v) < 1e5 && Number(v.toFixed(2)) === v) return minus(String(v));
  if (fraction && fraction.den > 1) return formatFraction(fraction);
  return formatNum(v);
}

/** `digits` fixed decimals with a true minus sign (never "−0.00"); −∞ and ∞ as symbols;
 *  "–" for NaN or anything not a number. */
export function formatFixed(v, digits = 2) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (typeof v !== 'number' || Number.isNaN(v)) return '–';
  const s = v.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : minus(s);
}

/** "[4.67, 5.33]": values as grid cells (formatCell). */
export const formatCells = (values) => `[${Array.from(values, formatCell).join(', ')}]`;

/** "[0.19, 0.14, …]": values with `digits` fixed decimals. */
export const formatList = (values, digits = 2) => `[${Array.from(values, (v) => formatFixed(v, digits)).join(', ')}]`;

/** A difference read at a glance: "0", 8.9e−16 below 0.001, else 0.667 or 2.00. */
export function formatDiff(v) {
  if (v == null || !Number.isFinite(v)) return '–';
  if (v === 0) return '0';
  if (Math.abs(v) < 1e-3) return v.toExponential(1).replace('-', '−');
  return Math.abs(v) >= 1 ? formatCell(v) : formatFixed(v, 3);
}

/** A rounding-size error in scientific form: "0" when exactly zero, else 1.23e−16. */
export function formatSci(v) {
  if (typeof v !== 'number' || Number.isNaN(v)) return '–';
  if (v === 0) return '0';
  return v.toExponential(2).replace('e-', 'e−').replace('e+', 'e');
}

/** A number as short as it can be: up to `digits` decimals, trailing zeros dropped. */
export function formatShort(v, digits = 4) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return formatFixed(v);
  return minus(String(Number(v.toFixed(digits))));
}

const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';

/** 'c₁₂': a label with its index as subscript digits. */
export const subscript = (prefix, i) => prefix + String(i).replace(/\d/g, (d) => SUBSCRIPTS[d]);

/** ['c₀', 'c₁', …]: labels of `n` rows or columns. */
export const subscripted = (prefix, n) => Array.from({ length: n }, (_, i) => subscript(prefix, i));

/** A character as the page shows it: blanks get visible symbols, and invisible controls
 *  and format characters (a zero-width joiner in an emoji, …) their code point. */
export function showChar(ch) {
  const named = { ' ': '␣', '\n': '↵', '\t': '⇥', '\r': '␍' }[ch];
  if (named) return named;
  if (/^[\p{Cc}\p{Cf}]$/u.test(ch)) return `U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return ch;
}

/** A count or rate for the screen: fixed decimals with thousands grouping, "–" when not finite. */
export function formatGrouped(v, digits = 0) {
  return Number.isFinite(v)
    ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';
}

/**
 * A date (ms since 1970, or a Date) in language `lang`, one format per language wherever
 * the page shows one: "6 Dec 2026" / "2026年12月6日", with `time` also ", 23:29".
 * An invalid date is "–".
 */
export function formatDate(when, lang, { time = false } = {}) {
  const d = new Date(when);
  if (!Number.isFinite(d.getTime())) return '–';
  return d.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB',
    time ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
}
