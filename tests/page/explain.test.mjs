// Page tests for "every number explains itself": explainable <attn-matrix>
// cells, the <attn-explain> panel and the <attn-formula-steps> stepper, on the
// standalone bench www/explain-demo.html (HeadLab + the elements wired by hand)
// and, when the head widget carries them, on the lesson page.
// Run from the repo root: node --test --test-concurrency=1 tests/page/
// Needs the wasm built into www/pkg (./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, pageSuite } from './browser.mjs';

const { withPage } = pageSuite();
const withDemo = (fn, options) => withPage(fn, { path: 'explain-demo.html', ...options });

/** Other sections of the lesson have suites of their own: problems not matching `ours` are printed, not failed on. */
const onlyOurs = (ours) => ({ aside: (text, where) => !ours.test(text) && !ours.test(where) });

const cell = (page, id, row, col) => page.locator(`attn-matrix#${id} td[data-row="${row}"][data-col="${col}"]`);
const panel = (page) => page.locator('attn-explain#panel');
/** The panel's text as a screen reader gets it (sr-only words included), spaces collapsed. */
const panelText = (page) => panel(page).evaluate((el) =>
  el.hidden ? '' : el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
/** Cells outlined as sources, per matrix id: { masked_scores: ['2,0', …] }. */
const sources = (page) => page.evaluate(() => {
  const out = {};
  for (const m of document.querySelectorAll('attn-matrix')) {
    const cells = [...m.shadowRoot.querySelectorAll('td.source')].map((td) => `${td.dataset.row},${td.dataset.col}`);
    if (cells.length) out[m.id] = cells;
  }
  return out;
});
const focusInfo = (page) => page.evaluate(() => {
  const el = document.activeElement;
  const inner = el?.shadowRoot?.activeElement;
  return { id: el?.id || el?.tagName, row: inner?.dataset?.row ?? null, col: inner?.dataset?.col ?? null };
});

function assertClean(text) {
  assert.doesNotMatch(text, /NaN|undefined|null|Infinity|\{\w+\}/, 'no NaN/undefined/raw Infinity/unfilled {var}');
}

test('clicking weights[u][h] writes out the softmax with the actual numbers', () => withDemo(async (page) => {
  await cell(page, 'weights', 2, 0).click();
  const text = await panelText(page);
  assert.match(text, /weight u→h = 0\.80/);
  for (const s of ['4.00', '0.50', '2.50', '54.60', '68.43', '54.60 / 68.43 = 0.80', '1.65', '12.18']) {
    assert.ok(text.includes(s), `panel shows ${s}: ${text}`);
  }
  assert.match(text, /subtracts the row’s largest score, 4\.00/, 'the max-subtraction is mentioned');
  assert.equal((text.match(/largest score/g) ?? []).length, 1, 'mentioned once');
  // One notation for powers: raised, in the sentences as in the equations, never e^x.
  assert.doesNotMatch(text, /\^/);
  assert.deepEqual(await panel(page).evaluate((el) => [...el.shadowRoot.querySelectorAll('.note sup')].map((s) => s.textContent)),
    ['x', '−4.00']);
  assert.deepEqual(await sources(page), { masked_scores: ['2,0', '2,1', '2,2'] });
  assert.match(await cell(page, 'weights', 2, 0).getAttribute('class'), /selected/);
  assert.equal(await panel(page).evaluate((el) => el.shadowRoot.querySelector('[role="dialog"]') !== null), true);
  assertClean(text);
  await page.screenshot({ path: `${SHOTS}explain-weight.png`, fullPage: true });
}));

test('scores, out, q and masked cells explain themselves', () => withDemo(async (page) => {
  await cell(page, 'scores', 2, 0).click();
  let text = await panelText(page);
  assert.ok(text.includes('2·2 + 0.5·0'), text);
  assert.ok(text.includes('= 4.00'), text);
  assert.deepEqual(await sources(page), { q: ['2,0', '2,1'], k: ['0,0', '0,1'] });

  await cell(page, 'out', 2, 0).click();
  text = await panelText(page);
  assert.ok(text.includes('0.80·10 + 0.02·0 + 0.18·5'), text);
  assert.ok(text.includes('8.87'), text);
  assert.deepEqual(await sources(page), { weights: ['2,0', '2,1', '2,2'], v: ['0,0', '1,0', '2,0'] });

  await cell(page, 'q', 2, 0).click();
  text = await panelText(page);
  assert.match(text, /Row u of x times row d₀ of W_q/);
  assert.match(text, /nn\.Linear/);
  assert.ok(text.includes('0·1 + 0·0 + 1·2'), text);

  await cell(page, 'masked_scores', 0, 2).click();
  text = await panelText(page);
  assert.match(text, /masked score h→u = −∞/);
  assert.match(text, /s = 2, after query h at t = 0 \(s > t\)/);
  assert.match(text, /exactly 0/);
  assert.doesNotMatch(text, /\^/);
  assert.ok(text.includes('e to the power −∞ = 0'), `e⁻∞, said as words to a screen reader: ${text}`);
  assertClean(text);
}));

test('scaling on: the division by √d_k is written out', () => withDemo(async (page) => {
  await page.locator('#scaled').check();
  await cell(page, 'scores', 2, 0).click();
  const text = await panelText(page);
  assert.ok(text.includes('4.00 / √2'), text);
  assert.ok(text.includes('2.83'), text);
  assert.match(text, /1\/√d_k = 0\.71/);
}));

test('a small-denominator rational shows its fraction (explainScheme matrix, weights[2][0] = 1/3)', () => withDemo(async (page) => {
  await cell(page, 'scheme_weights', 2, 0).click();
  const text = await panelText(page);
  assert.ok(text.includes('1 / (1 + 1 + 1)'), text);
  assert.ok(text.includes('0.33 = 1/3'), text);
  await page.keyboard.press('Escape'); // the floating panel sits beside the grid, over its neighbour
  await cell(page, 'scheme_out', 2, 0).click();
  const out = await panelText(page);
  assert.ok(out.includes('1/3·1 + 1/3·3 + 1/3·5'), out);
  assert.deepEqual(await sources(page), { scheme_weights: ['2,0', '2,1', '2,2'] });
}));

test('long sums list the largest terms and the rest as one sum', () => withDemo(async (page) => {
  const text = await page.evaluate(() => {
    const { core, panel } = window.explainDemo;
    const x = { rows: 12, cols: 1, data: [5, -1, 2, 9, 0.5, 3, -7, 4, 1, 2, 8, 6] };
    panel.explanation = core.explainScheme('matrix', x, 'out', 11, 0, 3);
    const dot = panel.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' ');
    panel.explanation = core.explainScheme('loop', x, 'out', 11, 0, 4);
    const mean = panel.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' ');
    return { dot, mean };
  });
  assert.match(text.dot, /1\/12·9 \+ 1\/12·\(−7\) \+ 1\/12·8 \+ \(9 more: 1\.88\)/, text.dot);
  assert.match(text.dot, /= 2\.71/);
  assert.match(text.mean, /\(8 more: /, text.mean);
  assert.match(text.mean, /32\.5 \/ 12 = 2\.71/, text.mean);
  assertClean(text.dot + text.mean);
}));

test('keyboard: Enter on a focused cell opens the panel, Escape closes it and focus returns', () => withDemo(async (page) => {
  await page.evaluate(() => {
    window.explainClosed = 0;
    document.addEventListener('explain-close', () => { window.explainClosed += 1; });
  });
  await cell(page, 'weights', 0, 0).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focusInfo(page), { id: 'weights', row: '2', col: '0' });
  assert.equal(await cell(page, 'weights', 2, 0).getAttribute('aria-describedby'), 'hint');
  await page.keyboard.press('Enter');
  const text = await panelText(page);
  assert.ok(text.includes('54.60 / 68.43 = 0.80'), text);
  assert.equal(await focusInfo(page).then((f) => f.id), 'panel', 'focus moves into the panel');
  await page.keyboard.press('Escape');
  assert.equal(await panel(page).evaluate((el) => el.hidden), true);
  assert.deepEqual(await focusInfo(page), { id: 'weights', row: '2', col: '0' });
  assert.deepEqual(await sources(page), {}, 'closing clears the highlights');
  // The close button does the same.
  await page.keyboard.press('Enter');
  await panel(page).locator('button.close').click();
  assert.equal(await panel(page).evaluate((el) => el.hidden), true);
  assert.deepEqual(await focusInfo(page), { id: 'weights', row: '2', col: '0' });
  assert.equal(await page.evaluate(() => window.explainClosed), 2, 'explain-close fired each time');
  // Space opens it too, on another cell after moving with the arrows.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  assert.match(await panelText(page), /weight u→o = 0\.02/);
}));

test('step through the formula: five steps forward and back, by keyboard', () => withDemo(async (page) => {
  const steps = page.locator('attn-formula-steps');
  const state = () => steps.evaluate((el) => ({
    index: el.index,
    count: el.shadowRoot.querySelector('.count').textContent,
    marked: el.shadowRoot.querySelector('.formula').innerHTML.includes('fde68a'),
  }));
  const seen = [];
  await page.evaluate(() => {
    window.stepEvents = [];
    document.addEventListener('step-change', (e) => window.stepEvents.push(e.detail));
  });
  assert.deepEqual(await state(), { index: 0, count: 'Step 1 of 5: QKᵀ', marked: true });
  await steps.locator('button.next').focus();
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('ArrowRight');
    seen.push((await state()).count);
  }
  assert.deepEqual(seen, ['Step 2 of 5: scale', 'Step 3 of 5: mask', 'Step 4 of 5: softmax', 'Step 5 of 5: · V']);
  await page.keyboard.press('ArrowRight');
  assert.equal((await state()).index, 4, 'stops at the last step');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  assert.equal((await state()).index, 0);
  const events = await page.evaluate(() => window.stepEvents);
  assert.deepEqual(events.map((e) => e.produces), ['scores', 'masked_scores', 'weights', 'out', 'weights', 'masked_scores', 'scores', 'qk']);
  assert.deepEqual(events.slice(0, 4).map((e) => e.name), ['scale', 'mask', 'softmax', 'weighted_sum']);
  // Buttons work too, and the description carries the step's numbers.
  await steps.locator('button.next').click();
  assert.match(await steps.evaluate((el) => el.shadowRoot.querySelector('.desc').textContent), /Scaling is off/);
  await steps.locator('button.next').click();
  assert.match(await steps.evaluate((el) => el.shadowRoot.querySelector('.desc').textContent), /3 pairs/);
  await page.screenshot({ path: `${SHOTS}explain-steps.png` });
}));

test('中文: the panel and the stepper switch language', () => withDemo(async (page) => {
  await page.locator('[data-lang="zh"]').click();
  await cell(page, 'weights', 2, 0).click();
  let text = await panelText(page);
  assert.match(text, /权重 u→h = 0\.80/);
  assert.ok(text.includes('54.60 / 68.43 = 0.80'), text);
  assert.match(text, /最大的分数 4\.00/);
  assert.doesNotMatch(text, /\^/);
  await cell(page, 'masked_scores', 0, 2).click();
  text = await panelText(page);
  assert.match(text, /掩码后分数 h→u = −∞/);
  assert.match(text, /s > t/);
  assertClean(text);
  const steps = page.locator('attn-formula-steps');
  assert.equal(await steps.evaluate((el) => el.shadowRoot.querySelector('.count').textContent), '第 1 步，共 5 步：QKᵀ');
  assert.match(await cell(page, 'weights', 0, 0).evaluate((td) => td.getRootNode().querySelector('#hint').textContent), /按 Enter/);
  await page.screenshot({ path: `${SHOTS}explain-zh.png`, fullPage: true });
  await page.locator('[data-lang="en"]').click();
  assert.match(await panelText(page), /masked score h→u/);
}));

test('exact-values table view for screen readers', () => withDemo(async (page) => {
  const m = page.locator('attn-matrix#weights');
  assert.match(await m.evaluate((el) => el.shadowRoot.querySelector('.heatmap caption').textContent), /weights: 3 × 3\./);
  await m.locator('button.as-table').click();
  assert.equal(await m.locator('button.as-table').getAttribute('aria-pressed'), 'true');
  const table = await m.evaluate((el) => el.shadowRoot.querySelector('table.plain').textContent);
  assert.match(table, /exact values/);
  assert.match(table, /0\.7978760262069925/);
  assert.equal(await m.evaluate((el) => el.shadowRoot.querySelector('.heatmap').hidden), true);
  await m.locator('button.as-table').click();
  assert.equal(await m.evaluate((el) => el.shadowRoot.querySelector('.heatmap').hidden), false);
}));

test('380px: the panel fits and nothing overflows', () => withDemo(async (page) => {
  await cell(page, 'out', 2, 0).click();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page overflows horizontally by ${overflow}px`);
  const box = await panel(page).boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 380.5, `panel inside the viewport: ${JSON.stringify(box)}`);
  await panel(page).screenshot({ path: `${SHOTS}explain-narrow-panel.png` });
  await page.screenshot({ path: `${SHOTS}explain-narrow.png`, fullPage: true });
}, { width: 380, height: 800 }));

test('lesson page: the head widget explains its cells (when it carries the panel)', (t) => withPage(async (page) => {
  const head = page.locator('attn-head#head');
  const hasPanel = (await head.count()) > 0
    && await head.evaluate((el) => Boolean(el.shadowRoot?.querySelector('attn-explain')));
  if (!hasPanel) {
    t.skip('the lesson page has no <attn-head> with <attn-explain> yet');
    return;
  }
  const weights = head.locator('attn-matrix#weights td[data-row="2"][data-col="0"]');
  await weights.scrollIntoViewIfNeeded();
  await weights.click();
  const headPanel = head.locator('attn-explain');
  const text = await headPanel.evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
  assert.ok(text.includes('54.60 / 68.43 = 0.80'), text);
  assert.match(text, /weight u→h = 0\.80/, 'labels come from the grids beside the cell');
  const lit = await head.evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix#masked_scores')]
    .flatMap((m) => [...m.shadowRoot.querySelectorAll('td.source')].map((td) => `${td.dataset.row},${td.dataset.col}`)));
  assert.deepEqual(lit, ['2,0', '2,1', '2,2']);
  await page.screenshot({ path: `${SHOTS}explain-lesson.png` });
  await page.keyboard.press('Escape');
  assert.equal(await headPanel.evaluate((el) => el.hidden), true);
  assert.equal(await head.evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix')]
    .some((m) => m.shadowRoot.querySelector('td.source, td.selected'))), false, 'closing clears the marks');
  const steps = head.locator('attn-formula-steps');
  const count = () => steps.evaluate((el) => el.shadowRoot.querySelector('.count').textContent);
  assert.equal(await count(), 'Step 1 of 5: QKᵀ');
  await steps.locator('button.next').click();
  await page.keyboard.press('ArrowRight');
  assert.equal(await count(), 'Step 3 of 5: mask');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await count(), 'Step 2 of 5: scale');
}, onlyOurs(/explain|formula|attn-matrix|cell|katex/i)));

test('lesson page, note 5: a cross-attention weight explains its softmax over the keys', () => withPage(async (page) => {
  const note = page.locator('attn-note-cross').first();
  const weights = note.locator('attn-matrix[label="weights"]');
  const target = weights.locator('td[data-row="0"][data-col="0"]');
  await target.scrollIntoViewIfNeeded();
  await target.click();
  const drawn = (await target.textContent()).trim();
  const notePanel = note.locator('attn-explain');
  assert.equal(await notePanel.evaluate((el) => el.hidden), false, 'the panel opens');
  assert.equal(await notePanel.evaluate((el) => el.hasAttribute('floating')), true);
  const text = await notePanel.evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
  // Default note: q₀ = (1, 0) against k = (2, 0), (0, 2), (1, 1), (−1, 0): scores 2, 0, 1, −1.
  assert.equal(drawn, '0.64', 'the cell draws e² / (e² + e⁰ + e¹ + e⁻¹)');
  assert.match(text, /weight q₀→k₀ = 0\.64/, `labels come from the grids: ${text}`);
  for (const s of ['2.00', '1.00', '7.39', '11.48', `7.39 / 11.48 = ${drawn}`]) {
    assert.ok(text.includes(s), `panel shows ${s}: ${text}`);
  }
  assertClean(text);
  const lit = await note.evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix[label="scores"]')]
    .flatMap((m) => [...m.shadowRoot.querySelectorAll('td.source')].map((td) => `${td.dataset.row},${td.dataset.col}`)));
  assert.deepEqual(lit, ['0,0', '0,1', '0,2', '0,3'], 'the scores of row q₀ are outlined');
  await page.screenshot({ path: `${SHOTS}explain-cross.png` });
  // An edit makes the explanation stale: the panel closes.
  await note.locator('input[type="checkbox"]').first().check();
  await notePanel.evaluate((el) => new Promise((resolve, reject) => {
    const t0 = performance.now();
    const poll = () => (el.hidden ? resolve() : performance.now() - t0 > 5000
      ? reject(new Error('changing the numbers closes the panel')) : setTimeout(poll, 20));
    poll();
  }));
}, onlyOurs(/explain|cross|attn-matrix|cell/i)));

test('lesson page, note 3: a batch cell explains itself from sequence 0 alone', () => withPage(async (page) => {
  const note = page.locator('attn-note-batch').first();
  const panel = note.locator('attn-explain');
  const panelText = () => panel.evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
  const outlined = (label) => note.evaluate((el, l) => [...el.shadowRoot.querySelectorAll(`attn-matrix[label="${l}"]`)]
    .flatMap((m) => [...m.shadowRoot.querySelectorAll('td.source')].map((td) => `${td.dataset.row},${td.dataset.col}`)), label);
  const open = async (label, row, col) => {
    const cell = note.locator(`attn-matrix[label="${label}"] td[data-row="${row}"][data-col="${col}"]`);
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    assert.equal(await panel.evaluate((el) => el.hidden), false, `${label}[${row}][${col}] opens the panel`);
    return { drawn: (await cell.textContent()).trim(), text: await panelText() };
  };

  const before = await open('out₀ before', 3, 1);
  assert.match(before.text, new RegExp(`= ${before.drawn.replace('−', '[−-]')}`), `the panel ends at the drawn ${before.drawn}: ${before.text}`);
  // out₀[3][1] = Σ_s weights₀[3][s]·v[s][1]: the four weights of row t3 are outlined,
  // and nothing of sequence 1.
  assert.deepEqual(await outlined('weights₀'), ['3,0', '3,1', '3,2', '3,3']);
  assert.deepEqual([...await outlined('x₁ before'), ...await outlined('x₁ after')], []);
  assertClean(before.text);
  await page.screenshot({ path: `${SHOTS}explain-batch.png` });

  // After sequence 1 was replaced, the same cell is the same sum, term for term.
  await panel.evaluate((el) => el.close());
  const afterOpen = await open('out₀ after', 3, 1);
  assert.equal(afterOpen.drawn, before.drawn);
  assert.equal(afterOpen.text, before.text, 'the explanation does not change with sequence 1');

  // A weight of sequence 0: its softmax, with the future masked (t0 sees only itself).
  await panel.evaluate((el) => el.close());
  const w = await open('weights₀', 0, 0);
  assert.equal(w.drawn, '1.00');
  assert.match(w.text, /−∞/, `the masked future keys appear as −∞: ${w.text}`);

  // A new draw makes the explanation stale: the panel closes.
  await note.locator('button.primary').click();
  await panel.evaluate((el) => new Promise((resolve, reject) => {
    const t0 = performance.now();
    const poll = () => (el.hidden ? resolve() : performance.now() - t0 > 5000
      ? reject(new Error('a new draw closes the panel')) : setTimeout(poll, 20));
    poll();
  }));
}));
