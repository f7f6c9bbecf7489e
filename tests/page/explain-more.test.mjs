// Every number explains itself, beyond the head, schemes, cross-attention and batch: the other lesson
// widgets that draw a head's weights or outputs (positions, two words, a new W_v,
// note 2's two orders, note 4's encoder/decoder, note 6's d_k slider) explain a
// clicked cell through explainTrace. Each check clicks a cell on index.html and
// reads the panel: it ends in the drawn number, names the right operation, and
// outlines only grids of the same head.
// Run from the repo root: node --test --test-concurrency=1 tests/page/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, sharedPage } from './browser.mjs';

let page;

sharedPage((s) => ({ page } = s));

/**
 * Clicks cell (row, col) of the grid matching `gridSel` inside the widget `tag`
 * and returns { drawn, text, ex, outlined: ['<label>:r,c'] } once its panel is open.
 */
async function explain(tag, gridSel, row, col) {
  const widget = page.locator(tag).first();
  const panel = widget.locator('attn-explain');
  await panel.evaluate((el) => el.close());
  const cell = widget.locator(`${gridSel} td[data-row="${row}"][data-col="${col}"]`).first();
  await cell.scrollIntoViewIfNeeded();
  await cell.click();
  await page.waitForFunction((t) => document.querySelector(t)?.shadowRoot.querySelector('attn-explain')?.open, tag);
  const drawn = (await cell.textContent()).trim();
  const text = await panel.evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
  const ex = await panel.evaluate((el) => el.explanation);
  const outlined = await widget.evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix')]
    .flatMap((m) => [...m.shadowRoot.querySelectorAll('td.source')]
      .map((td) => `${m.closest('[data-explain-scope]') ? [...el.shadowRoot.querySelectorAll('[data-explain-scope]')].indexOf(m.closest('[data-explain-scope]')) : '-'}:${m.getAttribute('label')}:${td.dataset.row},${td.dataset.col}`)));
  assert.doesNotMatch(text, /NaN|undefined|null|Infinity|\{\w+\}/, `clean panel text: ${text}`);
  // A cell drawn as 0.00 may be 9.1e−5 in the panel: it prints small numbers exactly.
  assert.ok(text.includes(`= ${drawn}`) || (drawn === '0.00' && Math.abs(ex.value) < 0.005),
    `the panel ends in the drawn ${drawn}: ${text}`);
  return { drawn, text, ex, outlined, widget };
}

test('note 4: the decoder weight u→h is the lesson\'s 0.80; h→u is masked there and open in the encoder', async () => {
  const w = await explain('attn-note-encoder', 'attn-matrix[label="weights"]', 2, 0);
  assert.equal(w.drawn, '0.80');
  assert.equal(w.ex.op, 'softmax');
  assert.ok(w.text.includes('54.60 / 68.43 = 0.80'), w.text);
  const masked = await explain('attn-note-encoder', 'attn-matrix[label="weights"]', 0, 2);
  assert.equal(masked.ex.target_masked, true);
  assert.equal(masked.drawn, '0.00');
  // The encoder: the mask line is commented out, the same cell reads the future.
  await page.locator('attn-note-encoder').first().locator('button').nth(1).click();
  await page.waitForFunction(() => document.querySelector('attn-note-encoder').state.decoder === false);
  const open = await explain('attn-note-encoder', 'attn-matrix[label="weights"]', 0, 2);
  assert.equal(open.ex.target_masked, false);
  assert.ok(open.ex.value > 0, 'h reads u without the mask');
  const out = await explain('attn-note-encoder', 'attn-matrix[label="out"]', 2, 0);
  assert.equal(out.ex.op, 'dot');
  assert.deepEqual(out.outlined, ['-:weights:2,0', '-:weights:2,1', '-:weights:2,2'], 'out outlines its row of weights');
  await page.locator('attn-note-encoder').first().locator('button').nth(0).click();
});

test('§3: each word\'s weights explain themselves, outlines stay with that word', async () => {
  const a = await explain('attn-compare-words', 'attn-matrix[label="weights"]', 2, 0);
  assert.equal(a.ex.op, 'softmax');
  assert.equal(a.drawn, '0.80', 'hou with the head\'s defaults');
  const b = await explain('attn-compare-words', '.panel:nth-child(2) attn-matrix[label="weights"]', 2, 0);
  assert.match(b.text, /weight u→y/, `the second word's own labels: ${b.text}`);
  assert.notEqual(b.drawn, a.drawn, 'you is not hou: other weights');
});

test('§3: after a new W_v the outputs explain themselves from the same weights', async () => {
  const before = await explain('attn-value-change', 'attn-matrix[label="out"]', 2, 0);
  assert.equal(before.ex.op, 'dot');
  assert.deepEqual(before.outlined, ['0:weights:2,0', '0:weights:2,1', '0:weights:2,2'], 'outlined in the "before" head only');
  const afterOut = await explain('attn-value-change', '.panel:nth-child(3) attn-matrix[label="out"]', 2, 0);
  assert.deepEqual(afterOut.outlined, ['1:weights:2,0', '1:weights:2,1', '1:weights:2,2'], 'outlined in the "after" head only');
  const weightsOf = (ex) => ex.terms.map((t) => t.a);
  assert.deepEqual(weightsOf(afterOut.ex), weightsOf(before.ex), 'the same weights, term for term');
});

test('positions and note 2: an output explains itself as weights times v', async () => {
  const p = await explain('attn-position', 'attn-matrix[label="out"]', 1, 0);
  assert.equal(p.ex.op, 'dot');
  assert.ok(p.ex.terms.length >= 1);
  const s = await explain('attn-note-space', 'attn-matrix[label="out B"]', 2, 1);
  assert.equal(s.ex.op, 'dot');
  assert.equal(s.ex.kind, 'out');
});

test('note 6: at d_k = 512 a weight is a softmax over scores made of 512 products', async () => {
  const widget = page.locator('attn-note-scale').first();
  await widget.locator('button[data-dk="512"]').click();
  await page.waitForFunction(() => document.querySelector('attn-note-scale').shadowRoot
    .querySelector('.picks button[aria-pressed="true"]')?.dataset.dk === '512');
  const w = await explain('attn-note-scale', 'attn-matrix[label="weights"]', 5, 1);
  assert.equal(w.ex.op, 'softmax');
  assert.equal(w.ex.terms.length, 6, 'six keys, none masked in the last row');
  assert.ok(Math.max(...w.ex.terms.map((t) => Math.abs(t.score))) > 10,
    'unscaled, 512 products make scores of tens: softmax saturates');
  await page.screenshot({ path: `${SHOTS}explain-dk512.png` });
  // Out has no v here: the grid draws weights only, so there is nothing else to click.
  assert.equal(await widget.locator('attn-matrix[explainable]').count(), 1);
  await widget.locator('button[data-dk="16"]').click();
});

test('§3 biases: a score with a k-bias is q·(k + b_k), explained in its own panel', async () => {
  const widget = page.locator('attn-bias').first();
  await widget.evaluate((el) => { // the side road (a closed <details>) it may sit in
    const side = el.closest('details');
    if (side) side.open = true;
  });
  await widget.locator('input.toggle-k').check();
  await page.waitForFunction(() => document.querySelector('attn-bias').state.k_bias === true);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 100)));
  const s = await explain('attn-bias', '.k-panel attn-matrix[label="scores"]', 2, 0);
  assert.equal(s.ex.op, 'dot');
  assert.equal(s.ex.kind, 'scores');
  const base = await explain('attn-bias', '.panel:first-child attn-matrix[label="scores"]', 2, 0);
  assert.notEqual(s.ex.value, base.ex.value, 'the bias moved the score');
  const w = await explain('attn-bias', '.k-panel attn-matrix[label="weights"]', 2, 0);
  assert.equal(w.ex.op, 'softmax');
  assert.deepEqual(w.outlined.map((o) => o.split(':').slice(1).join(':')),
    ['scores:2,0', 'scores:2,1', 'scores:2,2'], 'the row of biased scores beside it, in the k panel only');
  assert.ok(w.outlined.every((o) => o.startsWith('1:')), `only the k panel's grids: ${w.outlined}`);
  await widget.locator('input.toggle-k').uncheck();
});

test('a panel never outlives its numbers: a new state closes it, the table view keeps it', async () => {
  const closed = (tag) => page.waitForFunction((t) => !document.querySelector(t).shadowRoot.querySelector('attn-explain').open, tag);
  // Note 4: explaining a decoder weight, then switching to the encoder.
  await explain('attn-note-encoder', 'attn-matrix[label="weights"]', 2, 0);
  await page.locator('attn-note-encoder').first().locator('button').nth(1).click();
  await closed('attn-note-encoder');
  await page.locator('attn-note-encoder').first().locator('button').nth(0).click();
  // A new W_v: the value-change panel closes.
  await explain('attn-value-change', 'attn-matrix[label="out"]', 1, 0);
  const cell = page.locator('attn-value-change attn-matrix[label="W_v"] td[data-row="0"][data-col="0"] input');
  const old = await cell.inputValue();
  await cell.fill('7');
  await closed('attn-value-change');
  await cell.fill(old);
  // "Show as tables" only changes how the same numbers are shown (the grids draw
  // themselves as tables): the panel stays open, its outlines move into the tables.
  await explain('attn-value-change', 'attn-matrix[label="out"]', 1, 0);
  await page.locator('attn-value-change button.tables').click();
  const widget = page.locator('attn-value-change').first();
  assert.equal(await widget.locator('attn-explain').evaluate((el) => el.open), true);
  assert.ok(await widget.evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix')]
    .some((m) => m.shadowRoot.querySelector('table.plain td.selected[data-row="1"][data-col="0"]'))), 'the explained cell is marked in its table');
  await page.locator('attn-value-change button.tables').click();
  await widget.locator('attn-explain').evaluate((el) => el.close());
});
