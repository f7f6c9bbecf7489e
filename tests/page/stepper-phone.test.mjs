// Page tests: the head of section 4 where the learner is looking, on a wide screen and on
// a phone (390×844, a touch screen). The formula stepper's Previous/Next stay under the
// pointer from step 1 to step 5 while each step's card comes into view beside it; an
// explanation opens under the card of the tapped cell; a touch screen's hints name no
// key and no hovering.
// Run from the repo root: node --test --test-concurrency=1 tests/page/stepper-phone.test.mjs
// Needs the wasm built into www/pkg (./build.sh).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, nearby, pageSuite, settled } from './browser.mjs';

const site = pageSuite();
const HEAD = 'attn-head#head';
const PHONE = { width: 390, height: 844, touch: true };

/** Opens index.html at section 4 in a fresh context (`touch`: a phone's touch screen,
 *  hover: none), runs fn(page), closes it and asserts the page logged no problem. */
function withHead(fn, { width = 1280, height = 800, touch = false, reducedMotion = 'no-preference', locale = 'en-US' } = {}) {
  return site.withPage(async (page) => {
    await nearby(page, 4);
    await fn(page);
  }, { hash: '#s4', width, height, touch, reducedMotion, locale });
}

/** Resolves once the page has stopped scrolling (a smooth scroll has ended): scrollY
 *  the same for 300 ms, read every 50 ms (not at every frame: a page asking for frames
 *  without end holds a headless smooth scroll back). */
async function still(page) {
  await page.waitForFunction(() => {
    const now = performance.now();
    const seen = (window.stillSeen ??= { y: NaN, since: now });
    if (scrollY !== seen.y) Object.assign(seen, { y: scrollY, since: now });
    return now - seen.since > 300;
  }, null, { polling: 50 });
  await page.evaluate(() => { delete window.stillSeen; });
}

/** Scrolls so that the head's stepper sits at the top of the screen or at its bottom. */
const placeStepper = (page, where) => page.locator(`${HEAD} attn-formula-steps`).evaluate((el, at) => {
  const r = el.getBoundingClientRect();
  window.scrollBy({ top: at === 'top' ? r.top - 40 : r.bottom - (document.documentElement.clientHeight - 16), behavior: 'instant' });
}, where);

/** The active card, its cells on screen, and those under the stepper. */
const activeCard = (page) => page.evaluate((head) => {
  const root = document.querySelector(head).shadowRoot;
  const card = root.querySelector('.card.step-active');
  const stepper = root.querySelector('attn-formula-steps').getBoundingClientRect();
  const vh = document.documentElement.clientHeight;
  const cells = card ? [...card.querySelector('attn-matrix').shadowRoot.querySelectorAll('td')].map((td) => td.getBoundingClientRect()) : [];
  return {
    card: card?.dataset.matrix ?? null,
    cells: cells.length,
    inView: cells.filter((r) => r.top >= 0 && r.bottom <= vh).length,
    covered: cells.filter((r) => r.bottom > stepper.top && r.top < stepper.bottom).length,
    scrollY: Math.round(scrollY),
  };
}, HEAD);

async function stepThrough(page, { width, touch }, where) {
  await placeStepper(page, where);
  await settled(page);
  const steps = page.locator(`${HEAD} attn-formula-steps`);
  const next = steps.locator('button.next');
  const boxes = [await next.boundingBox()];
  const seen = [];
  for (let i = 0; i < 4; i++) {
    if (touch) await next.tap(); else await next.click();
    await settled(page);
    await still(page);
    boxes.push(await next.boundingBox());
    seen.push(await activeCard(page));
    if (i === 2) await page.screenshot({ path: `${SHOTS}stepper-${width}-${where}-step4.png` });
  }
  assert.equal(await steps.evaluate((el) => el.index), 4);
  assert.deepEqual(boxes.slice(1), boxes.slice(0, -1), `Next stays put from step 1 to 5 (${where}): ${JSON.stringify(boxes)}`);
  assert.deepEqual(seen.map((s) => s.card), ['scores', 'masked_scores', 'weights', 'out']);
  for (const s of seen) {
    assert.ok(s.cells >= 6, JSON.stringify(s));
    assert.equal(s.inView, s.cells, `every cell of ${s.card} on screen (${where}): ${JSON.stringify(s)}`);
    assert.equal(s.covered, 0, `no cell of ${s.card} under the stepper (${where}): ${JSON.stringify(s)}`);
  }
  return seen;
}

test('1280×800: Next stays under the pointer; each step\'s card comes into view, no scroll when it is there', () => withHead(async (page) => {
  const seen = await stepThrough(page, { width: 1280 }, 'top');
  // the four cards of the third stage share a row: once it is on screen, nothing scrolls
  assert.deepEqual(seen.slice(1).map((s) => s.scrollY), [seen[0].scrollY, seen[0].scrollY, seen[0].scrollY]);
  // a scroll by hand lets the stepper go back to its place
  await page.mouse.wheel(0, -200);
  await page.waitForFunction((head) => !document.querySelector(head).shadowRoot.querySelector('attn-formula-steps').hasAttribute('pinned'), HEAD);
}));

test('1280×800, stepper at the bottom of the screen: the cards come above it', () => withHead(async (page) => {
  await stepThrough(page, { width: 1280 }, 'bottom');
}));

for (const where of ['top', 'bottom']) {
  test(`390×844 touch, stepper at the ${where}: the tapped Next stays put; each step's card comes into view`, () => withHead(async (page) => {
    await stepThrough(page, PHONE, where);
    await page.screenshot({ path: `${SHOTS}stepper-390-${where}-step5.png` });
  }, PHONE));
}

test('390×844, reduced motion: the step\'s card is in view at once, no smooth scroll', () => withHead(async (page) => {
  await placeStepper(page, 'top');
  const next = page.locator(`${HEAD} attn-formula-steps button.next`);
  await next.tap();
  await next.tap();
  await next.tap();
  await settled(page);
  const s = await activeCard(page); // no wait for a scroll to end: there is none
  assert.equal(s.card, 'weights');
  assert.equal(s.inView, s.cells, JSON.stringify(s));
}, { ...PHONE, reducedMotion: 'reduce' }));

test('390×844 touch: an explanation opens right under the card of the tapped cell, covering nothing', () => withHead(async (page) => {
  for (const [id, row, col] of [['q', 0, 0], ['scores', 2, 0], ['weights', 2, 0], ['out', 2, 1]]) {
    const cell = page.locator(`${HEAD} attn-matrix#${id} td[data-row="${row}"][data-col="${col}"]`);
    await cell.scrollIntoViewIfNeeded();
    await cell.tap();
    await page.waitForFunction((head) => document.querySelector(head)?.shadowRoot.querySelector('attn-explain')?.open, HEAD);
    await settled(page);
    const where = await page.evaluate(([head, grid, r, c]) => {
      const root = document.querySelector(head).shadowRoot;
      const td = root.querySelector(`attn-matrix#${grid}`).shadowRoot.querySelector(`td[data-row="${r}"][data-col="${c}"]`);
      const panel = root.querySelector('attn-explain');
      const [a, b] = [td.getBoundingClientRect(), panel.getBoundingClientRect()];
      return {
        cell: [a.top, a.bottom], panel: [b.top, b.bottom], vh: document.documentElement.clientHeight,
        after: panel.previousElementSibling?.dataset.matrix ?? null,
        text: panel.shadowRoot.querySelector('.panel').textContent,
      };
    }, [HEAD, id, row, col]);
    const [cellTop, cellBottom] = where.cell;
    const [top] = where.panel;
    assert.equal(where.after, id, `the panel follows the card of ${id} (one card to a row on a phone)`);
    assert.ok(top >= cellBottom, `${id}: the panel does not cover the cell: ${JSON.stringify(where.cell)} ${JSON.stringify(where.panel)}`);
    assert.ok(top - cellBottom < where.vh, `${id}: the panel is within a screen of the cell: ${top - cellBottom}px`);
    assert.ok(cellTop >= 0 && cellBottom <= where.vh, `${id}: the tapped cell stays on screen`);
    assert.ok(top < where.vh, `${id}: the panel's top is on screen`);
    assert.match(where.text, /=/);
    if (id === 'weights') await page.screenshot({ path: `${SHOTS}explain-phone-tap.png` });
  }
}, PHONE));

/** Every text of the head a reader can meet: shadow roots' text, hints, titles and labels. */
const headWords = (page) => page.evaluate((head) => {
  const parts = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.title) parts.push(el.title);
      const label = el.getAttribute('aria-label');
      if (label) parts.push(label);
      if (el.shadowRoot) {
        parts.push(el.shadowRoot.textContent);
        walk(el.shadowRoot);
      }
    }
  };
  const host = document.querySelector(head);
  parts.push(host.shadowRoot.textContent);
  walk(host.shadowRoot);
  return parts.join('\n');
}, HEAD);

/** Opens the weight u→h's explanation (the panel's words join the head's). */
async function explainWeight(page, touch) {
  const cell = page.locator(`${HEAD} attn-matrix#weights td[data-row="2"][data-col="0"]`);
  await cell.scrollIntoViewIfNeeded();
  if (touch) await cell.tap(); else await cell.click();
  await page.waitForFunction((head) => document.querySelector(head)?.shadowRoot.querySelector('attn-explain')?.open, HEAD);
}

const hint = (page, id) => page.locator(`${HEAD} attn-matrix#${id}`).evaluate((el) => el.shadowRoot.querySelector('#hint').textContent);
const keysLine = (page) => page.locator(`${HEAD} attn-formula-steps`).evaluate((el) => el.shadowRoot.querySelector('.keys').textContent);
const headKeys = (page) => page.locator(HEAD).evaluate((el) => el.shadowRoot.querySelector('.keyboard').textContent);

for (const locale of ['en-US', 'zh-CN']) {
  test(`${locale}, touch screen: no hint names hovering, Tab, Esc or Enter`, () => withHead(async (page) => {
    await explainWeight(page, true);
    const words = await headWords(page);
    assert.doesNotMatch(words, /hover|\bTab\b|\bEsc\b|Enter|鼠标|悬停/i);
    assert.match(await hint(page, 'weights'), locale === 'en-US' ? /^Tap it to see how/ : /^点一下/);
    assert.equal(await keysLine(page), '');
    assert.match(await headKeys(page), locale === 'en-US' ? /^Tap a white cell/ : /^点一下白色单元格/);
  }, { ...PHONE, locale }));
}

test('with a mouse and keys the hints name them', () => withHead(async (page) => {
  await explainWeight(page, false);
  assert.match(await headWords(page), /Close \(Esc\)/);
  assert.match(await hint(page, 'weights'), /^Press Enter or click/);
  assert.equal(await keysLine(page), '← and → move between steps.');
  assert.match(await headKeys(page), /^Keyboard: Tab into a grid/);
}));
