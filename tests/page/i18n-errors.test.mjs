// The core's number and GPT errors are said in the learner's language: parseNumber,
// HeadLab.setCell and GptLab throw Errors with a `code` and `params` (the GPT's cross the
// worker's postMessage beside the message), and the page's string tables say them
// (errorText in www/js/i18n/i18n.js). The English table must say exactly what the core says,
// so the two cannot drift apart; the Chinese one must be Chinese.
// Run from the repo root: node --test --test-concurrency=1 tests/page/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { pageSuite } from './browser.mjs';
import { gptOn, settingsMsg, state, waitStatus } from './gpt-harness.mjs';

const PRETRAINED = fileURLToPath(new URL('../../www/models/small.safetensors', import.meta.url));

const site = pageSuite();
const { withPage } = site;
const withGpt = gptOn(site);

/** The grid's error line once it has one (polled: the grid renders in a task of its own). */
async function errorOf(grid) {
  for (let i = 0; i < 100; i++) {
    const text = await grid.evaluate((el) => el.shadowRoot.querySelector('.error')?.textContent ?? '');
    if (text) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
  return '';
}

const CASES = ['', 'abc', '1e400', '1/0', 'x'.repeat(100)];

test('every number error has a code whose English text is the core\'s message and a Chinese text', () => withPage(async (page) => {
  const rows = await page.evaluate(async (cases) => {
    const { errorText } = await import('./js/i18n/i18n.js');
    const core = document.querySelector('attn-head').core;
    return cases.map((text) => {
      try {
        core.parseNumber(text);
        return { text, parsed: true };
      } catch (err) {
        return { text, code: err.code, message: err.message, en: errorText(err, 'en'), zh: errorText(err, 'zh') };
      }
    });
  }, CASES);
  const codes = new Set();
  for (const r of rows) {
    assert.ok(!r.parsed, `${JSON.stringify(r.text)} is refused`);
    assert.match(r.code, /^number\./, `${JSON.stringify(r.text)} has a code`);
    codes.add(r.code);
    assert.equal(r.en, r.message.replace(/\.$/, ''), 'the English table says what the core says');
    assert.match(r.zh, /[\u4e00-\u9fff]/, `Chinese for ${r.code}: ${r.zh}`);
    assert.doesNotMatch(r.zh, /\{\w+\}|undefined/, r.zh);
  }
  assert.equal(codes.size, 4, `all four codes seen: ${[...codes]}`);
}));

test('on the Chinese page a bad cell says why in Chinese, in the head and in note 5', () => withPage(async (page) => {
  const input = page.locator('attn-head attn-matrix#W_v td[data-row="0"][data-col="0"] input');
  await input.fill('abc');
  const head = await errorOf(page.locator('attn-head attn-matrix#W_v'));
  assert.match(head, /“abc”不是数字/, head);
  assert.doesNotMatch(head, /is not a number/, 'no English left');
  await input.fill('10');

  const cross = page.locator('attn-note-cross attn-matrix[label="x_q"] td[data-row="0"][data-col="0"] input');
  await cross.scrollIntoViewIfNeeded();
  await cross.fill('1/0');
  const text = await errorOf(page.locator('attn-note-cross attn-matrix[label="x_q"]'));
  assert.match(text, /分母不能为 0/, text);
  await cross.fill('1');
}, { locale: 'zh-CN' }));

/** Runs every GPT error case on the GPT's own core (www/pkg-gpt/, on the main thread) and says each in both languages. */
function gptErrorRows(page) {
  return page.evaluate(async () => {
    const { errorText } = await import('./js/i18n/i18n.js');
    await import('./js/widgets/gpt/gpt-train.js'); // its string tables
    const { GptLab } = (await (await import('./js/core/wasm-build.js')).loadBuild('simd128')).wasm;
    const text = 'the cat sat on the mat. '.repeat(20);
    const rows = [];
    const attempt = (what, fn) => {
      try {
        fn();
        rows.push({ what, accepted: true });
      } catch (err) {
        rows.push({ what, code: err.code, message: err.message, en: errorText(err, 'en'), zh: errorText(err, 'zh'),
          params: JSON.stringify(err.params) });
      }
    };
    const lab = new GptLab('{}', text, 1);
    for (const [what, config, t] of [
      ['too many params', { n_layer: 100, n_embd: 1024 }, text],
      ['too many layers', { n_layer: 2000 }, text],
      ['heads', { n_embd: 30, n_head: 4 }, text],
      ['batch 0', { batch_size: 0 }, text],
      ['activations', { batch_size: 100000 }, text],
      ['preset', { preset: 'huge' }, text],
      ['lr', { lr: -1 }, text],
      ['weight decay', { weight_decay: -1 }, text],
      ['unknown field', { n_layers: 2 }, text],
      ['empty text', {}, ''],
      ['one character', {}, 'aaaa'],
      ['too short', {}, 'ab cd'],
    ]) attempt(what, () => new GptLab(JSON.stringify(config), t, 1).free());
    attempt('empty prompt', () => lab.attention(''));
    attempt('not in vocab', () => lab.attention('Zebra€'));
    attempt('generate from nothing', () => lab.generate('', 5, 1, 0, 1));
    attempt('generate too many', () => lab.generate('the', 6000, 1, 0, 1));
    attempt('no head', () => lab.explainAttention('the', 5, 0, 'weights', 0, 0));
    // checkpoints: garbage, a shape that disagrees with the metadata, a missing tensor
    const good = lab.toBytes();
    const n = Number(new DataView(good.buffer).getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(good.subarray(8, 8 + n)));
    const rebuild = (edit) => {
      const h = structuredClone(header);
      edit(h);
      let json = JSON.stringify(h);
      json += ' '.repeat((8 - (json.length % 8)) % 8);
      const bytes = new TextEncoder().encode(json);
      const out = new Uint8Array(8 + bytes.length + good.length - 8 - n);
      new DataView(out.buffer).setBigUint64(0, BigInt(bytes.length), true);
      out.set(bytes, 8);
      out.set(good.subarray(8 + n), 8 + bytes.length);
      return out;
    };
    attempt('garbage checkpoint', () => GptLab.fromBytes(new Uint8Array(64).fill(255), undefined, undefined, 1));
    attempt('wrong shape', () => GptLab.fromBytes(rebuild((h) => { h.__metadata__.n_embd = '64'; }), undefined, undefined, 1));
    attempt('bad bias', () => GptLab.fromBytes(rebuild((h) => { h.__metadata__.bias = 'yes'; }), undefined, undefined, 1));
    attempt('checkpoint config', () => GptLab.fromBytes(rebuild((h) => { h.__metadata__.n_head = '3'; }), undefined, undefined, 1));
    attempt('missing tensor', () => GptLab.fromBytes(rebuild((h) => { h.__metadata__.n_layer = '2'; }), undefined, undefined, 1));
    // a state that is not one, and one cut short
    const saved = lab.stateBytes();
    attempt('not a state', () => GptLab.fromState(good, text));
    attempt('truncated state', () => GptLab.fromState(saved.subarray(0, 20), text));
    // a model the text cannot train: the reason nests an error in an error
    const loaded = GptLab.fromBytes(good, 'xyz xyz xyz xyz', undefined, 1);
    attempt('untrainable', () => loaded.step(1));
    const info = loaded.config();
    rows.push({ what: 'config().untrainable', code: info.untrainable.code, message: info.untrainable.message,
      en: errorText(info.untrainable, 'en'), zh: errorText(info.untrainable, 'zh'), params: JSON.stringify(info.untrainable.params),
      reason: info.untrainable_reason });
    loaded.free();
    lab.free();
    return rows;
  });
}

test('every GPT error the core throws has a code: the English table says the core\'s message, the Chinese one says it in Chinese', () => withPage(async (page) => {
  const rows = await gptErrorRows(page);
  const codes = new Set();
  for (const r of rows) {
    console.log(`# ${r.what}: ${r.code}\n#   ${r.en}\n#   ${r.zh}`);
    assert.ok(!r.accepted, `${r.what} is refused`);
    assert.match(r.code ?? '', /^gpt\./, `${r.what} has a code: ${r.message}`);
    codes.add(r.code);
    assert.equal(r.en, r.message.replace(/\.$/, ''), `${r.what}: the English table says what the core says`);
    assert.match(r.zh, /[\u4e00-\u9fff]/, `${r.what}: Chinese for ${r.code}: ${r.zh}`);
    assert.doesNotMatch(r.zh, /\{\w+\}|undefined|\[object/, r.zh);
    // no English sentence left, except a library's own detail (serde, safetensors)
    if (!/"detail"/.test(r.params)) {
      assert.doesNotMatch(r.zh, /\b(the|is|must|has|not|expected|limit|characters|model|empty)\b/, `${r.what}: ${r.zh}`);
    }
    for (const number of r.message.match(/\b\d{2,}\b/g) ?? []) {
      assert.ok(r.zh.includes(number), `${r.what}: ${number} in ${r.zh}`);
    }
  }
  const byWhat = Object.fromEntries(rows.map((r) => [r.what, r]));
  assert.match(byWhat['too many params'].zh, /^这个配置有 \d+ 个参数；上限是 25000000（2500 万）/);
  assert.match(byWhat['too short'].zh, /^文本太短：block_size 为 8 时.*请至少使用 91 个字符$/);
  assert.match(byWhat['wrong shape'].zh, /^张量 "[\w.]+" 的形状是 \[\d+, 32\]，应为 \[\d+, 64\]$/);
  assert.match(byWhat['checkpoint config'].zh, /^检查点里的配置不可用：n_embd（32）必须能被 n_head（3）整除/);
  assert.match(byWhat.untrainable.zh, /^这个模型无法在这里训练：当前文本无法训练这个模型：这些字符不在模型的词表里：\['x', 'y', 'z'\]$/);
  assert.equal(byWhat['config().untrainable'].reason, byWhat['config().untrainable'].message);
  assert.ok(codes.size >= 25, `${codes.size} codes seen: ${[...codes]}`);
}));


/**
 * Checks one of the GPT settings' radios as a learner clicks it. After a language switch the
 * lesson's widgets redraw one per task, and the page above the trainer can still grow a
 * little: a click can land where the radio was a moment before, which Playwright reports as
 * "did not change its state" (seen once in the last six CI runs). Then it clicks again, after half
 * a second; a radio that cannot be checked fails both times.
 */
async function checkRadio(page, radio) {
  try {
    await radio.check();
  } catch (err) {
    if (!/did not change its state/.test(err.message)) throw err;
    await page.waitForTimeout(500);
    await radio.check();
  }
}

/** The file message by the GPT's file buttons once it matches `re`. */
async function fileMsg(page, re, timeout = 15000) {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('.file-msg')?.textContent ?? ''), re.source, { timeout });
  return page.locator('attn-gpt-train').evaluate((el) => el.shadowRoot.querySelector('.file-msg').textContent);
}

test('on the Chinese page the GPT says a too-large config, a too-short text and a broken checkpoint in Chinese, and switches language', () =>
  withGpt(async (page, gpt) => {
    const field = (f) => gpt.locator(`attn-gpt-settings input[name="${f}"]`);
    await field('n_embd').fill('100000');
    let msg = await settingsMsg(page, /^无法构建这个模型：/);
    console.log(`# ${msg}`);
    assert.match(msg, /^无法构建这个模型：这个配置有 \d+ 个参数；上限是 25000000（2500 万），这样训练才装得进内存。$/);
    assert.equal((await state(page)).status, 'invalid');

    await gpt.locator('attn-gpt-settings select').selectOption('tiny');
    await waitStatus(page, 'idle');
    await checkRadio(page, gpt.locator('attn-gpt-settings input[value="own"]'));
    await gpt.locator('attn-gpt-settings textarea').fill('ab cd');
    msg = await settingsMsg(page, /文本太短/);
    console.log(`# ${msg}`);
    assert.match(msg, /^无法构建这个模型：文本太短：block_size 为 8 时，90% 的训练部分（4）和 10% 的验证部分（1）都必须多于 8 个字符；请至少使用 91 个字符。$/);

    // the page's language follows a switch: the same message, now in English
    await page.locator('[data-lang="en"]').click();
    msg = await settingsMsg(page, /^Cannot build this model: /);
    assert.match(msg, /^Cannot build this model: the text is too short: block_size 8 needs more than 8 characters/);
    await page.locator('[data-lang="zh"]').click();
    msg = await settingsMsg(page, /^无法构建这个模型：文本太短/);

    await checkRadio(page, gpt.locator('attn-gpt-settings input[value="default"]'));
    await waitStatus(page, 'idle');
    const good = await readFile(PRETRAINED);
    const n = Number(good.readBigUInt64LE(0));
    const header = JSON.parse(good.subarray(8, 8 + n).toString('utf8'));
    header.__metadata__.n_embd = String(Number(header.__metadata__.n_embd) * 2);
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(json.length));
    await gpt.locator('input[type="file"][accept^=".safetensors"]').setInputFiles({
      name: 'wrong-meta.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.concat([len, json, good.subarray(8 + n)]),
    });
    msg = await fileMsg(page, /wrong-meta/);
    console.log(`# ${msg}`);
    assert.match(msg, /^无法加载 wrong-meta\.safetensors：张量 "[\w.]+" 的形状是 \[\d+, 64\]，应为 \[\d+, 128\]。$/);
    assert.doesNotMatch(msg, /has shape|expected|\btensor\b/);
    await page.locator('[data-lang="en"]').click();
    msg = await fileMsg(page, /^Could not load/);
    assert.match(msg, /^Could not load wrong-meta\.safetensors: tensor "[\w.]+" has shape \[\d+, 64\], expected \[\d+, 128\]\.$/);

    // a model the current text cannot train: the note says why, in the page's language
    await page.locator('[data-lang="zh"]').click();
    await checkRadio(page, gpt.locator('attn-gpt-settings input[value="own"]'));
    await gpt.locator('attn-gpt-settings textarea').fill('€€ ££ '.repeat(40));
    await waitStatus(page, 'idle');
    await gpt.locator('input[type="file"][accept^=".safetensors"]').setInputFiles(PRETRAINED);
    await waitStatus(page, 'loaded');
    msg = await fileMsg(page, /^已加载|small/);
    console.log(`# ${msg}`);
    assert.match(msg, /可以打开和采样，但不能训练：当前文本无法训练这个模型：这些字符不在模型的词表里：\['£', '€'\]。$/);
  }, { locale: 'zh-CN' }));
