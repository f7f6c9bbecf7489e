// Page test of <attn-gpt2> (issue 33): GPT-2-family models made here by PyPI transformers
// (tools/gpt2_hf.py, the folders tests/tools/test_gpt2.py makes), served from a local server
// in the Hugging Face hub's layout (<hub>/<repo>/resolve/main/<file>, with the hub's CORS
// header). The learner opens one from "the hub" (progress shown, kept in the Cache API),
// and everything the page shows is checked against the release CLI on the same folder:
// the tokens, the next token's top 10, a head's weights, a head switched off, greedy
// generation. A weight is explained to the bit. The model then reopens offline from the
// cache and is deleted. Refusals (BERT, a truncated file, no tokenizer, a cancel) are said
// in the page's language. Screenshots (random and trained weights, en and zh, 1280×800
// and 390×844) go to target/screenshots/gpt2/.
// Run from the repo root: node --test tests/page/gpt2.test.mjs
// Needs ./build.sh, target/pytools with transformers (./build.sh test sets it up) and cargo.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { SHOTS, pageSuite } from './browser.mjs';
import { REPO } from './dist.mjs';
import { serve } from './server.mjs';

const FIXTURES = path.join(REPO, 'target/gpt2-fixtures');
const HUB_ROOT = path.join(REPO, 'target/gpt2-page-hub');
const OUT = `${SHOTS}gpt2/`;
const PYTHON = process.env.GPT2_PYTHON ?? path.join(REPO, 'target/pytools/bin/python');
const FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'vocab.json', 'merges.txt'];
const CORS = { 'Access-Control-Allow-Origin': '*' };

/** The fixtures' folders (test_gpt2.py's make: reused when its stamp is current). */
function makeFixtures() {
  execFileSync(PYTHON, ['-c', `import os, sys
sys.path.insert(0, 'tests/tools')
import test_gpt2 as t
os.makedirs(t.FIXTURES, exist_ok=True)
for name in ('random', 'trained'):
    t.make(name)`], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** `repo` on the local hub: `from`'s files (or those `edit` writes) under <repo>/resolve/main/. */
async function hubRepo(repo, from, edit) {
  const dir = path.join(HUB_ROOT, repo, 'resolve/main');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const f of FILES) await cp(path.join(FIXTURES, from, f), path.join(dir, f));
  await edit?.(dir);
  return dir;
}

let hub = null; // { base, close }
const site = pageSuite({
  prepare: async () => {
    makeFixtures();
    await mkdir(OUT, { recursive: true });
    await hubRepo('test/gpt2-trained', 'trained');
    await hubRepo('test/gpt2-random', 'random');
    await hubRepo('test/bert', 'random', (d) => writeFile(path.join(d, 'config.json'), JSON.stringify({
      architectures: ['BertForMaskedLM'], model_type: 'bert', hidden_size: 64, num_attention_heads: 4,
      num_hidden_layers: 2, vocab_size: 1000 })));
    await hubRepo('test/gpt2-large', 'random', async (d) => { // 774 M parameters: over the page's limit
      const config = JSON.parse(await readFile(path.join(d, 'config.json'), 'utf8'));
      Object.assign(config, { n_layer: 36, n_head: 20, n_embd: 1280, n_positions: 1024, vocab_size: 50257 });
      await writeFile(path.join(d, 'config.json'), JSON.stringify(config));
    });
    await hubRepo('test/truncated', 'random', async (d) => {
      const f = path.join(d, 'model.safetensors');
      await truncate(f, Math.floor((await stat(f)).size * 0.6));
    });
    await hubRepo('test/no-tokenizer', 'random', async (d) => {
      for (const f of ['tokenizer.json', 'vocab.json', 'merges.txt']) await rm(path.join(d, f));
    });
    hub = await serve(HUB_ROOT, { headers: CORS });
  },
  cleanup: () => hub?.close(),
});

/** The release CLI's JSON answer (cargo builds it once). */
const cli = (...args) => JSON.parse(execFileSync('cargo', ['run', '--quiet', '--release', '--bin', 'gpt', '--', ...args],
  { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));

const gpt2 = (page) => page.locator('attn-gpt2');
const state = (page) => gpt2(page).evaluate((el) => el.state);

/** Sets the element's hub to `base`, types `repo` and opens it; resolves to how that ended,
 *  'open' or 'failed' (a wait that never throws on the steps in between). */
async function openFromHub(page, base, repo, { name = 'Open from Hugging Face' } = {}) {
  const el = gpt2(page);
  await el.scrollIntoViewIfNeeded();
  await el.evaluate((e, h) => {
    e.setAttribute('hub', h);
    delete e.dataset.attempt;
    // every loading step the learner was shown
    e.phases = [];
    new MutationObserver(() => e.phases.push(e.dataset.phase)).observe(e, { attributes: true, attributeFilter: ['data-phase'] });
  }, base.replace(/\/$/, ''));
  await el.locator('.open input[type="text"]').fill(repo);
  await el.getByRole('button', { name }).click();
  await page.waitForFunction(() => ['open', 'failed'].includes(document.querySelector('attn-gpt2')?.dataset.attempt),
    null, { timeout: 120000 });
  return gpt2(page).evaluate((e) => e.dataset.attempt);
}

/** softmax of logits, in float64. */
function softmax(logits) {
  const m = Math.max(...logits);
  const e = logits.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/** The next token's top 10 the page shows equal the CLI's logits at the prompt's end. */
function sameTop(probs, logits, tol = 1e-5) {
  const p = softmax(logits);
  assert.equal(probs.length, 10);
  for (const { id, p: shown } of probs) assert.ok(Math.abs(shown - p[id]) < tol, `p[${id}]: page ${shown}, cli ${p[id]}`);
  const order = p.map((v, i) => [v, i]).sort((a, b) => b[0] - a[0]).slice(0, 10).map(([, i]) => i);
  assert.deepEqual(probs.map((q) => q.id), order);
}

/** Screenshots of the element, viewport by viewport (not one tall image), as `name`-1.png… */
async function shots(page, name) {
  const { top, height } = await gpt2(page).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top + scrollY, height: r.height };
  });
  const vh = page.viewportSize().height;
  for (let i = 0, y = top; i < 5 && y < top + height; i++, y += vh - 60) {
    await page.evaluate((t) => scrollTo(0, t), y);
    await page.screenshot({ path: `${OUT}${name}-${i + 1}.png` });
  }
}

/** Waits until the element has drawn a run after the `n`th (its runs counter). */
const ranAfter = (page, n) => page.waitForFunction((k) => Number(document.querySelector('attn-gpt2').dataset.runs) > k, n);
const runs = (page) => gpt2(page).evaluate((e) => Number(e.dataset.runs));

test('GPT-2 from the hub: progress, kept; its tokens, next token, heads, a head off and generation are the CLI\'s; reopened offline; deleted', {
  timeout: 300000,
}, () => site.withPage(async (page) => {
  const folder = path.join(HUB_ROOT, 'test/gpt2-trained/resolve/main');
  assert.equal(await openFromHub(page, hub.base, 'test/gpt2-trained'), 'open', (await state(page)).error);
  const phases = await gpt2(page).evaluate((e) => e.phases);
  for (const p of ['config', 'tokenizer', 'download', 'weights']) assert.ok(phases.includes(p), `phase ${p} shown: ${phases}`);
  let s = await state(page);
  assert.equal(s.info.kind, 'gpt2');
  assert.equal(s.info.gelu, 'tanh');
  assert.match(await gpt2(page).locator('.model label.col').first().innerText(), /Prompt \(up to 128 tokens\)/); // the model's n_positions
  // the tokens and the next token, against the CLI on the same folder
  const ref = cli('eval', '--ckpt', folder, '--text', s.prompt, '--logits', '--attentions');
  const tok = cli('tokenize', '--ckpt', folder, '--text', s.prompt);
  assert.deepEqual(s.ids, tok.ids);
  assert.deepEqual(s.tokens, tok.pieces);
  assert.deepEqual(s.ids, ref.ids);
  sameTop(s.probs, ref.logits);
  const pieces = await gpt2(page).locator('.pieces span').allInnerTexts();
  assert.equal(pieces.length, tok.ids.length);
  assert.ok(pieces.some((p) => p.startsWith('␣')), `spaces shown: ${pieces.join('|')}`);
  // every head at a glance, then one opened: its numbers are the CLI's weights
  const maps = gpt2(page).locator('button.map');
  assert.equal(await maps.count(), s.info.n_layer * s.info.n_head);
  await maps.nth(s.info.n_head + 2).click(); // layer 2, head 3
  const matrix = gpt2(page).locator('.detail attn-matrix');
  await matrix.waitFor();
  const drawn = await matrix.evaluate((m) => ({ ...m.value, data: Array.from(m.value.data), start: Number(m.dataset.start) }));
  const T = ref.ids.length;
  const want = ref.attentions[1][2];
  for (let r = 0; r < drawn.rows; r++) {
    for (let c = 0; c < drawn.cols; c++) {
      const w = want[drawn.start + r][drawn.start + c];
      assert.ok(Math.abs(drawn.data[r * drawn.cols + c] - w) < 1e-6, `weight (${r}, ${c}): page ${drawn.data[r * drawn.cols + c]}, cli ${w}`);
    }
  }
  assert.equal(drawn.rows, Math.min(24, T));
  // a weight explained: the value is the drawn number to the bit, the terms its row's
  const row = drawn.rows - 1;
  await matrix.evaluate((m, r) => m.cellAt(r, 1).click(), row);
  const explain = gpt2(page).locator('.detail attn-explain');
  await page.waitForFunction(() => document.querySelector('attn-gpt2').shadowRoot.querySelector('.detail attn-explain').explanation);
  const ex = await explain.evaluate((e) => e.explanation);
  assert.equal(Math.fround(ex.value), drawn.data[row * drawn.cols + 1]);
  assert.match(await explain.evaluate((e) => e.shadowRoot.textContent), /Softmax/);
  // a score: q·k/√hs, its largest terms; then all of them, on request
  await gpt2(page).getByRole('radio', { name: 'scores q·k/√hs' }).check();
  await matrix.evaluate((m, r) => m.cellAt(r, 1).click(), row);
  await page.waitForFunction(() => document.querySelector('attn-gpt2').shadowRoot.querySelector('.detail attn-explain').explanation);
  const scoreDrawn = await matrix.evaluate((m, r) => m.value.data[r * m.value.cols + 1], row);
  const some = await explain.evaluate((e) => e.explanation);
  assert.equal(Math.fround(some.value), scoreDrawn);
  assert.ok(JSON.stringify(some).includes('"rest":{'), 'a head of 16 channels lists 8 terms and sums the rest');
  await gpt2(page).getByRole('button', { name: 'Show all 16 terms of q·k, the largest first' }).click();
  await page.waitForFunction(() => !JSON.stringify(document.querySelector('attn-gpt2').shadowRoot
    .querySelector('.detail attn-explain').explanation ?? {}).includes('"rest":{'));
  const every = await explain.evaluate((e) => e.explanation);
  assert.equal(Math.fround(every.value), scoreDrawn);
  await gpt2(page).getByRole('radio', { name: 'weights' }).check();
  await shots(page, 'trained-en');
  // a head switched off: the next token is the CLI's with --off, next to the one with every head on
  let n = await runs(page);
  await gpt2(page).getByRole('checkbox', { name: 'Switch this head off' }).check();
  await ranAfter(page, n);
  s = await state(page);
  assert.deepEqual(s.off, [[1, 2]]);
  const offRef = cli('eval', '--ckpt', folder, '--text', s.prompt, '--logits', '--off', '1.2');
  sameTop(s.probs, offRef.logits);
  sameTop(s.baseline, ref.logits);
  assert.match(await gpt2(page).locator('.off-list, [role=status]').allInnerTexts().then((t) => t.join(' ')), /L2H3/);
  n = await runs(page);
  await gpt2(page).getByRole('button', { name: 'Turn every head back on' }).click();
  await ranAfter(page, n);
  assert.deepEqual((await state(page)).off, []);
  sameTop((await state(page)).probs, ref.logits);
  // every head measured: a number per head, each a mean weight
  await gpt2(page).getByRole('button', { name: /Measure every head/ }).click();
  await page.waitForFunction(() => document.querySelector('attn-gpt2').dataset.heads === 'measured', null, { timeout: 60000 });
  s = await state(page);
  assert.equal(s.heads.induction.length, s.info.n_layer * s.info.n_head);
  for (const v of s.heads.previous_token) assert.ok(v >= 0 && v <= 1, v);
  // greedy generation: the CLI's text
  await gpt2(page).getByRole('spinbutton', { name: 'tokens' }).fill('8');
  await gpt2(page).getByRole('checkbox', { name: 'greedy' }).check();
  await gpt2(page).getByRole('button', { name: 'Generate', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('attn-gpt2').dataset.generated);
  const out = await gpt2(page).locator('pre.out').innerText();
  const sample = execFileSync('cargo', ['run', '--quiet', '--release', '--bin', 'gpt', '--', 'sample', '--ckpt', folder,
    '--prompt', s.prompt, '-n', '8', '--greedy'], { cwd: REPO, encoding: 'utf8' });
  assert.equal(out, s.prompt + sample.replace(/\n$/, ''));
  // kept: listed with its size; offline (the hub gone), it opens from the cache
  const bytes = (await Promise.all(FILES.filter((f) => f !== 'vocab.json' && f !== 'merges.txt')
    .map((f) => stat(path.join(folder, f)).then((x) => x.size)))).reduce((a, b) => a + b, 0);
  const kept = gpt2(page).locator('.kept li[data-repo="test/gpt2-trained"]');
  await kept.waitFor();
  assert.match(await kept.innerText(), new RegExp(`${(bytes / 2 ** 20).toFixed(1)} MB`));
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await page.route(`${hub.base}**`, (route) => route.abort('internetdisconnected'));
  const t0 = Date.now();
  assert.equal(await openFromHub(page, hub.base, 'test/gpt2-trained'), 'open', (await state(page)).error);
  console.log(`# reopened from the Cache API, offline, in ${Date.now() - t0} ms (page side, to the first drawn heads)`);
  assert.deepEqual((await state(page)).ids, tok.ids);
  // deleted: the list says none, and offline it cannot open any more
  await kept.getByRole('button', { name: 'Delete' }).click();
  await gpt2(page).locator('.kept li.muted').waitFor();
  assert.equal(await openFromHub(page, hub.base, 'test/gpt2-trained'), 'failed');
  assert.match((await state(page)).error, /download failed/);
}, { aside: (text) => /net::ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(text) }));

test('a model that is not GPT-2, a truncated file, no tokenizer and a cancelled download are said, en and zh; nothing is kept', {
  timeout: 180000,
}, () => site.withPage(async (page) => {
  const said = async (repo, options) => {
    assert.equal(await openFromHub(page, hub.base, repo, options), 'failed');
    return (await state(page)).error;
  };
  assert.match(await said('test/bert'), /this is a "bert" model, not GPT-2/);
  assert.match(await said('test/truncated'), /model\.safetensors ended after \d+ of \d+ bytes/);
  assert.match(await said('test/gpt2-large'), /this model has 774\d{6} parameters \(\d+ MB as f32\); the limit here is 400 M/);
  assert.match(await said('test/no-tokenizer'), /no tokenizer: give tokenizer\.json, or vocab\.json and merges\.txt/);
  // the page still works: a good model opens after them
  assert.equal(await openFromHub(page, hub.base, 'test/gpt2-random'), 'open');
  await gpt2(page).locator('button.map').first().click();
  await shots(page, 'random-en');
  // in Chinese
  await page.evaluate(() => document.querySelector('attn-gpt2').setAttribute('lang', 'zh'));
  const zh = { name: '从 Hugging Face 打开' };
  assert.match(await said('test/bert', zh), /这是一个 "bert" 模型，不是 GPT-2/);
  assert.match(await said('test/no-tokenizer', zh), /没有分词器/);
  assert.equal(await openFromHub(page, hub.base, 'test/gpt2-trained', zh), 'open');
  await gpt2(page).locator('button.map').nth(5).click();
  await shots(page, 'trained-zh');
  await page.evaluate(() => document.querySelector('attn-gpt2').removeAttribute('lang'));
  // a download cancelled half way: said, and nothing kept
  const slow = await stalling(path.join(HUB_ROOT, 'test/gpt2-random/resolve/main'));
  try {
    const el = gpt2(page);
    await el.evaluate((e, h) => { e.setAttribute('hub', h); delete e.dataset.attempt; }, slow.base);
    await el.locator('.open input[type="text"]').fill('test/slow');
    await el.getByRole('button', { name: 'Open from Hugging Face' }).click();
    await page.waitForFunction(() => document.querySelector('attn-gpt2').dataset.phase === 'download');
    await el.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForFunction(() => document.querySelector('attn-gpt2').dataset.attempt);
    assert.match((await state(page)).error, /Cancelled: nothing was kept/);
    assert.equal((await state(page)).status, 'open', 'the model opened before stays open');
    assert.equal(await el.locator('.kept li[data-repo="test/slow"]').count(), 0);
  } finally {
    await slow.close();
  }
}, { aside: (text) => /Failed to load resource|404/.test(text) }));

test('on a phone (390×844) the model opens and nothing scrolls sideways', { timeout: 120000 }, () => site.withPage(async (page) => {
  assert.equal(await openFromHub(page, hub.base, 'test/gpt2-trained'), 'open');
  await gpt2(page).locator('button.map').nth(3).click();
  assert.match(await gpt2(page).locator('.click-hint').innerText(), /^Tap any number/);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(wide <= 0, `the page scrolls ${wide} px sideways`);
  await shots(page, 'trained-phone-en');
}, { width: 390, height: 844, touch: true }));

/** A hub whose model.safetensors sends half its bytes and then waits (a cancel test). */
async function stalling(dir) {
  const s = http.createServer(async (req, res) => {
    const name = req.url.split('/').pop();
    const body = await readFile(path.join(dir, name)).catch(() => null);
    if (!body) return res.writeHead(404, CORS).end();
    res.writeHead(200, { ...CORS, 'Content-Length': body.length });
    if (name !== 'model.safetensors') return res.end(body);
    res.write(body.subarray(0, body.length >> 1)); // and never the rest
  });
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${s.address().port}`, close: () => { s.closeAllConnections(); return new Promise((r) => s.close(r)); } };
}
