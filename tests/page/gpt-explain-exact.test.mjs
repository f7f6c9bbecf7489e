// An explained GPT number is the number on screen: clicking heatmap cells of the
// pretrained model (weights and scores of every head), the explanation's result is the
// cell's full-precision value (the `title` the grid carries), digit for digit.
// Run from the repo root: node --test --test-concurrency=1 tests/page/gpt-explain-exact.test.mjs
// Needs ./build.sh (www/pkg, www/data/corpus.txt) and www/models/small.safetensors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, pageSuite, unfold } from './browser.mjs';
import { assertClean, gptOn, openPretrained } from './gpt-harness.mjs';

// The lesson page is shared by the lesson-panel test; each GPT test opens its own page
// at section 9 with a fresh model.
const site = pageSuite({ shared: true });
const withGpt = gptOn(site);

/** The number a title or text shows with formatExact: true minus, −∞. */
const exact = (text) => (text === '−∞' ? -Infinity : Number(text.replace('−', '-')));

test('every clicked weight and score explains itself down to the drawn value', () => withGpt(async (page, gpt) => {
  await openPretrained(page, gpt);
  const inspect = gpt.locator('attn-gpt-inspect');
  await inspect.getByLabel('both').check();
  const panel = inspect.locator('attn-explain');
  const labels = await inspect.evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix')]
    .map((m) => m.getAttribute('label')));
  assert.equal(labels.length, 16, '2 layers × 4 heads × (scores, weights)');
  // "To be, or not" is 13 characters: rows across the prompt, a past key, the diagonal
  // and a masked future key.
  const cells = [[12, 3], [12, 12], [7, 2], [5, 9], [0, 0], [9, 4]];
  let checked = 0;
  let rounded = 0;
  for (const label of labels) {
    const grid = inspect.locator(`attn-matrix[label="${label}"]`);
    for (const [row, col] of cells) {
      const td = grid.locator(`td[data-row="${row}"][data-col="${col}"]`);
      const title = await td.getAttribute('title');
      const drawn = exact(title.slice(title.lastIndexOf(' = ') + 3));
      await panel.evaluate((el) => el.close());
      await td.scrollIntoViewIfNeeded();
      await td.click();
      await page.waitForFunction(([r, c]) => {
        const ex = document.querySelector('attn-gpt-train').shadowRoot.querySelector('attn-gpt-inspect')
          .shadowRoot.querySelector('attn-explain');
        return ex.open && ex.explanation?.row === r && ex.explanation.col === c;
      }, [row, col]);
      const got = await panel.evaluate((el) => {
        const results = el.shadowRoot.querySelectorAll('#body strong.value');
        const last = results[results.length - 1];
        return {
          value: el.explanation.value,
          kind: el.explanation.kind,
          title: last?.title ?? null,
          text: el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '),
        };
      });
      const what = `${label} [${row}, ${col}] (${got.kind}, drawn ${title})`;
      assert.equal(got.value, drawn, `${what}: the explanation's value`);
      if (drawn !== -Infinity) {
        assert.ok(got.title, `${what}: the result carries every digit`);
        assert.equal(exact(got.title), drawn, `${what}: the result's full precision`);
      }
      assert.doesNotMatch(got.text, /NaN|undefined|null|\{\w+\}/, what);
      if (/rounded/.test(got.text)) rounded += 1;
      checked += 1;
    }
  }
  assert.equal(checked, 16 * cells.length);
  assert.ok(rounded > 0, 'rounded terms are said to be rounded');

  // One panel to look at: a score of the last row, its rounded terms and its note.
  await panel.evaluate((el) => el.close());
  const td = inspect.locator('attn-matrix[label="L2 H3 q·k/√hs"] td[data-row="12"][data-col="3"]');
  await td.click();
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').shadowRoot.querySelector('attn-explain')?.open === true);
  const text = await panel.evaluate((el) => el.shadowRoot.querySelector('.panel').textContent);
  assert.match(text, /rounded/, text);
  await assertClean(page);
  await inspect.screenshot({ path: `${SHOTS}gpt-explain-exact.png` });
}));

/** Clicks cell (row, col) of grid `label` in widget `tag` and returns its open panel's text. */
async function lessonPanel(tag, label, row, col) {
  const { page } = site;
  const widget = page.locator(tag).first();
  const panel = widget.locator('attn-explain');
  await panel.evaluate((el) => el.close());
  const cell = widget.locator(`attn-matrix[label="${label}"] td[data-row="${row}"][data-col="${col}"]`).first();
  await unfold(cell); // a widget on a side road: open it as a learner does
  await cell.scrollIntoViewIfNeeded();
  await cell.click();
  await page.waitForFunction((t) => document.querySelector(t)?.shadowRoot.querySelector('attn-explain')?.open, tag);
  const text = await panel.evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
  assert.doesNotMatch(text, /NaN|undefined|null|Infinity|\{\w+\}/, text);
  return { text, panel, widget };
}

test('lesson panels name the sources their widget does not draw; the proofs title each grid', async () => {
  const m = await lessonPanel('attn-head-probe', 'M', 2, 0);
  assert.match(m.text, /W_q, W_k: the weights of the head above \(its W_q and W_k\), not drawn here\./, m.text);
  const s = await lessonPanel('attn-head-probe', 'scores', 2, 0);
  assert.match(s.text, /q: the head's queries/, s.text);
  assert.match(s.text, /k: the head's keys/, s.text);

  const titles = [];
  for (const [grid, heading, weights, v] of [
    ['masked_before', 'with mask, before', 'with the causal mask', 'before any row'],
    ['unmasked_after', 'without mask, after', 'without a mask', 'redrawn'],
  ]) {
    const p = await lessonPanel('attn-proofs', grid, 1, 3);
    const title = await p.panel.evaluate((el) => el.shadowRoot.querySelector('h3').textContent);
    assert.ok(title.includes(`(${heading})`), `the ${grid} grid's own title: ${title}`);
    titles.push(title);
    assert.match(p.text, new RegExp(`weights: the weights of this head ${weights}`), p.text);
    assert.match(p.text, new RegExp(`v: the values v [^.]*${v}`), p.text);
    if (grid === 'masked_before') {
      const grid = await p.widget.locator('attn-matrix[label="masked_before"]').boundingBox();
      const box = await p.panel.boundingBox();
      const x = Math.max(0, Math.min(grid.x, box.x) - 8);
      const y = Math.max(0, Math.min(grid.y, box.y) - 8);
      const scroll = await site.page.evaluate(() => [window.scrollX, window.scrollY]);
      await site.page.screenshot({ path: `${SHOTS}explain-proofs-sources.png`, fullPage: true, clip: {
        x: x + scroll[0], y: y + scroll[1], width: Math.min(1280 - x, Math.max(grid.x + grid.width, box.x + box.width) - x + 16),
        height: Math.max(grid.y + grid.height, box.y + box.height) - y + 16 } });
    }
  }
  assert.notEqual(titles[0], titles[1]);
  // In Chinese the names are said in Chinese.
  await site.page.evaluate(() => document.querySelector('[data-lang="zh"]')?.click());
  const zh = await lessonPanel('attn-proofs', 'masked_after', 1, 3);
  assert.match(zh.text, /这里没有画出来/, zh.text);
  assert.match(zh.text, /有掩码，改动后/, zh.text);
  await site.page.evaluate(() => document.querySelector('[data-lang="en"]')?.click());
  await zh.panel.evaluate((el) => el.close());
});
