// What a course page that holds the widgets must do, whatever built it (hosts.test.mjs:
// MkDocs, mdBook, reveal.js; npm.test.mjs: Vite, VitePress, a CDN): the lesson's head
// (id="head") draws its numbers, takes a typed edit and explains a clicked weight.

import assert from 'node:assert/strict';

export const head = (page) => page.locator('attn-head#head');
export const headCell = (page, id, row, col) => head(page).locator(`attn-matrix#${id} td[data-row="${row}"][data-col="${col}"]`);
/** Resolves once the head shows the lesson's default score u→h, 4.00. */
export const headDrawn = (page) => assert.doesNotReject(headCell(page, 'scores', 2, 0).filter({ hasText: /^4\.00$/ }).waitFor({ timeout: 20000 }));

/** The palette a widget draws in: its frame's background and whether it is in `:state(dark)`. */
export const palette = (locator) => locator.evaluate((el) => ({
  dark: el.matches(':state(dark)'),
  bg: getComputedStyle(el.shadowRoot.querySelector('.frame')).backgroundColor,
}));
export const LIGHT = { dark: false, bg: 'rgb(255, 255, 255)' };
export const DARK = { dark: true, bg: 'rgb(28, 31, 39)' };

/**
 * The head on a host page: it drew the lesson's numbers (out[u, d₀] = 8.87) at its own size; W_q[0][2] = 1/3, typed, changes them
 * (q[u][d0] = 0.33, u's weights move); a click on weights[u][h] opens its softmax.
 */
export async function useHead(page) {
  await headDrawn(page);
  // sizes in rem are the widget's own: mdBook's root font size (62.5%) does not shrink them
  assert.deepEqual(await head(page).evaluate((el) => [el.shadowRoot.querySelector('h3'), el.shadowRoot.querySelector('attn-matrix#scores').shadowRoot.querySelector('th')]
    .map((x) => getComputedStyle(x).fontSize)), ['16.8px', '12.48px'], 'the title (1.05rem) and a grid label (.78rem) at their own size');
  assert.equal(await headCell(page, 'out', 2, 0).textContent(), '8.87', 'out[u, d₀], the lesson\'s number');
  const weights = () => head(page).locator('attn-matrix#weights').evaluate((m) => [...m.shadowRoot.querySelectorAll('td')].map((td) => td.textContent));
  const before = await weights();
  assert.deepEqual(before.slice(6), ['0.80', '0.02', '0.18'], "u's weights");
  // Typed keys, not fill(): a host that reads keys from document must not take them
  // (reveal.js goes to the first slide on Home, MkDocs Material opens its search on "/").
  await headCell(page, 'W_q', 0, 2).locator('input').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await page.keyboard.press('Home');
  await page.keyboard.type('1/');
  await page.keyboard.press('Enter');
  await assert.doesNotReject(headCell(page, 'q', 2, 0).filter({ hasText: /^0\.33$/ }).waitFor({ timeout: 5000 }), 'the edit reached q');
  assert.notDeepEqual(await weights(), before, 'the edit changed the weights');
  await headCell(page, 'weights', 2, 0).click();
  const text = await head(page).locator('attn-explain').evaluate((el) => !el.hidden && el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
  assert.match(text || '', /weight u→h = /, 'the explanation opened');
  assert.match(text, /softmax|exp/i);
  const panelBg = await head(page).locator('attn-explain').evaluate((el) => getComputedStyle(el.shadowRoot.querySelector('.panel')).backgroundColor);
  assert.equal(panelBg, (await palette(head(page))).bg, "the explanation is drawn in the widget's palette");
  await page.keyboard.press('Escape');
}
