// Page tests: the exact-values table view explains its numbers like the heatmap does.
// On index.html, "Show as tables" turns every grid of a widget into a plain table of
// exact values (<attn-matrix table>); in an explainable grid a click on a value cell,
// or Enter on a focused one, asks for the same explanation as the heatmap cell, the
// panel's outlines and the selected mark are drawn in the table, Escape returns focus
// to the table cell, and an open panel survives a switch between the two views.
// Run from the repo root: node --test --test-concurrency=1 tests/page/explain-table.test.mjs
// Needs the wasm built into www/pkg (./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, sharedPage } from './browser.mjs';

let page;

const site = sharedPage((s) => ({ page } = s));

const head = () => page.locator('attn-head#head');
const headPanel = () => head().locator('attn-explain');
/** Cell (row, col) of the exact-values table of grid `id` in the head widget. */
const tableCell = (id, row, col) => head().locator(`attn-matrix#${id} table.plain td[data-row="${row}"][data-col="${col}"]`);
const panelText = (panel) => panel.evaluate((el) =>
  (el.hidden ? '' : el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' ')));
/** The marked cells of every grid in `widget`: ['<grid label>:<table|heatmap>:<source|selected>:r,c']. */
const marks = (widget) => widget.evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix')]
  .flatMap((m) => [...m.shadowRoot.querySelectorAll('td.source, td.selected')].map((td) =>
    `${m.getAttribute('label')}:${td.closest('table.plain') ? 'table' : 'heatmap'}:${td.classList.contains('selected') ? 'selected' : 'source'}:${td.dataset.row},${td.dataset.col}`)));
/** The element that really has focus (through shadow roots), described. */
const focused = () => page.evaluate(() => {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  const grid = a?.getRootNode()?.host;
  return { grid: grid?.id ?? null, table: Boolean(a?.closest?.('table.plain')), row: a?.dataset?.row ?? null, col: a?.dataset?.col ?? null };
});

async function tablesOn(widget, on = true) {
  const button = widget.locator('button.tables');
  if ((await button.getAttribute('aria-pressed')) !== String(on)) await button.click();
}

test('head in table view: a clicked weight explains its softmax, sources outlined in the tables', async () => {
  await tablesOn(head());
  const weights = head().locator('attn-matrix#weights');
  assert.equal(await weights.evaluate((el) => el.hasAttribute('table')), true, 'the switch puts the grid in table view');
  assert.equal(await weights.evaluate((el) => el.shadowRoot.querySelector('.heatmap').hidden), true);
  const cell = tableCell('weights', 2, 0);
  assert.equal(await weights.getAttribute('table'), 'rounded', 'the lesson\'s tables print what the heatmap prints');
  assert.equal((await cell.textContent()).trim(), '0.80');
  assert.equal(await cell.getAttribute('aria-describedby'), 'hint');
  assert.equal(await weights.evaluate((el) => el.shadowRoot.querySelector('#hint').textContent),
    'Press Enter or click to see how this number is computed.');
  await cell.scrollIntoViewIfNeeded();
  await cell.click();
  await page.waitForFunction(() => document.querySelector('attn-head#head').shadowRoot.querySelector('attn-explain').open);
  const text = await panelText(headPanel());
  for (const s of ['4.00', '0.50', '2.50', '54.60 / 68.43 = 0.80']) assert.ok(text.includes(s), `${s} in: ${text}`);
  assert.match(text, /weight u→h = 0\.80/);
  assert.deepEqual((await marks(head())).sort(), [
    'masked_scores:table:source:2,0', 'masked_scores:table:source:2,1', 'masked_scores:table:source:2,2',
    'weights:table:selected:2,0',
  ], 'row u of the masked scores outlined and the weight marked, in the tables (not the hidden heatmaps)');
  await head().locator('attn-matrix#masked_scores').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}explain-table.png` });
  await headPanel().screenshot({ path: `${SHOTS}explain-table-panel.png` });
});

test('keyboard: Tab reaches one table cell, arrows move, Enter explains, Escape returns to the cell', async () => {
  await headPanel().evaluate((el) => el.close());
  const weights = head().locator('attn-matrix#weights');
  const tabbable = await weights.evaluate((el) => [...el.shadowRoot.querySelectorAll('table.plain td')]
    .filter((td) => td.tabIndex === 0).map((td) => `${td.dataset.row},${td.dataset.col}`));
  assert.equal(tabbable.length, 1, `one tab stop per table (roving tabindex): ${tabbable}`);
  await tableCell('weights', 0, 0).focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown'); // stays on the last row
  assert.deepEqual(await focused(), { grid: 'weights', table: true, row: '2', col: '0' });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('attn-head#head').shadowRoot.querySelector('attn-explain').open);
  assert.ok((await panelText(headPanel())).includes('54.60 / 68.43 = 0.80'), 'Enter opens the same explanation');
  assert.ok((await marks(head())).includes('weights:table:selected:2,0'));
  await page.keyboard.press('Escape');
  assert.equal(await headPanel().evaluate((el) => el.open), false, 'Escape closes the panel');
  assert.deepEqual(await focused(), { grid: 'weights', table: true, row: '2', col: '0' }, 'focus is back on the table cell');
  assert.deepEqual(await marks(head()), [], 'closing clears the marks');
  // Space explains too; End and Home move along the row.
  await page.keyboard.press('End');
  assert.deepEqual(await focused(), { grid: 'weights', table: true, row: '2', col: '2' });
  await page.keyboard.press('Home');
  await page.keyboard.press(' ');
  assert.ok((await panelText(headPanel())).includes('54.60 / 68.43 = 0.80'));
  await page.keyboard.press('Escape');
});

test('a masked cell in the table explains its mask', async () => {
  const masked = tableCell('masked_scores', 0, 2);
  assert.equal((await masked.textContent()).trim(), '−∞');
  await masked.click();
  const text = await panelText(headPanel());
  assert.match(text, /a token may not read the future/, text);
  const weight = tableCell('weights', 0, 2);
  assert.equal((await weight.textContent()).trim(), '0.00 (masked)');
  await weight.click();
  const w = await panelText(headPanel());
  assert.match(w, /weight h→u = 0\.00/, w);
  assert.match(w, /This score is masked \(−∞\), and e to the power −∞ = 0, so the weight is exactly 0\./, w);
  assert.doesNotMatch(w, /NaN|undefined|Infinity/);
  await page.keyboard.press('Escape');
  assert.deepEqual(await focused(), { grid: 'weights', table: true, row: '0', col: '2' });
});

test('switching view keeps the panel open; its marks and the focus return follow the view', async () => {
  await tableCell('weights', 2, 1).click();
  const before = await panelText(headPanel());
  assert.match(before, /weight u→o/);
  await tablesOn(head(), false);
  assert.equal(await headPanel().evaluate((el) => el.open), true, 'the panel stays open: same number, other view');
  assert.equal(await panelText(headPanel()), before);
  assert.deepEqual((await marks(head())).sort(), [
    'masked_scores:heatmap:source:2,0', 'masked_scores:heatmap:source:2,1', 'masked_scores:heatmap:source:2,2',
    'weights:heatmap:selected:2,1',
  ], 'the marks moved to the heatmap cells');
  await headPanel().evaluate((el) => el.close());
  assert.deepEqual(await focused(), { grid: 'weights', table: false, row: '2', col: '1' }, 'focus goes to the heatmap cell now shown');
  // And back: a heatmap explanation carried into the tables.
  await head().locator('attn-matrix#weights .heatmap td[data-row="1"][data-col="0"]').click();
  await tablesOn(head(), true);
  assert.deepEqual((await marks(head())).sort(), [
    'masked_scores:table:source:1,0', 'masked_scores:table:source:1,1', 'masked_scores:table:source:1,2',
    'weights:table:selected:1,0',
  ]);
  await headPanel().evaluate((el) => el.close());
  assert.deepEqual(await focused(), { grid: 'weights', table: true, row: '1', col: '0' });
});

test('editable grids in table view: the cells to type in stay, the table under them follows the edit', async () => {
  const x = head().locator('attn-matrix#x');
  assert.equal(await x.evaluate((el) => el.shadowRoot.querySelector('.heatmap').hidden), false, 'the inputs stay');
  assert.equal(await x.evaluate((el) => el.shadowRoot.querySelector('.exact').hidden), false, 'the exact values show under them');
  const input = x.locator('.heatmap td[data-row="0"][data-col="0"] input');
  const old = await input.inputValue();
  const first = (id) => page.evaluate((i) => document.querySelector('attn-head#head').shadowRoot.querySelector(`attn-matrix#${i}`)
    .shadowRoot.querySelector('table.plain td').textContent, id);
  await input.fill('0.1');
  await page.waitForFunction(() => document.querySelector('attn-head#head').shadowRoot.querySelector('attn-matrix#x')
    .shadowRoot.querySelector('table.plain td').textContent === '0.10');
  assert.equal(await first('x'), '0.10');
  await input.fill(old);
  await page.waitForFunction(() => document.querySelector('attn-head#head').shadowRoot.querySelector('attn-matrix#weights')
    .shadowRoot.querySelector('table.plain td[data-row="2"][data-col="0"]').textContent === '0.80');
  assert.equal(await first('x'), Number(old).toFixed(2), 'the head is back to its numbers');
});

test('the schemes ladder explains a table cell too', async () => {
  const ladder = page.locator('attn-schemes').first();
  await tablesOn(ladder);
  const wei = ladder.locator('attn-matrix[label="wei"][explainable]').nth(1);
  assert.equal(await wei.evaluate((el) => el.hasAttribute('table')), true);
  const cell = wei.locator('table.plain td[data-row="2"][data-col="0"]');
  await cell.scrollIntoViewIfNeeded();
  await cell.click();
  const panel = ladder.locator('attn-explain');
  await page.waitForFunction(() => document.querySelector('attn-schemes').shadowRoot.querySelector('attn-explain').open);
  const text = await panelText(panel);
  assert.match(text, /1\/3|0\.33/, text);
  const lit = await marks(ladder);
  assert.ok(lit.includes('wei:table:selected:2,0'), `selected in the table: ${lit}`);
  assert.ok(lit.every((m) => m.includes(':table:')), `every mark drawn in a table: ${lit}`);
  await page.keyboard.press('Escape');
  assert.equal(await panel.evaluate((el) => el.open), false);
  await tablesOn(ladder, false);
});

test('Chinese: the table cell\'s explanation and hint are Chinese', async () => {
  await page.locator('button[data-lang="zh"]').click();
  try {
    const weights = head().locator('attn-matrix#weights');
    await page.waitForFunction(() => document.querySelector('attn-head#head').shadowRoot.querySelector('attn-matrix#weights')
      .shadowRoot.querySelector('#hint').textContent.startsWith('按 Enter'));
    assert.match(await weights.evaluate((el) => el.shadowRoot.querySelector('table.plain caption').textContent), /weights：3 × 3。/);
    await tableCell('weights', 2, 0).click();
    const text = await panelText(headPanel());
    assert.match(text, /权重 u→h = 0\.80/, text);
    assert.ok(text.includes('54.60 / 68.43 = 0.80'), text);
    await headPanel().screenshot({ path: `${SHOTS}explain-table-zh.png` });
    await page.keyboard.press('Escape');
  } finally {
    await page.locator('button[data-lang="en"]').click();
  }
});

test('380 px: the panel beside a table is readable and inside the viewport', async () => {
  await page.setViewportSize({ width: 380, height: 800 });
  try {
    const cell = tableCell('weights', 2, 0);
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    const box = await headPanel().boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 380.5, `panel inside the viewport: ${JSON.stringify(box)}`);
    const overflow = await head().evaluate((el) => {
      const p = el.shadowRoot.querySelector('attn-explain').shadowRoot.querySelector('.panel');
      return [...p.querySelectorAll('.eq')].map((e) => e.scrollWidth - e.clientWidth).filter((d) => d > 1);
    });
    assert.deepEqual(overflow, [], 'no equation line is clipped');
    await headPanel().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}explain-table-narrow.png` });
    await head().locator('attn-matrix#masked_scores').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}explain-table-narrow-grid.png` });
    await page.keyboard.press('Escape');
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
});

test('a grid\'s own "exact values" table (explain-demo bench) explains its cells as well', () => site.withPage(async (demo) => {
  const m = demo.locator('attn-matrix#weights');
  await m.locator('button.as-table').click();
  const cell = m.locator('table.plain td[data-row="2"][data-col="0"]');
  assert.equal((await cell.textContent()).trim(), '0.7978760262069925', 'exact values here');
  await cell.click();
  const panel = demo.locator('attn-explain#panel');
  assert.ok((await panelText(panel)).includes('54.60 / 68.43 = 0.80'));
  await panel.screenshot({ path: `${SHOTS}explain-table-exact.png` });
  await demo.keyboard.press('Escape');
  const back = await demo.evaluate(() => document.activeElement.shadowRoot?.activeElement?.closest('table.plain') != null);
  assert.equal(back, true, 'focus back on the exact-values cell');
}, { path: 'explain-demo.html' }));
