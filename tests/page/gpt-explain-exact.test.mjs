// An explained GPT number is the number on screen: clicking heatmap cells of the
// pretrained model (weights and scores of every head), the explanation's result is the
// cell's full-precision value (the `title` the grid carries), digit for digit.
// Run from the repo root: node --test --test-concurrency=1 tests/page/gpt-explain-exact.test.mjs
// Needs ./build.sh (www/pkg, www/data/corpus.txt) and www/models/small.safetensors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sharedPage } from './browser.mjs';
import { assertClean, button, waitStatus, withGpt as withGptPage } from './gpt-harness.mjs';

const SHOTS = fileURLToPath(new URL('../../target/screenshots/', import.meta.url));

// The shared lesson page brings the server and the browser; the test opens its own page
// at section 9 with a fresh model.
let shared;
sharedPage((s) => { shared = s; });
const withGpt = async (fn, options) => {
  await mkdir(SHOTS, { recursive: true });
  return withGptPage(shared.browser, shared.base, fn, options);
};

/** The number a title or text shows with formatExact: true minus, −∞. */
const exact = (text) => (text === '−∞' ? -Infinity : Number(text.replace('−', '-')));

test('every clicked weight and score explains itself down to the drawn value', () => withGpt(async (page, gpt) => {
  await button(gpt, 'Open the pretrained small model').click();
  await waitStatus(page, 'loaded');
  const inspect = gpt.locator('attn-gpt-inspect');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').dataset.heads === '8');
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
