// Number → text for the matrices. Never produces "NaN" or "undefined".

/** Two decimals (1.2e7 style past 100000) with a true minus sign; −∞ for masked scores; never "NaN". */
export function formatCell(v) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (!Number.isFinite(v)) return '–';
  // toFixed switches to exponents past 1e21; keep huge numbers short and readable.
  const s = Math.abs(v) >= 1e5 ? v.toExponential(1).replace('e+', 'e') : v.toFixed(2);
  if (s === '-0.00') return '0.00';
  return s.startsWith('-') ? `−${s.slice(1)}` : s;
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

const minus = (s) => (s.startsWith('-') ? `−${s.slice(1)}` : s);

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
  const s = v.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : minus(s);
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
