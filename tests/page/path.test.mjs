// The learner's path through index.html (issue 32), walked as a script at a 1280×800 laptop
// and a 390×844 phone (touch), in English and Chinese: the first screen plays (edit a cell of
// the live head, click a weight, read how it was made), the contents lead to `wei = q @ kᵀ`
// and to the head, a side road opens by its link and by a URL state, and the lesson's text
// holds no implementation word. (The formula stepper on the path, its buttons still and its
// cells in view at both viewports, is stepper-phone.test.mjs's.) Each step leaves a screenshot, target/screenshots/path-*.png, to be
// looked at as a learner would; the figures of the path (page height, where the head and
// `q @ kᵀ` are, the path's words) are printed as # lines.
//   node --test --test-concurrency=1 tests/page/path.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IMPLEMENTATION_WORDS, SHOTS, inView, pageSuite, settled, shownTexts } from './browser.mjs';

const site = pageSuite();
const VIEWPORTS = [
  { name: 'laptop', width: 1280, height: 800, touch: false },
  { name: 'phone', width: 390, height: 844, touch: true },
];
const LANGS = ['en', 'zh'];
const each = (fn) => VIEWPORTS.flatMap((vp) => LANGS.map((lang) => [vp, lang, fn]));

const open = (vp, lang, fn, hash = '') => site.withPage(fn, {
  hash, lang, width: vp.width, height: vp.height, touch: vp.touch,
});
const shot = (page, name, vp, lang) => page.screenshot({ path: `${SHOTS}path-${name}-${vp.name}-${lang}.png` });

/** The box of `locator` in the viewport, or null. */
const box = (locator) => locator.boundingBox();
/** Whether box `b` lies whole inside the viewport `vp` (as scrolled now). */
const inside = (b, vp) => b && b.y >= 0 && b.x >= 0 && b.y + b.height <= vp.height && b.x + b.width <= vp.width;
const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The cell (row, col) of grid `name` in the first screen's head. */
const playCell = (page, name, row, col) => page.locator(`attn-play attn-matrix#${name} .heatmap td[data-row="${row}"][data-col="${col}"]`);
const gridText = (page, host, name) => page.locator(`${host} attn-matrix#${name}`).evaluate((m) =>
  [...m.shadowRoot.querySelectorAll('.heatmap td')].map((td) => td.querySelector('input')?.value ?? td.textContent.trim()));

/** Every text of the page a learner can see now, through shadow roots, with its page y. */
const visibleTexts = async (page, options) => (await shownTexts(page.locator('body'), options)).texts;

/** Words of `text`: each Chinese character counts as one, as do runs of Latin letters;
 *  numbers (the grids' cells) are not words. */
const words = (text) => (text.match(/[\u4e00-\u9fff]/g)?.length ?? 0) + (text.match(/[A-Za-z][A-Za-z'’-]*/g)?.length ?? 0);

/** Lays out every section (far ones skip their layout until they come near). */
async function layOutAll(page) {
  await page.evaluate(() => {
    for (const s of document.querySelectorAll('.lesson-section.far')) s.classList.remove('far');
  });
  await page.addStyleTag({ content: '.lesson-section.far { content-visibility: visible !important; }' });
  await settled(page);
}

for (const [vp, lang] of each()) {
  test(`first screen plays: ${vp.name}, ${lang}`, () => open(vp, lang, async (page) => {
    const play = page.locator('attn-play');
    // The live head and the sentence that says what to do with it are in the first viewport.
    const lead = page.locator('.play-lead');
    assert.ok(inside(await box(lead), vp), 'the sentence is in the first viewport');
    const say = await lead.innerText();
    assert.match(say, vp.touch ? (lang === 'en' ? /Tap any other number/ : /点一下其他任意数字/) : (lang === 'en' ? /Click any other number/ : /点击其他任意数字/));
    assert.doesNotMatch(say, vp.touch ? /Click|点击/ : /Tap|点一下/);
    const x = play.locator('attn-matrix#x');
    const weights = play.locator('attn-matrix#weights');
    assert.ok(inside(await box(x), vp), 'x is in the first viewport');
    assert.ok(inside(await box(weights), vp), 'the weights are in the first viewport');
    assert.equal(await page.evaluate(() => scrollY), 0);
    await shot(page, '1-first-screen', vp, lang);

    // The built-in head: row u of the weights is softmax([10, 1, 8.5]) (LESSON.md §3: 0.80, 0.02, 0.18).
    assert.deepEqual((await gridText(page, 'attn-play', 'weights')).slice(6), ['0.80', '0.02', '0.18']);
    // Edit: o becomes h's one-hot vector. Then o's key is h's key, so o (which may read h and
    // itself) must weigh them equally, whatever W_q and W_k are: 0.5 and 0.5.
    const oc0 = playCell(page, 'x', 1, 0).locator('input');
    const oc1 = playCell(page, 'x', 1, 1).locator('input');
    assert.ok(await oc0.getAttribute('inputmode'), 'a number cell asks for a number keyboard');
    await oc0.fill('1');
    await oc0.press('Enter');
    await oc1.fill('0');
    await oc1.press('Enter');
    await page.waitForFunction(() => document.querySelector('attn-play').shadowRoot.querySelector('attn-matrix#weights')
      ?.shadowRoot?.querySelector('.heatmap td[data-row="1"][data-col="0"]')?.textContent.trim() === '0.50');
    await settled(page);
    assert.deepEqual((await gridText(page, 'attn-play', 'weights')).slice(3, 6), ['0.50', '0.50', '0.00']);
    // The lesson's own head (section 3) did not move: the first screen's is its own.
    assert.deepEqual((await gridText(page, '#head', 'weights')).slice(3, 6), ['0.27', '0.73', '0.00']);
    await shot(page, '2-edited', vp, lang);

    // Click (tap) a weight: its explanation opens, in view, next to the cell, covering nothing.
    // Row u now holds two equal keys (h and o) and its own: 0.45, 0.45, 0.10 (as drawn).
    assert.deepEqual((await gridText(page, 'attn-play', 'weights')).slice(6), ['0.45', '0.45', '0.10']);
    const cell = playCell(page, 'weights', 2, 0);
    if (vp.touch) await cell.tap();
    else await cell.click();
    const panel = play.locator('attn-explain');
    await page.waitForFunction(() => /softmax/i.test(document.querySelector('attn-play').shadowRoot
      .querySelector('attn-explain')?.shadowRoot?.textContent ?? ''));
    await settled(page);
    const said = await panel.evaluate((el) => el.shadowRoot.textContent);
    assert.match(said, /0\.45/);
    const p = await box(panel);
    const c = await box(cell);
    assert.ok(p && c && !overlaps(p, c), 'the explanation does not cover the cell');
    await panel.scrollIntoViewIfNeeded();
    await shot(page, '3-explained', vp, lang);
  }));
}

for (const vp of VIEWPORTS) {
  test(`the contents lead to q @ kᵀ and the head; the path's figures: ${vp.name}`, () => open(vp, 'en', async (page) => {
    // Before anything moves: where things are on the page (every section laid out).
    await layOutAll(page);
    const y = (sel) => page.locator(sel).first().evaluate((el) => Math.round(el.getBoundingClientRect().top + scrollY));
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const firstHead = await y('attn-play');
    const lessonHead = await y('#head');
    const texts = await visibleTexts(page);
    const qk = texts.find(([t]) => /q @ k/.test(t));
    const pathEnd = await y('.path-end');
    const pathWords = words(texts.filter(([, ty]) => ty <= pathEnd).map(([t]) => t).join(' '));
    console.log(`# ${vp.name}: page ${height} px (${(height / vp.height).toFixed(1)} screens); first editable head at y ${firstHead}; `
      + `lesson head at y ${lessonHead}; q @ kᵀ first at y ${qk?.[1]} ("${qk?.[0].slice(0, 30)}"); path ends at y ${pathEnd} `
      + `(${(pathEnd / vp.height).toFixed(1)} screens), ${pathWords} words`);
    assert.ok(firstHead < vp.height / 2, 'an editable head in the first viewport');
    assert.ok(qk && qk[1] < pathEnd, 'q @ kᵀ is on the path');
    if (vp.name === 'laptop') assert.ok(pathEnd <= 11 * vp.height, `the path fits in about ten laptop screens (${pathEnd} px)`);

    // The contents: item 2 leads to the averages; its fourth scheme writes wei = q @ kᵀ.
    await page.locator('.toc a[href="#s2"]').click();
    await page.waitForFunction(() => location.hash === '#s2');
    const code = page.locator('attn-schemes pre, attn-schemes code').filter({ hasText: 'q @ k' }).first();
    await inView(code);
    assert.ok(inside(await box(code), vp) || (await box(code)).y < vp.height, 'wei = q @ kᵀ is drawn');
    await shot(page, '4-q-at-k', vp, 'en');
    // Item 3: the head, whose lead starts from that one changed line.
    await page.locator('.toc a[href="#s4"]').click();
    await page.waitForFunction(() => location.hash === '#s4');
    await settled(page);
    const lead = page.locator('#s4 [data-i18n="a.s4.lead"]');
    assert.match(await lead.innerText(), /wei = q @ kᵀ/);
    const sentence = page.locator(vp.touch ? '#s4 .can-click .touch-only' : '#s4 .can-click .hover-only');
    assert.match(await sentence.innerText(), vp.touch ? /can be tapped/ : /can be clicked/);
    assert.ok((await box(lead)).y < vp.height && (await box(lead)).y >= -2, 'the contents link brings the head section into view');
    await shot(page, '5-head', vp, 'en');
  }));

  test(`a side road opens by its link, by its summary, and by a URL state: ${vp.name}`, async () => {
    let state;
    await open(vp, 'en', async (page) => {
      const road = page.locator('#side-normalize');
      assert.equal(await road.evaluate((d) => d.open), true, 'the link unfolds it');
      const b = await box(road);
      assert.ok(b.y >= -2 && b.y < vp.height / 2, `and brings it into view (y ${b.y})`);
      const norm = page.locator('attn-normalize');
      await settled(page);
      assert.match(await norm.evaluate((el) => el.shadowRoot.textContent), /keepdim/);
      state = await norm.evaluate((el) => el.state);
      await shot(page, '6-side-road', vp, 'en');
      // One click folds it away, one click brings it back.
      await road.locator('summary').click();
      assert.equal(await road.evaluate((d) => d.open), false);
      assert.equal(await norm.isVisible(), false);
      await road.locator('summary').click();
      assert.equal(await road.evaluate((d) => d.open), true);
    }, '#side-normalize');
    // A link with that widget's state (as an edit writes it) unfolds its side road too.
    await open(vp, 'en', async (page) => {
      await page.waitForFunction(() => document.getElementById('side-normalize')?.open === true);
      assert.equal(await page.locator('attn-normalize').isVisible(), true);
      assert.equal(await page.locator('#side-bias').evaluate((d) => d.open), false, 'the others stay folded');
    }, `#norm=${encodeURIComponent(JSON.stringify(state))}`);
  });
}

test('a widget\'s own side road opens by its link too (#side-scheme2, in <attn-schemes>)', () => open(VIEWPORTS[0], 'en', async (page) => {
  await page.waitForFunction(() => document.querySelector('attn-schemes')?.shadowRoot?.getElementById('side-scheme2')?.open === true);
  const road = page.locator('attn-schemes details#side-scheme2');
  await settled(page);
  const b = await box(road);
  assert.ok(b.y >= -2 && b.y < VIEWPORTS[0].height / 2, `in view (y ${b.y})`);
  assert.match(await road.innerText(), /16384/);
}, '#side-scheme2'));

for (const lang of LANGS) {
  test(`the lesson's text has no implementation word, and names no course unexplained: ${lang}`, () =>
    open(VIEWPORTS[0], lang, async (page) => {
      // The GPT's code loads as it comes near: bring it in, then read every section.
      await inView(page.locator('#s9'));
      await page.waitForFunction(() => customElements.get('attn-gpt-train') && document.querySelector('attn-gpt-train').shadowRoot?.textContent.length > 200);
      for (const road of await page.locator('details.side-road').all()) await road.evaluate((d) => { d.open = true; }); // also a widget's (pierces shadow roots)
      await layOutAll(page);
      const texts = (await visibleTexts(page, { skip: ['#about'] })).map(([t]) => t);
      const all = texts.join('\n');
      assert.ok(words(all) > 3000, `the page's text was read (${words(all)} words)`);
      const implementation = texts.filter((t) => IMPLEMENTATION_WORDS.test(t));
      assert.deepEqual(implementation, [], 'implementation words belong to About');
      const course = texts.filter((t) => /\bthe course\b|lesson-1|lesson 1|课程的|课程中|第一课/i.test(t));
      assert.deepEqual(course, [], 'no sentence assumes the reader holds the course');
      // …and the About section is where how it runs is said.
      assert.match(await page.locator('#about').innerText(), lang === 'en' ? /WebAssembly/ : /WebAssembly/);
    }));
}
