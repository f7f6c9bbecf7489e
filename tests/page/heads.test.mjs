// Page test of "What its heads learned" (issue 35): the learner picks "repeated random
// strings", trains the induction preset in the page until the heads grid shows an
// induction head, opens it on a probe string and explains one of its weights, switches it
// off; the page's scores are those the native CLI (`gpt heads`) measures on the model the
// page downloads; en and zh, screenshots of each.
// Run from the repo root: node --test --test-concurrency=1 tests/page/heads.test.mjs
// Needs ./build.sh (www/pkg*, www/data/corpus.txt) and the release CLI (cargo builds it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHOTS, pageSuite, settled } from './browser.mjs';
import { REPO } from './dist.mjs';
import { assertClean, button, gptOn, openPretrained, state, waitStatus } from './gpt-harness.mjs';

const site = pageSuite();
const withGpt = gptOn(site);
const OUT = `${SHOTS}heads/`;
await mkdir(OUT, { recursive: true });

const heads = (page) => page.locator('attn-gpt-train').evaluate((el) =>
  el.shadowRoot.querySelector('attn-gpt-heads').state);
const settings = (gpt) => gpt.locator('attn-gpt-settings');

/** Picks "repeated random strings" (in `name`'s words) and waits for its model. */
async function pickRepeat(page, gpt, name) {
  await settings(gpt).getByRole('radio', { name }).check();
  await page.waitForFunction(() => {
    const el = document.querySelector('attn-gpt-train');
    return el.dataset.status === 'idle' && el.state.info?.n_layer === 2 && el.state.info?.block_size === 64;
  }, null, { timeout: 30000 });
}

/** The checkpoint the page's "Download model" gives, through the worker's `save`. */
const checkpointOf = (page) => page.locator('attn-gpt-train').evaluate(async (el) =>
  Array.from(await el.shadowRoot.querySelector('attn-gpt-inspect').client.call('save')));

/** `gpt heads --json` of checkpoint file `file` (the release CLI, as layer 1b builds it). */
const cliHeadsOf = (file) => JSON.parse(execFileSync('cargo', ['run', '--quiet', '--release', '--bin', 'gpt', '--',
  'heads', '--ckpt', file, '--json'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));

/** The same of checkpoint bytes. */
async function cliHeads(bytes) {
  const dir = await mkdtemp(path.join(tmpdir(), 'heads-'));
  try {
    const file = path.join(dir, 'model.safetensors');
    await writeFile(file, Buffer.from(bytes));
    return cliHeadsOf(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The head of layer 0 with the highest previous-token score, in grid state `g`. */
function page1Prev(g) {
  const row = g.previous_token.slice(0, g.previous_token.length / 2);
  return row.indexOf(Math.max(...row));
}

/** Every score of the page's grid `got` equals the CLI's `cli` (n_layer × n_head lists). */
function sameScores(got, cli) {
  for (const k of ['previous_token', 'induction', 'first_token']) {
    const flat = cli[k].flat();
    assert.equal(flat.length, got[k].length);
    flat.forEach((v, i) => assert.ok(Math.abs(v - got[k][i]) < 1e-5, `${k}[${i}]: cli ${v}, page ${got[k][i]}`));
  }
}

test('the repeated strings train an induction head in the page; open it, explain a weight, switch it off', {
  timeout: 480000,
}, () => withGpt(async (page, gpt) => {
  await pickRepeat(page, gpt, 'repeated random strings (watch an induction head form)');
  assert.equal(await settings(gpt).locator('select').inputValue(), 'induction');
  // the sample the learner sees: every line a string written twice
  const sample = await settings(gpt).locator('.repeat pre').innerText();
  const lines = sample.split('\n');
  assert.equal(lines.length, 4, sample);
  for (const line of lines) {
    assert.equal(line.length % 2, 0, line);
    assert.equal(line.slice(0, line.length / 2), line.slice(line.length / 2), line);
  }
  // a fresh model: no head attends anywhere in particular
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-heads').state.best != null);
  const fresh = await heads(page);
  assert.equal(fresh.induction.length, 8);
  assert.ok(fresh.best.score < 0.1, `step 0: ${fresh.best.score}`);
  await page.screenshot({ path: `${OUT}fresh-en.png` });

  const t0 = Date.now();
  await button(gpt, 'Start').click();
  await waitStatus(page, 'running');
  // the grid updates as it trains; wait (without throwing on the way) for a head above 0.5
  await page.waitForFunction(() => (document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-heads').state.best?.score ?? 0) > 0.5, null, { timeout: 420000, polling: 500 });
  const formed = await heads(page);
  console.log(`# induction head formed in the page: step ${formed.step}, ${((Date.now() - t0) / 1000).toFixed(1)} s, ` +
    `L${formed.best.layer + 1} H${formed.best.head + 1} ${formed.best.score.toFixed(3)}`);
  assert.equal(formed.best.layer, 1, 'an induction head needs a layer before it');
  const shot = gpt.locator('.heads-panel');
  await shot.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${OUT}formed-en.png` });

  // its curves: the second copy's loss has parted from the first's
  const plot = formed.plot;
  const last = (k) => plot[k][plot[k].length - 1][1];
  assert.ok(last('second') < last('first') - 1, `first ${last('first')}, second ${last('second')}`);
  assert.ok(plot.induction.length >= 3);

  // the strongest head, clicked in the induction grid, then opened (training pauses)
  const { layer, head } = formed.best;
  const cell = gpt.locator(`attn-gpt-heads button[data-score="induction"][data-l="${layer}"][data-h="${head}"]`);
  await cell.click();
  assert.equal(await cell.getAttribute('aria-pressed'), 'true');
  await gpt.locator('attn-gpt-heads').getByRole('button', { name: 'Open its attention on a probe string' }).click();
  await waitStatus(page, 'paused');
  const paused = await heads(page);
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').dataset.heads === '8');
  const inspect = gpt.locator('attn-gpt-inspect');
  const probeRow = (await page.locator('attn-gpt-train').evaluate((el) =>
    el.shadowRoot.querySelector('attn-gpt-inspect').state.prompt));
  assert.equal(probeRow.length, 24);
  assert.equal(probeRow.slice(0, 12), probeRow.slice(12), 'the probe row: a string written twice');
  const label = `L${layer + 1} H${head + 1}`;
  const fig = inspect.locator(`figure.focus attn-matrix[label="${label}"]`);
  await fig.waitFor();
  // the head's weight from the second copy's 3rd letter (row 14) to the letter after its
  // first occurrence (column 14 − 12 + 1 = 3): the induction target; explained
  const target = fig.locator('td[data-row="14"][data-col="3"]');
  await target.click();
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').shadowRoot.querySelector('attn-explain')?.open === true);
  const weight = await fig.evaluate((m) => m.value.data[14 * 24 + 3]);
  assert.ok(weight > 0.3, `the induction head's weight on t − L + 1: ${weight}`);
  await page.screenshot({ path: `${OUT}opened-en.png` });

  // switched off: the second copy's loss rises by what the CLI's ablation says
  const hp = gpt.locator('attn-gpt-heads');
  await hp.getByRole('checkbox', { name: 'Switch this head off' }).check();
  await page.waitForFunction(() => /loss goes from/.test(document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-heads').shadowRoot.querySelector('.head').textContent));
  const said = await hp.locator('.head p[role="status"]').innerText();
  const [, from, to] = said.match(/from ([\d.]+) to ([\d.]+)/);
  assert.ok(Number(to) > Number(from) + 0.2, said);

  // as the text says: switching off layer 1's strongest previous-token head breaks the
  // induction head too (it reads what that head wrote)
  const prev0 = page1Prev(await heads(page));
  await gpt.locator(`attn-gpt-heads button[data-score="previous_token"][data-l="0"][data-h="${prev0}"]`).click();
  await hp.getByRole('checkbox', { name: 'Switch this head off' }).check();
  await page.waitForFunction(() => /loss goes from/.test(document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-heads').shadowRoot.querySelector('.head').textContent));
  const saidPrev = await hp.locator('.head p[role="status"]').innerText();
  const [, fromP, toP] = saidPrev.match(/from ([\d.]+) to ([\d.]+)/);
  console.log(`# off: induction head L${layer + 1} H${head + 1}: ${from} → ${to}; previous-token head L1 H${prev0 + 1}: ${fromP} → ${toP}`);
  assert.ok(Number(toP) > Number(fromP) + 1, saidPrev);

  // the page's scores are the native core's on the same weights
  const cli = await cliHeads(await checkpointOf(page));
  const page1 = await heads(page);
  assert.equal(page1.step, paused.step);
  sameScores(page1, cli);
  assert.ok(Math.abs(cli.induction[layer][head] - page1.best.score) < 1e-5);
  assert.ok(Math.abs(cli.loss_second - Number(from)) < 0.006, `${cli.loss_second} vs ${from}`);
  await settled(page);
  await assertClean(page);
  assert.equal((await state(page)).status, 'paused');

  // the same grid, the page switched to Chinese: its words follow, its numbers stay
  await page.locator('button[data-lang="zh"]').click();
  await page.waitForFunction(() => /是一个归纳头/.test(document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-heads').shadowRoot.textContent));
  assert.deepEqual((await heads(page)).induction, page1.induction);
  await gpt.locator('.heads-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${OUT}formed-zh.png` });

  // Pause saved the run: a reload offers it, and Resume brings back the repeated strings
  // (made again by the core), the model at its step, and the heads grid's curves, and
  // trains on. The scores at the resumed step are measured again: the same weights give
  // the same numbers as the pause's, and the points before it are the saved ones.
  const saved = (await heads(page)).plot;
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await waitStatus(page, 'idle');
  const offer = gpt.locator('.offer');
  await offer.waitFor({ state: 'visible', timeout: 15000 });
  await offer.getByRole('button', { name: '继续训练', exact: true }).click();
  await waitStatus(page, 'running');
  await page.waitForFunction((n) => document.querySelector('attn-gpt-train').state.step > n + 20, paused.step,
    { timeout: 60000, polling: 200 });
  await gpt.getByRole('button', { name: '暂停', exact: true }).click();
  await waitStatus(page, 'paused');
  const back = await heads(page);
  assert.equal(await settings(gpt).getByRole('radio', { name: '重复的随机字符串（看归纳头形成）' }).isChecked(), true);
  for (const k of ['first', 'second', 'induction']) {
    const before = saved[k].filter(([st]) => st < paused.step);
    assert.deepEqual(back.plot[k].slice(0, before.length), before, `${k}: the saved points`);
    const at = back.plot[k].find(([st]) => st === paused.step);
    assert.deepEqual(at, saved[k].at(-1), `${k} at step ${paused.step}: the same weights, the same value`);
    assert.ok(back.plot[k].at(-1)[0] > paused.step, `${k}: it trained on`);
  }
  await assertClean(page);
}));

test('the pretrained Shakespeare model: its grid is the CLI\'s, and its first layer looks back one character', {
  timeout: 120000,
}, () => withGpt(async (page, gpt) => {
  await openPretrained(page, gpt);
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-heads').state.previous_token.length === 8);
  const got = await heads(page);
  sameScores(got, cliHeadsOf(path.join(REPO, 'www/models/small.safetensors')));
  // evenly spread attention would give mean 1/(t + 1) over t = 1..23: 0.12
  const even = Array.from({ length: 23 }, (_, i) => 1 / (i + 2)).reduce((a, b) => a + b) / 23;
  const layer0 = got.previous_token.slice(0, 4);
  assert.ok(Math.min(...layer0) > 2 * even, `layer 1 previous-token ${layer0} against even ${even}`);
  assert.ok(got.best.score < 0.1, 'no induction head: Shakespeare at block 32 did not need one');
  await assertClean(page);
}));

test('a block too short for the probe: the grid says why, and the model still trains', { timeout: 120000 },
  () => withGpt(async (page, gpt) => {
    const field = settings(gpt).locator('input[name="block_size"]');
    await field.fill('3');
    await page.waitForFunction(() => {
      const el = document.querySelector('attn-gpt-train');
      return el.dataset.status === 'idle' && el.state.info?.block_size === 3;
    }, null, { timeout: 30000 });
    await page.waitForFunction(() => /block_size \(3\)/.test(document.querySelector('attn-gpt-train').shadowRoot
      .querySelector('attn-gpt-heads').shadowRoot.querySelector('.best').textContent));
    await button(gpt, 'Start').click();
    await page.waitForFunction(() => document.querySelector('attn-gpt-train').state.step >= 30, null,
      { timeout: 60000, polling: 100 });
    await button(gpt, 'Pause').click();
    await waitStatus(page, 'paused');
    assert.equal((await heads(page)).best, null);
    await assertClean(page);
  }));

test('中文: the heads grid and the repeated strings speak Chinese', { timeout: 120000 }, () => withGpt(async (page, gpt) => {
  await pickRepeat(page, gpt, '重复的随机字符串（看归纳头形成）');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-heads').state.best != null);
  const text = await page.locator('attn-gpt-train').evaluate((el) =>
    el.shadowRoot.querySelector('attn-gpt-heads').shadowRoot.textContent);
  assert.match(text, /归纳/);
  assert.match(text, /第 0 步：还没有归纳头。最高的分数是 0\.0\d（第 \d 层第 \d 个头）/);
  assert.doesNotMatch(text, /previous-token|first-token|induction (score|head)/i); // "induction" alone: the preset
  await gpt.locator('.heads-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${OUT}fresh-zh.png` });
  await assertClean(page);
}, { lang: 'zh' }));
