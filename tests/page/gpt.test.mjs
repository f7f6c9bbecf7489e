// Page tests for section 9, "Train a GPT" (<attn-gpt-train>), in headless Chromium.
// Run from the repo root: node --test --test-concurrency=1 tests/page/gpt.test.mjs
// Needs ./build.sh (www/pkg, www/data/corpus.txt) and www/models/small.safetensors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHOTS, pageSuite, renderedText } from './browser.mjs';
import { assertClean, button, gptOn, openPretrained, state, waitStatus, widgetText } from './gpt-harness.mjs';

const PRETRAINED = fileURLToPath(new URL('../../www/models/small.safetensors', import.meta.url));

const withGpt = gptOn(pageSuite());

/** Trains until `steps` steps (and one more estimate) are done, then pauses. */
async function trainFor(page, gpt, steps) {
  await button(gpt, 'Start').click();
  await waitStatus(page, 'running');
  await page.waitForFunction((n) => {
    const s = document.querySelector('attn-gpt-train').state;
    return s.step >= n && s.plot.train.length >= 3 && s.plot.train.at(-1)[0] >= n;
  }, steps, { timeout: 120000, polling: 100 });
  await button(gpt, 'Pause').click();
  await waitStatus(page, 'paused');
}

const matrices = (gpt) => gpt.locator('attn-gpt-inspect attn-matrix');

test('training starts, shows steps/s, the loss line falls; pause opens every head', () => withGpt(async (page, gpt) => {
  assert.match(await widgetText(page), /Vocabulary \(63 characters\)/);
  await trainFor(page, gpt, 300);
  const s = await state(page);
  assert.ok(s.stepsPerSec > 1 && s.tokensPerSec > 100, `speed ${s.stepsPerSec} steps/s`);
  assert.match(await gpt.locator('.stats').innerText(), /steps\/s \d[\d,.]*\s+tokens\/s \d[\d,]*/);
  const train = s.plot.train;
  assert.ok(train[0][1] > 3.9, `starts near ln 63 ≈ 4.14: ${train[0][1]}`);
  assert.ok(train.at(-1)[1] < train[0][1] - 1, `the train line falls: ${train[0][1]} → ${train.at(-1)[1]}`);
  assert.ok(s.plot.val.at(-1)[1] < s.plot.val[0][1] - 1, 'the val line falls');
  assert.ok(s.plot.batch.length > 3);
  assert.ok((await gpt.locator('pre.sample').innerText()).length > 50, 'a running sample');

  const prompt = gpt.locator('attn-gpt-inspect input[type="text"]');
  await prompt.fill('the king');
  await prompt.press('Enter');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').state.tokens.join('') === 'the king');
  assert.equal(await matrices(gpt).count(), 4, '1 layer × 4 heads');
  const first = await matrices(gpt).first().evaluate((m) => m.value);
  assert.equal(first.rows, 8);
  assert.equal(await gpt.locator('attn-gpt-inspect .probs li').count(), 10);

  // The training state (for tools/export_nanogpt.py): src/gpt/state.rs's container, at
  // this step, holding the very checkpoint "Download .safetensors" gives.
  const saved = async (name) => {
    const [download] = await Promise.all([page.waitForEvent('download'), button(gpt, name).click()]);
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'gpt-')), download.suggestedFilename());
    await download.saveAs(file);
    return { name: download.suggestedFilename(), bytes: await readFile(file) };
  };
  const st = await saved('Download training state');
  assert.match(st.name, new RegExp(`^gpt-1x32-step${s.step}\\.state$`));
  assert.match(await gpt.locator('.file-msg').innerText(), /training state .*export_nanogpt\.py/);
  assert.equal(st.bytes.subarray(0, 8).toString(), 'APGPTST1');
  const hlen = st.bytes.readUInt32LE(8);
  const header = JSON.parse(st.bytes.subarray(12, 12 + hlen).toString());
  assert.equal(header.step, s.step);
  assert.equal(header.adam_t, s.step, 'one AdamW step per training step');
  assert.equal(st.bytes.length, 12 + hlen + header.checkpoint_len + 8 * header.n_params);
  const ckpt = await saved('Download .safetensors');
  assert.deepEqual(st.bytes.subarray(12 + hlen, 12 + hlen + header.checkpoint_len), ckpt.bytes);
  await assertClean(page);
  await gpt.screenshot({ path: `${SHOTS}gpt-train.png` });

  // The state loads back (after a Reset to a fresh model): paused at its step, and
  // Resume trains on from its loss, not from ln 63.
  await button(gpt, 'Reset').click();
  await waitStatus(page, 'idle');
  await gpt.locator('input[type="file"][accept^=".safetensors"]').setInputFiles({ name: st.name, mimeType: 'application/octet-stream', buffer: st.bytes });
  await waitStatus(page, 'paused');
  assert.equal((await state(page)).step, s.step, 'at the saved step');
  assert.equal(await gpt.locator('.file-msg').innerText(),
    `Loaded the training state ${st.name}: ${(await state(page)).info.params.toLocaleString('en-US')} parameters, at step ${s.step.toLocaleString('en-US')}. Resume trains on from there.`);
  await button(gpt, 'Resume').click();
  await page.waitForFunction((n) => {
    const t = document.querySelector('attn-gpt-train').state;
    return t.step > n && t.plot.batch.length > 0;
  }, s.step, { timeout: 60000, polling: 100 });
  const batch = (await state(page)).plot.batch;
  assert.ok(batch[0][0] > s.step, `the steps go on from ${s.step}: ${batch[0][0]}`);
  assert.ok(batch[0][1] < train.at(-1)[1] + 0.3, `the loss goes on from ${train.at(-1)[1]}: ${batch[0][1]}`);
  await button(gpt, 'Pause').click();
  await waitStatus(page, 'paused');
}));

test('the pretrained model opens: 2 layers × 4 heads, probabilities, greedy generation', () => withGpt(async (page, gpt) => {
  await openPretrained(page, gpt);
  assert.match(await gpt.locator('.file-msg').innerText(), /Loaded small\.safetensors: 106,176 parameters/);
  assert.equal(await matrices(gpt).count(), 8);
  const probs = await gpt.locator('attn-gpt-inspect').evaluate((el) => el.state.probs);
  assert.ok(probs[0].p > 0.2, `a trained model is confident after "To be, or not": ${JSON.stringify(probs[0])}`);
  await gpt.getByLabel('greedy').check();
  await button(gpt, 'Generate').click();
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').dataset.generated === '200');
  const out = await gpt.locator('attn-gpt-inspect pre.out').innerText();
  assert.ok(out.startsWith('To be, or not') && out.length > 150);
  await assertClean(page);
  await gpt.locator('attn-gpt-inspect').screenshot({ path: `${SHOTS}gpt-inspect.png` });
}));

test('a clicked GPT weight explains itself: the softmax over its row of q·k/√hs', () => withGpt(async (page, gpt) => {
  await openPretrained(page, gpt);
  const inspect = gpt.locator('attn-gpt-inspect');
  const grid = inspect.locator('attn-matrix[label="L2 H3"]');
  const target = grid.locator('td[data-row="7"][data-col="2"]');
  await target.scrollIntoViewIfNeeded();
  await target.click();
  const panel = inspect.locator('attn-explain');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').shadowRoot.querySelector('attn-explain')?.open === true);
  // inline (issue 32): in the flow under the clicked head's row, covering nothing (gpt-path.test.mjs)
  assert.equal(await panel.evaluate((el) => el.hasAttribute('floating')), false);
  const drawn = (await target.textContent()).trim();
  const text = await panel.evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
  const ex = await panel.evaluate((el) => el.explanation);
  // "To be, or not": row 7 is the "o" of "or", column 2 the first space.
  assert.deepEqual([ex.op, ex.kind, ex.row, ex.col], ['softmax', 'weights', 7, 2]);
  assert.equal(ex.value.toFixed(2), drawn, 'the explained value is the drawn one');
  assert.ok(text.includes(`= ${drawn}`), `the panel ends in the drawn ${drawn}: ${text}`);
  assert.match(text, /weight o→/, `labels are the prompt's characters: ${text}`);
  assert.ok(text.includes(Math.abs(ex.max).toFixed(2)), `the row's largest score ${ex.max} is shown: ${text}`);
  assert.doesNotMatch(text, /NaN|undefined|null|\{\w+\}/);
  await assertClean(page);
  await inspect.screenshot({ path: `${SHOTS}gpt-explain.png` });
  await page.keyboard.press('Escape');
  assert.equal(await panel.evaluate((el) => el.hidden), true);
}));

test('with both heatmaps, an explained weight outlines its row of scores; a score explains its dot product', () => withGpt(async (page, gpt) => {
  await openPretrained(page, gpt);
  const inspect = gpt.locator('attn-gpt-inspect');
  await inspect.getByLabel('both').check();
  assert.equal(await matrices(gpt).count(), 16, '8 heads × (scores, weights)');
  const panel = inspect.locator('attn-explain');
  const explained = (kind, row, col) => page.waitForFunction(([k, r, c]) => {
    const ex = document.querySelector('attn-gpt-train').shadowRoot.querySelector('attn-gpt-inspect')
      .shadowRoot.querySelector('attn-explain');
    return ex.open && ex.explanation?.kind === k && ex.explanation.row === r && ex.explanation.col === c;
  }, [kind, row, col]);
  const outlined = () => inspect.evaluate((el) => [...el.shadowRoot.querySelectorAll('attn-matrix')]
    .flatMap((m) => [...m.shadowRoot.querySelectorAll('td.source')]
      .map((td) => `${m.getAttribute('label')}:${td.dataset.row},${td.dataset.col}`)));

  // A weight: the softmax over row 5 of the same head's scores, outlined beside it (and nowhere else).
  const weight = inspect.locator('attn-matrix[label="L2 H3"] td[data-row="5"][data-col="1"]');
  await weight.scrollIntoViewIfNeeded();
  await weight.click();
  await explained('weights', 5, 1);
  assert.deepEqual(await outlined(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    .map((c) => `L2 H3 q·k/√hs:5,${c}`), 'the whole row of scores (13 keys), masked future included');
  const ex = await panel.evaluate((el) => el.explanation);
  const scores = await inspect.locator('attn-matrix[label="L2 H3 q·k/√hs"]').evaluate((m) => m.value.data.slice(5 * 13, 6 * 13));
  assert.ok(ex.terms.length >= 6, 'the six visible keys are listed');
  for (const term of ex.terms) {
    assert.equal(term.score.toFixed(4), scores[term.src.col].toFixed(4), `the softmax reads the drawn score of key ${term.src.col}`);
  }
  await inspect.screenshot({ path: `${SHOTS}gpt-explain-both.png` });

  // A score: q·k/√16, a 16-term dot product summarised as the 8 largest terms and the rest.
  await panel.evaluate((el) => el.close());
  const score = inspect.locator('attn-matrix[label="L2 H3 q·k/√hs"] td[data-row="5"][data-col="1"]');
  await score.click();
  await explained('scores', 5, 1);
  const dot = await panel.evaluate((el) => el.explanation);
  assert.equal(dot.op, 'dot');
  assert.equal(dot.scale.d_k, 16);
  assert.equal(dot.terms.length, 8);
  assert.equal(dot.rest.count, 8);
  assert.ok(Math.abs(dot.value - scores[1]) < 1e-5, `${dot.value} is the drawn ${scores[1]}`);
  const text = await panel.evaluate((el) => el.shadowRoot.querySelector('.panel').textContent.replace(/\s+/g, ' '));
  assert.match(text, /√16/, `the scale is written out: ${text}`);
  assert.doesNotMatch(text, /NaN|undefined|null|\{\w+\}/);

  // A masked score says why it is −∞.
  await panel.evaluate((el) => el.close());
  await inspect.locator('attn-matrix[label="L2 H3 q·k/√hs"] td[data-row="1"][data-col="4"]').click();
  await explained('masked_scores', 1, 4);
  assert.equal(await panel.evaluate((el) => el.explanation.op), 'masked');
  await assertClean(page);
}));

test('save downloads the checkpoint and loading it back round-trips', () => withGpt(async (page, gpt) => {
  await button(gpt, 'Open the pretrained small model').click();
  await waitStatus(page, 'loaded');
  const [download] = await Promise.all([page.waitForEvent('download'), button(gpt, 'Download .safetensors').click()]);
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'gpt-')), 'saved.safetensors');
  await download.saveAs(file);
  assert.match(download.suggestedFilename(), /\.safetensors$/);
  assert.deepEqual(await readFile(file), await readFile(PRETRAINED), 'the same bytes as the file it loaded');

  const greedy = async () => {
    await gpt.getByLabel('greedy').check();
    await button(gpt, 'Generate').click();
    await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
      .querySelector('attn-gpt-inspect').dataset.generated === '200');
    const text = await gpt.locator('attn-gpt-inspect').evaluate((el) => el.state.generated);
    await gpt.locator('attn-gpt-inspect').evaluate((el) => { delete el.dataset.generated; });
    return text;
  };
  const before = await greedy();
  await button(gpt, 'Reset').click();
  await waitStatus(page, 'idle');
  await gpt.locator('input[type="file"][accept^=".safetensors"]').setInputFiles(file);
  await waitStatus(page, 'loaded');
  assert.match(await gpt.locator('.file-msg').innerText(), /Loaded saved\.safetensors/);
  assert.equal(await greedy(), before, 'same weights, same greedy text');
}));

test('a broken file shows an error, keeps the model and logs nothing', () => withGpt(async (page, gpt) => {
  await gpt.locator('input[type="file"][accept^=".safetensors"]').setInputFiles({
    name: 'broken.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('this is not a checkpoint'),
  });
  const msg = gpt.locator('.file-msg.bad');
  await msg.waitFor();
  assert.match(await msg.innerText(), /Could not load broken\.safetensors: .*safetensors/);
  assert.equal((await state(page)).status, 'idle', 'the fresh model is still there');
  await assertClean(page);
}));

test('empty, one-character and too-short texts get clear messages', () => withGpt(async (page, gpt) => {
  await gpt.getByLabel('my own text').check();
  const area = gpt.locator('attn-gpt-settings textarea');
  const message = async (text, re) => {
    await area.fill(text);
    await page.waitForFunction((src) => {
      const msg = document.querySelector('attn-gpt-train').shadowRoot
        .querySelector('attn-gpt-settings').shadowRoot.querySelector('.msg');
      return !msg.hidden && new RegExp(src).test(msg.textContent);
    }, re.source);
    assert.equal((await state(page)).status, 'invalid');
    assert.equal(await button(gpt, 'Start').isDisabled(), true);
  };
  await message('', /text is empty/);
  await message('aaaaaaaaaaaa', /only one character/);
  await message('abcabcab', /too short.*at least 91 characters/);
  await area.fill('hello world, '.repeat(40));
  await waitStatus(page, 'idle');
  assert.match(await gpt.locator('attn-gpt-settings .vocab').innerText(), /Vocabulary \(9 characters\): ␣ , d e h l o r w/);
  await assertClean(page);
}));

test('without the causal mask the training loss falls far faster', () => withGpt(async (page, gpt) => {
  await trainFor(page, gpt, 400);
  const masked = (await state(page)).plot.train.at(-1)[1];
  await gpt.getByLabel(/Train without the causal mask/).check();
  await button(gpt, 'Reset').click();
  await waitStatus(page, 'idle');
  assert.equal((await state(page)).info.causal, false);
  await trainFor(page, gpt, 400);
  const unmasked = (await state(page)).plot.train.at(-1)[1];
  assert.ok(unmasked < masked - 0.8, `no mask ${unmasked} vs mask ${masked}`);
  // the open heads show no hatched future
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').dataset.heads === '4');
  assert.equal(await matrices(gpt).first().evaluate((m) => m.shadowRoot.querySelectorAll('td.masked').length), 0);
  await gpt.screenshot({ path: `${SHOTS}gpt-nomask.png` });
}));

test('usable at 380 px: nothing wider than the screen', () => withGpt(async (page, gpt) => {
  await trainFor(page, gpt, 50);
  const width = await gpt.evaluate((el) => el.getBoundingClientRect().width);
  assert.ok(width <= 380, `widget is ${width}px wide`);
  const overflow = await gpt.evaluate((el) => {
    const host = el.getBoundingClientRect();
    const wide = [];
    const walk = (root) => {
      for (const node of root.querySelectorAll('*')) {
        const r = node.getBoundingClientRect();
        if (r.width && r.right > host.right + 1 && !node.closest('.scroll, table, .heads')) wide.push(node.tagName);
        if (node.shadowRoot && node.localName !== 'attn-matrix') walk(node.shadowRoot);
      }
    };
    walk(el.shadowRoot);
    return wide;
  });
  assert.deepEqual(overflow, []);
  await assertClean(page);
  await gpt.screenshot({ path: `${SHOTS}gpt-narrow.png` });
}, { width: 380, height: 800 }));

test('a checkpoint made by the PyTorch reference loads and samples what PyTorch samples', () => withGpt(async (page, gpt) => {
  const dir = fileURLToPath(new URL('../fixtures/gpt_tiny/', import.meta.url));
  const expected = JSON.parse(await readFile(path.join(dir, 'trained.json'), 'utf8')).samples[0];
  await gpt.locator('input[type="file"][accept^=".safetensors"]').setInputFiles(path.join(dir, 'trained.safetensors'));
  await waitStatus(page, 'loaded');
  assert.match(await gpt.locator('.file-msg').innerText(), /Loaded trained\.safetensors: 15,104 parameters/);
  const inspect = gpt.locator('attn-gpt-inspect');
  await inspect.locator('input[type="text"]').fill(expected.prompt);
  await inspect.getByLabel('characters').fill(String(expected.n));
  await inspect.getByLabel('greedy').check();
  await button(gpt, 'Generate').click();
  await page.waitForFunction((n) => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').dataset.generated === String(n), expected.n);
  assert.equal(await inspect.evaluate((el) => el.state.generated), expected.text);
  await assertClean(page);
}));

test('speaks Chinese when the page does', () => withGpt(async (page, gpt) => {
  await page.locator('button[data-lang="zh"]').click();
  await button(gpt, '开始').waitFor();
  assert.match(await renderedText(page, '#s9-h'), /训练一个 GPT/);
  assert.match(await widgetText(page), /词表（63 个字符）/);
  await assertClean(page);
  await gpt.screenshot({ path: `${SHOTS}gpt-zh.png` });
}));
