// The text of one explanation (src/wasm/explain.rs) as DOM: a title and lines that
// write the computation out with the actual numbers. Formatting only: every number
// shown is a field of the explanation; nothing here adds, multiplies or divides.
//
//   explainLines(ex, ctx) -> { title: Node[], body: Node[] }
//   ctx = { t(key, vars), label(matrix, 'rows' | 'cols', i), gridTitle?(grid), touch? }
//   (touch: a touch screen, where no pointer hovers a cell)

import { formatExact, formatFraction, formatNum, formatOperand } from '../../ui/format.js';

function el(tag, cls, ...kids) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  node.append(...kids.flat(Infinity).filter((k) => k != null && k !== ''));
  return node;
}

const sr = (text) => (text ? el('span', 'sr-only', text) : null);
// Set when a number was written with fewer digits than it has, so that the panel
// says once that the terms are rounded (explainLines resets it).
let rounded = false;
/** `text` for the number v, noting whether it dropped digits (a fraction is exact). */
function shown(v, text) {
  const back = Number(text.replace(/−/g, '-'));
  if (Number.isFinite(v) && !text.includes('/') && back !== v) rounded = true;
  return text;
}
const num = (v, digits) => shown(v, formatNum(v, digits));
const formatOp = (v, f) => shown(v, formatOperand(v, f));
/** A negative operand in a product gets parentheses: 2·(−1). */
const operand = (v, f) => (v < 0 ? `(${formatOp(v, f)})` : formatOp(v, f));

/** Symbols: q → q, W_q → W with subscript q, masked_scores → masked_scores. */
function sym(name) {
  const m = /^([A-Za-z])_(\w+)$/.exec(name);
  if (m) return el('span', 'sym', el('i', '', m[1]), el('sub', '', m[2]));
  return el('span', 'sym', name.length === 1 ? el('i', '', name) : name);
}

class Writer {
  constructor(ex, ctx) {
    this.ex = ex;
    this.t = ctx.t;
    this.label = ctx.label;
    this.gridTitle = ctx.gridTitle;
    this.lines = [];
  }

  row(matrix, i) { return this.label(matrix, 'rows', i); }
  col(matrix, i) { return this.label(matrix, 'cols', i); }

  /** e to the power x, spoken as words by screen readers. */
  pow(base, exponent) {
    return el('span', 'nowrap', base, sr(this.t('c.pow')), el('sup', '', exponent), sr(this.t('c.powEnd')));
  }

  /** The name of a cell: "score u→h", "weight u→h", "q[u, d₀]". */
  cellName(matrix, r, c) {
    const vars = { r: this.row(matrix, r), c: this.col(matrix, c) };
    if (matrix === 'scores') return this.t('c.score', vars);
    if (matrix === 'masked_scores') return this.t('c.masked_score', vars);
    if (matrix === 'weights') return this.t('c.weight', vars);
    return el('span', 'nowrap', sym(matrix), `[${vars.r}, ${vars.c}]`);
  }

  /** The vector a list of source cells spans: q_u (a row) or v[:, d₀] (a column). */
  vector(srcs) {
    const { matrix, row, col } = srcs[0];
    if (srcs.every((s) => s.matrix === matrix && s.row === row)) {
      const r = this.row(matrix, row);
      return matrix.length === 1 ? el('span', 'sym', el('i', '', matrix), el('sub', '', r)) : el('span', 'nowrap', sym(matrix), `[${r}, :]`);
    }
    if (srcs.every((s) => s.matrix === matrix && s.col === col)) return el('span', 'nowrap', sym(matrix), `[:, ${this.col(matrix, col)}]`);
    return sym(matrix);
  }

  /** A sentence of the string tables, its powers (e<sup>x</sup>) drawn raised as in the
   *  equations, and said "to the power" to a screen reader. */
  text(sentence) {
    return sentence.split(/<sup>(.*?)<\/sup>/).map((part, i) => (i % 2
      ? [sr(this.t('c.pow')), el('sup', '', part), sr(this.t('c.powEnd'))] : part));
  }

  eq(...parts) { this.lines.push(el('p', 'eq', parts)); }
  more(...parts) { this.lines.push(el('p', 'eq cont', '= ', parts)); }
  say(text) { this.lines.push(el('p', 'say', this.text(text))); }
  note(text) { this.lines.push(el('p', 'note', this.text(text))); }

  /** " = 1/3" after a value that is a small-denominator rational. */
  exact(fraction) { return fraction ? [' = ', el('span', 'frac', formatFraction(fraction))] : null; }

  /** "+ (56 more: 1.23)" for the unlisted part of a long sum. */
  rest(rest, key = 'c.more', sum = rest?.sum) {
    return rest ? [' + ', el('span', 'rest', this.t(key, { n: rest.count, sum: num(sum) }))] : null;
  }

  title() {
    const ex = this.ex;
    // NaN is what NumPy computes for a row of −∞ (the exercise's wrong masks): say so.
    const value = Number.isNaN(ex.value) ? 'NaN' : num(ex.value);
    // A widget drawing several grids of one kind names the grid (the proofs' four outputs).
    const grid = ex.grid ? el('span', 'aside', ` (${this.gridTitle?.(ex.grid) ?? ex.grid})`) : null;
    return [this.cellName(ex.kind, ex.row, ex.col), grid, ' = ', el('span', 'value', value), this.exact(ex.fraction)];
  }
}

function dot(w, ex) {
  const first = ex.terms[0];
  const a = ex.terms.map((x) => x.a_src);
  const b = ex.terms.map((x) => x.b_src);
  const r = w.row(ex.kind, ex.row);
  const c = w.col(ex.kind, ex.col);
  if (['q', 'k', 'v'].includes(ex.kind) && first) {
    w.say(w.t('c.introProj', { r, j: c, x: first.a_src.matrix, W: first.b_src.matrix, m: ex.kind }));
  } else if (ex.kind === 'scores') {
    w.say(w.t('c.introScore', { r, c }));
  } else if (ex.kind === 'out' && first) {
    w.say(w.t('c.introOut', { r, c, b: first.b_src.matrix }));
  } else if (ex.kind === 'M' && first) {
    w.say(w.t('c.introM', { r, c, a: first.a_src.matrix, b: first.b_src.matrix }));
  } else {
    w.say(w.t('c.introDot'));
  }
  const products = ex.terms.map((x, i) => [i ? ' + ' : '', `${operand(x.a, x.a_fraction)}·${operand(x.b, x.b_fraction)}`]);
  const bias = ex.bias ? [' + ', operand(ex.bias.value, ex.bias.fraction), ` (${w.t('c.bias')})`] : null;
  if (first) w.eq(w.cellName(ex.kind, ex.row, ex.col), ' = ', w.vector(a), ' · ', w.vector(b), ex.bias ? [' + b'] : null);
  w.more(products.length ? products : '0', w.rest(ex.rest), bias);
  if (ex.scale) {
    const before = bias ? ['(', num(ex.sum), ' + ', operand(ex.bias.value, ex.bias.fraction), ')'] : num(ex.sum);
    w.more(before, ' / √', String(ex.scale.d_k), ' = ', before, ' / ', num(ex.scale.sqrt_d_k),
      ' = ', el('strong', 'value', num(ex.value)), w.exact(ex.fraction));
    w.note(w.t('c.scaleNote', { f: num(ex.scale.factor), d: ex.scale.d_k }));
  } else {
    w.more(el('strong', 'value', num(ex.value)), w.exact(ex.fraction));
  }
}

function softmax(w, ex) {
  const r = w.row(ex.kind, ex.row);
  const column = ex.axis === 'column';
  w.say(column ? w.t('c.introSoftmaxCol', { c: w.col(ex.kind, ex.col) }) : w.t('c.introSoftmax', { r }));
  const e = (x) => w.pow('e', num(x));
  const list = (f) => ex.terms.map((x, i) => [i ? ' + ' : '', f(x)]);
  const target = ex.terms.find((x) => x.src.row === ex.row && x.src.col === ex.col) ?? ex.terms[0];
  const finite = Number.isFinite(ex.numerator) && Number.isFinite(ex.denominator);
  const result = () => [' = ', el('strong', 'value', num(ex.value)), w.exact(ex.fraction)];
  if (finite) {
    w.eq(w.cellName(ex.kind, ex.row, ex.col), ' = ', e(target.score), ' / (', list((x) => e(x.score)),
      // A rest that adds nothing is the masked keys (e^−∞ = 0): say so.
      ex.rest ? [' + ', w.text(w.t(ex.rest.exp_sum === 0 ? 'c.maskedKeys' : 'c.moreKeys', { n: ex.rest.count }))] : null, ')');
    w.more(num(ex.numerator), ' / (', list((x) => num(x.exp)), w.rest(ex.rest, 'c.more', ex.rest?.exp_sum), ')');
    w.more(num(ex.numerator), ' / ', num(ex.denominator), result());
  }
  if (ex.target_masked) w.note(w.t('c.targetMasked'));
  if (finite && ex.max === 0) return;
  w.note(w.t(column ? 'c.maxNoteCol' : 'c.maxNote', { max: num(ex.max), negMax: num(-ex.max) }));
  w.eq(e(target.shifted), ' / (', list((x) => e(x.shifted)), ex.rest ? [' + …'] : null, ')');
  w.more(num(ex.numerator_shifted), ' / ', num(ex.denominator_shifted), result());
}

function masked(w, ex) {
  const vars = {
    r: w.row(ex.kind, ex.row), c: w.col(ex.kind, ex.col), t: ex.row, s: ex.col, score: num(ex.score),
  };
  const src = ex.score_src;
  w.eq(w.cellName(ex.kind, ex.row, ex.col), ' = −∞', el('span', 'aside', '  (',
    w.cellName(src.matrix, src.row, src.col), ` = ${num(ex.score)} ${w.t('c.beforeMask')})`));
  w.say(w.t(ex.reason === 'future' ? 'c.maskedFuture' : 'c.maskedForbidden', vars));
}

function kept(w, ex) {
  const vars = { r: w.row(ex.kind, ex.row), c: w.col(ex.kind, ex.col), t: ex.row, s: ex.col };
  const src = ex.score_src;
  w.eq(w.cellName(ex.kind, ex.row, ex.col), ' = ', w.cellName(src.matrix, src.row, src.col), ' = ',
    el('strong', 'value', num(ex.score)));
  w.say(w.t(ex.col <= ex.row ? 'c.keptPast' : 'c.keptOpen', vars));
}

function mean(w, ex) {
  const x = ex.terms[0]?.src.matrix ?? 'x';
  w.say(w.t('c.introMean', { c: w.col(ex.kind, ex.col), x, t: ex.row, n: ex.count }));
  const names = ex.terms.map((a, i) => [i ? ' + ' : '', w.cellName(a.src.matrix, a.src.row, a.src.col)]);
  w.eq(w.cellName(ex.kind, ex.row, ex.col), ' = (', names, ex.rest ? ' + …' : null, ') / ', String(ex.count));
  w.more('(', ex.terms.map((a, i) => [i ? ' + ' : '', formatOp(a.value, a.fraction)]), w.rest(ex.rest), ') / ', String(ex.count));
  w.more(formatOp(ex.sum), ' / ', String(ex.count), ' = ', el('strong', 'value', num(ex.value)), w.exact(ex.fraction));
}

function normalise(w, ex) {
  const n = ex.numerator;
  const key = { column: 'c.introNormaliseCol', all: 'c.introNormaliseAll', row_of_column: 'c.introNormaliseTrap' }[ex.over];
  w.say(w.t(key ?? 'c.introNormalise', { r: w.row(ex.kind, ex.row), c: w.col(ex.kind, ex.col), m: n.src.matrix,
    rr: w.row(n.src.matrix, ex.row), cc: w.col(n.src.matrix, ex.col), k: w.row(n.src.matrix, ex.col) }));
  w.eq(w.cellName(ex.kind, ex.row, ex.col), ' = ', w.cellName(n.src.matrix, n.src.row, n.src.col), ' / (',
    ex.terms.map((a, i) => [i ? ' + ' : '', w.cellName(a.src.matrix, a.src.row, a.src.col)]), ex.rest ? ' + …' : null, ')');
  w.more(formatOp(n.value, n.fraction), ' / (', ex.terms.map((a, i) => [i ? ' + ' : '', formatOp(a.value, a.fraction)]),
    w.rest(ex.rest), ')');
  w.more(formatOp(n.value, n.fraction), ' / ', formatOp(ex.denominator), ' = ',
    el('strong', 'value', num(ex.value)), w.exact(ex.fraction));
}

/** x_u M x_hᵀ: the row x_u M entry by entry, then its dot product with x_h. */
function bilinear(w, ex) {
  const x = ex.then.terms[0]?.b_src.matrix ?? 'x';
  const [rt, rs] = [w.row(x, ex.row), w.row(x, ex.col)];
  // Factories: a DOM node can stand in one place only.
  const xt = () => el('span', 'nowrap', el('i', '', x), el('sub', '', rt));
  const xs = () => el('span', 'nowrap', el('i', '', x), el('sub', '', rs), 'ᵀ');
  const xm = () => el('span', 'nowrap', '(', el('i', '', x), el('sub', '', rt), ' ', el('i', '', 'M'), ')');
  w.say(w.t('c.introBilinear', { r: rt, c: rs }));
  w.eq(w.cellName(ex.kind, ex.row, ex.col), ' = ', xt(), ' ', el('i', '', 'M'), ' ', xs(), ' = ', xm(), ' · ', w.vector(ex.then.terms.map((t) => t.b_src)));
  const products = (d) => d.terms.map((t, i) => [i ? ' + ' : '', `${operand(t.a, t.a_fraction)}·${operand(t.b, t.b_fraction)}`]);
  ex.first.forEach((d, j) => {
    const col = w.col('M', j);
    w.eq(xm(), `[${col}] = `, xt(), ' · ', w.vector(d.terms.map((t) => t.b_src)), ' = ',
      products(d).length ? products(d) : '0', w.rest(d.rest), ' = ', el('span', 'value', num(d.sum)));
  });
  w.eq(w.cellName(ex.kind, ex.row, ex.col), ' = ', products(ex.then).length ? products(ex.then) : '0', w.rest(ex.then.rest));
  w.more(el('strong', 'value', num(ex.value)), w.exact(ex.fraction));
}

/** PE[pos][2i] = sin(pos / 10000^(2i/d)), PE[pos][2i+1] = cos(…), with the numbers. */
function sinusoid(w, ex) {
  const f = ex.cos ? 'cos' : 'sin';
  const vars = { pos: ex.pos, col: ex.two_i + (ex.cos ? 1 : 0), twoI: ex.two_i, i: ex.pair, d: ex.d, f };
  w.say(w.t(ex.cos ? 'c.introCos' : 'c.introSin', vars));
  const frac = (a, b) => el('span', 'nowrap', a, ' / ', b);
  const pow = (e) => w.pow('10000', e);
  w.eq(w.cellName(ex.kind, ex.row, ex.col), ` = ${f}(`, frac(el('i', '', 'pos'), pow(['2', el('i', '', 'i'), '/', el('i', '', 'd')])), ')');
  w.more(`${f}(`, frac(String(ex.pos), pow(`${ex.two_i}/${ex.d}`)), ')');
  // Four decimals: the table's two would hide the angle of a slow column.
  const n4 = (v) => num(v, 4);
  w.more(`${f}(`, frac(String(ex.pos), n4(ex.wavelength)), ')');
  w.more(`${f}(${n4(ex.angle)}) = `, el('strong', 'value', n4(ex.value)));
  w.note(w.t('c.sinNote', { angle: n4(ex.angle) }));
}

const OPS = { dot, softmax, masked, kept, mean, normalise, bilinear, sinusoid };

/** The source matrices this widget does not draw, named (they cannot be outlined). */
function elsewhere(w, ex) {
  const byWhat = new Map();
  for (const { matrix, what } of ex.elsewhere ?? []) byWhat.set(what, [...(byWhat.get(what) ?? []), matrix]);
  for (const [what, names] of byWhat) w.note(w.t('c.elsewhere', { m: names.join(', '), what: w.t(`c.from.${what}`) }));
}

export function explainLines(ex, ctx) {
  rounded = false;
  const w = new Writer(ex, ctx);
  const op = OPS[ex.op];
  if (op) op(w, ex);
  else if (ex.op === 'no_value') {
    const key = { overflow: 'c.overflow', nan: 'c.nan' }[ex.reason] ?? 'c.fullyMasked';
    w.say(w.t(key, { r: w.row(ex.kind, ex.row) }));
  }
  // The last number written is the result: it carries the cell's value to the last digit.
  const results = w.lines.flatMap((line) => [...line.querySelectorAll('strong.value')]);
  const result = results[results.length - 1];
  if (result && typeof ex.value === 'number') {
    result.title = formatExact(ex.value);
    result.dataset.value = String(ex.value);
  }
  if (rounded) w.note(w.t(ctx.touch ? 'c.roundedTouch' : 'c.rounded'));
  elsewhere(w, ex);
  return { title: w.title(), body: w.lines };
}
