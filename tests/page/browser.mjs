// Launches the system Chromium through playwright-core and opens pages that
// record every console error/warning, page error and failed request, so each
// test can assert the page stayed clean.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { start, stop } from './server.mjs';

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

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
 * Opens `url` in a fresh context and waits until the page has drawn its first
 * result (html[data-ready]). Returns { page, context, problems } where
 * `problems` collects console errors/warnings, page errors and failed requests.
 */
export async function openPage(browser, url, { width = 1280, height = 900, locale = 'en-US' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, locale });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => {
    // ERR_ABORTED is a request cancelled by a navigation (a reload while the favicon
    // loads), not a fault: a missing file is a 404 below, a refused one ERR_CONNECTION_*.
    const why = req.failure()?.errorText ?? '';
    if (why !== 'net::ERR_ABORTED') problems.push(`requestfailed: ${req.url()} ${why}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]', { timeout: 15000 });
  return { page, context, problems };
}

/**
 * For a test file whose tests share one page: before them, serves www/, launches
 * Chromium, opens index.html and passes { base, browser, page, context, problems } to
 * `use`; after them, closes it all and asserts the page logged no problem.
 */
export function sharedPage(use) {
  let s = {};
  before(async () => {
    const base = await start();
    const browser = await launch();
    s = { base, browser, ...(await openPage(browser, base)) };
    use(s);
  });
  after(async () => {
    await s.context?.close();
    await closeBrowser(s.browser);
    await stop();
    assert.deepEqual(s.problems ?? [], [], 'console errors/warnings or failed requests on the lesson page');
  });
}
