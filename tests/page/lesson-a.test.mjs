// Page tests for sections 1–4 of the lesson (www/index.html) in headless Chromium:
// the LESSON §1–§4 numbers appear, the controls change what they should, both
// languages render, URL state round-trips, and nothing overflows at 380px.
// Run from the repo root after ./build.sh:
//   node --test --test-concurrency=1 tests/page/lesson-a.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, inView, nearby, pageSuite, renderedText, settled } from './browser.mjs';

const { withPage } = pageSuite();

/** Shown text of every cell of an attn-matrix (input values for editable grids), row-major,
 *  once what the last action queued has been drawn (a click re-renders in a later task:
 *  read at once, the old numbers were read once in CI). */
const cells = async (page, selector) => {
  await settled(page);
  return page.locator(selector).first().evaluate((el) =>
    [...el.shadowRoot.querySelectorAll('td')].map((td) => td.querySelector('input')?.value ?? td.textContent));
};
/** Rendered text of an element; for a widget host, of its shadow root's frame. */
/** The text of the first `selector` as rendered, seen in view (a far section has none). */
const textOf = async (page, selector) => {
  const el = page.locator(selector).first();
  await inView(el);
  await settled(page);
  return el.evaluate((e) => (e.shadowRoot?.querySelector('.frame') ?? e).innerText);
};

/** Visible text of sections 1–4 including shadow roots (for missing-key and NaN checks). */
const sectionText = async (page) => {
  const parts = [];
  for (const id of ['s1', 's2', 's3', 's4']) parts.push(await renderedText(page, `#${id}`));
  parts.push(await page.evaluate(() => {
    const shadows = [];
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) {
          shadows.push(el.shadowRoot.textContent);
          walk(el.shadowRoot);
        }
      }
    };
    for (const id of ['s1', 's2', 's3', 's4']) walk(document.getElementById(id));
    return shadows.join('\n');
  }));
  return parts.join('\n');
};

test('§1: the bigram gives hou, you, thou identical top-3; the split keeps 4225 parameters', () => withPage(async (page) => {
  await page.locator('attn-bigram .msg.ok').waitFor();
  const tops = await page.locator('attn-bigram .panel table').evaluateAll((tables) =>
    tables.map((t) => [...t.querySelectorAll('tbody tr')].map((tr) => tr.innerText.replace(/\s+/g, ' ')).join('|')));
  assert.equal(tops.length, 3);
  assert.equal(tops[1], tops[0]);
  assert.equal(tops[2], tops[0]);
  assert.match(await textOf(page, 'attn-bigram .msg.ok'), /identical/);
  assert.match(await textOf(page, 'attn-bigram'), /63 distinct characters/);
  const split = await textOf(page, 'attn-bigram-split table.params');
  assert.equal(split.match(/\b4225\b/g).length, 2, 'V·V and the split total');
  assert.match(await textOf(page, 'attn-bigram-split'), /ln 65: 4\.17/);
  assert.match(await textOf(page, 'attn-bigram-split'), /U\(−0\.177, 0\.177\)/);
  const examples = await textOf(page, 'attn-examples ol');
  assert.match(examples, /Let'\s*→\s*s/);
  assert.equal((await page.locator('attn-examples ol li').count()), 8);
  // A word with a character outside the vocabulary: a clear message, no crash.
  await page.locator('attn-bigram input.words').fill('hou, yoé');
  assert.match(await textOf(page, 'attn-bigram .msg.bad'), /not in the corpus vocabulary/);
}));

test('§2: the four schemes agree; all-ones and tril variants; the second data set', () => withPage(async (page) => {
  assert.deepEqual((await cells(page, 'attn-schemes .rung-1 attn-matrix[label="out"]')).slice(4), ['4.67', '5.33']);
  assert.deepEqual((await cells(page, 'attn-schemes .rung-2 attn-matrix[label="out"]')).slice(4), ['4.67', '5.33']);
  assert.deepEqual((await cells(page, 'attn-schemes .rung-3 attn-matrix[label="out"]')).slice(4), ['4.67', '5.33']);
  assert.match(await textOf(page, 'attn-schemes .rung-2 .diff'), /max \|difference\| from the loop: (0|\d\.\de−1[5-7])/);
  assert.match(await textOf(page, 'attn-schemes .rung-4 pre'), /q @ k\.transpose/);
  assert.equal(await page.locator('attn-schemes .rung-4 pre .changed').count(), 2, 'wei = q @ kᵀ and out = wei @ v');
  const ones = await cells(page, 'attn-schemes .panel:has(> h3:text("All ones")) attn-matrix[label="out"]');
  assert.deepEqual(ones, ['14.00', '16.00', '14.00', '16.00', '14.00', '16.00']);
  const tril = await cells(page, 'attn-schemes .panel:has(> h3:text("Lower-triangular")) attn-matrix[label="out"]');
  assert.deepEqual(tril, ['2.00', '7.00', '8.00', '11.00', '14.00', '16.00']);
  // Scheme 2's side road (its wrong turns and the loop's cost) is folded until opened.
  assert.doesNotMatch(await textOf(page, 'attn-schemes'), /16384/);
  await page.locator('attn-schemes details#side-scheme2 > summary').click();
  assert.match(await textOf(page, 'attn-schemes'), /16384/);
  // Every number explains itself: a clicked output cell is explained by Rust (explainScheme).
  await page.locator('attn-schemes .rung-2 attn-matrix[label="out"] td[data-row="2"][data-col="0"]').click();
  assert.match(await page.locator('attn-schemes attn-explain').evaluate((el) => el.shadowRoot?.textContent ?? ''), /14\/3/);
  await page.locator('attn-schemes button[data-set="other"]').click();
  assert.deepEqual(await cells(page, 'attn-schemes .rung-1 attn-matrix[label="out"]'), ['2.00', '0.00', '1.00', '2.00', '2.00', '2.00']);
  // Editing x changes every rung.
  await page.locator('attn-schemes attn-matrix[label="x"] td[data-row="0"][data-col="0"] input').fill('8');
  assert.equal((await cells(page, 'attn-schemes .rung-2 attn-matrix[label="out"]'))[0], '8.00');
}));

test('§2: arbitrary scores fail, masked softmax step by step, directions, keepdim', () => withPage(async (page) => {
  assert.match(await textOf(page, 'attn-sum-norm table'), /−0\.25/);
  assert.match(await textOf(page, 'attn-sum-norm .msg[role="status"]'), /negative weight/);
  await page.locator('attn-sum-norm button', { hasText: '[1, −1, 0]' }).click();
  assert.match(await textOf(page, 'attn-sum-norm .msg[role="status"]'), /division by zero/);
  const steps = await textOf(page, 'attn-softmax-steps table');
  assert.match(steps, /−∞/);
  assert.match(steps, /7\.39\s+0\.37\s+20\.09\s+0\.00\s+27\.84/);
  assert.match(steps, /0\.27\s+0\.01\s+0\.72\s+0\.00/);
  await page.locator('attn-softmax-steps button', { hasText: 'All scores 0' }).click();
  assert.match(await textOf(page, 'attn-softmax-steps table'), /0\.33\s+0\.33\s+0\.33\s+0\.00/);
  for (const box of await page.locator('attn-softmax-steps input[type="checkbox"]').all()) await box.uncheck();
  assert.match(await textOf(page, 'attn-softmax-steps .msg'), /no denominator/);
  assert.deepEqual((await cells(page, 'attn-normalize attn-matrix[label="by_rows"]')).slice(6), ['0.38', '0.38', '0.25']);
  assert.notDeepEqual(await cells(page, 'attn-normalize attn-matrix[label="by_columns"]'), await cells(page, 'attn-normalize attn-matrix[label="by_rows"]'));
  assert.match(await textOf(page, 'attn-normalize .msg.bad'), /silently wrong/);
}));

test('§3: dog/god vectors; shuffling permutes the outputs with the inputs', () => withPage(async (page) => {
  const dog = await cells(page, 'attn-position .panel:nth-child(1) attn-matrix[label="x"]');
  assert.deepEqual([dog.slice(0, 2), dog.slice(4)], [['1.10', '0.00'], ['2.30', '1.00']]);
  const god = await cells(page, 'attn-position .grid .panel:nth-child(2) attn-matrix[label="x"]');
  assert.deepEqual([god.slice(0, 2), god.slice(4)], [['2.10', '1.00'], ['1.30', '0.00']]);
  const rows = (list) => list.reduce((acc, v, i) => (i % 2 ? acc[acc.length - 1].push(v) : acc.push([v]), acc), []).map((r) => r.join(','));
  for (let i = 0; i < 3; i++) {
    await page.locator('attn-position button', { hasText: 'Shuffle B' }).click();
    const outs = await page.locator('attn-position attn-matrix[label="out"]').evaluateAll((els) =>
      els.map((el) => [...el.shadowRoot.querySelectorAll('td')].map((td) => td.textContent)));
    assert.deepEqual(rows(outs[0]).sort(), rows(outs[1]).sort(), 'same output rows, reordered');
    assert.match(await textOf(page, 'attn-position .msg'), /reordered the same way/);
  }
  await page.locator('attn-position label', { hasText: 'Add positions' }).locator('input').check();
  await page.locator('attn-position input.word').nth(3).fill('gods');
  assert.match(await textOf(page, 'attn-position .msg'), /order now matters/);
}));

test('§4: M and the two ways agree; you gives other weights; k-bias no change, q-bias a change', () => withPage(async (page) => {
  const probe = await textOf(page, 'attn-head-probe');
  assert.match(probe, /q_u · k_h = 4\.00/);
  assert.match(probe, /x_u M x_hᵀ = 4\.00/);
  assert.match(probe, /q_h · k_u = 1\.00/);
  assert.match(probe, /0\.80·\[10\.00, 0\.00\][\s\S]*0\.02·\[0\.00, 10\.00\][\s\S]*0\.18·\[5\.00, 5\.00\][\s\S]*\[8\.87, 1\.13\]/);
  assert.deepEqual(await cells(page, 'attn-head-probe attn-matrix[label="M"]'), ['2.00', '0.00', '1.00', '0.00', '1.00', '1.00', '4.00', '0.50', '2.50']);
  assert.match(await textOf(page, 'attn-compare-words .msg'), /differ by up to 0\.231/);
  const before = await cells(page, 'attn-head attn-matrix#weights');
  await page.locator('attn-head button.word', { hasText: 'you' }).click();
  assert.notDeepEqual(await cells(page, 'attn-head attn-matrix#weights'), before, 'you: other weights');
  assert.equal((await cells(page, 'attn-head attn-matrix#x'))[1], '1', 'y = h + o');
  assert.match(await textOf(page, 'attn-value-change .msg'), /bit-for-bit identical; out moved by up to \d+\.\d\d/);
  await page.locator('attn-value-change attn-matrix[label="W_v"] td[data-row="0"][data-col="0"] input').fill('3');
  assert.match(await textOf(page, 'attn-value-change .msg'), /bit-for-bit identical/);
  assert.match(await textOf(page, 'attn-bias .k-panel .msg'), /did not change at all \(largest change 0\)/);
  await page.locator('attn-bias input.toggle-q').check();
  assert.match(await textOf(page, 'attn-bias .q-panel .msg'), /change by up to 0\.\d+/);
}));

/** The page's own [data-i18n] elements that show their key, not a text (a key whose
 *  table had not come when the page was translated: the contents' "s9Title" did). */
const rawKeys = (page) => page.evaluate(() => [...document.querySelectorAll('[data-i18n]')]
  .filter((el) => el.textContent.trim() === el.dataset.i18n).map((el) => el.dataset.i18n));

test('both languages render with no raw keys and no NaN', () => withPage(async (page) => {
  assert.deepEqual(await rawKeys(page), [], 'every [data-i18n] of the page shows a text');
  const en = await sectionText(page);
  assert.doesNotMatch(en, /\b(a\.[a-z]+\.[a-zA-Z]+|s[1-4]\.[a-z]+)\b/, 'no raw string keys');
  assert.doesNotMatch(en, /NaN|undefined|\bnull\b/);
  await page.locator('button[data-lang="zh"]').click();
  await page.waitForFunction(() => document.querySelector('attn-bigram').shadowRoot.textContent.includes('单词'));
  assert.deepEqual(await rawKeys(page), [], 'every [data-i18n] of the page shows a text, in Chinese');
  const zh = await sectionText(page);
  assert.doesNotMatch(zh, /\b(a\.[a-z]+\.[a-zA-Z]+|s[1-4]\.[a-z]+)\b/, 'no raw string keys');
  for (const s of ['二元模型', '循环求平均', '以表格显示', '打乱 B', '键上的偏置', '因果掩码']) assert.ok(zh.includes(s), s);
  assert.doesNotMatch(zh, /NaN|undefined|\bnull\b/);
  await page.locator('#s2').screenshot({ path: `${SHOTS}section-2-zh.png` });
}));

test('URL state round-trips; a garbage hash shows a notice and the defaults', async () => {
  let url;
  await withPage(async (page) => {
    await page.locator('attn-sum-norm button', { hasText: '[1, −1, 0]' }).click();
    await page.locator('attn-head #causal').uncheck();
    await page.locator('attn-position button', { hasText: 'Shuffle B' }).click();
    // Changes in a row are written to the URL once they pause (url-state.js).
    await page.waitForFunction(() => ['sumnorm=', 'head=', 'position='].every((k) => location.hash.includes(k)));
    url = page.url();
    assert.match(url, /#.*sumnorm=/);
  });
  const path = url.slice(url.indexOf('#'));
  await withPage(async (page) => {
    assert.match(await textOf(page, 'attn-sum-norm .msg[role="status"]'), /division by zero/);
    assert.equal(await page.locator('attn-head #causal').isChecked(), false);
    assert.ok(await page.locator('#url-notice').isHidden());
  }, { hash: path });
  await withPage(async (page) => {
    assert.ok(await page.locator('#url-notice').isVisible());
    assert.match(await page.locator('#url-notice').innerText(), /head/);
    assert.equal(await page.locator('attn-head #causal').isChecked(), true);
    assert.deepEqual((await cells(page, 'attn-schemes .rung-1 attn-matrix[label="out"]')).slice(4), ['4.67', '5.33']);
  }, { hash: '#head=%7B%22x%22%3A5%7D&schemes=garbage' });
});

test('screenshots of each section; no horizontal overflow at 380px', async () => {
  await withPage(async (page) => {
    for (const n of [1, 2, 3, 4]) await page.locator(`#s${n}`).screenshot({ path: `${SHOTS}section-${n}.png` });
  });
  await withPage(async (page) => {
    for (const n of [1, 2, 3, 4]) {
      // Each section near the viewport: a far one skips layout (pages/lesson.js), and what
      // overflows it does not widen the page while it is far.
      await nearby(page, n);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `with #s${n} in view the page overflows horizontally by ${overflow}px`);
      await page.locator(`#s${n}`).screenshot({ path: `${SHOTS}section-${n}-narrow.png` });
    }
  }, { width: 380, height: 800 });
});

test('the four widgets linked to the head follow it, and stop when removed', () => withPage(async (page) => {
  const followers = ['attn-head-probe', 'attn-compare-words', 'attn-value-change', 'attn-bias'];
  const snapshot = () => page.evaluate((tags) => tags.map((t) => [...document.querySelector(t).shadowRoot
    .querySelectorAll('attn-matrix')].map((m) => JSON.stringify(m.value?.data ?? null)).join('|')), followers);
  const before = await snapshot();
  // A new W_k changes every key, so every follower redraws with the head.
  const wk = page.locator('attn-head attn-matrix#W_k td[data-row="0"][data-col="0"] input');
  const old = await wk.inputValue();
  await wk.fill('3');
  await page.waitForFunction(([tags, old]) => tags.every((t, i) => [...document.querySelector(t).shadowRoot
    .querySelectorAll('attn-matrix')].map((m) => JSON.stringify(m.value?.data ?? null)).join('|') !== old[i]), [followers, before]);
  // A removed follower no longer listens: moving it out and back re-subscribes it once.
  const renders = await page.evaluate(async () => {
    const el = document.querySelector('attn-compare-words');
    const parent = el.parentNode;
    const next = el.nextSibling;
    let count = 0;
    el.addEventListener('attn-rendered', () => { count++; });
    el.remove();
    document.getElementById('head').dispatchEvent(new CustomEvent('attn-change', { bubbles: true, composed: true }));
    await new Promise((r) => setTimeout(r, 100));
    const detached = count;
    parent.insertBefore(el, next);
    await new Promise((r) => setTimeout(r, 100));
    count = 0;
    document.getElementById('head').dispatchEvent(new CustomEvent('attn-change', { bubbles: true, composed: true }));
    await new Promise((r) => setTimeout(r, 100));
    return { detached, attached: count };
  });
  assert.deepEqual(renders, { detached: 0, attached: 1 });
  await wk.fill(old);
}));

test('a link to a widget state opens scrolled to that widget', () => withPage(async (page) => {
  await page.waitForFunction(() => document.querySelector('attn-compare-words').state.a === 'uho');
  // Give the page's last layout changes a frame, then the widget must be at the top.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const top = await page.locator('attn-compare-words').evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(Math.abs(top) < 40, `the linked widget is at the top of the window, not ${top}px away`);
  assert.ok(await page.evaluate(() => window.scrollY) > 1000, 'the page scrolled down to it');
}, { hash: `#words=${encodeURIComponent(JSON.stringify({ a: 'uho', b: 'you' }))}` }));
