// Page tests for the widgets embedded in someone else's page.
// The built folder (dist/attention-playground, from `./build.sh dist`) is copied under
// a sub-path of a fresh temp site, /course/notes/attention-playground/, and served from
// there, as a teacher would. Covers notes-example.html (a course page with rough CSS)
// and embed.html (the teachers' documentation).
// Run from the repo root: node --test --test-concurrency=1 tests/page/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHOTS, pageSuite } from './browser.mjs';
import { DIST, freshDist } from './dist.mjs';
import { serve } from './server.mjs';

const SUB = 'course/notes/attention-playground/';
const NOTE_WIDGETS = ['attn-bigram', 'attn-sum-norm', 'attn-softmax-steps', 'attn-head', 'attn-note-graph'];

let tmp;

/** Copies the built folder (built again if stale) under SUB of a fresh temp site. */
async function copySite() {
  await freshDist();
  tmp = await mkdtemp(path.join(tmpdir(), 'attn-embed-'));
  const folder = path.join(tmp, 'site', SUB);
  await mkdir(path.dirname(folder), { recursive: true });
  await cp(DIST, folder, { recursive: true });
  // A copy of the notes page with hostile CSS added last: it resets everything it can reach.
  const notes = await readFile(path.join(folder, 'notes-example.html'), 'utf8');
  await writeFile(path.join(folder, 'notes-hostile.html'), notes.replace('</head>',
    '<style>body * { all: unset; } table, td, th { font-size: 40px; } * { letter-spacing: .2em; line-height: 3; }</style>\n</head>'));
}

// base is http://127.0.0.1:PORT/course/notes/attention-playground/.
const site = pageSuite({
  prepare: copySite,
  root: () => path.join(tmp, 'site'),
  sub: SUB,
  cleanup: () => tmp && rm(tmp, { recursive: true, force: true }),
});

/** An init script: notes each element that has drawn (attn-rendered) and the first draw's time. */
function trackDrawn() {
  window.__drawn = new Set();
  window.__firstDrawn = null;
  document.addEventListener('attn-rendered', (e) => {
    window.__firstDrawn ??= performance.now();
    window.__drawn.add(e.target);
  });
}

/**
 * Opens `file` under the sub-path (`width`, `height`, `permissions` as openPage); once
 * each element of `tags` (all of them on the page) has drawn once, runs
 * `fn(page, responses)` with every response's { url, bytes } (promises), and asserts
 * no console error, page error or failed request (a cancelled one included).
 */
function withEmbed(file, fn, { tags = NOTE_WIDGETS, ...options } = {}) {
  const responses = [];
  return site.withPage((page) => fn(page, responses), {
    path: file, aborted: true, init: trackDrawn, ...options,
    watchPage: (page) => page.on('response', (res) => {
      responses.push(res.body().then((b) => ({ url: res.url(), bytes: b.length })).catch(() => ({ url: res.url(), bytes: 0 })));
    }),
    ready: async (page) => {
      const drawn = (list, trainer) => page.waitForFunction(([l, t]) => {
        const els = [...document.querySelectorAll(l.join(','))].filter((el) => t || !el.localName.startsWith('attn-gpt'));
        return els.length > 0 && els.every((el) => window.__drawn.has(el));
      }, [list, trainer], { timeout: 20000 });
      // The GPT widgets' code (the trainer's, GPT-2's) loads only once one comes near the
      // viewport (widgets/index.js): once the rest has drawn, nothing of the GPT has been
      // fetched; scrolling to them draws them.
      await drawn(tags, false);
      const gpts = page.locator('attn-gpt-train, attn-gpt2');
      if (await gpts.count()) {
        const early = (await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)))
          .filter((u) => /pkg-gpt|\/gpt\/|gpt-train|gpt2|safetensors/.test(u));
        assert.deepEqual(early, [], 'nothing of the GPT is fetched before its widget is near the viewport');
        for (let i = 0; i < await gpts.count(); i++) await gpts.nth(i).scrollIntoViewIfNeeded();
      }
      await drawn(tags, true);
    },
  });
}

/**
 * Waits until every resource the page fetched (Resource Timing) is in `responses` too:
 * Playwright reports a response a little after the page may have used it.
 */
async function allSeen(page, responses) {
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').length + 1);
  for (const t = Date.now(); responses.length < fetched && Date.now() - t < 5000;) await new Promise((r) => setTimeout(r, 20));
}

/** The text of cell (row, col) of grid `id` inside the element matching `host`. */
const cell = (page, host, id, row, col) =>
  page.locator(`${host} attn-matrix#${id} td[data-row="${row}"][data-col="${col}"]`).textContent();
/** Every cell's shown text of grid `id` inside `host`, row-major. */
const texts = (page, host, id) => page.locator(`${host} attn-matrix#${id}`).evaluate((el) =>
  [...el.shadowRoot.querySelectorAll('td')].map((td) => td.querySelector('input')?.value ?? td.textContent));
/** The visible inline error of a widget, or null. */
const inlineError = (page, sel) => page.locator(sel).evaluate((el) => {
  const e = el.shadowRoot.querySelector('.widget-error');
  return e && !e.hidden && getComputedStyle(e).display !== 'none' ? e.textContent : null;
});
const shadowText = (page, sel) => page.locator(sel).evaluate((el) => el.shadowRoot.textContent);

test('notes page under a sub-path: every widget draws its default numbers', async () => {
  const t0 = Date.now();
  await withEmbed('notes-example.html', async (page, responses) => {
    const firstDrawn = await page.evaluate(() => window.__firstDrawn);
    // The bigram's first draw is a skeleton while its table loads, and text is drawn
    // before its fonts arrive: wait for the verdict and the fonts, so the list below holds
    // everything the page fetches.
    await page.locator('attn-bigram .msg.ok').waitFor();
    await page.evaluate(() => document.fonts.ready.then(() => {}));
    await allSeen(page, responses);
    const nav = await page.evaluate(() => {
      const [n] = performance.getEntriesByType('navigation');
      const res = performance.getEntriesByType('resource');
      const sum = (k) => res.reduce((s, r) => s + r[k], n[k]);
      return { domContentLoaded: n.domContentLoadedEventEnd, encoded: sum('encodedBodySize'), decoded: sum('decodedBodySize'), transfer: sum('transferSize'), count: res.length + 1 };
    });
    const bodies = await Promise.all(responses);
    const total = bodies.reduce((s, r) => s + r.bytes, 0);
    const wasm = bodies.find((r) => r.url.endsWith('.wasm'));
    console.log(`notes page: load → first widget drawn ${firstDrawn.toFixed(0)} ms after navigation start (DOMContentLoaded ${nav.domContentLoaded.toFixed(0)} ms; all widgets drawn within ${Date.now() - t0} ms of goto)`);
    console.log(`notes page: ${bodies.length} responses, ${total} bytes of response bodies (${(total / 1024).toFixed(0)} KiB; wasm ${wasm?.bytes} bytes); Resource Timing: transferSize ${nav.transfer}, encodedBodySize ${nav.encoded}, ${nav.count} entries`);
    // Everything resolved relative to the module: nothing outside the sub-path.
    for (const r of bodies) assert.ok(new URL(r.url).pathname.startsWith(`/${SUB}`), `request outside the folder: ${r.url}`);
    assert.ok(wasm && new URL(wasm.url).pathname.startsWith(`/${SUB}pkg/`), 'the wasm comes from the folder next to widgets.js');
    assert.equal(bodies.filter((r) => r.url.endsWith('.wasm')).length, 1, 'one wasm fetch for all widgets');
    // The bigram reads the table counted when the site was built, not the 1 MB corpus.
    assert.deepEqual(bodies.filter((r) => /data\/(corpus\.txt|bigram\.bin)$/.test(r.url)).map((r) => r.url.split('/').pop()), ['bigram.bin']);

    // attn-head (h/o/u, unscaled): the lesson's numbers.
    assert.equal(await cell(page, '#head-a', 'scores', 2, 0), '4.00', 'score u→h');
    assert.deepEqual((await texts(page, '#head-a', 'weights')).slice(6), ['0.80', '0.02', '0.18'], "u's weights");
    assert.deepEqual((await texts(page, '#head-a', 'out')).slice(4), ['8.87', '1.13'], 'out row u');
    // The scaled copy: 4 / √2.
    assert.equal(await cell(page, '#head-b', 'scores', 2, 0), '2.83', 'scaled score u→h');
    assert.equal(await page.locator('#head-b #scaled').isChecked(), true);
    assert.equal(await page.locator('#head-b #scaled').isDisabled(), true, 'readonly');
    // attn-sum-norm: 2, −1, 3 over 4.
    assert.match(await shadowText(page, 'attn-sum-norm'), /0\.50.*−0\.25.*0\.75/s);
    // attn-softmax-steps: the masked softmax of 2, −1, 3 (5 hidden).
    assert.match(await shadowText(page, 'attn-softmax-steps'), /0\.27.*0\.01.*0\.72.*0\.00/s);
    // attn-bigram: three words ending in u, identical logits (the verdict, not the
    // unseen spare line that holds its room while the table loads).
    assert.match(await page.locator('attn-bigram .msg.ok').textContent(), /All 3 words get bit-for-bit identical logits.*“u” \(index \d+\)/);
    // attn-note-graph: the causal graph has 6 arrows, u reads h with 0.80.
    const graph = await shadowText(page, 'attn-note-graph');
    assert.match(graph, /6 arrows/);
    assert.match(graph, /0\.80/);
    for (const tag of NOTE_WIDGETS) {
      for (const el of await page.locator(tag).all()) {
        assert.equal(await el.evaluate((e) => e.shadowRoot.querySelector('.widget-error').hidden), true, `${tag}: no error`);
        const box = await el.boundingBox();
        assert.ok(box.height > 100 && box.width > 500, `${tag}: drawn (${box.width}×${box.height})`);
      }
    }
    await page.screenshot({ path: path.join(SHOTS, 'notes.png'), fullPage: true });
    await page.locator('#head-a').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'notes-head.png') });
  });
});

test('hostile host CSS (all: unset, 40px tables, wide letter-spacing) does not break the widgets', () => withEmbed('notes-hostile.html', async (page) => {
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('table')).fontSize), '40px', 'the host rule applies to the host table');
  assert.equal(await cell(page, '#head-a', 'scores', 2, 0), '4.00');
  assert.deepEqual((await texts(page, '#head-a', 'out')).slice(4), ['8.87', '1.13']);
  // The key cells are visible, with sane sizes, and not restyled by the host's table rule.
  for (const [id, r, c] of [['scores', 2, 0], ['weights', 2, 0], ['out', 2, 0]]) {
    const td = page.locator(`#head-a attn-matrix#${id} td[data-row="${r}"][data-col="${c}"]`);
    await td.scrollIntoViewIfNeeded();
    assert.ok(await td.isVisible(), `${id} (${r}, ${c}) visible`);
    const box = await td.boundingBox();
    assert.ok(box.width >= 24 && box.width <= 160 && box.height >= 16 && box.height <= 80, `${id} cell size ${box.width}×${box.height}`);
    const size = parseFloat(await td.evaluate((e) => getComputedStyle(e).fontSize));
    assert.ok(size >= 10 && size <= 24, `${id} cell font size ${size}px`);
  }
  // The widgets' own tables (sum-norm) keep their size too.
  const sumTd = page.locator('attn-sum-norm td').first();
  const sumSize = parseFloat(await sumTd.evaluate((e) => getComputedStyle(e).fontSize));
  assert.ok(sumSize >= 10 && sumSize <= 24, `attn-sum-norm table font size ${sumSize}px`);
  for (const tag of NOTE_WIDGETS) {
    const box = await page.locator(tag).first().boundingBox();
    assert.ok(box && box.width > 300 && box.height > 100, `${tag} still drawn (${box?.width}×${box?.height})`);
  }
  await page.screenshot({ path: path.join(SHOTS, 'notes-hostile.png'), fullPage: true });
  await page.locator('#head-a').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'notes-hostile-head.png') });
}));

test('two instances keep independent state; attn-change carries the new state', () => withEmbed('notes-example.html', async (page) => {
  await page.evaluate(() => {
    window.__changes = [];
    document.addEventListener('attn-change', (e) => window.__changes.push({ id: e.target.id, tag: e.target.localName, detail: e.detail }));
  });
  const stateB = await page.locator('#head-b').evaluate((el) => el.state);
  const outB = await texts(page, '#head-b', 'out');
  await page.locator('#head-a #scaled').check();
  await page.locator('#head-a attn-matrix#W_v td[data-row="0"][data-col="0"] input').fill('20');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__changes.length >= 2);
  const stateA = await page.locator('#head-a').evaluate((el) => el.state);
  assert.equal(stateA.scaled, true);
  assert.equal(stateA.W_v.data[0], 20);
  assert.equal(await cell(page, '#head-a', 'scores', 2, 0), '2.83');
  assert.deepEqual(await page.locator('#head-b').evaluate((el) => el.state), stateB, 'the other head is unchanged');
  assert.equal(await cell(page, '#head-b', 'scores', 2, 0), '2.83');
  assert.deepEqual(await texts(page, '#head-b', 'out'), outB, "the other head's out");
  assert.notDeepEqual(await texts(page, '#head-a', 'out'), outB, "the edited head's out moved");
  // The events: bubbling, composed, detail = the element's new state.
  const changes = await page.evaluate(() => window.__changes);
  assert.equal(changes[0].id, 'head-a');
  assert.equal(changes[0].detail.scaled, true);
  assert.deepEqual(changes.at(-1).detail, stateA, 'detail equals el.state');
  assert.ok(changes.every((c) => c.id === 'head-a'), 'only the edited head announced a change');
  // Another widget: typing new scores.
  await page.locator('attn-sum-norm input.words').fill('1, 1, 2');
  await page.waitForFunction(() => window.__changes.some((c) => c.tag === 'attn-sum-norm'));
  const sum = (await page.evaluate(() => window.__changes)).filter((c) => c.tag === 'attn-sum-norm').at(-1);
  assert.deepEqual(sum.detail, { scores: [1, 1, 2] });
  assert.match(await shadowText(page, 'attn-sum-norm'), /0\.25.*0\.25.*0\.50/s);
}));

test('attribute changes re-render live; loading widgets.js twice is harmless', () => withEmbed('notes-example.html', async (page) => {
  const head = page.locator('#head-a');
  await head.evaluate((el) => el.setAttribute('scaled', 'true'));
  await page.waitForFunction(() => document.querySelector('#head-a').state.scaled === true);
  await assert.doesNotReject(async () => {
    await page.locator('#head-a attn-matrix#scores td[data-row="2"][data-col="0"]', { hasText: '2.83' }).waitFor();
  });
  await head.evaluate((el) => el.setAttribute('scaled', 'false'));
  await page.locator('#head-a attn-matrix#scores td[data-row="2"][data-col="0"]', { hasText: '4.00' }).waitFor();
  await head.evaluate((el) => el.setAttribute('causal', 'false'));
  await page.waitForFunction(() => document.querySelector('#head-a').state.causal === false);
  assert.notEqual((await texts(page, '#head-a', 'weights'))[1], '0.00', 'h now reads o (no mask)');
  await head.evaluate((el) => el.removeAttribute('causal'));
  await page.waitForFunction(() => document.querySelector('#head-a').state.causal === true);

  const sum = page.locator('attn-sum-norm');
  await sum.evaluate((el) => el.setAttribute('scores', '1,1,2'));
  await page.waitForFunction(() => /0\.25.*0\.25.*0\.50/s.test(document.querySelector('attn-sum-norm').shadowRoot.textContent));

  await page.locator('attn-bigram').evaluate((el) => el.setAttribute('lang', 'zh'));
  await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('attn-bigram').shadowRoot.textContent));

  // lang on a widget reaches the grids inside it (captions, the "exact values"
  // toggle, a cell's error), live both ways, on this English page.
  const wv = page.locator('#head-a attn-matrix#W_v');
  const grid = () => wv.evaluate((el) => ({
    caption: el.shadowRoot.querySelector('caption').textContent,
    error: el.shadowRoot.querySelector('.error').textContent,
  }));
  await wv.locator('td[data-row="0"][data-col="0"] input').fill('abc');
  assert.deepEqual(await grid(), {
    caption: 'W_v: 2 × 3.',
    error: '“abc” is not a number: type digits such as 2, -0.5, 1e-3 or 1/3',
  });
  await head.evaluate((el) => el.setAttribute('lang', 'zh'));
  await page.waitForFunction(() => /^W_v：/.test(document.querySelector('#head-a').shadowRoot
    .querySelector('attn-matrix#W_v').shadowRoot.querySelector('caption').textContent));
  assert.deepEqual(await grid(), { caption: 'W_v：2 × 3。', error: '“abc”不是数字：请输入 2、-0.5、1e-3 或 1/3 这样的数' });
  await head.evaluate((el) => el.removeAttribute('lang'));
  await page.waitForFunction(() => /^W_v:/.test(document.querySelector('#head-a').shadowRoot
    .querySelector('attn-matrix#W_v').shadowRoot.querySelector('caption').textContent));
  assert.match((await grid()).error, /^“abc” is not a number/);
  await wv.locator('td[data-row="0"][data-col="0"] input').fill('1');
  assert.equal((await grid()).error, '');

  // theme="dark" switches the defaults; the page's own --attn-bg (set on <body>) still wins.
  const look = () => sum.evaluate((el) => {
    const s = getComputedStyle(el.shadowRoot.querySelector('.frame'));
    return { fg: s.color, bg: s.backgroundColor };
  });
  const light = await look();
  await sum.evaluate((el) => el.setAttribute('theme', 'dark'));
  const dark = await look();
  assert.equal(light.fg, 'rgb(27, 30, 39)');
  assert.equal(dark.fg, 'rgb(232, 233, 238)', 'the dark default text colour');
  assert.equal(dark.bg, light.bg, "the host's explicit --attn-bg wins over the theme");

  // A second copy of the entry module (another URL) and a dynamic import: no error,
  // and a widget created afterwards still works with the same wasm instance.
  await page.addScriptTag({ type: 'module', url: `${site.base}widgets.js?again=1` });
  await page.evaluate(() => import('./widgets.js'));
  await page.evaluate(() => {
    const el = document.createElement('attn-sum-norm');
    el.id = 'late';
    el.setAttribute('scores', '3,1');
    document.body.append(el);
  });
  await page.waitForFunction(() => window.__drawn.has(document.getElementById('late')));
  assert.match(await shadowText(page, '#late'), /0\.75.*0\.25/s);
}));

test('theme reaches the explanation inside a widget; theme="auto" follows the page\'s color-scheme live', () => withEmbed('notes-example.html', async (page) => {
  // text colours (the notes page sets its own --attn-bg, not --attn-fg): frame and open panel
  const colors = () => page.locator('#head-a').evaluate((el) => [el.shadowRoot.querySelector('.frame'),
    el.shadowRoot.querySelector('attn-explain').shadowRoot.querySelector('.panel')].map((x) => getComputedStyle(x).color));
  const LIGHT = ['rgb(27, 30, 39)', 'rgb(27, 30, 39)'];
  const DARK = ['rgb(232, 233, 238)', 'rgb(232, 233, 238)'];
  const head = page.locator('#head-a');
  await head.locator('attn-matrix#weights td[data-row="2"][data-col="0"]').click();
  assert.deepEqual(await colors(), LIGHT, 'no theme: light');
  await head.evaluate((el) => el.setAttribute('theme', 'dark'));
  assert.deepEqual(await colors(), DARK, 'theme="dark": the panel inside is dark too');
  await head.evaluate((el) => el.setAttribute('theme', 'auto'));
  assert.deepEqual(await colors(), LIGHT, 'auto on a page that declares no color-scheme, system light');
  await page.evaluate(() => { document.documentElement.style.colorScheme = 'dark'; });
  await page.waitForFunction(() => document.querySelector('#head-a').matches(':state(dark)'));
  assert.deepEqual(await colors(), DARK, 'auto: the page says dark');
  await page.evaluate(() => { document.documentElement.style.colorScheme = 'light'; });
  await page.waitForFunction(() => !document.querySelector('#head-a').matches(':state(dark)'));
  assert.deepEqual(await colors(), LIGHT, 'auto: the page says light');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.deepEqual(await colors(), LIGHT, 'a declared light wins over the system');
  await page.evaluate(() => { document.documentElement.style.colorScheme = ''; });
  await page.waitForFunction(() => document.querySelector('#head-a').matches(':state(dark)'));
  assert.deepEqual(await colors(), DARK, 'auto, nothing declared: the system\'s dark');
}));

test('a bad attribute shows an inline message in the widget, never a page error', () => withEmbed('notes-example.html', async (page) => {
  await page.locator('#head-a').evaluate((el) => el.setAttribute('weights', 'gpt2'));
  await page.waitForFunction(() => !document.querySelector('#head-a').shadowRoot.querySelector('.widget-error').hidden);
  assert.match(await inlineError(page, '#head-a'), /gpt2/);
  await page.evaluate(() => {
    const add = (html) => document.body.insertAdjacentHTML('beforeend', html);
    add('<attn-sum-norm id="bad-sum" scores="a,b"></attn-sum-norm>');
    add('<attn-bigram-split id="bad-split" vocab="-3"></attn-bigram-split>');
    add('<attn-position id="bad-pos" a="xyz"></attn-position>');
    add('<attn-compare-words id="bad-words" a="zzz"></attn-compare-words>');
    add('<attn-head id="bad-head" weights="gpt2"></attn-head>');
  });
  // A head with an unknown name from the start says so and draws the built-in head,
  // not empty cards.
  await page.waitForFunction(() => window.__drawn.has(document.getElementById('bad-head')));
  assert.match(await inlineError(page, '#bad-head'), /gpt2/);
  assert.equal(await page.locator('#bad-head attn-matrix#weights td[data-row="2"][data-col="0"]').textContent(), '0.80');
  await page.locator('#bad-head').evaluate((el) => el.remove());
  await page.waitForFunction(() => ['bad-sum', 'bad-split', 'bad-pos', 'bad-words'].every((id) => window.__drawn.has(document.getElementById(id))));
  assert.match(await inlineError(page, '#bad-sum'), /expected 1 to 8 comma-separated numbers/);
  assert.ok(await inlineError(page, '#bad-split'), 'vocab="-3" explained inline');
  assert.match(await shadowText(page, '#bad-pos'), /'x' is not in the toy table/);
  assert.match(await shadowText(page, '#bad-words'), /'z' has no vector here/);
  for (const id of ['bad-sum', 'bad-split', 'bad-pos', 'bad-words']) {
    const box = await page.locator(`#${id}`).boundingBox();
    assert.ok(box.height > 40, `#${id} is not an empty box (${box.height}px)`);
  }
  // Fixing the attribute clears the message.
  await page.locator('#head-a').evaluate((el) => el.setAttribute('weights', 'hou'));
  await page.waitForFunction(() => document.querySelector('#head-a').shadowRoot.querySelector('.widget-error').hidden);
  await page.locator('#bad-sum').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'notes-bad-attrs.png') });
}));

test('attn-head.js alone: a page with one head draws it, explains a cell in both languages, and defines nothing else', async () => {
  await writeFile(path.join(tmp, 'site', SUB, 'one-head.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>One head</title><link rel="icon" href="data:,">
<script type="module" src="attn-head.js" blocking="render"></script></head>
<body><h1>Self-attention</h1><attn-head></attn-head></body></html>`);
  await withEmbed('one-head.html', async (page, responses) => {
    const head = page.locator('attn-head');
    assert.equal(await cell(page, 'attn-head', 'weights', 2, 0), '0.80');
    const defined = await page.evaluate(() => Object.fromEntries(['attn-head', 'attn-explain', 'attn-formula-steps',
      'attn-matrix', 'attn-head-probe', 'attn-bigram', 'attn-note-graph', 'attn-quiz']
      .map((tag) => [tag, Boolean(customElements.get(tag))])));
    assert.deepEqual(defined, { 'attn-head': true, 'attn-explain': true, 'attn-formula-steps': true, 'attn-matrix': true,
      'attn-head-probe': false, 'attn-bigram': false, 'attn-note-graph': false, 'attn-quiz': false });
    // one script file, then the core: no chunk is a round trip of its own
    await allSeen(page, responses);
    const scripts = (await Promise.all(responses)).map((r) => new URL(r.url).pathname).filter((u) => u.endsWith('.js'));
    assert.deepEqual(scripts.map((u) => u.split('/').pop()), ['attn-head.js']);
    const weights = head.locator('attn-matrix#weights td[data-row="2"][data-col="0"]');
    await weights.click();
    const panel = () => head.locator('attn-explain').evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
    assert.ok((await panel()).includes('54.60 / 68.43 = 0.80'), await panel());
    // Every string the head shows is in the tables it loads: no raw key (a.*, c.*, ...) on screen.
    const rawKeys = () => head.evaluate((el) => {
      const text = [el.shadowRoot, ...[...el.shadowRoot.querySelectorAll('*')].map((e) => e.shadowRoot).filter(Boolean)]
        .map((r) => r.textContent).join(' ');
      return text.match(/\b(?:a|b|c|err)\.[a-z][A-Za-z_.]+/g) ?? [];
    });
    assert.deepEqual(await rawKeys(), []);
    await head.evaluate((el) => el.setAttribute('lang', 'zh'));
    await page.waitForFunction(() => /序列|表格/.test(document.querySelector('attn-head').shadowRoot.textContent));
    assert.deepEqual(await rawKeys(), []);
    await page.screenshot({ path: `${SHOTS}embed-one-head-alone.png`, fullPage: true });
  }, { tags: ['attn-head'] });
});

test('attn-head.js and widgets.js on one page: each element is defined once, and a probe of widgets.js follows a head of attn-head.js', async () => {
  await writeFile(path.join(tmp, 'site', SUB, 'both-scripts.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Both scripts</title><link rel="icon" href="data:,">
<script type="module" src="attn-head.js" blocking="render"></script>
<script type="module" src="widgets.js" blocking="render"></script></head>
<body><attn-head id="h"></attn-head><attn-head-probe for="h"></attn-head-probe></body></html>`);
  await withEmbed('both-scripts.html', async (page) => {
    assert.equal(await cell(page, 'attn-head', 'weights', 2, 0), '0.80');
    // every grid cell of the probe, read through its nested shadow roots
    const probeCells = () => page.evaluate(() => [...document.querySelector('attn-head-probe').shadowRoot.querySelectorAll('attn-matrix')]
      .flatMap((m) => [...m.shadowRoot.querySelectorAll('td')].map((td) => td.textContent)).join('|'));
    const before = await probeCells();
    assert.match(before, /\d/);
    const input = page.locator('attn-head attn-matrix#W_k td[data-row="0"][data-col="0"] input');
    await input.fill('3');
    await input.press('Enter');
    await page.waitForFunction((b) => [...document.querySelector('attn-head-probe').shadowRoot.querySelectorAll('attn-matrix')]
      .flatMap((m) => [...m.shadowRoot.querySelectorAll('td')].map((td) => td.textContent)).join('|') !== b, before);
    assert.equal(await inlineError(page, 'attn-head-probe'), null);
  }, { tags: ['attn-head', 'attn-head-probe'] });
});

test('widgets.js on a page with one head loads no code of sections 5–8 until such an element comes; then it draws, with a state set before its code came', async () => {
  await writeFile(path.join(tmp, 'site', SUB, 'one-head-widgets.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>One head</title><link rel="icon" href="data:,">
<script type="module" src="widgets.js" blocking="render"></script></head>
<body><h1>Self-attention</h1><attn-head></attn-head></body></html>`);
  await withEmbed('one-head-widgets.html', async (page, responses) => {
    assert.equal(await cell(page, 'attn-head', 'weights', 2, 0), '0.80');
    const partB = ['attn-note-graph', 'attn-note-scale', 'attn-exercise', 'attn-proofs', 'attn-quiz', 'attn-interview'];
    const defined = (tags) => page.evaluate((t) => t.filter((tag) => customElements.get(tag)), tags);
    assert.deepEqual(await defined(partB), [], 'no element of sections 5–8 is defined');
    assert.deepEqual(await defined(['attn-bigram', 'attn-schemes', 'attn-head-probe']), ['attn-bigram', 'attn-schemes', 'attn-head-probe']);
    const before = (await Promise.all(responses)).reduce((n, r) => n + r.bytes, 0);
    // A teacher's script adds a note and sets its state before its code has come
    await page.evaluate(() => {
      const note = document.createElement('attn-note-scale');
      note.state = { dk: 64, scaled: true, causal: true };
      document.body.append(note);
    });
    await page.waitForFunction(() => window.__drawn.has(document.querySelector('attn-note-scale')), null, { timeout: 15000 });
    assert.deepEqual(await defined(partB), partB, 'the part loads whole once one of its elements is there');
    // drawn from that state (an early `state` left on the element would hide the class's
    // accessor, and the note would draw its default d_k of 16)
    assert.equal(await page.locator('attn-note-scale').evaluate((el) => el.shadowRoot.querySelector('output.big').textContent), '64');
    assert.equal(await page.locator('attn-note-scale').evaluate((el) => Object.hasOwn(el, 'state')), false);
    assert.deepEqual(await page.locator('attn-note-scale').evaluate((el) => el.state), { dk: 64, scaled: true, causal: true });
    assert.equal(await inlineError(page, 'attn-note-scale'), null);
    const after = (await Promise.all(responses)).reduce((n, r) => n + r.bytes, 0);
    console.log(`# one head on widgets.js: ${(before / 1024).toFixed(0)} KB before a note is added, ${((after - before) / 1024).toFixed(0)} KB more for sections 5–8 (uncompressed)`);
    assert.ok(after > before);
  }, { tags: ['attn-head'] });
});

test('narrow screen: the notes page and its widgets fit a phone', () => withEmbed('notes-example.html', async (page) => {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `no horizontal page scroll (${overflow}px)`);
  await page.locator('#head-a').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'notes-narrow.png') });
}, { width: 390, height: 844 }));

/** Every demonstration element of the lesson page (its .lesson section). */
async function lessonTags() {
  const html = await readFile(path.join(DIST, 'index.html'), 'utf8');
  return [...new Set([...html.matchAll(/<(attn-[a-z0-9-]+)/g)].map((m) => m[1]))];
}

/**
 * Pastes `snippet` (what Copy put on the clipboard) into a course page of another site, as
 * step 1 says: the folder copied next to the page, served from another folder and another
 * origin (its own port). The head it holds draws its numbers there, cleanly.
 */
async function pastedElsewhere(page, snippet) {
  const root = path.join(tmp, 'other');
  await cp(DIST, path.join(root, 'week-3', 'attention-playground'), { recursive: true });
  await writeFile(path.join(root, 'week-3', 'attention.html'), `<!doctype html><html lang="en"><head>
<meta charset="utf-8"><link rel="icon" href="data:,"><title>Week 3: attention</title>\n${snippet.split('\n')[0]}\n</head>
<body><h1>Week 3</h1>\n${snippet.split('\n').slice(1).join('\n')}\n</body></html>\n`);
  const other = await serve(root);
  try {
    assert.notEqual(new URL(other.base).origin, new URL(page.url()).origin, 'another origin');
    const notes = await page.context().newPage();
    const problems = [];
    notes.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
    notes.on('pageerror', (e) => problems.push(String(e)));
    notes.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
    await notes.goto(`${other.base}week-3/attention.html`);
    await notes.waitForFunction(() => {
      const td = document.querySelector('attn-head')?.shadowRoot
        ?.querySelector('attn-matrix#scores')?.shadowRoot?.querySelector('td[data-row="2"][data-col="0"]');
      return td?.textContent === '4.00';
    }, null, { timeout: 20000 });
    assert.equal(await cell(notes, 'attn-head', 'scores', 2, 0), '4.00');
    assert.deepEqual(problems, [], 'the pasted snippet draws on another site with nothing in the console');
    await notes.close();
  } finally {
    await other.close();
  }
}

test('embed.html documents every widget live, with snippets, copy and full-size links', async () => {
  const tags = await lessonTags();
  await withEmbed('embed.html', async (page) => {
    await page.screenshot({ path: path.join(SHOTS, 'embed.png') });
    for (const tag of tags) {
      const card = page.locator(`article.widget-card#${tag}`);
      assert.equal(await card.count(), 1, `a card for <${tag}>`);
      // The folder's path as step 1 has a teacher copy it next to the notes: not this page's URL.
      assert.match(await card.locator('pre.snippet').textContent(), new RegExp(`^<script type="module" src="attention-playground/widgets\\.js"></script>\\n<${tag}[ >]`));
      assert.equal(await card.locator(`.live > ${tag}`).count(), 1, `a live <${tag}>`);
      assert.match(await card.locator('a.full-size').getAttribute('href'), /^index\.html#/);
    }
    // Live examples drew (no inline error), e.g. the head's numbers.
    assert.equal(await cell(page, '#attn-head .live attn-head', 'scores', 2, 0), '4.00');
    const errors = await page.evaluate(() => [...document.querySelectorAll('.live > *, #dark-example, #custom-example')]
      .filter((el) => el.shadowRoot && !el.shadowRoot.querySelector('.widget-error').hidden).map((el) => el.localName));
    assert.deepEqual(errors, [], 'no live example shows an error');

    // Copy puts the snippet on the clipboard.
    const main = await page.locator('#main-snippet').textContent();
    assert.match(main, /^<script type="module" src="attention-playground\/widgets\.js" blocking="render"><\/script>\n<attn-head weights="hou" scaled="false"><\/attn-head>$/);
    await page.locator('#start button.copy').click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), main);
    assert.equal(await page.locator('#start button.copy').textContent(), 'Copied ✓');
    await pastedElsewhere(page, main);

    // The full-size link follows the live example's state; edit it, then follow the link.
    await page.locator('#attn-head .live #scaled').check();
    await page.locator('#attn-head .live #causal').uncheck();
    const href = await page.locator('#attn-head a.full-size').getAttribute('href');
    const state = JSON.parse(decodeURIComponent(href.split('#head=')[1]));
    assert.equal(state.scaled, true);
    assert.equal(state.causal, false);
    assert.match(await page.locator('#event-log').textContent(), /attn-head → attn-change/);
    await page.locator('#attn-head').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'embed-head.png') });
    await page.locator('#theme').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'embed-theme.png') });
    assert.equal(await page.locator('#dark-example').evaluate((el) => getComputedStyle(el.shadowRoot.querySelector('.frame')).backgroundColor), 'rgb(28, 31, 39)');

    await page.locator('#attn-head a.full-size').click();
    await page.waitForSelector('html[data-ready="true"]', { timeout: 20000 });
    assert.equal(new URL(page.url()).pathname, `/${SUB}index.html`);
    const full = await page.locator('attn-head#head').evaluate((el) => el.state);
    assert.equal(full.scaled, true, 'the lesson page opened the same state');
    assert.equal(full.causal, false);
    assert.equal(await cell(page, 'attn-head#head', 'scores', 2, 0), '2.83');
  }, {
    tags: ['.live > *', '#dark-example', '#custom-example'], permissions: ['clipboard-read', 'clipboard-write'],
  });
});

test('embed.html on a phone', () => withEmbed('embed.html', async (page) => {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `no horizontal page scroll (${overflow}px)`);
  await page.screenshot({ path: path.join(SHOTS, 'embed-narrow.png') });
  await page.locator('#attn-sum-norm').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'embed-narrow-card.png') });
}, { width: 390, height: 844, tags: ['.live > attn-head'] }));
