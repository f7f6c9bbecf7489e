// Page tests for bad input to "Train a GPT": each gets a clear message in the
// right place, the last valid state is kept, nothing shows NaN, the console stays clean.
// Run from the repo root: node --test --test-concurrency=1 tests/page/gpt-bad-input.test.mjs
// Needs ./build.sh (www/pkg, www/data/corpus.txt) and www/models/small.safetensors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageSuite } from './browser.mjs';
import { assertClean, button, gptOn, settingsMsg, state, waitStatus } from './gpt-harness.mjs';

const PRETRAINED = fileURLToPath(new URL('../../www/models/small.safetensors', import.meta.url));

const withGpt = gptOn(pageSuite());

test('an empty and a one-character corpus: a message under the text, Start off, the text kept', () => withGpt(async (page, gpt) => {
  await gpt.getByLabel('my own text').check();
  const area = gpt.locator('attn-gpt-settings textarea');
  for (const [text, re] of [['', /text is empty: paste or upload/], ['🙂', /only one character/], ['zzzz\u200bz'.slice(0, 4), /only one character \('z'\)/]]) {
    await area.fill(text);
    console.log(`# ${JSON.stringify(text)}: ${await settingsMsg(page, re)}`);
    assert.equal((await state(page)).status, 'invalid');
    assert.equal(await button(gpt, 'Start').isDisabled(), true);
    assert.equal(await area.inputValue(), text, "the learner's text stays");
    await assertClean(page);
  }
}));

test('emoji and CJK text trains: the vocab is characters (code points), samples and heads work', () => withGpt(async (page, gpt) => {
  await gpt.getByLabel('my own text').check();
  const poem = '床前明月光，疑是地上霜。举头望明月，低头思故乡。🌙✨👩‍💻 𝄞\n';
  await gpt.locator('attn-gpt-settings textarea').fill(poem.repeat(20));
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').state.info?.vocab?.includes('🌙'));
  await waitStatus(page, 'idle');
  const { info } = await state(page);
  assert.equal(info.vocab_size, new Set([...poem]).size, 'one token per code point (ZWJ included)');
  const vocabText = await gpt.locator('attn-gpt-settings .vocab').innerText();
  assert.match(vocabText, new RegExp(`^Vocabulary \\(${info.vocab_size} characters\\): `));
  for (const c of ['明', '🌙', '𝄞', '👩', '💻', 'U+200D']) assert.ok(vocabText.includes(c), `${c} in ${vocabText}`);
  await button(gpt, 'Start').click();
  await waitStatus(page, 'running');
  await page.waitForFunction(() => {
    const s = document.querySelector('attn-gpt-train').state;
    return s.step >= 200 && s.plot.train.length >= 2 && s.sampleStep != null;
  }, null, { timeout: 60000 });
  await button(gpt, 'Pause').click();
  await waitStatus(page, 'paused');
  const s = await state(page);
  assert.ok(s.plot.train.at(-1)[1] < s.plot.train[0][1], 'the loss falls');
  const sample = await gpt.locator('pre.sample').innerText();
  assert.ok([...sample].some((c) => poem.includes(c) && c > '\u3000'), `a CJK/emoji sample: ${sample.slice(0, 40)}`);
  assert.ok(!sample.includes('\ufffd'), 'no broken characters');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').dataset.heads === '4');
  const prompt = gpt.locator('attn-gpt-inspect input[type="text"]');
  await prompt.fill('明月🌙');
  await prompt.press('Enter');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').state.tokens.join('') === '明月🌙');
  await assertClean(page);
}));

test('a 50 MB text file is refused from its size, before it is read: the model stays', () => withGpt(async (page, gpt) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gpt-big-'));
  const file = path.join(dir, 'big.txt');
  try {
    const fh = await open(file, 'w');
    await fh.truncate(50 * 1024 * 1024); // 50 MB (sparse: quick to make)
    await fh.close();
    const before = (await state(page)).info;
    const t0 = Date.now();
    await gpt.locator('attn-gpt-settings input[type="file"]').setInputFiles(file);
    const msg = await settingsMsg(page, /big\.txt is 50\.0 MB; the limit is 20 MB/);
    const ms = Date.now() - t0;
    console.log(`# ${msg} (${ms} ms)`);
    const s = await state(page);
    assert.equal(s.status, 'idle', 'the model built before is kept');
    assert.deepEqual(s.info, before);
    assert.equal(await gpt.getByLabel('my own text').isChecked(), false, 'still the default corpus');
    assert.match(await gpt.locator('attn-gpt-settings .vocab').innerText(), /Vocabulary \(63 characters\)/);
    assert.equal(await page.evaluate(() => 1 + 1), 2, 'the tab answers');
    await button(gpt, 'Start').click();
    await waitStatus(page, 'running');
    await button(gpt, 'Pause').click();
    await waitStatus(page, 'paused');
    await assertClean(page);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}));

/** safetensors bytes → { header, data } and back. */
function split(bytes) {
  const n = Number(bytes.readBigUInt64LE(0));
  return { header: JSON.parse(bytes.subarray(8, 8 + n).toString('utf8')), data: bytes.subarray(8 + n) };
}
/** The start of a training state (src/gpt/state.rs): its magic, a header length of
 *  `hlen`, then `text` where the header should be. */
function stateFile(hlen, text) {
  const len = Buffer.alloc(4);
  len.writeUInt32LE(hlen);
  return Buffer.concat([Buffer.from('APGPTST1'), len, Buffer.from(text)]);
}
function join(header, data) {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([len, json, data]);
}

test('truncated, corrupted, wrong-shape and non-safetensors checkpoints, and broken training states: a message by the file buttons, the model kept', () => withGpt(async (page, gpt) => {
  const good = await readFile(PRETRAINED);
  const { header, data } = split(good);
  const wrongMeta = structuredClone(header);
  wrongMeta.__metadata__.n_embd = String(Number(header.__metadata__.n_embd) * 2); // tensors no longer fit the metadata
  const wrongShape = structuredClone(header);
  const name = Object.keys(header).find((k) => k !== '__metadata__' && header[k].shape.length === 2);
  wrongShape[name].shape = [...header[name].shape].reverse().map((d, i) => (i ? d : d + 1)); // disagrees with its bytes
  const corrupt = Buffer.from(good);
  corrupt.fill(0xff, 20, 60); // inside the JSON header
  const cases = [
    ['truncated.safetensors', good.subarray(0, Math.floor(good.length / 2)), /corrupt or truncated\?\): incomplete/],
    ['header-cut.safetensors', good.subarray(0, 100), /corrupt or truncated\?\): invalid header length/],
    ['corrupt.safetensors', corrupt, /corrupt or truncated\?\): invalid UTF-8 in header/],
    ['wrong-meta.safetensors', join(wrongMeta, data), /has shape \[\d+, 64\], expected \[\d+, 128\]/],
    ['wrong-shape.safetensors', join(wrongShape, data), /invalid shape, data type, or offset/],
    ['picture.png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), /not a safetensors checkpoint \(16 bytes/],
    ['empty.safetensors', Buffer.alloc(0), /not a safetensors checkpoint \(0 bytes/],
    ['notes.txt', Buffer.from('just some words, not weights\n'.repeat(50)), /not a safetensors checkpoint \(1,450 bytes/],
    // a training state's first bytes, then too little, or a header that is not one
    ['cut.state', stateFile(1000, '{"step"'), /the saved training state is truncated/],
    ['damaged.state', stateFile(7, '{"step"'), /the saved training state is damaged: /],
  ];
  const before = (await state(page)).info;
  for (const [file, buffer, re] of cases) {
    await gpt.locator('input[type="file"][accept^=".safetensors"]').setInputFiles({ name: file, mimeType: 'application/octet-stream', buffer });
    await page.waitForFunction((n) => document.querySelector('attn-gpt-train').shadowRoot
      .querySelector('.file-msg.bad')?.textContent.includes(n), file);
    const msg = await gpt.locator('.file-msg.bad').innerText();
    console.log(`# ${file}: ${msg}`);
    assert.match(msg, new RegExp(`^Could not load ${file.replace('.', '\\.')}: `));
    assert.match(msg, re);
    assert.doesNotMatch(msg, /unreachable|RuntimeError|panicked|\[object/);
    const s = await state(page);
    assert.equal(s.status, 'idle', `${file}: the fresh model is still there`);
    assert.deepEqual(s.info, before);
    await assertClean(page);
  }
  // and a good file still loads afterwards
  await gpt.locator('input[type="file"][accept^=".safetensors"]').setInputFiles(PRETRAINED);
  await waitStatus(page, 'loaded');
}));

test('a config too large for wasm memory is refused before allocation, with the limit', () => withGpt(async (page, gpt) => {
  const field = (f) => gpt.locator(`attn-gpt-settings input[name="${f}"]`);
  const cases = [
    ['n_embd', '100000', /parameters; the limit is/],
    ['n_layer', '5000', /limit is 1024 layers/],
    ['batch_size', '100000', /limit/],
    ['block_size', '100000', /limit/],
  ];
  for (const [f, v, re] of cases) {
    await gpt.locator('attn-gpt-settings select').selectOption('tiny');
    await waitStatus(page, 'idle');
    const t0 = Date.now();
    await field(f).fill(v);
    const msg = await settingsMsg(page, re);
    console.log(`# ${f} = ${v}: ${msg} (${Date.now() - t0} ms)`);
    assert.match(msg, /^Cannot build this model: /);
    assert.equal((await state(page)).status, 'invalid');
    assert.equal(await button(gpt, 'Start').isDisabled(), true);
    assert.equal(await field(f).inputValue(), v, 'the field keeps what was typed');
    await assertClean(page);
  }
  // the worker survived: a sane config builds again
  await gpt.locator('attn-gpt-settings select').selectOption('small');
  await waitStatus(page, 'idle');
  assert.equal((await state(page)).info.n_layer, 2);
}));
