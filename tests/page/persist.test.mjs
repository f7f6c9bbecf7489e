// Page tests for "nothing lost": "Train a GPT" saves its whole run to IndexedDB
// every 10 s of training and on Pause; a reload or a crashed worker offers to resume it.
// The lesson's edited weights live in the URL hash and survive a reload too.
// Run from the repo root: node --test --test-concurrency=1 tests/page/persist.test.mjs
// Needs ./build.sh (www/pkg, www/data/corpus.txt).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSuite } from './browser.mjs';
import { button, crashGptWorker, state, useTestWorker, waitStatus } from './gpt-harness.mjs';

const SAVE_MS = 10000; // www/js/gpt/run-saves.js

const { withPage } = pageSuite();

/** Waits for the widget to report a save of at least `step`; returns { step, savedAt }. */
async function waitSaved(page, step = 1, timeout = SAVE_MS + 20000) {
  await page.waitForFunction((n) => document.querySelector('attn-gpt-train').state.saved?.step >= n, step,
    { timeout, polling: 100 });
  return (await state(page)).saved;
}

/** Trains past one periodic save (no Pause), then a little more, on two data-parallel
 *  workers: returns what was saved and the step reached. */
async function trainPastASave(page, gpt) {
  const workers = gpt.getByLabel('CPU cores used');
  await workers.fill('2');
  await workers.dispatchEvent('change');
  await button(gpt, 'Start').click();
  await waitStatus(page, 'running');
  const t0 = Date.now();
  const saved = await waitSaved(page);
  const waited = Date.now() - t0;
  assert.ok(waited > SAVE_MS - 1500, `the first save came after ${waited} ms of training, not at Pause`);
  await page.waitForTimeout(2500); // training goes on past the save
  const s = await state(page);
  assert.equal(s.status, 'running');
  assert.equal(s.engine.workers, 2, 'two workers share each batch');
  assert.ok(s.step > saved.step, `${s.step} steps now, ${saved.step} saved`);
  return { saved, s, at: Date.now() };
}

const offer = (gpt) => gpt.locator('.offer');

async function resumeAndCheck(page, gpt, { saved, s: before, at }) {
  await offer(gpt).waitFor({ state: 'visible', timeout: 15000 });
  const text = await offer(gpt).innerText();
  const m = /Resume training from step ([\d,]+) \(saved (\d\d):(\d\d)\)\?/.exec(text);
  assert.ok(m, text);
  const offered = Number(m[1].replace(/,/g, ''));
  const hhmm = new Date(saved.savedAt);
  assert.deepEqual([Number(m[2]), Number(m[3])], [hhmm.getHours(), hhmm.getMinutes()]);
  assert.ok(offered >= saved.step, `offered step ${offered} ≥ first save ${saved.step}`);
  assert.ok(offered <= before.step, `offered step ${offered} ≤ the step reached ${before.step}`);
  const last = await page.evaluate(async () => {
    const { loadSave } = await import('./js/gpt/store.js');
    const rec = await loadSave();
    return { step: rec.step, savedAt: rec.savedAt, plot: rec.plot, source: rec.source, preset: rec.preset };
  });
  assert.equal(last.step, offered);
  assert.ok(at - last.savedAt <= SAVE_MS + 1000, `the save was ${at - last.savedAt} ms old at the crash (interval ${SAVE_MS})`);
  assert.ok(last.plot.train.length >= 1 && last.plot.batch.length >= 3, 'the curves are saved');
  console.log(`# saved at step ${offered} (${at - last.savedAt} ms before the stop, interval ${SAVE_MS} ms); `
    + `step reached ${before.step}; curves ${last.plot.batch.length} batch / ${last.plot.train.length} eval points`);

  await offer(gpt).getByRole('button', { name: 'Resume', exact: true }).click();
  await waitStatus(page, 'running');
  await offer(gpt).waitFor({ state: 'hidden' });
  const r = await state(page);
  assert.ok(r.step >= offered, `resumed at ${r.step}`);
  for (const k of ['batch', 'train', 'val']) {
    assert.deepEqual(r.plot[k].slice(0, last.plot[k].length), last.plot[k], `the ${k} curve is plotted again`);
  }
  await page.waitForFunction((n) => document.querySelector('attn-gpt-train').state.step > n + 20, offered,
    { timeout: 30000 });
  await button(gpt, 'Pause').click();
  await waitStatus(page, 'paused');
  const p = await state(page);
  assert.ok(p.plot.batch.at(-1)[0] > offered, 'new points after the resumed step');
  assert.ok(p.plot.batch.every(([, y]) => Number.isFinite(y)));
  assert.equal(p.info.steps, p.step);
  assert.equal(p.engine.workers, 2, 'the resumed run trains on two workers again');
  assert.match(await gpt.locator('.status').innerText(), new RegExp(`Paused at step ${p.step.toLocaleString('en-US')}`));
  await waitSaved(page, p.step, 5000); // Pause saves at once
  return { offered, resumed: r.step };
}

test('a reload mid-training offers to resume from the last save; the run and its curves come back', () => withPage(async (page) => {
  const gpt = page.locator('attn-gpt-train');
  await waitStatus(page, 'idle');
  await gpt.getByLabel('my own text').check();
  await gpt.locator('attn-gpt-settings textarea').fill('It is a truth universally acknowledged, 1813. '.repeat(60));
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').state.info?.vocab_size === 25);
  await waitStatus(page, 'idle');
  const run = await trainPastASave(page, gpt);
  await page.reload(); // the worker goes with the page
  await page.waitForSelector('html[data-ready="true"]');
  await waitStatus(page, 'idle');
  await resumeAndCheck(page, gpt, run);
  // the learner's own text came back with it
  assert.equal((await state(page)).info.vocab_size, 25);
  assert.equal(await gpt.getByLabel('my own text').isChecked(), true);
  assert.match(await gpt.locator('attn-gpt-settings textarea').inputValue(), /^It is a truth/);

  // Discard forgets the save: the next reload offers nothing
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await offer(gpt).waitFor({ state: 'visible' });
  await offer(gpt).getByRole('button', { name: 'Discard' }).click();
  await offer(gpt).waitFor({ state: 'hidden' });
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await waitStatus(page, 'idle');
  await page.waitForTimeout(500);
  assert.equal(await offer(gpt).isVisible(), false);
}, { hash: '#s9' }));

test('a crashed worker offers to resume from the last save', () => withPage(async (page) => {
  const gpt = page.locator('attn-gpt-train');
  await waitStatus(page, 'idle');
  const run = await trainPastASave(page, gpt);
  await crashGptWorker(page);
  await waitStatus(page, 'crashed');
  // plain words on screen; why it stopped is the message's title, for developers
  const stopped = gpt.locator('.panel > .msg.bad');
  assert.equal(await stopped.innerText(), 'The training stopped unexpectedly.');
  assert.match(await stopped.getAttribute('title'), /crashed/);
  await resumeAndCheck(page, gpt, run);
  assert.equal((await state(page)).info.vocab_size, 63, 'the default corpus');
}, { hash: '#s9', watchPage: useTestWorker, aside: (text) => /a test asked it to/.test(text) })); // the crash it asked for is logged

/** Trains the fresh model past `steps` steps and pauses (Pause saves at once). */
async function trainAndPause(page, gpt, steps, names) {
  await button(gpt, names.start).click();
  await waitStatus(page, 'running');
  await page.waitForFunction((n) => document.querySelector('attn-gpt-train').state.step >= n, steps, { timeout: 60000 });
  await button(gpt, names.pause).click();
  await waitStatus(page, 'paused');
}

// Storage faults: the run trains on, the page says once why nothing is saved, in its
// language, and the training state can still be downloaded.
const FAULTS = [
  ['no IndexedDB (a private window)', 'en', () => Object.defineProperty(window, 'indexedDB', { get: () => undefined, configurable: true }),
    'Could not save progress in this browser: this browser offers no storage (IndexedDB) here, as in some private windows. Training goes on; “Download training state” keeps it.'],
  ['a full quota on put, said in Chinese', 'zh', () => {
    IDBObjectStore.prototype.put = function put() { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
  }, '无法在本浏览器中保存进度：浏览器为本网站提供的存储空间已满。训练照常进行；可用“下载训练状态”保存它。'],
  ['IndexedDB failing to open', 'en', () => {
    indexedDB.open = function open() {
      const req = { error: new DOMException('Internal error opening backing store', 'UnknownError') };
      setTimeout(() => req.onerror?.({ target: req }), 0);
      return req;
    };
  }, 'Could not save progress in this browser: the browser’s storage failed (Internal error opening backing store). Training goes on; “Download training state” keeps it.'],
];
for (const [what, lang, init, note] of FAULTS) {
  test(`storage fault, ${what}: training goes on, the page says why, the state downloads`, () => withPage(async (page) => {
    const gpt = page.locator('attn-gpt-train');
    await waitStatus(page, 'idle');
    const names = lang === 'zh' ? { start: '开始', pause: '暂停', resume: '继续', download: '下载训练状态' }
      : { start: 'Start', pause: 'Pause', resume: 'Resume', download: 'Download training state' };
    await trainAndPause(page, gpt, 20, names);
    await page.waitForFunction(() => document.querySelector('attn-gpt-train').state.saved?.error);
    assert.equal(await gpt.locator('.save-note').innerText(), note);
    // training goes on after the failed save
    const at = (await state(page)).step;
    await button(gpt, names.resume).click();
    await page.waitForFunction((n) => document.querySelector('attn-gpt-train').state.step > n + 10, at, { timeout: 60000 });
    await button(gpt, names.pause).click();
    await waitStatus(page, 'paused');
    const [download] = await Promise.all([page.waitForEvent('download'), button(gpt, names.download).click()]);
    assert.match(download.suggestedFilename(), /^gpt-1x32-step\d+\.state$/);
  }, { hash: '#s9', lang, init }));
}

test('edited lesson weights survive a reload (the URL hash)', () => withPage(async (page) => {
  const input = page.locator('attn-head attn-matrix#W_v td[data-row="0"][data-col="0"] input');
  await input.fill('20');
  await page.waitForFunction(() => location.hash.includes('head='));
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await input.inputValue(), '20');
  assert.equal(await page.locator('attn-head attn-matrix#out td[data-row="0"][data-col="0"]').textContent(), '20.00');
}));
