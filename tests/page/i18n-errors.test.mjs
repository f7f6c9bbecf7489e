// The core's number errors are said in the learner's language: parseNumber and
// HeadLab.setCell throw Errors with a `code` and `params`, and the page's string
// tables say them (errorText in www/js/i18n.js). The English table must say exactly
// what the core says, so the two cannot drift apart; the Chinese one must be Chinese.
// Run from the repo root: node --test --test-concurrency=1 tests/page/

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { start, stop } from './server.mjs';
import { closeBrowser, launch, openPage } from './browser.mjs';

let browser;
let base;

before(async () => {
  base = await start();
  browser = await launch();
});

after(async () => {
  await closeBrowser(browser);
  await stop();
});

/** The grid's error line once it has one (polled: the grid renders in a task of its own). */
async function errorOf(grid) {
  for (let i = 0; i < 100; i++) {
    const text = await grid.evaluate((el) => el.shadowRoot.querySelector('.error')?.textContent ?? '');
    if (text) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
  return '';
}

const CASES = ['', 'abc', '1e400', '1/0', 'x'.repeat(100)];

test('every number error has a code whose English text is the core\'s message and a Chinese text', async () => {
  const { page, context, problems } = await openPage(browser, base);
  try {
    const rows = await page.evaluate(async (cases) => {
      const { errorText } = await import('./js/i18n.js');
      const core = document.querySelector('attn-head').core;
      return cases.map((text) => {
        try {
          core.parseNumber(text);
          return { text, parsed: true };
        } catch (err) {
          return { text, code: err.code, message: err.message, en: errorText(err, 'en'), zh: errorText(err, 'zh') };
        }
      });
    }, CASES);
    const codes = new Set();
    for (const r of rows) {
      assert.ok(!r.parsed, `${JSON.stringify(r.text)} is refused`);
      assert.match(r.code, /^number\./, `${JSON.stringify(r.text)} has a code`);
      codes.add(r.code);
      assert.equal(r.en, r.message.replace(/\.$/, ''), 'the English table says what the core says');
      assert.match(r.zh, /[\u4e00-\u9fff]/, `Chinese for ${r.code}: ${r.zh}`);
      assert.doesNotMatch(r.zh, /\{\w+\}|undefined/, r.zh);
    }
    assert.equal(codes.size, 4, `all four codes seen: ${[...codes]}`);
  } finally {
    await context.close();
  }
  assert.deepEqual(problems, []);
});

test('on the Chinese page a bad cell says why in Chinese, in the head and in note 5', async () => {
  const { page, context, problems } = await openPage(browser, base, { locale: 'zh-CN' });
  try {
    const input = page.locator('attn-matrix#W_v td[data-row="0"][data-col="0"] input');
    await input.fill('abc');
    const head = await errorOf(page.locator('attn-matrix#W_v'));
    assert.match(head, /“abc”不是数字/, head);
    assert.doesNotMatch(head, /is not a number/, 'no English left');
    await input.fill('10');

    const cross = page.locator('attn-note-cross attn-matrix[label="x_q"] td[data-row="0"][data-col="0"] input');
    await cross.scrollIntoViewIfNeeded();
    await cross.fill('1/0');
    const text = await errorOf(page.locator('attn-note-cross attn-matrix[label="x_q"]'));
    assert.match(text, /分母不能为 0/, text);
    await cross.fill('1');
  } finally {
    await context.close();
  }
  assert.deepEqual(problems, []);
});
