// Page tests for "every run kept" (issue 14): each training run is its own record in
// IndexedDB, owned by one trainer at a time (Web Locks), listed with its space; records
// of the previous format, of another version and damaged ones; the curves bounded over a
// long run. Tabs are pages of one browser context (one origin's storage and locks).
// Run from the repo root: node --test --test-concurrency=1 tests/page/runs.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SHOTS, pageSuite, settled, watch } from './browser.mjs';

const site = pageSuite();
const SAVE_MS = 10000; // www/js/gpt/run-saves.js
const MAX_RUNS = 8; // www/js/gpt/run-saves.js
const MAX_POINTS = 4000; // gpt-plot.js

const STRINGS = {
  en: { start: 'Start', pause: 'Pause', resume: 'Resume', offerResume: 'Resume', look: 'Look (read-only)', take: 'Take over',
    rename: 'Rename', del: 'Delete', model: 'Weights (.safetensors)', state: 'Training state (.state)', download: 'Download .safetensors' },
  zh: { start: '开始', pause: '暂停', resume: '继续', offerResume: '继续训练', look: '只读查看', take: '接管',
    rename: '重命名', del: '删除', model: '权重（.safetensors）', state: '训练状态（.state）', download: '下载 .safetensors' },
};

/** Tabs of one browser (one context): open(lang?) → { page, gpt, s (its strings) }; close()
 *  closes them and asserts that no tab logged a problem. */
async function browserTabs(lang = 'en') {
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  await context.addInitScript((l) => localStorage.setItem('attention-playground.lang', l), lang);
  const problems = [];
  const open = async () => {
    const page = await context.newPage();
    problems.push(watch(page).problems);
    await page.goto(`${site.base}index.html#s9`);
    return ready(page);
  };
  const close = async () => {
    await context.close();
    assert.deepEqual(problems.flat(), [], 'no console error or warning, page error or failed request in any tab');
  };
  return { context, open, close, s: STRINGS[lang] };
}

/** Runs `fn(tabs)` on the tabs of a fresh browser context in `lang`, then closes them. */
async function inTabs(lang, fn) {
  const tabs = await browserTabs(lang);
  try {
    await fn(tabs);
  } finally {
    await tabs.close();
  }
}

/** Waits for the page's trainer to have its first model and its saved runs read. */
async function ready(page) {
  await page.waitForSelector('html[data-ready="true"]', { timeout: 30000 });
  const gpt = page.locator('attn-gpt-train');
  await gpt.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => {
    const el = document.querySelector('attn-gpt-train');
    return ['idle', 'paused'].includes(el?.dataset.status) && el.shadowRoot.querySelector('.runs h3')?.textContent;
  }, null, { timeout: 30000 });
  return { page, gpt };
}

const state = ({ gpt }) => gpt.evaluate((el) => el.state);
const status = ({ page }, s, timeout = 30000) => page.waitForFunction(
  (want) => document.querySelector('attn-gpt-train').dataset.status === want, s, { timeout });
const click = (tab, name) => tab.gpt.locator('.panel .controls').getByRole('button', { name, exact: true }).click();
const MSG = '.panel > .msg:not(.file-msg)'; // the message above the stats
const offerText = (tab) => tab.gpt.locator('.offer > span').innerText();
const until = ({ page }, fn, arg, timeout = 60000) => page.waitForFunction(fn, arg, { timeout, polling: 100 });
const stepAtLeast = (tab, n, timeout) => until(tab, (k) => document.querySelector('attn-gpt-train').state.step >= k, n, timeout);
const savedAtLeast = (tab, n, timeout = SAVE_MS + 30000) =>
  until(tab, (k) => document.querySelector('attn-gpt-train').state.saved?.step >= k, n, timeout);

/** Every stored record, as the store lists it (state bytes as lengths). */
const stored = ({ page }) => page.evaluate(async () => {
  const { listRuns } = await import('./js/gpt/store.js');
  const { runs, damaged } = await listRuns();
  return { runs: runs.map(({ state: st, ...r }) => ({ ...r, stateBytes: st.length })), damaged };
});

async function setConfig(tab, fields) {
  for (const [k, v] of Object.entries(fields)) await tab.gpt.locator(`attn-gpt-settings input[name="${k}"]`).fill(String(v));
  await until(tab, (f) => {
    const info = document.querySelector('attn-gpt-train').state.info;
    return info && Object.entries(f).every(([k, v]) => info[k] === v);
  }, fields, 30000);
  await status(tab, 'idle');
}

async function setWorkers(tab, k) {
  const w = tab.gpt.locator('input.workers');
  await w.fill(String(k));
  await w.dispatchEvent('change');
}

test('two tabs train two runs at once; a reload of each offers its own run, not the newest save', () => inTabs('en', async (tabs) => {
  const a = await tabs.open();
  const b = await tabs.open();
  await setConfig(b, { n_embd: 16 });
  for (const t of [a, b]) {
    await setWorkers(t, 1);
    await click(t, 'Start');
    await status(t, 'running');
  }
  await savedAtLeast(a, 1);
  await savedAtLeast(b, 1);
  const runA = (await state(a)).run;
  const runB = (await state(b)).run;
  assert.notEqual(runA, runB, 'each tab trains a run of its own');
  await click(a, 'Pause');
  await status(a, 'paused');
  await savedAtLeast(a, (await state(a)).step, 5000); // Pause saves at once
  const pausedA = await state(a);
  await b.page.waitForTimeout(SAVE_MS + 1000); // B saves again, after A's Pause: the newest save is B's
  const savedB = (await state(b)).saved;
  assert.ok(savedB.savedAt > pausedA.saved.savedAt, 'B saved after A paused');
  const list = await stored(a);
  assert.deepEqual(list.runs.map((r) => r.id).sort(), [runA, runB].sort(), 'two records, one per run');
  console.log(`# A paused at step ${pausedA.saved.step}; B saved at step ${savedB.step}; records: `
    + list.runs.map((r) => `${r.id} n_embd ${r.config.n_embd} step ${r.step} (${r.stateBytes} B)`).join(', '));

  await a.page.reload();
  await ready(a.page);
  assert.deepEqual((await state(a)).offer, { id: runA, busy: false }, 'A offers its own run');
  assert.equal(await offerText(a), `Resume training from step ${pausedA.saved.step.toLocaleString('en-US')} (saved `
    + `${new Date(pausedA.saved.savedAt).toTimeString().slice(0, 5)})?`);
  assert.equal(await a.gpt.locator('.runs h3').innerText(), 'Saved runs (2)');

  await b.page.reload(); // B was training: its worker goes with the page, its last save stays
  await ready(b.page);
  assert.equal((await state(b)).offer.id, runB, 'B offers its own run');
  await b.gpt.locator('.offer').getByRole('button', { name: 'Resume', exact: true }).click();
  await status(b, 'running');
  assert.equal((await state(b)).info.n_embd, 16, "B's run goes on with B's model");
  await a.gpt.locator('.offer').getByRole('button', { name: 'Resume', exact: true }).click();
  await status(a, 'running');
  const ra = await state(a);
  assert.equal(ra.info.n_embd, 32, "A's run goes on with A's model");
  assert.equal(ra.run, runA);
  assert.ok(ra.step >= pausedA.saved.step);
  await a.page.screenshot({ path: `${SHOTS}runs-two-tabs.png` });
  for (const t of [a, b]) {
    await click(t, 'Pause');
    await status(t, 'paused');
  }
}));

test('a run another tab trains: looked at read-only, then taken over from its Pause; the first tab says so, and takes it back', () => inTabs('en', async (tabs) => {
  const a = await tabs.open();
  await setWorkers(a, 1);
  await click(a, 'Start');
  await status(a, 'running');
  const first = (await savedAtLeast(a, 1), await state(a));
  const b = await tabs.open();
  const offer = await state(b);
  assert.deepEqual(offer.offer, { id: first.run, busy: true }, 'the second tab sees the run is trained elsewhere');
  assert.match(await offerText(b), /^Run “Run of .+” is training in another tab \(saved at step [\d,]+, \d\d:\d\d\)\.$/);
  assert.equal(await b.gpt.locator('.offer').getByRole('button', { name: 'Resume', exact: true }).isVisible(), false);

  // a read-only look: the run as saved, paused, and no claim on it
  await b.gpt.locator('.offer').getByRole('button', { name: STRINGS.en.look }).click();
  await status(b, 'paused');
  const look = await state(b);
  assert.equal(look.run, first.run);
  assert.equal(look.owned, false);
  assert.match(await b.gpt.locator(MSG).innerText(), /^Looking at “Run of .+” as it was saved\./);
  await click(b, 'Resume'); // still trained in A: offered to take over, not trained
  await until(b, () => document.querySelector('attn-gpt-train').state.offer?.busy === true);
  assert.equal(await b.gpt.locator(MSG).innerText(), 'Another tab is training this run: take it over to train it here.');
  assert.equal((await state(b)).status, 'paused');
  assert.equal((await state(a)).status, 'running', 'A trains on');

  // taking over: A pauses (its Pause saves), B goes on from that save
  await b.gpt.locator('.offer').getByRole('button', { name: STRINGS.en.take }).click();
  await status(a, 'paused');
  await status(b, 'running');
  const pausedA = await state(a);
  assert.equal(await a.gpt.locator(MSG).innerText(),
    `Another tab took this run over at step ${pausedA.step.toLocaleString('en-US')}: it trains there now.`);
  const took = await state(b);
  assert.equal(took.run, first.run);
  assert.equal(took.owned, true);
  assert.equal(pausedA.owned, false);
  assert.ok(took.step >= pausedA.step, `B goes on from A's pause (${pausedA.step}), at ${took.step}`);
  await a.page.screenshot({ path: `${SHOTS}runs-taken-over.png` });
  await a.page.locator('button[data-lang="zh"]').click(); // said again in Chinese
  assert.equal(await a.gpt.locator(MSG).innerText(), `另一个标签页在第 ${pausedA.step.toLocaleString('en-US')} 步接管了这次训练：现在由它训练。`);
  await a.page.locator('button[data-lang="en"]').click();

  // A cannot train it meanwhile; once B pauses, A takes it back from B's save
  await click(a, 'Resume');
  await until(a, () => document.querySelector('attn-gpt-train').state.offer?.busy === true, null, 20000).catch(async (err) => {
    const [sa, sb] = [await state(a), await state(b)];
    console.log(`# A: ${sa.status} owned ${sa.owned} offer ${JSON.stringify(sa.offer)} msg "${await a.gpt.locator(MSG).innerText()}"; B: ${sb.status} owned ${sb.owned}`);
    throw err;
  });
  assert.equal((await state(a)).status, 'paused');
  await stepAtLeast(b, took.step + 200);
  await click(b, 'Pause');
  await status(b, 'paused');
  const pausedB = await state(b);
  await a.gpt.locator('.offer').getByRole('button', { name: STRINGS.en.take }).click();
  await status(a, 'running');
  const back = await state(a);
  assert.ok(back.step >= pausedB.step, `A goes on from B's save (${pausedB.step}), not its own (${pausedA.step}): at ${back.step}`);
  await click(a, 'Pause');
  await status(a, 'paused');
  const { runs } = await stored(a);
  assert.equal(runs.length, 1, 'one run, one record');
  assert.equal(runs[0].step, (await state(a)).step);
}));

/** Trains the tab's model from its start past `steps` steps, and pauses. */
async function trainPaused(tab, steps) {
  const s = STRINGS[tab.lang ?? 'en'];
  await click(tab, s.start);
  await status(tab, 'running');
  await stepAtLeast(tab, steps);
  await click(tab, s.pause);
  await status(tab, 'paused');
}

/** A new run (Reset) trained past `steps` steps, paused (its first save). */
async function newRun(tab, steps) {
  await click(tab, 'Reset');
  await status(tab, 'idle');
  await trainPaused(tab, steps);
}

/** Trains the tab's fresh model `steps` steps and pauses; returns the stored record (bytes too). */
async function trainedRecord(tab, steps) {
  await setWorkers(tab, 1);
  await trainPaused(tab, steps);
  await savedAtLeast(tab, steps, 10000);
  return tab.page.evaluate(async (id) => {
    const { loadSave } = await import('./js/gpt/store.js');
    const rec = await loadSave(id);
    return { ...rec, state: [...rec.state] };
  }, (await state(tab)).run);
}

/** The step and the date the list of saved runs shows for run `id`
 *  ("tiny · 1 × 32 · Shakespeare · step 1,234 · val loss 2.345 · saved 6 Dec 2026, 17:55"). */
async function listed(tab, id) {
  const facts = await tab.gpt.locator(`.runs li[data-run="${id}"] .run-facts`).innerText();
  const m = /step ([\d,]+) · val loss \S+ · saved (.+)$/.exec(facts);
  assert.ok(m, facts);
  return { step: Number(m[1].replace(/,/g, '')), at: m[2] };
}

/** Waits until the tab's Pause has saved the step it paused at; returns that step. */
async function pauseSaved(tab) {
  await until(tab, () => {
    const s = document.querySelector('attn-gpt-train').state;
    return s.status === 'paused' && s.saved?.step === s.step;
  });
  await settled(tab.page);
  return (await state(tab)).step;
}

/** The list shows run `id` at `step`, dated as the page dates (format.js formatDate). */
async function assertListed(tab, id, step, what) {
  const row = await listed(tab, id);
  assert.equal(row.step, step, `${what}: the list shows the step of the last save`);
  const savedAt = (await stored(tab)).runs.find((r) => r.id === id).savedAt;
  assert.equal(row.at, await tab.page.evaluate(async (ms) => (await import('./js/ui/format.js')).formatDate(ms, 'en', { time: true }), savedAt),
    `${what}: one date format`);
}

test('the list of saved runs shows the step of the last save: after each Pause, and after a reload and a Resume', () => inTabs('en', async (tabs) => {
  const a = await tabs.open();
  await setWorkers(a, 1);
  await trainPaused(a, 30);
  const run = (await state(a)).run;
  const first = await pauseSaved(a);
  await assertListed(a, run, first, 'the first Pause');

  await click(a, 'Resume');
  await status(a, 'running');
  await stepAtLeast(a, first + 40);
  await click(a, 'Pause');
  const second = await pauseSaved(a);
  assert.ok(second >= first + 40);
  assert.equal(await a.gpt.locator('p.status').innerText(), `Paused at step ${second.toLocaleString('en-US')}. Open the model below, or Resume.`);
  await assertListed(a, run, second, 'a second Pause');

  await a.page.reload();
  await ready(a.page);
  await assertListed(a, run, second, 'right after a reload');
  await a.gpt.locator('.offer').getByRole('button', { name: 'Resume', exact: true }).click();
  await status(a, 'running');
  await stepAtLeast(a, second + 40);
  await click(a, 'Pause');
  const third = await pauseSaved(a);
  assert.equal((await state(a)).run, run, 'the same run goes on');
  await assertListed(a, run, third, 'a Pause after the reload and a Resume');
  await a.page.reload();
  await ready(a.page);
  await assertListed(a, run, third, 'after another reload');
}));

test('zh: a save of the previous format resumes; another version\'s downloads; a damaged record is named and skipped; rename, download, delete', () => inTabs('zh', async (tabs) => {
  const s = STRINGS.zh;
  const a = { ...(await tabs.open()), lang: 'zh' };
  const rec = await trainedRecord(a, 40);
  // The store as the previous version left it: database version 1, one record "last"
  // with the fields SAVE_VERSION 1 wrote (no id, name or start time).
  await a.page.evaluate(async (r) => {
    const v1 = { version: 1, state: new Uint8Array(r.state), step: r.step, savedAt: r.savedAt - 3600e3, source: r.source,
      text: r.text, preset: r.preset, config: r.config, causal: r.causal, plot: r.plot, sample: r.sample,
      sampleStep: r.sampleStep, eval: r.eval };
    const done = (req) => new Promise((res, rej) => { req.onsuccess = () => res(req.result); req.onerror = () => rej(req.error); });
    await done(indexedDB.deleteDatabase('attention-playground-gpt'));
    const open = indexedDB.open('attention-playground-gpt', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('saves');
    const db = await done(open);
    await done(db.transaction('saves', 'readwrite').objectStore('saves').put(v1, 'last'));
    db.close();
  }, rec);
  await a.page.reload();
  await ready(a.page);
  const migrated = await stored(a);
  assert.deepEqual(migrated.runs.map((r) => [r.id, r.kind, r.step, r.stateBytes]), [['v1-last', 'run', rec.step, rec.state.length]],
    'the old save is moved to the runs store and read as a run');
  assert.deepEqual((await state(a)).offer, { id: 'v1-last', busy: false });
  assert.match(await offerText(a), new RegExp(`^从第 ${rec.step.toLocaleString('en-US')} 步继续训练吗（保存于 \\d\\d:\\d\\d）？$`));

  // another version's record and a damaged one, beside it
  await a.page.evaluate(async (r) => {
    const done = (req) => new Promise((res, rej) => { req.onsuccess = () => res(req.result); req.onerror = () => rej(req.error); });
    const db = await done(indexedDB.open('attention-playground-gpt', 2));
    const store = db.transaction('runs', 'readwrite').objectStore('runs');
    store.put({ ...r, state: new Uint8Array(r.state), version: 99, id: 'later', name: 'from a later page', savedAt: r.savedAt - 7200e3 }, 'later');
    await done(store.put({ version: 2, id: 'broken', step: 12, savedAt: Date.now() }, 'broken'));
    db.close();
  }, rec);
  await a.page.reload();
  await ready(a.page);
  const all = await stored(a);
  assert.deepEqual(all.runs.map((r) => [r.id, r.kind]), [['v1-last', 'run'], ['later', 'other']]);
  assert.deepEqual(all.damaged, [{ id: 'broken', why: 'noState' }]);
  const runs = a.gpt.locator('.runs');
  assert.equal(await runs.locator('h3').innerText(), '已保存的训练（2）');
  assert.equal(await runs.locator('[data-damaged="broken"] > span').innerText(), '跳过了一条损坏的记录（broken）：其中没有训练状态。');
  const later = runs.locator('[data-run="later"]');
  assert.match(await later.innerText(), /由本页面的其他版本保存：可以下载，不能在这里继续/);
  assert.equal(await later.getByRole('button', { name: '继续这次训练' }).count(), 0, 'it does not resume here');
  const [dl] = await Promise.all([a.page.waitForEvent('download'), later.getByRole('button', { name: s.state }).click()]);
  assert.deepEqual([...await readFile(await dl.path())], rec.state, "its training state downloads, byte for byte");
  await runs.screenshot({ path: `${SHOTS}runs-list-zh.png` });

  // the migrated run resumes and is saved in the current format
  await a.gpt.locator('.offer').getByRole('button', { name: s.offerResume, exact: true }).click();
  await status(a, 'running');
  assert.ok((await state(a)).step >= rec.step);
  await click(a, s.pause);
  await status(a, 'paused');
  // The pause saves after the status says paused (a slow machine read the old record once,
  // in clean-clone CI): wait for that save, as the trainer reports it, then read it.
  const pausedAt = (await state(a)).step;
  await savedAtLeast(a, pausedAt);
  const resumed = await a.page.evaluate(async () => {
    const done = (req) => new Promise((res, rej) => { req.onsuccess = () => res(req.result); req.onerror = () => rej(req.error); });
    const db = await done(indexedDB.open('attention-playground-gpt', 2));
    const r = await done(db.transaction('runs').objectStore('runs').get('v1-last'));
    db.close();
    return { version: r.version, step: r.step, id: r.id };
  });
  assert.deepEqual(resumed, { version: 2, step: pausedAt, id: 'v1-last' });

  // rename (kept across a reload), download the weights from the list, delete
  const row = runs.locator('[data-run="v1-last"]');
  await row.getByRole('button', { name: s.rename }).click();
  const field = row.getByRole('textbox', { name: '训练的名称' });
  await field.fill('莎士比亚，第一次');
  await field.press('Enter');
  await until(a, () => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('[data-run="v1-last"] .run-name')?.textContent === '莎士比亚，第一次');
  const [fromList] = await Promise.all([a.page.waitForEvent('download'), row.getByRole('button', { name: s.model }).click()]);
  const [fromModel] = await Promise.all([a.page.waitForEvent('download'), a.gpt.getByRole('button', { name: s.download, exact: true }).click()]);
  const listBytes = await readFile(await fromList.path());
  assert.ok(listBytes.length > 10000, `${listBytes.length} bytes`);
  assert.ok(listBytes.equals(await readFile(await fromModel.path())),
    'the weights made from the stored state are the model on screen, byte for byte');
  await a.page.reload();
  await ready(a.page);
  assert.equal(await runs.locator('[data-run="v1-last"] .run-name').innerText(), '莎士比亚，第一次');
  await runs.locator('[data-damaged="broken"]').getByRole('button', { name: s.del }).click();
  await runs.locator('[data-damaged]').waitFor({ state: 'detached' });
  const gone = runs.locator('[data-run="later"]');
  await gone.getByRole('button', { name: s.del }).click();
  assert.equal(await gone.locator('.run-actions > span').innerText(), '永久删除“from a later page”吗？');
  await gone.getByRole('button', { name: s.del }).click();
  await gone.waitFor({ state: 'detached' });
  assert.deepEqual((await stored(a)).runs.map((r) => r.id), ['v1-last']);
  assert.deepEqual((await stored(a)).damaged, []);
}));

test('more runs than the limit: the oldest is offered for deletion, never one saved in the last minute; the list says the space', () => inTabs('en', async (tabs) => {
  const a = await tabs.open();
  const rec = await trainedRecord(a, 20);
  // MAX_RUNS old runs beside this one (days old), then one more saved a moment ago
  await a.page.evaluate(async ({ r, n }) => {
    const { putRun } = await import('./js/gpt/store.js');
    for (let i = 1; i <= n; i++) {
      await putRun({ ...r, state: new Uint8Array(r.state), id: `old-${i}`, name: `old ${i}`, savedAt: Date.now() - i * 86400e3 });
    }
  }, { r: rec, n: MAX_RUNS });
  await a.page.reload();
  await ready(a.page);
  // a new run's first save reads the list: 10 runs, the oldest (old 8) is asked about
  await newRun(a, 20);
  const ask = a.gpt.locator('.runs .ask[role="alert"]');
  await ask.waitFor({ state: 'visible', timeout: 15000 });
  assert.equal(await ask.locator('span').innerText(), `More than ${MAX_RUNS} runs are saved: delete the oldest, “old ${MAX_RUNS}” (step ${rec.step})?`);
  const est = await a.page.evaluate(() => navigator.storage.estimate());
  const space = await a.gpt.locator('.run-space').innerText();
  const m = /^Saved in this browser: ([\d.,]+) MB used of the ([\d,]+) MB it allows this site\.$/.exec(space);
  assert.ok(m, space);
  assert.ok(Math.abs(Number(m[1].replace(/,/g, '')) - est.usage / 1e6) < 0.2 + est.usage / 1e7, `${space} against ${est.usage} B`);
  console.log(`# ${MAX_RUNS + 2} runs of ${rec.state.length} B of state each: "${space}" (estimate ${est.usage} of ${est.quota} B)`);
  // deleted: still one over the limit, so the next oldest is asked about; kept
  await ask.getByRole('button', { name: 'Delete the oldest' }).click();
  await until(a, (name) => document.querySelector('attn-gpt-train').shadowRoot.querySelector('.runs .ask span')
    ?.textContent.includes(name), `“old ${MAX_RUNS - 1}”`, 15000);
  await ask.getByRole('button', { name: 'Keep it' }).click();
  await ask.waitFor({ state: 'hidden' });
  const ids = (await stored(a)).runs.map((r) => r.id);
  assert.equal(ids.length, MAX_RUNS + 1);
  assert.ok(!ids.includes(`old-${MAX_RUNS}`) && ids.includes(`old-${MAX_RUNS - 1}`), ids.join(' '));

  // runs all saved within the last minute are never offered for deletion: only this
  // one and MAX_RUNS saved a moment ago are left, and a new run's first save comes
  await a.page.evaluate(async ({ r, n, keep }) => {
    const { dropRun, listRuns, putRun } = await import('./js/gpt/store.js');
    for (const x of (await listRuns()).runs) if (x.id !== keep) await dropRun(x.id);
    for (let i = 1; i <= n; i++) await putRun({ ...r, state: new Uint8Array(r.state), id: `new-${i}`, savedAt: Date.now() - i * 100 });
  }, { r: rec, n: MAX_RUNS, keep: (await state(a)).run });
  await newRun(a, 20);
  await until(a, (n) => document.querySelector('attn-gpt-train').shadowRoot.querySelector('.runs h3').textContent
    === `Saved runs (${n})`, MAX_RUNS + 2, 15000);
  assert.equal(await a.gpt.locator('.runs .ask').isVisible(), false, 'every run is under a minute old: none is offered for deletion');
}));

test('a 200,000-step run and on: the tab\'s memory and the saved record stay bounded (printed)', () => inTabs('en', async (tabs) => {
  const a = await tabs.open();
  const cdp = await tabs.context.newCDPSession(a.page);
  await cdp.send('Performance.enable');
  await setWorkers(a, 1);
  await setConfig(a, { n_layer: 1, n_head: 1, n_embd: 4, block_size: 2, batch_size: 1 });
  const measure = async (label) => {
    await click(a, 'Pause');
    await status(a, 'paused');
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((x) => x.name === 'JSHeapUsedSize').value;
    const s = await state(a);
    await savedAtLeast(a, s.step, 10000);
    const rec = await a.page.evaluate(async (id) => {
      const { loadSave } = await import('./js/gpt/store.js');
      const { state: bytes, ...rest } = await loadSave(id);
      return { stateBytes: bytes.length, restBytes: new Blob([JSON.stringify(rest)]).size, batch: rest.plot.batch.length };
    }, s.run);
    const m = { label, step: s.step, heap, ...rec, size: rec.stateBytes + rec.restBytes };
    console.log(`# ${label}: step ${s.step.toLocaleString('en-US')}, page heap ${(heap / 1e6).toFixed(2)} MB, record `
      + `${(m.size / 1e3).toFixed(1)} KB (state ${rec.stateBytes} B + curves and settings ${rec.restBytes} B), `
      + `${rec.batch} batch-loss points`);
    return m;
  };
  const train = async (done, arg) => {
    await click(a, (await state(a)).step > 0 ? 'Resume' : 'Start');
    await status(a, 'running');
    await until(a, done, arg, 240000);
  };
  const stepsDone = (k) => document.querySelector('attn-gpt-train').state.step >= k;
  await train(stepsDone, 20000);
  const early = await measure('past 20,000 steps');
  await train(stepsDone, 200000);
  const mid = await measure('past 200,000 steps');
  // Days more of training send ~10 progress events a second: 1,000,000 points more fed
  // to the run's curves stand for them (over the next 100,000 steps: this model runs
  // ~100,000 steps a second), then it trains on past them.
  await a.gpt.evaluate((el, from) => {
    const plot = el.shadowRoot.querySelector('attn-loss-plot');
    for (let i = 1; i <= 1000000; i++) plot.add('batch', from + i / 10, 2 + 1 / i);
  }, mid.step);
  await a.gpt.evaluate((el, k) => el.shadowRoot.querySelector('attn-loss-plot').data.batch.length <= k, MAX_POINTS);
  await train(stepsDone, mid.step + 300000);
  const late = await measure('past 1,000,000 more points of curves and 300,000 more steps');
  const s = await state(a);
  assert.ok(s.step >= 200000, `${s.step} steps`);
  for (const k of ['batch', 'train', 'val']) assert.ok(s.plot[k].length <= MAX_POINTS, `${k}: ${s.plot[k].length} points`);
  assert.ok(late.batch <= MAX_POINTS && late.restBytes < 3 * MAX_POINTS * 48 + 20000, `record's curves ${late.restBytes} B`);
  assert.ok(late.stateBytes < early.stateBytes + 64, `the state: ${early.stateBytes} → ${late.stateBytes} B`);
  assert.ok(late.step > mid.step);
  assert.ok(late.heap < early.heap + 8e6, `page heap ${early.heap} → ${late.heap} B`);
  assert.ok(s.plot.batch[0][0] <= early.step && s.plot.batch.at(-1)[0] === s.step, 'the curve still spans the run');
}));

test('the loss plot keeps at most MAX_POINTS points of a curve of any length: the first and the newest stay', () => inTabs('en', async (tabs) => {
  const a = await tabs.open();
  const got = await a.page.evaluate(() => {
    const plot = document.createElement('attn-loss-plot');
    document.body.append(plot);
    for (let i = 1; i <= 1000000; i++) plot.add('batch', i, 5 / Math.sqrt(i));
    const d = plot.data.batch;
    plot.remove();
    return { n: d.length, first: d[0], last: d.at(-1), sorted: d.every((p, i) => i === 0 || p[0] > d[i - 1][0]) };
  });
  assert.ok(got.n <= MAX_POINTS && got.n > MAX_POINTS / 2, `${got.n} points`);
  assert.deepEqual(got.first, [1, 5]);
  assert.deepEqual(got.last, [1000000, 0.005]);
  assert.ok(got.sorted);
  console.log(`# a curve of 1,000,000 points keeps ${got.n}`);
}));

test('a save that fails (quota) leaves the previous save of the run whole and readable', () => inTabs('en', async (tabs) => {
  const a = await tabs.open();
  const good = await trainedRecord(a, 30);
  await a.page.evaluate(() => {
    IDBObjectStore.prototype.put = function put() { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };
  });
  await click(a, 'Resume');
  await status(a, 'running');
  await stepAtLeast(a, good.step + 100);
  await click(a, 'Pause');
  await status(a, 'paused');
  await until(a, () => document.querySelector('attn-gpt-train').state.saved?.error, null, 10000);
  assert.match(await a.gpt.locator('.save-note').innerText(), /the browser’s storage for this site is full/);
  const kept = await a.page.evaluate(async (id) => {
    const { loadSave } = await import('./js/gpt/store.js');
    const r = await loadSave(id);
    return { step: r.step, savedAt: r.savedAt, state: [...r.state] };
  }, good.id);
  assert.equal(kept.step, good.step, 'the last good save, at its step');
  assert.equal(kept.savedAt, good.savedAt);
  assert.deepEqual(kept.state, good.state, 'its state, byte for byte');
}));

// Two trainers on one page (one tab): the same lock keeps them off each other's run.
const TWO = '__runs-two-trainers.html';
const TWO_PATH = fileURLToPath(new URL(`../../www/${TWO}`, import.meta.url));

test('two trainers in one tab: the second sees the first\'s run as trained elsewhere and takes it over', async () => {
  await writeFile(TWO_PATH, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two trainers</title>
<link rel="icon" href="data:,"><script type="module" src="widgets.js"></script></head>
<body><attn-gpt-train id="one"></attn-gpt-train><attn-gpt-train id="two"></attn-gpt-train></body></html>
`);
  const context = await site.browser.newContext({ viewport: { width: 1100, height: 900 } });
  try {
    const page = await context.newPage();
    const { problems } = watch(page);
    await page.goto(`${site.base}${TWO}`);
    const st = (id) => page.locator(`#${id}`).evaluate((el) => el.state);
    const wait = (fn, arg) => page.waitForFunction(fn, arg, { timeout: 60000, polling: 100 });
    const statusOf = (id, s) => wait(([i, want]) => document.getElementById(i)?.dataset.status === want, [id, s]);
    const controls = (id) => page.locator(`#${id}`).locator('.panel .controls');
    await statusOf('one', 'idle');
    await statusOf('two', 'idle');
    await controls('one').getByRole('button', { name: 'Start', exact: true }).click();
    await statusOf('one', 'running');
    await wait(() => document.getElementById('one').state.saved?.step > 0, null);
    const run = (await st('one')).run;
    // the second trainer, as a page opened now would, looks for saved runs
    await page.locator('#two').evaluate((el) => el.remove());
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('attn-gpt-train'), { id: 'two' })));
    await wait((id) => document.getElementById('two').state.offer?.id === id, run);
    assert.deepEqual((await st('two')).offer, { id: run, busy: true });
    await page.locator('#two .offer').getByRole('button', { name: 'Take over' }).click();
    await statusOf('one', 'paused');
    await statusOf('two', 'running');
    const [one, two] = [await st('one'), await st('two')];
    assert.equal(two.run, run);
    assert.deepEqual([one.owned, two.owned], [false, true]);
    assert.ok(two.step >= one.step, `two goes on from one's pause (${one.step}) at ${two.step}`);
    assert.equal(await page.locator('#one .panel > .msg:not(.file-msg)').innerText(),
      `Another tab took this run over at step ${one.step.toLocaleString('en-US')}: it trains there now.`);
    await controls('two').getByRole('button', { name: 'Pause', exact: true }).click();
    await statusOf('two', 'paused');
    assert.deepEqual(problems, [], 'no console error or warning, page error or failed request');
  } finally {
    await context.close();
    await rm(TWO_PATH, { force: true });
  }
});
