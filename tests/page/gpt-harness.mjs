// Shared by the GPT page tests (gpt, gpt-bad-input, gpt-parallel*, i18n-errors, persist): open section 9
// with a fresh model, read the trainer's state and text, wait for a status or a settings
// message; train k data-parallel workers through the page's own GptClient (trainIn); give a
// page the tests' GPT worker (useTestWorker) and crash the trainer's (crashGptWorker).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { withPage } from './browser.mjs';

/** Scrolls to the trainer and waits for its fresh model; resolves to its locator. */
export async function freshGpt(page) {
  const gpt = page.locator('attn-gpt-train');
  await gpt.scrollIntoViewIfNeeded();
  await waitStatus(page, 'idle');
  return gpt;
}

/**
 * For `site` (a pageSuite): a function that opens section 9 with a fresh model, runs
 * `fn(page, gpt)` and asserts a clean console (browser.mjs withPage and its options).
 */
export const gptOn = (site) => (fn, options) =>
  withPage(site, async (page) => fn(page, await freshGpt(page)), { hash: '#s9', ...options });

/** gptOn({ browser, base }) run once: opens `base` at section 9, runs `fn(page, gpt)`. */
export const withGpt = (browser, base, fn, options) => gptOn({ browser, base })(fn, options);

export const state = (page) => page.locator('attn-gpt-train').evaluate((el) => el.state);
export const waitStatus = (page, status, timeout = 30000) => page.waitForFunction(
  (s) => document.querySelector('attn-gpt-train')?.dataset.status === s, status, { timeout });
export const button = (gpt, name) => gpt.getByRole('button', { name, exact: true });

/** Opens the pretrained small model that ships with the page and waits for its 8 heads. */
export async function openPretrained(page, gpt) {
  await button(gpt, 'Open the pretrained small model').click();
  await waitStatus(page, 'loaded');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').dataset.heads === '8');
}

/** Every text the widget shows, through all its shadow roots. */
export const widgetText = (page) => page.locator('attn-gpt-train').evaluate((host) => {
  const parts = [];
  const walk = (root) => {
    parts.push(root.textContent);
    for (const el of root.querySelectorAll('*')) {
      if (el.tagName === 'INPUT') parts.push(el.value);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(host.shadowRoot);
  return parts.join('\n');
});

export const assertClean = async (page) => assert.doesNotMatch(await widgetText(page), /NaN|undefined|null|Infinity/);

/** The text of the `.msg` under the GPT settings once it matches `re`. */
export async function settingsMsg(page, re, timeout = 15000) {
  await page.waitForFunction((src) => {
    const msg = document.querySelector('attn-gpt-train').shadowRoot
      .querySelector('attn-gpt-settings').shadowRoot.querySelector('.msg');
    return !msg.hidden && new RegExp(src).test(msg.textContent);
  }, re.source, { timeout });
  return page.locator('attn-gpt-train').evaluate((el) => el.shadowRoot.querySelector('attn-gpt-settings')
    .shadowRoot.querySelector('.msg').textContent);
}

// Slices of a batch add their gradients in another order than one pass does, and f32
// sums round differently; over 20 AdamW steps at lr 1e-3 that moves a weight by ~1e-6.
export const TOL = 1e-4;

// The page's GPT worker carries no test command; gpt-test-worker.mjs is that worker plus
// them, served at the worker's own URL (its imports are relative to www/js/gpt/).
const TEST_WORKER = readFile(new URL('./gpt-test-worker.mjs', import.meta.url), 'utf8');
const withTestWorker = new WeakSet();

/**
 * From now on every GPT worker `page` starts (GptClient's, the trainer's included) is the
 * tests' (gpt-test-worker.mjs): the page's commands plus steps, params,
 * crashGradWorkerForTest and crashForTest. Before the page loads (as openPage's
 * `watchPage`) for the trainer's worker; a reload keeps it. The response keeps the server's
 * headers (a cross-origin-isolated page's worker needs its COEP).
 */
export async function useTestWorker(page) {
  if (withTestWorker.has(page)) return;
  withTestWorker.add(page);
  const body = await TEST_WORKER;
  await page.route((url) => url.pathname.endsWith('/js/gpt/worker.js'), async (route) => {
    await route.fulfill({ response: await route.fetch(), body });
  });
}

/** Crashes the trainer's worker (the tests' one: useTestWorker) with an uncaught error. */
export const crashGptWorker = (page) => page.evaluate(() => {
  const channel = new BroadcastChannel('attention-playground.test.gpt-worker');
  channel.postMessage({ cmd: 'crash' });
  channel.close();
});

/** In the page: `k` workers train the tiny preset `n` steps from seed 1337 on the default
 *  corpus with wasm build `build`; returns { losses, step, engine, params } (params: Array).
 *  Through the page's GptClient, on the tests' worker (steps, params, and a gradient worker
 *  that dies after `crashAfter` steps). */
export async function trainIn(page, { k, n, build, crashAfter = -1 }) {
  await useTestWorker(page);
  return page.evaluate(async ({ k, n, build, crashAfter }) => {
    const { GptClient } = await import('./js/gpt/client.js');
    const client = new GptClient(() => {}, { build });
    try {
      const text = await (await fetch('./data/corpus.txt')).text();
      await client.call('create', { config: { preset: 'tiny', batch_size: 5 }, text, seed: 1337 });
      await client.call('setWorkers', { k });
      const losses = [];
      let engine;
      for (let i = 0; i < n; i++) {
        if (i === crashAfter) await client.call('crashGradWorkerForTest');
        const r = await client.call('steps', { n: 1 });
        losses.push(...r.losses);
        engine = r.engine;
      }
      const info = await client.call('setWorkers', { k });
      return { losses, step: info.steps, engine, params: Array.from(await client.call('params')) };
    } finally {
      client.terminate();
    }
  }, { k, n, build, crashAfter });
}

export const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
