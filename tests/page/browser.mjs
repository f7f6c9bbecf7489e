// The one harness of the page tests. A test file calls pageSuite() (or sharedPage())
// once: before its tests that serves www/ and launches the system Chromium through
// playwright-core, after them it closes both. Pages open in fresh contexts that record
// every console error/warning, page error, dialog and failed request, so each test can
// assert the page stayed clean: site.withPage(fn) opens, runs, closes and asserts.
//
//   const site = pageSuite();                  serve www/; site.base, site.browser
//   const site = sharedPage((s) => ...);       the same, plus one index.html for all tests
//   await site.withPage(async (page) => ..., { hash: '#s9', width: 380, locale: 'zh-CN' });
//   const { page, context, problems } = await site.open('explain-demo.html');

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { start, stop } from './server.mjs';

/** Where the tests write their screenshots (made before the tests run). */
export const SHOTS = fileURLToPath(new URL('../../target/screenshots/', import.meta.url));

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const CLEAN = 'console errors/warnings, page errors, dialogs or failed requests';

export function launch() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, timeout: 60000 });
}

/**
 * Closes `browser` (if any), waiting at most 20 s: a browser that does not go is left
 * to --test-force-exit, and playwright-core kills its process when ours exits.
 */
export async function closeBrowser(browser) {
  if (!browser) return;
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, 20000, 'late'); });
  if (await Promise.race([browser.close().then(() => 'closed'), late]) === 'late') {
    console.error('# the browser did not close within 20 s; leaving it to the process exit');
  }
  clearTimeout(timer);
}

/**
 * Records on `page` what a clean page never does: console errors/warnings, page errors,
 * dialogs (dismissed: no script from a learner's input may open one), failed requests and
 * HTTP errors. Each goes to `problems`, or to `others` when `aside(text, where)` says so
 * (`where`: the console message's script, the error's stack, the request's URL).
 * A request cancelled by a navigation (ERR_ABORTED: a reload while the favicon loads) is
 * no fault and is left out, unless `aborted` asks for it too.
 */
export function watch(page, { aborted = false, aside = () => false } = {}) {
  const problems = [];
  const others = [];
  const note = (text, where = '') => (aside(text, where) ? others : problems).push(text);
  page.on('console', (msg) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    const where = msg.location()?.url ?? '';
    note(`console.${msg.type()}: ${msg.text()}${where ? ` (${where})` : ''}`, where);
  });
  page.on('pageerror', (err) => note(`pageerror: ${err.message}`, err.stack ?? ''));
  page.on('dialog', (d) => {
    note(`dialog ${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.on('requestfailed', (req) => {
    const why = req.failure()?.errorText ?? '';
    if (aborted || why !== 'net::ERR_ABORTED') note(`requestfailed: ${req.url()} ${why}`, req.url());
  });
  page.on('response', (res) => {
    if (res.status() >= 400) note(`HTTP ${res.status()}: ${res.url()}`, res.url());
  });
  return { problems, others };
}

/**
 * Opens `url` in a fresh context and waits until the page has drawn its first result
 * (`ready`: a selector, a function of the page, or null for no wait). Returns
 * { page, context, problems, others, response } (see watch for the two lists).
 * `lang` is the learner's saved language choice (it wins over `locale`); `touch` opens it
 * as a phone does (touch, no hover); `init` are
 * scripts run before the page's own; `watchPage(page)` runs before the navigation.
 */
export async function openPage(browser, url, {
  width = 1280, height = 900, locale = 'en-US', lang, init = [], permissions = [],
  ready = 'html[data-ready="true"]', readyTimeout = 15000, watchPage, colorScheme = 'light',
  bypassCSP = false, touch = false, reducedMotion = 'no-preference', ...watching
} = {}) {
  // touch: a phone's context (touch events, no hover: (hover: none) matches)
  const context = await browser.newContext({
    viewport: { width, height }, locale, colorScheme, bypassCSP, hasTouch: touch, isMobile: touch, reducedMotion,
  });
  if (permissions.length) await context.grantPermissions(permissions, { origin: new URL(url).origin });
  if (lang) await context.addInitScript((l) => localStorage.setItem('attention-playground.lang', l), lang);
  for (const script of [init].flat()) await context.addInitScript(script);
  const page = await context.newPage();
  const recorded = watch(page, watching);
  await watchPage?.(page);
  try {
    const response = await page.goto(url);
    if (typeof ready === 'function') await ready(page);
    else if (ready) await page.waitForSelector(ready, { timeout: readyTimeout });
    return { page, context, response, ...recorded };
  } catch (err) {
    await context.close();
    throw err;
  }
}

/**
 * Opens `path` (and `hash`) on `site` ({ base, browser }) with openPage's options, runs
 * `fn(page, opened)`, closes the page and asserts it recorded no problem; what `aside`
 * set apart is printed.
 */
export async function withPage(site, fn, { path = '', hash = '', ...options } = {}) {
  const opened = await openPage(site.browser, `${site.base}${path}${hash}`, options);
  try {
    await fn(opened.page, opened);
  } finally {
    await opened.context.close();
  }
  if (opened.others.length) console.log(`# set aside: ${[...new Set(opened.others)].join(' | ')}`);
  assert.deepEqual(opened.problems, [], CLEAN);
}

/**
 * The set-up of a test file: before its tests, runs `prepare()`, makes SHOTS, serves
 * `root` (www/ by default, or a function resolving to a folder) with
 * `headers`/`htmlHeaders`, launches Chromium, with `shared` opens index.html once, and
 * runs `started(site)`; after them, closes it all, runs `cleanup()` and asserts the
 * shared page logged no problem. (Hooks of a file's top level run side by side, so what
 * must come in order before or after goes through these three.) Returns the site:
 * { base, browser, open(path, options), withPage(fn, options) } and, with `shared`,
 * { page, context, problems }. `sub` is a folder below the served root that base points into.
 */
export function pageSuite({
  root, headers, htmlHeaders, sub = '', shared = false, prepare, started, cleanup,
} = {}) {
  const site = {
    base: null,
    browser: null,
    open: (path = '', options) => openPage(site.browser, `${site.base}${path}`, options),
    withPage: (fn, options) => withPage(site, fn, options),
  };
  before(async () => {
    await prepare?.();
    await mkdir(SHOTS, { recursive: true });
    const folder = typeof root === 'function' ? await root() : root;
    site.base = (await start(folder, { headers, htmlHeaders })) + sub;
    site.browser = await launch();
    if (shared) Object.assign(site, await site.open());
    await started?.(site);
  });
  after(async () => {
    try {
      await site.context?.close();
      await closeBrowser(site.browser);
      await stop();
    } finally {
      await cleanup?.();
    }
    if (shared) assert.deepEqual(site.problems ?? [], [], `${CLEAN} on the lesson page`);
  });
  return site;
}

/**
 * For a test file whose tests share one page: pageSuite({ shared: true }), and once it
 * is open passes { base, browser, page, context, problems } to `use`. Returns the site.
 */
export function sharedPage(use = () => {}) {
  return pageSuite({ shared: true, started: use });
}

/** Scrolls lesson section `#s<n>` into view and waits until it is laid out as a near one
 *  (pages/lesson.js skips the layout of far sections, `.far`, content-visibility: auto). */
export function nearby(page, n) {
  return inView(page.locator(`#s${n}`));
}

/** Opens the side road (a <details>) that holds `locator`'s element, if any, as a learner
 *  opens it: one click on its summary. The element may sit in a widget's shadow root. */
export async function unfold(locator) {
  const closed = await locator.evaluate((el) => {
    for (let n = el; n; n = n.parentElement ?? n.getRootNode()?.host) {
      if (n.localName === 'details' && !n.open) return n.id || true;
    }
    return false;
  });
  if (!closed) return;
  const summary = typeof closed === 'string'
    ? locator.page().locator(`details#${closed} > summary`)
    : locator.locator('xpath=ancestor::details[1]/summary');
  await summary.click();
  await locator.page().waitForFunction((id) => !id || document.getElementById(id)?.open, typeof closed === 'string' ? closed : null);
}

/** Scrolls `locator` into view and waits until the lesson section around it (if any) is
 *  laid out as a near one: a far section has no rendered text (innerText) meanwhile. */
export async function inView(locator) {
  await unfold(locator);
  await locator.scrollIntoViewIfNeeded();
  await locator.evaluate((el) => new Promise((resolve) => {
    const section = el.closest('.lesson-section');
    const check = () => (section?.classList.contains('far') ? requestAnimationFrame(check) : resolve());
    check();
  }));
}

/** Words a learner must never meet outside the page's About section: how the page runs. */
export const IMPLEMENTATION_WORDS = /\b(rust|webassembly|wasm|simd|fma|workers?)\b|工作线程|线程池/i;

/**
 * What `target` (a locator: its element, its light and shadow trees) shows a learner now:
 * { texts: [[text, page y]], titles }. A text counts when it is rendered (checkVisibility:
 * not display: none, not in a closed <details> but for its summary); a rendered select
 * counts its options; `titles` are every title (a hint shown on pointing). Texts inside
 * `skip` (selectors) are left out.
 */
export function shownTexts(target, { skip = [] } = {}) {
  return target.evaluate((host, skipSel) => {
    const texts = [];
    const titles = [];
    const shown = (el) => el.checkVisibility() && !(el.closest('details:not([open])') && !el.closest('summary'));
    const walk = (root) => {
      const w = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = w.currentNode; n; n = w.nextNode()) {
        if (n.nodeType === Node.ELEMENT_NODE) {
          if (n.title) titles.push(n.title);
          if (n.localName === 'option' && n.parentElement.checkVisibility()) texts.push([n.textContent.trim(), 0]);
          if (n.shadowRoot) walk(n.shadowRoot);
          continue;
        }
        const p = n.parentElement;
        if (!p || !n.textContent.trim() || ['STYLE', 'SCRIPT', 'OPTION'].includes(p.tagName)) continue;
        if (!shown(p) || skipSel.some((sel) => p.closest(sel))) continue;
        texts.push([n.textContent.trim(), Math.round(p.getBoundingClientRect().top + scrollY)]);
      }
    };
    walk(host);
    return { texts, titles };
  }, skip);
}

/** Resolves once the page has run what an action queued: a widget re-renders in a task
 *  of its own after an input (widget-base.js's refresh, a setTimeout), and some draw in the
 *  next frame. A task queued now runs after those, a frame later and a task after that
 *  frame's work. Read a widget's numbers after an action only once this has resolved. */
export async function settled(page) {
  await page.evaluate(() => new Promise((resolve) => {
    setTimeout(() => requestAnimationFrame(() => setTimeout(resolve, 0)), 0);
  }));
}

/** `innerText` of the first `selector` on the page, seen in view (a far lesson section has
 *  none). */
export async function renderedText(page, selector) {
  const el = page.locator(selector).first();
  await inView(el);
  return el.innerText();
}

/** Resolves once the page's first <attn-head> shows its default numbers (scores[2][0] is
 *  4.00): for pages that set no data-ready, such as notes-example.html. */
export function headDrawn(page) {
  return page.waitForFunction(() => document.querySelector('attn-head')?.shadowRoot
    ?.querySelector('attn-matrix#scores')?.shadowRoot?.querySelector('td[data-row="2"][data-col="0"]')
    ?.textContent === '4.00', null, { timeout: 20000 });
}
