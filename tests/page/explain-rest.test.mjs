// Every number explains itself, in the remaining lesson grids: the head probe (M, q kᵀ, x M xᵀ),
// normalising (rows, columns, whole, the keepdim trap), the sinusoidal table, the
// exercise (the chosen blanks' weights, the multi-head check's head 0), practice's
// softmax on the right and wrong axis, and the proofs' four outputs. Each check
// clicks a cell on index.html and reads the panel: the actual operands, the drawn
// number at the end, the source cells outlined; Enter on a focused cell opens it.
// Screenshots: target/screenshots/explain-rest-*.png.
// Run from the repo root: node --test --test-concurrency=1 tests/page/explain-rest.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, sharedPage } from './browser.mjs';

let page;

const site = sharedPage((s) => ({ page } = s));

const gridOf = (label) => `attn-matrix[label="${label}"]`;

/** The panel of widget `tag` on page `p`. */
const panelOf = (p, tag) => p.locator(tag).first().locator('attn-explain');

/** Waits until the panel of `tag` is open (or closed) and returns its text. */
async function panelText(p, tag, open = true) {
  await p.waitForFunction(([t, o]) => document.querySelector(t)?.shadowRoot.querySelector('attn-explain')?.open === o, [tag, open]);
  return panelOf(p, tag).evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
}

/** '<label>:r,c' for every outlined source cell in the widget. */
function outlined(p, tag) {
  return p.locator(tag).first().evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix')]
    .flatMap((m) => [...m.shadowRoot.querySelectorAll('td.source')].map((td) => `${m.getAttribute('label')}:${td.dataset.row},${td.dataset.col}`)));
}

/** Opens the side road (a closed <details>) the widget sits in, if it sits in one. */
const openSideRoad = (widget) => widget.evaluate((el) => {
  const side = el.closest('details');
  if (side) side.open = true;
});

/**
 * Clicks cell (row, col) of grid `label` in widget `tag` (or focuses it and presses
 * Enter) and returns { drawn, text, ex, outlined } once its panel is open.
 */
async function explain(tag, label, row, col, { key = false, p = page, clean = true } = {}) {
  const widget = p.locator(tag).first();
  await openSideRoad(widget);
  await panelOf(p, tag).evaluate((el) => el.close());
  const cell = widget.locator(`${gridOf(label)} td[data-row="${row}"][data-col="${col}"]`).first();
  await cell.scrollIntoViewIfNeeded();
  if (key) {
    await cell.focus();
    await p.keyboard.press('Enter');
  } else {
    await cell.click();
  }
  const text = await panelText(p, tag);
  const drawn = (await cell.textContent()).trim();
  const ex = await panelOf(p, tag).evaluate((el) => el.explanation);
  if (clean) {
    assert.doesNotMatch(text, /NaN|undefined|null|Infinity|\{\w+\}/, `clean panel text: ${text}`);
    assert.ok(text.includes(`= ${drawn}`) || (drawn === '0.00' && Math.abs(ex.value) < 0.005),
      `the panel ends in the drawn ${drawn}: ${text}`);
  }
  const selected = await cell.evaluate((td) => td.classList.contains('selected') || td.getAttribute('aria-current') !== null);
  return { drawn, text, ex, outlined: await outlined(p, tag), selected, cell };
}

/** A screenshot of the explained cell's grid and the panel beside it. */
async function shot(p, tag, label, name) {
  const grid = await p.locator(tag).first().locator(gridOf(label)).first().boundingBox();
  const box = await panelOf(p, tag).boundingBox();
  const x = Math.max(0, Math.min(grid.x, box.x) - 8);
  const y = Math.max(0, Math.min(grid.y, box.y) - 8);
  const vw = p.viewportSize().width;
  const width = Math.min(vw - x, Math.max(grid.x + grid.width, box.x + box.width) - x + 16);
  const height = Math.max(grid.y + grid.height, box.y + box.height) - y + 16;
  // Page coordinates: boundingBox is relative to the viewport.
  const scroll = await p.evaluate(() => [window.scrollX, window.scrollY]);
  await p.screenshot({ path: `${SHOTS}explain-rest-${name}.png`, clip: { x: x + scroll[0], y: y + scroll[1], width, height }, fullPage: true });
}

const num2 = (v) => v.toFixed(2).replace('-', '−');

test('head probe: an M cell is a column of W_q dotted with a column of W_k over d', async () => {
  const m = await explain('attn-head-probe', 'M', 2, 0);
  assert.equal(m.ex.op, 'dot');
  assert.equal(m.ex.kind, 'M');
  assert.equal(m.ex.terms.length, 2, 'd = 2 products');
  assert.match(m.text, /M\[c₂, c₀\] = /);
  assert.ok(m.text.includes('Wq[:, c₂] · Wk[:, c₀]'), m.text); // W with subscripts q, k
  const products = m.ex.terms.map((t) => `${t.a}·${t.b}`.replace(/-/g, '−')).join(' + ');
  assert.ok(m.text.includes(products), `the two terms ${products}: ${m.text}`);
  assert.ok(m.text.includes(`= ${num2(m.ex.sum)}`), m.text);
  await shot(page, 'attn-head-probe', 'M', 'probe');

  const v = await explain('attn-head-probe', 'x M xᵀ', 2, 0);
  assert.equal(v.ex.op, 'bilinear');
  assert.equal(v.drawn, '4.00', 'score u→h = 4 through M');
  assert.match(v.text, /\(xu M\)\[c₀\] = xu · M\[:, c₀\]/);
  assert.equal(v.outlined.filter((s) => s.startsWith('M:')).length, 9, 'every cell of M is used');
  await shot(page, 'attn-head-probe', 'x M xᵀ', 'probe-xmx');
  const s = await explain('attn-head-probe', 'scores', 2, 0, { key: true });
  assert.equal(s.ex.op, 'dot');
  assert.match(s.text, /score u→h = /);
  assert.equal(s.drawn, '4.00');
  await page.keyboard.press('Escape');
  await panelText(page, 'attn-head-probe', false);
});

test('normalising: rows, columns, whole and the keepdim trap outline what they divide by', async () => {
  const r = await explain('attn-normalize', 'by_rows', 2, 0);
  assert.equal(r.ex.over, 'row');
  assert.ok(r.text.includes('A[r₂, c₀] / (A[r₂, c₀] + A[r₂, c₁] + A[r₂, c₂])'), r.text);
  assert.ok(r.text.includes('3 / (3 + 3 + 2)'), r.text);
  assert.ok(r.text.includes('3 / 8 = 0.38 = 3/8'), r.text);
  assert.deepEqual(r.outlined.sort(), ['A:2,0', 'A:2,1', 'A:2,2']);
  await shot(page, 'attn-normalize', 'by_rows', 'normalize');
  const c = await explain('attn-normalize', 'by_columns', 2, 0);
  assert.ok(c.text.includes('3 / (1 + 2 + 3)'), c.text);
  assert.deepEqual(c.outlined.sort(), ['A:0,0', 'A:1,0', 'A:2,0']);
  const w = await explain('attn-normalize', 'whole', 0, 0);
  assert.ok(w.text.includes('1 / 14 = 0.07'), w.text);
  assert.equal(w.outlined.length, 9);
  const trap = await explain('attn-normalize', 'wrong', 2, 0, { key: true });
  assert.equal(trap.ex.over, 'row_of_column');
  assert.ok(trap.text.includes('3 / (1 + 1 + 0)') && trap.text.includes('3 / 2 = 1.50'), trap.text);
  assert.match(trap.text, /sum of row r₀, not of its own row r₂/);
  assert.deepEqual(trap.outlined.sort(), ['A:0,0', 'A:0,1', 'A:0,2', 'A:2,0']);
  const right = await explain('attn-normalize', 'right', 2, 0);
  assert.equal(right.drawn, '0.38');
  // Editing A changes the numbers: the open panel closes.
  const a = page.locator('attn-normalize').first();
  await a.evaluate((el) => { el.state = { a: { rows: 3, cols: 3, data: [1, 1, 0, 2, 1, 1, 3, 3, 4] } }; });
  await panelText(page, 'attn-normalize', false);
  const again = await explain('attn-normalize', 'by_rows', 2, 2);
  assert.ok(again.text.includes('4 / (3 + 3 + 4)') && again.text.includes('= 0.40 = 2/5'), again.text);
  await a.evaluate((el) => { el.state = { a: { rows: 3, cols: 3, data: [1, 1, 0, 2, 1, 1, 3, 3, 2] } }; });
});

test('position table: a PE cell writes sin(pos / 10000^(2i/d)) with the numbers', async () => {
  const e = await explain('attn-pos-table', 'PE', 3, 2);
  assert.equal(e.ex.op, 'sinusoid');
  assert.equal(e.drawn, '0.30');
  assert.ok(e.text.includes('PE[p₃, c₂] = sin(pos / 10000 to the power 2i/d)'), e.text);
  assert.ok(e.text.includes('sin(3 / 10000 to the power 2/8)'), e.text);
  assert.ok(e.text.includes('sin(3 / 10.0000)'), e.text);
  assert.ok(e.text.includes('sin(0.3000) = 0.2955'), e.text);
  const c = await explain('attn-pos-table', 'PE', 5, 1, { key: true });
  assert.ok(c.text.includes('cos(5 / 10000 to the power 0/8)') && c.text.includes('cos(5.0000) = 0.2837'), c.text);
  await shot(page, 'attn-pos-table', 'PE', 'pos-table');
  // A new width: the numbers change, the panel closes.
  await page.locator('attn-pos-table').first().evaluate((el) => { el.state = { ...el.state, c: 6 }; });
  await panelText(page, 'attn-pos-table', false);
  await page.locator('attn-pos-table').first().evaluate((el) => { el.state = { ...el.state, c: 8 }; });
  // 中文.
  await page.locator('[data-lang="zh"]').click();
  const zh = await explain('attn-pos-table', 'PE', 3, 2);
  assert.match(zh.text, /偶数列存放正弦/);
  assert.ok(zh.text.includes('sin(3 / 10000的2/8次方)'), zh.text);
  await shot(page, 'attn-pos-table', 'PE', 'pos-table-zh');
  await page.locator('[data-lang="en"]').click();
  await page.keyboard.press('Escape');
});

test('exercise: the chosen blanks\' weights and head 0 of the multi-head check explain themselves', async () => {
  const ex = page.locator('attn-exercise').first();
  await ex.evaluate((el) => { el.state = { score: 'scaled', mask: 'upper', axis: 'last', seed: 0, causal: true }; });
  const w = await explain('attn-exercise', 'weights', 1, 0);
  assert.equal(w.ex.op, 'softmax');
  assert.equal(w.ex.axis, 'row');
  assert.match(w.text, /weight t1→t0 = /);
  assert.match(w.text, /\+ e to the power −∞ \+ e to the power −∞\)/, 'the two masked keys');
  await shot(page, 'attn-exercise', 'weights', 'exercise');
  // Softmax on the receivers' axis: down a column.
  await ex.evaluate((el) => { el.state = { ...el.state, axis: 'receivers' }; });
  await panelText(page, 'attn-exercise', false);
  const col = await explain('attn-exercise', 'weights', 1, 1, { key: true });
  assert.equal(col.ex.axis, 'column');
  assert.match(col.text, /Softmax down column t1/);
  // The lower mask hides the whole last row: NumPy's NaN, said as such.
  await ex.evaluate((el) => { el.state = { ...el.state, mask: 'lower', axis: 'last' }; });
  const nan = await explain('attn-exercise', 'weights', 3, 0, { clean: false });
  assert.match(nan.text, /weight t3→t0 = NaN/);
  assert.match(nan.text, /−∞ − \(−∞\) = NaN/);
  const mh = await explain('attn-exercise', 'head 0 weights', 2, 1);
  assert.equal(mh.ex.op, 'softmax');
  assert.match(mh.text, /weight 2→1 = /);
  const drawnMh = await ex.evaluate((el) => el.shadowRoot.querySelector('attn-matrix[label="head 0 weights"]').value.data[2 * 5 + 1]);
  assert.equal(mh.ex.value, drawnMh, 'the explanation is of the drawn head');
  await ex.evaluate((el) => { el.state = { score: null, mask: null, axis: null, seed: 0, causal: true }; });
  await panelText(page, 'attn-exercise', false);
});

test('practice: softmax along the row, and down the column on the wrong axis', async () => {
  const pr = page.locator('attn-practice').first();
  await pr.locator('details summary').first().click();
  const right = await explain('attn-practice', 'right', 2, 1);
  assert.equal(right.ex.axis, 'row');
  assert.match(right.text, /Softmax over row t2/);
  const wrong = await explain('attn-practice', 'wrong', 1, 0, { key: true });
  assert.equal(wrong.ex.axis, 'column');
  assert.match(wrong.text, /Softmax down column t0/);
  assert.match(wrong.text, /weight t1→t0 = /);
  await shot(page, 'attn-practice', 'wrong', 'practice');
  await page.keyboard.press('Escape');
});

test('proofs: an output is its row of weights times a column of v, with that grid\'s values', async () => {
  const pf = page.locator('attn-proofs').first();
  const before = await explain('attn-proofs', 'masked_before', 1, 3);
  assert.equal(before.ex.op, 'dot');
  assert.match(before.text, /Row t1 of the weights times column 3 of v/);
  assert.equal(before.ex.terms.filter((t) => t.a !== 0).length, 2, 'the mask leaves t1 two keys');
  const first = before.ex.terms[0];
  assert.ok(before.text.includes(`${num2(first.a)}·`), `the first weight ${first.a}: ${before.text}`);
  await shot(page, 'attn-proofs', 'masked_before', 'proofs');
  const after = await explain('attn-proofs', 'unmasked_after', 1, 3, { key: true });
  assert.equal(after.ex.terms.filter((t) => t.a !== 0).length, 4, 'without the mask t1 reads all four keys');
  // A new seed closes the panel.
  await pf.locator('button.primary').click();
  await panelText(page, 'attn-proofs', false);
});

test('380px: the normalising panel fits the viewport', () => site.withPage(async (narrow) => {
  await explain('attn-normalize', 'wrong', 2, 0, { p: narrow });
  const box = await panelOf(narrow, 'attn-normalize').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 380.5, `panel inside the viewport: ${JSON.stringify(box)}`);
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page overflows horizontally by ${overflow}px`);
  await shot(narrow, 'attn-normalize', 'wrong', 'narrow');
}, { width: 380, height: 800 }));
