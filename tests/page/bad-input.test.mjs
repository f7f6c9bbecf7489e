// The bad-input matrix: what a learner can type, and what a link can carry,
// never breaks the page. Every case asserts: a clear message in the right place, the
// last valid state kept, no NaN/undefined/Infinity text anywhere on screen (light DOM,
// every shadow root, input values, titles), no console error, and no script run
// (any alert/confirm/prompt dialog fails the test).
// Run from the repo root: node --test --test-concurrency=1 tests/page/bad-input.test.mjs
// Needs the wasm built into www/pkg (./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSuite } from './browser.mjs';

const site = pageSuite({
  started: async () => {
    const { page, context } = await site.open('', { readyTimeout: 20000 });
    baseline = new Set(leaks(await screenText(page)));
    await context.close();
  },
});

/**
 * Opens index.html (with `hash`, `width`, `height`), runs `fn(page)` and asserts nothing
 * was recorded: no console error/warning, page error, failed request (a cancelled one
 * included) or dialog (no script from the input ever ran).
 */
const withPage = (fn, options) => site.withPage(async (page) => {
  await fn(page);
  await page.waitForTimeout(50); // a late onerror handler would fire by now
}, { aborted: true, readyTimeout: 20000, ...options });

// ---- what is on screen ----

/**
 * Every text a user could see, sections 1–8 and the page chrome: light DOM, all shadow
 * roots (recursively), input values and titles. The learner's own rejected text is left
 * out: values of inputs marked aria-invalid, and text quoted back in “…” by a message.
 */
const screenText = (page) => page.evaluate(() => {
  const roots = ['header', '.toc', '#url-notice', '#s1', '#s2', '#s3', '#s4', '#s5', '#s6', '#s7', '#s8']
    .map((s) => document.querySelector(s)).filter(Boolean);
  const parts = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.title) parts.push(el.title);
      if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && el.getAttribute('aria-invalid') !== 'true') parts.push(el.value);
      if (el.shadowRoot) {
        parts.push(el.shadowRoot.textContent);
        walk(el.shadowRoot);
      }
    }
  };
  for (const root of roots) {
    parts.push(root.textContent);
    walk(root);
  }
  return parts.join('\n').replace(/“[^”]*”/g, '“…”');
});

/** Each NaN/undefined/Infinity on screen with a little context around it. */
const leaks = (text) => [...text.matchAll(/.{0,40}(?:NaN|undefined|Infinity).{0,40}/g)].map((m) => m[0]);

// The lesson's own prose names NaN once or twice (a quiz option "It becomes NaN"):
// those mentions, read from a page nobody has touched, are not leaks.
let baseline = null;

async function assertClean(page) {
  const found = leaks(await screenText(page)).filter((s) => !baseline.has(s));
  assert.deepEqual(found, [], 'no NaN/undefined/Infinity text on screen');
}

/** Elements of `tag` anywhere in the document or its shadow roots. */
const countTags = (page, tag) => page.evaluate((name) => {
  let n = 0;
  const walk = (root) => {
    n += root.querySelectorAll(name).length;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return n;
}, tag);

// ---- the head (<attn-head id="head"> in section 4) ----

const cell = (page, id, row, col) => page.locator(`attn-head attn-matrix#${id} td[data-row="${row}"][data-col="${col}"]`);
const input = (page, id, row, col) => cell(page, id, row, col).locator('input');
const grid = (page, id) => page.locator(`attn-head attn-matrix#${id}`).evaluate((el) =>
  [...el.shadowRoot.querySelectorAll('td')].map((td) => td.querySelector('input')?.value ?? td.textContent));
const headMessage = (page) => page.locator('attn-head #message');

/** The h/o/u defaults of LESSON §3: score u→h 4.00, out row u [8.87, 1.13], x one-hot. */
async function assertHeadDefaults(page) {
  assert.equal(await cell(page, 'scores', 2, 0).textContent(), '4.00', 'score u→h');
  assert.deepEqual((await grid(page, 'out')).slice(4), ['8.87', '1.13'], 'out row u');
  assert.deepEqual((await grid(page, 'weights')).slice(6), ['0.80', '0.02', '0.18'], "u's weights");
  assert.deepEqual(await grid(page, 'x'), ['1', '0', '0', '0', '1', '0', '0', '0', '1']);
}

const NOT_NUMBERS = [
  ['abc', /“abc” is not a number/],
  ['NaN', /“NaN” is not a number/],
  ['Infinity', /“Infinity” is not a number/],
  ['-Infinity', /“-Infinity” is not a number/],
  ['∞', /“∞” is not a number/],
  ['1e308', /“1e308” is too large .*between -1e300 and 1e300/],
  ['-1e308', /“-1e308” is too large .*between -1e300 and 1e300/],
  ['1e400', /“1e400” is too large/],
  ['1/0', /cannot have 0 below the line/],
  ['', /empty cell/],
];

test('head: text that is not a finite number is marked at its cell; the last valid result stays', () => withPage(async (page) => {
  const before = { weights: await grid(page, 'weights'), out: await grid(page, 'out'), q: await grid(page, 'q') };
  const bad = input(page, 'W_q', 1, 1);
  const error = page.locator('attn-head attn-matrix#W_q .error');
  for (const [text, re] of NOT_NUMBERS) {
    await bad.fill(text);
    assert.match(await error.textContent(), re, `message for ${JSON.stringify(text)}`);
    assert.ok(await error.isVisible(), 'the message shows under the W_q grid');
    assert.equal(await bad.getAttribute('aria-invalid'), 'true');
    assert.match(await cell(page, 'W_q', 1, 1).getAttribute('class'), /invalid/);
    assert.deepEqual(await grid(page, 'q'), before.q, `${text}: q unchanged`);
    assert.deepEqual(await grid(page, 'weights'), before.weights, `${text}: weights unchanged`);
    assert.deepEqual(await grid(page, 'out'), before.out, `${text}: out unchanged`);
    assert.ok(await headMessage(page).isHidden(), 'no compute error: nothing was computed');
    await assertClean(page);
  }
  // Every input matrix rejects the same way (x too).
  await input(page, 'x', 0, 0).fill('NaN');
  assert.match(await page.locator('attn-head attn-matrix#x .error').textContent(), /“NaN” is not a number/);
  await input(page, 'W_v', 0, 0).fill('Infinity');
  assert.match(await page.locator('attn-head attn-matrix#W_v .error').textContent(), /“Infinity” is not a number/);
  assert.deepEqual(await grid(page, 'out'), before.out);
  await assertClean(page);
  // A number puts everything right again.
  await bad.fill('1');
  await input(page, 'x', 0, 0).fill('1');
  await input(page, 'W_v', 0, 0).fill('10');
  assert.equal(await bad.getAttribute('aria-invalid'), null);
  assert.equal(await error.textContent(), '');
  await assertHeadDefaults(page);
  await assertClean(page);
}));

test('head: 1e150 keeps softmax finite; scores that overflow show the compute error and keep the last result', () => withPage(async (page) => {
  // q·k = 1e150 · 1e150 = 1e300: a finite score; softmax subtracts the row maximum.
  await input(page, 'W_q', 0, 0).fill('1e150');
  await input(page, 'W_k', 0, 0).fill('1e150');
  assert.ok(await headMessage(page).isHidden(), 'no error at 1e300');
  assert.equal(await cell(page, 'scores', 0, 0).textContent(), '1.0e300');
  const weights = await grid(page, 'weights');
  for (let r = 0; r < 3; r++) {
    const row = weights.slice(3 * r, 3 * r + 3).map(Number);
    assert.ok(row.every(Number.isFinite), `weights row ${r} finite: ${row}`);
    assert.ok(Math.abs(row.reduce((a, b) => a + b) - 1) < 0.02, `weights row ${r} sums to 1: ${row}`);
  }
  assert.deepEqual(weights.slice(0, 3), ['1.00', '0.00', '0.00']);
  const lastOut = await grid(page, 'out');
  await assertClean(page);
  // 1e200 · 1e200 overflows float64: the compute error, and the 1e150 result stays.
  for (const [a, b] of [['1e200', '1e200'], ['-1e200', '1e200'], ['1e300', '1e300']]) {
    await input(page, 'W_q', 0, 0).fill(a);
    await input(page, 'W_k', 0, 0).fill(b);
    const message = headMessage(page);
    assert.ok(await message.isVisible(), `${a}·${b}: message shown`);
    assert.match(await message.textContent(), /too large to compute.*last valid result/);
    assert.deepEqual(await grid(page, 'weights'), weights, 'last valid weights stay');
    assert.deepEqual(await grid(page, 'out'), lastOut, 'last valid out stays');
    await assertClean(page);
  }
  await page.locator('attn-head #reset').click();
  assert.ok(await headMessage(page).isHidden());
  await assertHeadDefaults(page);
}));

// ---- §2's softmax steps: the one place a learner can mask every position ----

const softmax = (page) => page.locator('attn-softmax-steps');

test('softmax steps: a fully masked row explains itself; bad scores are refused; exp overflow is named', () => withPage(async (page) => {
  const msg = softmax(page).locator('.msg');
  const table = softmax(page).locator('table');
  for (const box of await softmax(page).locator('input[type="checkbox"]').all()) await box.uncheck();
  assert.match(await msg.textContent(), /Every position is masked.*no denominator/);
  assert.match(await msg.getAttribute('class'), /bad/);
  const rows = await table.evaluate((t) => [...t.tBodies[0].rows].map((r) => r.textContent));
  assert.match(rows.at(-1), /–\s*–\s*–\s*–\s*–/, `weights row shows dashes: ${rows.at(-1)}`);
  await assertClean(page);
  // A score that is not a number: refused at the input, the table keeps the last state.
  const before = await table.innerText();
  const score = softmax(page).locator('input.score').first();
  for (const text of ['NaN', 'Infinity', '1e308', 'abc']) {
    await score.fill(text);
    assert.equal(await score.getAttribute('aria-invalid'), 'true', text);
    assert.match(await msg.textContent(), /not a number|too large/, text);
    assert.equal(await table.innerText(), before, `${text}: the table keeps the last valid state`);
    await assertClean(page);
  }
  await page.locator('attn-softmax-steps button', { hasText: 'Reset' }).click();
  // Reset re-renders in a task of its own (widget-base.js's refresh): wait for it.
  await msg.filter({ hasText: /visible ones sum to 1/ }).waitFor({ timeout: 5000 });
  assert.equal(await score.inputValue(), '2', 'Reset puts the number back into the refused input');
  assert.equal(await score.getAttribute('aria-invalid'), null);
  // exp(800) overflows float64: the widget says so and shows ∞, never “Infinity”.
  await score.fill('800');
  assert.match(await msg.textContent(), /overflows/);
  await assertClean(page);
}));

// ---- hostile links ----

const notice = (page) => page.locator('#url-notice');

/** The link was refused: the notice names the key, and the head shows its defaults. */
async function assertRefused(page, key, re) {
  assert.ok(await notice(page).isVisible(), 'the notice is shown');
  const text = await notice(page).innerText();
  assert.match(text, new RegExp(`“${key}”`), 'the notice names the widget');
  if (re) assert.match(text, re);
  assert.match(text, /showing the defaults/);
  await assertHeadDefaults(page);
  assert.equal(await countTags(page, 'img'), 0, 'no <img> injected');
  assert.equal(await countTags(page, 'script'), 1, 'only the page\'s own module script');
  await assertClean(page);
}

test('link: markup in the hash is never parsed or run', async () => {
  await withPage((page) => assertRefused(page, 'head', /not valid JSON/),
    { hash: '#head=<img src=x onerror=alert(1)>' });
  await withPage((page) => assertRefused(page, 'head', /x: not a matrix/),
    { hash: `#head=${encodeURIComponent('{"x":"<script>alert(1)</script>"}')}` });
  await withPage((page) => assertRefused(page, 'head', /not valid JSON/),
    { hash: '#head="><svg onload=alert(1)>&schemes=<script>alert(2)</script>' });
});

test('link: HTML-looking tokens are drawn as text, not markup', () => withPage(async (page) => {
  assert.ok(await notice(page).isHidden(), 'a valid state: no notice');
  assert.equal(await countTags(page, 'img'), 0, 'no <img> element');
  const labels = await page.locator('attn-head attn-matrix#weights').evaluate((el) =>
    [...el.shadowRoot.querySelectorAll('tbody th')].map((th) => th.textContent));
  assert.deepEqual(labels, ['<img>', '<b>x</b>', '"><i>']);
  assert.equal(await cell(page, 'scores', 2, 0).textContent(), '4.00', 'the numbers are the defaults');
  await assertClean(page);
}, { hash: `#head=${encodeURIComponent('{"tokens":["<img>","<b>x</b>","\\"><i>"]}')}` }));

test('link: numbers past float64, or past ±1e300, are refused', async () => {
  await withPage((page) => assertRefused(page, 'head', /W_q: expected \{rows, cols, data\} of finite numbers/),
    { hash: `#head=${encodeURIComponent('{"W_q":{"rows":2,"cols":3,"data":[1e400,0,0,0,1,0]}}')}` });
  await withPage((page) => assertRefused(page, 'head', /W_k/),
    { hash: `#head=${encodeURIComponent('{"W_k":{"rows":2,"cols":3,"data":[-1e400,0,0,0,1,0]}}')}` });
  await withPage((page) => assertRefused(page, 'head', /too large|1e300/),
    { hash: `#head=${encodeURIComponent('{"W_q":{"rows":2,"cols":3,"data":[1e305,0,0,0,1,0]}}')}` });
  await withPage((page) => assertRefused(page, 'head', /finite numbers/),
    { hash: `#head=${encodeURIComponent('{"W_q":{"rows":2,"cols":3,"data":["NaN",0,0,0,1,0]}}')}` });
});

test('link: thousands of parameters, and a 1 MB hash, are refused quickly', async () => {
  const big = { rows: 100, cols: 100, data: Array.from({ length: 10000 }, (_, i) => i % 7) };
  await withPage((page) => assertRefused(page, 'head', /longer than 8000 characters/),
    { hash: `#head=${encodeURIComponent(JSON.stringify({ x: big }))}` });
  // Within the length limit but larger than a head can be: still refused by shape.
  const wide = { rows: 40, cols: 40, data: Array(1600).fill(0) };
  await withPage((page) => assertRefused(page, 'head', /x: expected/),
    { hash: `#head=${encodeURIComponent(JSON.stringify({ x: wide }))}` });
  const t0 = Date.now();
  await withPage(async (page) => {
    await assertRefused(page, 'head', /longer than 8000 characters/);
    assert.ok(await page.evaluate(() => location.hash.length) > 1_000_000, 'the browser kept the 1 MB hash');
  }, { hash: `#head=${'9'.repeat(1 << 20)}` });
  assert.ok(Date.now() - t0 < 20000, `a 1 MB hash loads in ${Date.now() - t0} ms`);
});

test('link: malformed %-escapes are named in the notice; other keys still apply', async () => {
  await withPage(async (page) => {
    await assertRefused(page, 'head', /malformed %-escape/);
    assert.equal(await page.locator('attn-head #causal').isChecked(), true);
  }, { hash: '#head=%7B%22causal%22%3Afalse%E0%A4%A&%=%&%%%' });
  // A good key next to a broken one: the good one is used.
  await withPage(async (page) => {
    assert.ok(await notice(page).isVisible());
    assert.match(await notice(page).innerText(), /“head”.*malformed %-escape/);
    assert.equal(await softmax(page).locator('input.score').first().inputValue(), '7');
    await assertClean(page);
  }, { hash: `#head=%ZZ&softmax=${encodeURIComponent('{"scores":[7,0,0,0],"allowed":[true,true,true,false]}')}` });
});

test('link: a state of the wrong type for every bound widget shows a notice and keeps the defaults', async () => {
  const keys = await (async () => {
    let out;
    await withPage(async (page) => {
      out = await page.evaluate(() => [...document.querySelectorAll('[data-url-key]')].map((el) => el.dataset.urlKey));
    });
    return out;
  })();
  assert.ok(keys.length >= 20, `bound keys: ${keys}`);
  for (const value of ['"<img src=x onerror=alert(1)>"', '[1e999]', '{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}}}']) {
    const hash = '#' + keys.map((k) => `${k}=${encodeURIComponent(value)}`).join('&');
    await withPage(async (page) => {
      assert.ok(await notice(page).isVisible(), `a notice for ${value}`);
      await assertHeadDefaults(page);
      assert.equal(await countTags(page, 'img'), 0);
      assert.equal(await page.evaluate(() => ({}).x ?? ({}).y ?? null), null, 'no prototype pollution');
      await assertClean(page);
    }, { hash });
  }
});
