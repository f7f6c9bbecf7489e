// Shared by the GPT page tests (gpt, gpt-bad-input, i18n-errors, persist): open section 9
// with a fresh model, read the trainer's state and text, wait for a status or a settings
// message.

import assert from 'node:assert/strict';
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
