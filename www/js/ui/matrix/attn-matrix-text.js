// What <attn-matrix> says in words, in the grid's language: its captions, the hint of an
// explainable grid, the table toggle's label, and each cell's name, as the read-out and
// the titles print it and as a screen reader says it. Pure functions: the element puts
// the words where they go.

import { addStrings, t } from '../../i18n/i18n.js';
import EXPLAIN_STRINGS from '../../i18n/explain.js';

addStrings(EXPLAIN_STRINGS);

/** The grid's name in titles and captions: its label, else its id. */
export function gridName(el) {
  return el.getAttribute('label') ?? el.id ?? '';
}

/** Cell i of grid `name` (`cols` wide) as the read-out prints it: "W_q[d₀, c₂]". */
export function cellLabel(name, rowLabels, colLabels, cols, i) {
  const r = Math.floor(i / cols);
  const c = i % cols;
  return `${name}[${rowLabels[r] ?? r}, ${colLabels[c] ?? c}]`;
}

/** Cell i as a screen reader says it: "W_q row d0 column c2" (subscripts as digits). */
export function spokenCell(name, rowLabels, colLabels, cols, i, lang) {
  const [r, c] = [Math.floor(i / cols), i % cols];
  const plain = (s) => String(s).replace(/[\u2080-\u2089]/g, (d) => String(d.charCodeAt(0) - 0x2080));
  return t('cellName', {
    name,
    row: plain(rowLabels[r] ?? r),
    col: plain(colLabels[c] ?? c),
  }, lang);
}

/** The heatmap's words: the hint (empty unless `explainable`; it names Shift+Enter in an
 *  `editable` grid, where Enter commits; on a `touch` screen it says "tap", and nothing in
 *  an editable grid, which has no key to explain with there), the caption (which ends
 *  with the hint) and the toggle's label. */
export function gridWords(name, rows, cols, { explainable, editable, touch = false }, lang) {
  const key = editable ? (touch ? null : 'c.cellHintEdit') : (touch ? 'c.cellHintTouch' : 'c.cellHint');
  const hint = explainable && key ? t(key, {}, lang) : '';
  const caption = t('c.caption', { name, rows, cols }, lang);
  return { hint, caption: hint ? `${caption} ${hint}` : caption, toggle: t('c.asTable', {}, lang), sign: t('c.sign', {}, lang) };
}

/** The table view's words, as drawExactTable takes them (`rounded`: two decimals, so the
 *  caption does not say "exact"). */
export function tableWords(name, rows, cols, rounded, lang) {
  return {
    caption: t(rounded ? 'c.caption' : 'c.exactCaption', { name, rows, cols }, lang),
    masked: t('c.masked', {}, lang),
    rounded,
  };
}
