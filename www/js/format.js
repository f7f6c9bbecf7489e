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
