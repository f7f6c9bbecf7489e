// Page tests for the h/o/u attention head (<attn-head> in section 4 of www/index.html) in headless Chromium.
// Run from the repo root: node --test --test-concurrency=1 tests/page/
// Needs the wasm built into www/pkg (./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, pageSuite, renderedText } from './browser.mjs';

const { withPage } = pageSuite();

// The lesson's head (the page may show another, compact one, on its first screen).
const HEAD = 'attn-head#head';
const inHead = (page, sel) => page.locator(`${HEAD} ${sel}`);
const cell = (page, id, row, col) => inHead(page, `attn-matrix#${id} td[data-row="${row}"][data-col="${col}"]`);
const input = (page, id, row, col) => cell(page, id, row, col).locator('input');
const text = (page, id, row, col) => cell(page, id, row, col).textContent();

/** Every cell's shown text, row-major (input value for editable grids). */
const texts = (page, id) => inHead(page, `attn-matrix#${id}`).evaluate((el) =>
  [...el.shadowRoot.querySelectorAll('td')].map((td) => td.querySelector('input')?.value ?? td.textContent));

const SHOWN = ['#s1', '#s2', '#s3', '#s4', 'header', '.toc'];
/** All text a user could see in sections 1–4: light DOM, shadow roots, input values and titles. */
const allText = async (page) => {
  const shown = [];
  for (const s of SHOWN) shown.push(await renderedText(page, s));
  return [...shown, await titlesInputsShadows(page)].join('\n');
};
const titlesInputsShadows = (page) => page.evaluate((shown) => {
  const sections = shown.map((s) => document.querySelector(s));
  const parts = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.title) parts.push(el.title);
      if (el.tagName === 'INPUT') parts.push(el.value);
      if (el.shadowRoot) {
        parts.push(el.shadowRoot.textContent);
        walk(el.shadowRoot);
      }
    }
  };
  sections.forEach(walk);
  return parts.join('\n');
}, SHOWN);

/** Where keyboard focus is: the attn-matrix host id and the focused cell inside it. */
const focusInfo = (page) => page.evaluate(() => {
  // Walk down the shadow roots to the attn-matrix that holds focus, and its cell.
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement && el.localName !== 'attn-matrix') el = el.shadowRoot.activeElement;
  const inner = el?.shadowRoot?.activeElement;
  return { id: el?.id || el?.tagName, row: inner?.dataset.row ?? null, col: inner?.dataset.col ?? null };
});

function assertClean(all) {
  assert.doesNotMatch(all, /NaN|undefined|null|Infinity/, 'no NaN/undefined/raw Infinity on screen');
}

test('loads without console errors and shows the h/o/u numbers', () => withPage(async (page) => {
  assert.equal(await text(page, 'scores', 2, 0), '4.00', 'score u→h');
  assert.equal(await text(page, 'scores', 0, 2), '1.00', 'score h→u before the mask');
  assert.equal(await text(page, 'masked_scores', 0, 2), '−∞', 'h→u is masked');
  assert.equal(await text(page, 'masked_scores', 2, 0), '4.00');
  assert.deepEqual((await texts(page, 'weights')).slice(6), ['0.80', '0.02', '0.18'], "u's weights");
  assert.deepEqual((await texts(page, 'out')).slice(4), ['8.87', '1.13'], 'out row u');
  assert.deepEqual(await texts(page, 'x'), ['1', '0', '0', '0', '1', '0', '0', '0', '1']);
  assert.match(await cell(page, 'weights', 0, 1).getAttribute('class'), /masked/);
  assert.match(await cell(page, 'masked_scores', 0, 1).getAttribute('class'), /masked/);
  assert.equal(await inHead(page, '#causal').isChecked(), true);
  assert.equal(await inHead(page, '#scaled').isChecked(), false);
  assertClean(await allText(page));
}));

test('the core hands out each matrix as one Float64Array; state, result and attn-change stay plain arrays', () => withPage(async (page) => {
  const NAMES = ['q', 'k', 'v', 'scores', 'masked_scores', 'weights', 'out'];
  const core = await page.evaluate((names) => {
    const head = document.getElementById('head');
    const lab = new head.core.HeadLab();
    const r = lab.compute();
    const s = lab.state();
    lab.free();
    const typed = (m) => m.data instanceof Float64Array && m.data.length === m.rows * m.cols;
    // what the head shows is the core's numbers, to the bit (−∞ included)
    const same = (a, m) => a.length === m.data.length && a.every((v, i) => Object.is(v, m.data[i]));
    return {
      typed: names.every((n) => typed(r[n])) && ['x', 'W_q', 'W_k', 'W_v'].every((n) => typed(s[n])),
      minusInf: Array.from(r.masked_scores.data).filter((v) => v === -Infinity).length,
      result: names.every((n) => same(head.result[n].data, r[n])),
      state: ['x', 'W_q', 'W_k', 'W_v'].every((n) => same(head.state[n].data, s[n])),
    };
  }, NAMES);
  assert.deepEqual(core, { typed: true, minusInf: 3, result: true, state: true });
  await page.evaluate(() => document.getElementById('head').addEventListener('attn-change', (e) => { window.changed = e.detail; }, { once: true }));
  await input(page, 'W_v', 0, 0).fill('2');
  await page.waitForFunction(() => window.changed);
  const plain = await page.evaluate((names) => {
    const head = document.getElementById('head');
    const arrays = (o, keys) => keys.every((n) => Array.isArray(o[n].data) && o[n].data.every((v) => typeof v === 'number'));
    const inputs = ['x', 'W_q', 'W_k', 'W_v'];
    const json = JSON.parse(JSON.stringify({ state: head.state, detail: window.changed }));
    return {
      state: arrays(head.state, inputs),
      result: arrays(head.result, names),
      detail: arrays(window.changed, inputs) && window.changed.W_v.data[0] === 2,
      json: arrays(json.state, inputs) && arrays(json.detail, inputs),
      minusInf: head.result.masked_scores.data.filter((v) => v === -Infinity).length,
    };
  }, NAMES);
  assert.deepEqual(plain, { state: true, result: true, detail: true, json: true, minusInf: 3 });
}));

test('the exact value shows on hover and on keyboard focus', () => withPage(async (page) => {
  const target = cell(page, 'weights', 2, 0);
  assert.match(await target.getAttribute('title'), /^weights\[u, h\] = 0\.79\d{10,}/);
  const readout = inHead(page, 'attn-matrix#weights .readout');
  await target.hover();
  assert.match(await readout.textContent(), /weights\[u, h\] = 0\.79\d{10,}/);
  await page.mouse.move(0, 0);
  await cell(page, 'out', 2, 1).focus();
  assert.match(await inHead(page, 'attn-matrix#out .readout').textContent(), /out\[u, d₁\] = 1\.13\d+/);
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await focusInfo(page), { id: 'out', row: '1', col: '1' });
  assert.match(await inHead(page, 'attn-matrix#out .readout').textContent(), /out\[o, d₁\] = 7\.3\d+/);
}));

/** The read-out of grid `id`: its box, its line height, and its three parts' boxes. */
const readoutBox = (page, id) => inHead(page, `attn-matrix#${id}`).evaluate((el) => {
  const box = el.shadowRoot.querySelector('.readout');
  const r = box.getBoundingClientRect();
  const parts = [...box.children].map((span) => span.getBoundingClientRect());
  return {
    text: box.textContent, height: r.height,
    // the width of the space after "=" as drawn (0 where a flex item's end trims it)
    space: (() => {
      const at = box.querySelector('.at').firstChild;
      const range = document.createRange();
      range.setStart(at, 0);
      range.setEnd(at, at.length);
      const whole = range.getBoundingClientRect().width;
      range.setEnd(at, at.length - 1);
      return whole - range.getBoundingClientRect().width;
    })(), lineHeight: parseFloat(getComputedStyle(box).lineHeight),
    tops: parts.map((p) => Math.round(p.top)), right: r.right, exactRight: parts.at(-1).right,
  };
});

for (const width of [1280, 390]) {
  test(`${width} px: the read-out of a long value is one line, its number whole`, () => withPage(async (page) => {
    await input(page, 'W_q', 0, 2).fill('-1/3'); // score u→h = q_u · k_h = −2/3
    const target = cell(page, 'masked_scores', 2, 0);
    await target.scrollIntoViewIfNeeded();
    await target.hover();
    const r = await readoutBox(page, 'masked_scores');
    assert.match(r.text, /^masked_scores\[u, h\] = [−-]0\.6666666666666666$/);
    assert.ok(r.space > 2, `the space after "=" is drawn: ${r.space}px`);
    assert.ok(Math.abs(r.height - r.lineHeight) < 0.5, `one line high: ${JSON.stringify(r)}`);
    assert.equal(new Set(r.tops).size, 1, `name and value on one line: ${JSON.stringify(r)}`);
    assert.ok(r.exactRight <= r.right + 0.5, `the value is not cut: ${JSON.stringify(r)}`);
  }, { width, height: 844 }));
}

test('every editable number cell asks for the decimal keypad, Enter to go on; typed, it still takes a minus and a slash', () => withPage(async (page) => {
  const inputs = await page.evaluate(() => {
    const found = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.localName === 'attn-matrix' && el.hasAttribute('editable')) {
          for (const i of el.shadowRoot.querySelectorAll('td input')) found.push([i.getAttribute('inputmode'), i.getAttribute('enterkeyhint')]);
        }
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return found;
  });
  assert.ok(inputs.length >= 36, `the page's editable cells: ${inputs.length}`);
  assert.deepEqual([...new Set(inputs.map((i) => i.join(' ')))], ['decimal next']);
  await input(page, 'W_v', 0, 0).fill('-1/2');
  assert.equal(await text(page, 'v', 0, 0), '−0.50');
  // With a mouse and keys there is no ± key: the keyboard has a minus.
  await input(page, 'W_v', 0, 0).focus();
  assert.equal(await page.locator('#head attn-matrix#W_v button.sign').isVisible(), false);
}));

test('touch: the decimal keypad has no minus, so a ± key under the grid flips the edited cell, keeping the keypad up', () => withPage(async (page) => {
  const cell = input(page, 'W_v', 0, 0);
  const sign = page.locator('#head attn-matrix#W_v button.sign');
  assert.equal(await sign.isVisible(), false, 'no key before a cell is edited');
  await cell.tap();
  await sign.waitFor({ state: 'visible' });
  assert.equal(await sign.getAttribute('aria-label'), 'Change the sign of this number');
  // v = x W_vᵀ: with x one-hot, v[h, d0] is W_v[d0, h] = 10; flipped, −10.
  await sign.tap();
  await page.waitForFunction(() => document.querySelector('#head').shadowRoot.querySelector('attn-matrix#v')
    ?.shadowRoot?.querySelector('.heatmap td[data-row="0"][data-col="0"]')?.textContent.trim() === '−10.00');
  assert.equal(await cell.inputValue(), '-10');
  assert.equal(await cell.evaluate((el) => el === el.getRootNode().activeElement), true, 'the cell keeps the focus');
  await sign.tap();
  await page.waitForFunction(() => document.querySelector('#head').shadowRoot.querySelector('attn-matrix#v')
    ?.shadowRoot?.querySelector('.heatmap td[data-row="0"][data-col="0"]')?.textContent.trim() === '10.00');
  // Focus elsewhere: the key goes.
  await page.locator('#head attn-matrix#weights .heatmap td[data-row="2"][data-col="0"]').tap();
  await sign.waitFor({ state: 'hidden' });
}, { width: 390, height: 844, touch: true, hash: '#s4' }));

test('editing W_v changes out but not the weights', () => withPage(async (page) => {
  const weights = await texts(page, 'weights');
  const out = await texts(page, 'out');
  await input(page, 'W_v', 0, 0).fill('20');
  assert.deepEqual(await texts(page, 'weights'), weights);
  assert.notDeepEqual(await texts(page, 'out'), out);
  assert.equal(await text(page, 'v', 0, 0), '20.00');
  assert.equal(await text(page, 'out', 0, 0), '20.00');
}));

test('editing W_q changes the weights; fractions and Unicode minus parse', () => withPage(async (page) => {
  const weights = await texts(page, 'weights');
  await input(page, 'W_q', 0, 2).fill('1/3');
  assert.notDeepEqual(await texts(page, 'weights'), weights);
  assert.equal(await text(page, 'q', 2, 0), '0.33');
  assert.match(await cell(page, 'W_q', 0, 2).getAttribute('title'), /= 0\.3333333333/);
  await input(page, 'W_q', 0, 2).fill('−1.5');
  assert.equal(await text(page, 'q', 2, 0), '−1.50');
}));

test('text that is not a number is marked, explained, and changes nothing', () => withPage(async (page) => {
  const before = await texts(page, 'weights');
  const bad = input(page, 'W_q', 1, 1);
  await bad.fill('abc');
  assert.equal(await bad.getAttribute('aria-invalid'), 'true');
  assert.match(await cell(page, 'W_q', 1, 1).getAttribute('class'), /invalid/);
  const error = inHead(page, 'attn-matrix#W_q .error');
  assert.match(await error.textContent(), /“abc” is not a number/);
  assert.ok(await error.isVisible());
  assert.deepEqual(await texts(page, 'weights'), before, 'last valid result stays');
  assertClean(await allText(page));
  await bad.fill('');
  assert.match(await error.textContent(), /empty cell/);
  await bad.fill('2');
  assert.equal(await bad.getAttribute('aria-invalid'), null);
  assert.equal(await error.textContent(), '');
  assert.notDeepEqual(await texts(page, 'weights'), before);
}));

test('a compute error (overflow) is shown and the last valid result stays', () => withPage(async (page) => {
  const before = await texts(page, 'out');
  await input(page, 'W_q', 0, 0).fill('1e300');
  await input(page, 'W_k', 0, 0).fill('1e300');
  const message = inHead(page, '#message');
  assert.ok(await message.isVisible());
  assert.match(await message.textContent(), /too large/);
  assert.deepEqual(await texts(page, 'out'), before);
  assertClean(await allText(page));
  await input(page, 'W_k', 0, 0).fill('2');
  assert.ok(await message.isHidden());
}));

test('the causal mask toggle opens the upper triangle of the weights', () => withPage(async (page) => {
  // Upper triangle (query before key) of a 3×3 row-major grid: h→o, h→u, o→u.
  const pick = (list) => [1, 2, 5].map((i) => list[i]);
  assert.deepEqual(pick(await texts(page, 'weights')), ['0.00', '0.00', '0.00']);
  await inHead(page, '#causal').uncheck();
  const open = pick(await texts(page, 'weights'));
  open.forEach((t) => assert.notEqual(t, '0.00'));
  assert.doesNotMatch(await cell(page, 'weights', 0, 1).getAttribute('class'), /masked/);
  assert.equal(await text(page, 'masked_scores', 0, 2), '1.00');
  await inHead(page, '#causal').check();
  assert.deepEqual(pick(await texts(page, 'weights')), ['0.00', '0.00', '0.00']);
}));

test('the scale toggle divides scores by √d_k', () => withPage(async (page) => {
  await inHead(page, '#scaled').check();
  assert.equal(await text(page, 'scores', 2, 0), '2.83');
  assert.match(await inHead(page, '.scale-readout').textContent(), /0\.71/);
  await inHead(page, '#scaled').uncheck();
  assert.equal(await text(page, 'scores', 2, 0), '4.00');
}));

test('keyboard: Tab into a grid, arrows move, Enter commits and moves down', () => withPage(async (page) => {
  let where = null;
  await inHead(page, '#reset').focus();
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    where = await focusInfo(page);
    if (where.id === 'x') break;
  }
  assert.deepEqual(where, { id: 'x', row: '0', col: '0' });
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focusInfo(page), { id: 'x', row: '0', col: '1' });
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focusInfo(page), { id: 'x', row: '1', col: '1' });
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  assert.deepEqual(await focusInfo(page), { id: 'x', row: '2', col: '1' });
  assert.equal(await input(page, 'x', 1, 1).inputValue(), '7');
  assert.equal(await text(page, 'q', 1, 1), '7.00');
  assert.match(await inHead(page, 'attn-matrix#x .readout').textContent(), /x\[u, c₁\] = 0/);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await focusInfo(page), { id: 'x', row: '1', col: '0' });
  await page.keyboard.press('Tab');
  assert.deepEqual(await focusInfo(page), { id: 'x', row: '1', col: '1' });
  // Escape throws away text that is not a number and restores the last valid value.
  await page.keyboard.type('oops');
  assert.match(await inHead(page, 'attn-matrix#x .error').textContent(), /not a number/);
  await page.keyboard.press('Escape');
  assert.equal(await input(page, 'x', 1, 1).inputValue(), '7');
  assert.equal(await inHead(page, 'attn-matrix#x .error').textContent(), '');
  assert.equal(await input(page, 'x', 1, 1).getAttribute('aria-invalid'), null);
}));

test('Reset restores the h/o/u example and clears errors', () => withPage(async (page) => {
  await input(page, 'W_v', 1, 2).fill('-4');
  await input(page, 'W_k', 0, 0).fill('??');
  await inHead(page, '#causal').uncheck();
  await inHead(page, '#scaled').check();
  await inHead(page, '#reset').click();
  assert.equal(await input(page, 'W_v', 1, 2).inputValue(), '5');
  assert.equal(await input(page, 'W_k', 0, 0).inputValue(), '2');
  assert.equal(await input(page, 'W_k', 0, 0).getAttribute('aria-invalid'), null);
  assert.equal(await inHead(page, '#causal').isChecked(), true);
  assert.equal(await inHead(page, '#scaled').isChecked(), false);
  assert.deepEqual((await texts(page, 'out')).slice(4), ['8.87', '1.13']);
}));

test('language switch: 中文 is applied and remembered', () => withPage(async (page) => {
  // A cell's error already on screen is said again in the new language.
  await input(page, 'W_v', 0, 0).fill('abc');
  const cellError = () => inHead(page, 'attn-matrix#W_v').evaluate((el) => el.shadowRoot.querySelector('.error').textContent);
  assert.match(await cellError(), /^“abc” is not a number/);
  await page.locator('button[data-lang="zh"]').click();
  assert.equal(await page.locator('h1').textContent(), '注意力游乐场');
  assert.equal(await cellError(), '“abc”不是数字：请输入 2、-0.5、1e-3 或 1/3 这样的数');
  await input(page, 'W_v', 0, 0).fill('1');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.locator('h1').textContent(), '注意力游乐场');
  assert.equal(await text(page, 'scores', 2, 0), '4.00');
  await page.locator('button[data-lang="en"]').click();
  assert.equal(await page.locator('h1').textContent(), 'Attention Playground');
}));

test('a Chinese browser gets the Chinese page by default, without overflow at 380px', () => withPage(async (page) => {
  assert.equal(await page.locator('h1').textContent(), '注意力游乐场');
  assert.equal(await page.locator('button[data-lang="zh"]').getAttribute('aria-pressed'), 'true');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page overflows horizontally by ${overflow}px`);
  assertClean(await allText(page));
}, { locale: 'zh-CN', width: 380, height: 800 }));

test('screenshots: wide and 380px with no horizontal overflow', async () => {
  await withPage(async (page) => {
    await page.screenshot({ path: `${SHOTS}head.png`, fullPage: true });
  });
  await withPage(async (page) => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `page overflows horizontally by ${overflow}px`);
    const wide = await page.evaluate(() => [...document.querySelectorAll('.card, .toolbar, header, footer')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length);
    assert.equal(wide, 0, 'no block sticks out of the viewport');
    await page.screenshot({ path: `${SHOTS}head-narrow.png`, fullPage: true });
  }, { width: 380, height: 800 });
});

test('edit → redraw timing', () => withPage(async (page) => {
  const result = await page.evaluate(async () => {
    const host = document.querySelector('attn-head#head').shadowRoot.querySelector('attn-matrix#W_q');
    const field = host.shadowRoot.querySelector('input[data-row="0"][data-col="0"]');
    const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const redraw = [];
    const frame = [];
    let redrawn = 0;
    document.addEventListener('attn-rendered', (e) => { if (e.target.localName === 'attn-head') redrawn += 1; });
    for (let i = 0; i < 31; i++) {
      field.value = String((i % 5) + 1);
      const t0 = performance.now();
      field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      void document.body.offsetHeight; // style + layout of the redrawn page
      const t1 = performance.now();
      await new Promise((resolve) => requestAnimationFrame(() => resolve()));
      const t2 = performance.now();
      if (i > 0) {
        redraw.push(t1 - t0);
        frame.push(t2 - t0);
      }
    }
    return { redraw: median(redraw), frame: median(frame), redrawn };
  });
  assert.equal(result.redrawn, 31, 'every edit redrew the page');
  console.log(`edit→redraw median ms: ${result.redraw.toFixed(2)}`);
  console.log(`edit→next animation frame median ms: ${result.frame.toFixed(2)}`);
}));
