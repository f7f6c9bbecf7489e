// Page tests for the learner's path through section 9, "Train a GPT" (issue 32): an
// explanation of a GPT number sits in the flow under its row of heads and covers nothing;
// the prompt is drawn as the model reads it (its last block_size characters, the rest
// greyed) under a caption that says so; a visible sentence says every number can be
// clicked (tapped, on a touch screen); the visible text says no implementation word, and
// each of nanoGPT's config names is said in plain words beside it; en and zh.
// Run from the repo root: node --test --test-concurrency=1 tests/page/gpt-path.test.mjs
// Needs ./build.sh (www/pkg, www/data/corpus.txt) and www/models/small.safetensors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { IMPLEMENTATION_WORDS, SHOTS, pageSuite, settled, shownTexts } from './browser.mjs';
import { assertClean, button, gptOn, openPretrained, state, waitStatus } from './gpt-harness.mjs';

const site = pageSuite();
const withGpt = gptOn(site);
const OUT = `${SHOTS}gpt-path/`;
await mkdir(OUT, { recursive: true });

/** Trains the fresh (tiny) model `steps` steps and pauses: the inspector opens its heads. */
async function trainAndPause(page, gpt, steps, names = { start: 'Start', pause: 'Pause' }) {
  await button(gpt, names.start).click();
  await waitStatus(page, 'running');
  await page.waitForFunction((n) => document.querySelector('attn-gpt-train').state.step >= n, steps,
    { timeout: 60000, polling: 100 });
  await button(gpt, names.pause).click();
  await waitStatus(page, 'paused');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot
    .querySelector('attn-gpt-inspect').dataset.heads === '4');
  await settled(page);
}

/** Clicks cell [row, col] of head `label` (e.g. "L1 H2") and waits for its explanation. */
async function explain(page, gpt, label, row, col) {
  const cell = gpt.locator(`attn-gpt-inspect attn-matrix[label="${label}"] td[data-row="${row}"][data-col="${col}"]`);
  await cell.scrollIntoViewIfNeeded();
  await cell.click();
  await page.waitForFunction(([r, c]) => {
    const ex = document.querySelector('attn-gpt-train').shadowRoot.querySelector('attn-gpt-inspect')
      .shadowRoot.querySelector('attn-explain');
    return ex?.open === true && ex.explanation?.row === r && ex.explanation.col === c;
  }, [row, col]);
  await settled(page);
}

/** The open explanation's box, every head's box (its figure: caption and heatmaps) and every
 *  heading of the inspector, in page coordinates; and the text of the heading under the panel. */
const boxes = (page) => page.evaluate(() => {
  const root = document.querySelector('attn-gpt-train').shadowRoot.querySelector('attn-gpt-inspect').shadowRoot;
  const layers = [...root.querySelectorAll('section.layer')];
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top + scrollY, right: r.right, bottom: r.bottom + scrollY, text: el.textContent.trim() };
  };
  const panel = root.querySelector('attn-explain');
  const headings = [...root.querySelectorAll('h4')].filter((h) => h.checkVisibility());
  const p = box(panel);
  const next = headings.map(box).filter((h) => h.top >= p.top).sort((a, b) => a.top - b.top)[0];
  const heads = [...root.querySelectorAll('figure')].map((f) => ({ ...box(f), layer: layers.indexOf(f.closest('section.layer')),
    head: Number(f.querySelector('figcaption').dataset.head) }));
  return { panel: p, heads, headings: headings.map(box), next };
});

const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The explanation covers no head and no heading; it has a line of its own (every head is
 *  above or below it, none beside it), right under the clicked head (`layer`, `head`, from
 *  0), and above `nextHeading`. */
async function assertInline(page, what, { layer, head: clicked, nextHeading }) {
  const b = await boxes(page);
  assert.ok(b.panel.bottom - b.panel.top > 40, `${what}: the explanation is shown (${JSON.stringify(b.panel)})`);
  for (const [i, head] of b.heads.entries()) {
    assert.ok(!meets(b.panel, head), `${what}: the explanation ${JSON.stringify(b.panel)} covers head #${i + 1} ${JSON.stringify(head)}`);
  }
  for (const h of b.headings) {
    assert.ok(!meets(b.panel, h), `${what}: the explanation covers the heading “${h.text}”`);
  }
  for (const f of b.heads) {
    assert.ok(f.bottom <= b.panel.top + 0.5 || f.top >= b.panel.bottom - 0.5,
      `${what}: L${f.layer + 1} head ${f.head + 1} ${JSON.stringify(f)} is beside the explanation ${JSON.stringify(b.panel)}`);
  }
  const own = b.heads.find((f) => f.layer === layer && f.head === clicked);
  const gap = b.panel.top - own.bottom;
  assert.ok(gap >= 0 && gap < 40, `${what}: right under the clicked head (${gap} px below it)`);
  assert.equal(b.next?.text, nextHeading, `${what}: the heading right under the explanation`);
  assert.ok(b.panel.bottom <= b.next.top + 0.5, `${what}: above “${nextHeading}”`);
}

for (const [width, height] of [[1280, 800], [390, 844]]) {
  test(`${width}×${height}: an explanation sits in the flow under its row of heads and covers nothing; the prompt shows what the model reads`,
    () => withGpt(async (page, gpt) => {
      await trainAndPause(page, gpt, 30);
      const inspect = gpt.locator('attn-gpt-inspect');

      // block_size 8 (the tiny preset): "To be, or not" is read as ", or not", "To be" greyed.
      assert.equal((await state(page)).info.block_size, 8);
      assert.equal(await inspect.locator('.read .unread').innerText(), 'To be');
      assert.equal(await inspect.locator('.read .kept').innerText(), ', or not');
      assert.equal(await inspect.locator('.read .muted').innerText(),
        'The model reads only the last 8 characters (block_size = 8): the greyed part is not read.');
      const look = await inspect.locator('.read').evaluate((p) => {
        const style = (sel) => {
          const s = getComputedStyle(p.querySelector(sel));
          return { color: s.color, opacity: Number(s.opacity) };
        };
        return { unread: style('.unread'), kept: style('.kept') };
      });
      assert.ok(look.unread.color !== look.kept.color || look.unread.opacity < look.kept.opacity,
        `the unread part is marked apart: ${JSON.stringify(look)}`);
      assert.equal(await inspect.evaluate((el) => el.state.prompt), ', or not', 'the heads draw what the caption says');
      assert.doesNotMatch(await inspect.innerText(), /24 characters/);

      // Where the heads are drawn, a visible sentence says what a click does.
      const hint = inspect.locator('.click-hint');
      assert.equal(await hint.innerText(), 'Click any number in a head to see how it was computed (or focus it and press Enter).');
      assert.ok(await hint.isVisible());

      // The trainer paused, a head opened: its explanation is in the flow, above "Next character".
      await explain(page, gpt, 'L1 H2', 7, 2);
      assert.equal(await inspect.locator('attn-explain').evaluate((el) => el.hasAttribute('floating')), false);
      await assertInline(page, 'tiny, L1 H2', { layer: 0, head: 1, nextHeading: 'Next character: the 10 most likely' });
      await assertClean(page);
      await inspect.locator('attn-explain').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${OUT}paused-explain-${width}.png` });

      // Two layers (the pretrained model): under layer 1's heads, above "Layer 2"; then under
      // layer 2's, above "Next character". The panel follows the clicked head's layer.
      await openPretrained(page, gpt);
      await explain(page, gpt, 'L1 H2', 7, 2);
      await assertInline(page, 'small, L1 H2', { layer: 0, head: 1, nextHeading: 'Layer 2' });
      await page.screenshot({ path: `${OUT}pretrained-explain-L1-${width}.png` });
      await explain(page, gpt, 'L2 H3', 12, 3);
      await assertInline(page, 'small, L2 H3', { layer: 1, head: 2, nextHeading: 'Next character: the 10 most likely' });
      // With both heatmaps per head (wider heads), still under the row and covering nothing.
      await inspect.getByLabel('both').check();
      await settled(page);
      await explain(page, gpt, 'L1 H1', 5, 1);
      await assertInline(page, 'small, both, L1 H1', { layer: 0, head: 0, nextHeading: 'Layer 2' });
      await page.keyboard.press('Escape');
      assert.equal(await inspect.locator('attn-explain').evaluate((el) => el.hidden), true, 'Escape closes it');
      // 13 characters ≤ 24 ≤ block_size 32: the prompt is read whole, and the caption says so.
      assert.equal(await inspect.locator('.read .unread').count(), 0);
      assert.equal(await inspect.locator('.read .muted').innerText(),
        'At most the last 24 characters are read and drawn here, so that each head stays legible (the model could read 32, its block_size): all of this prompt is read.');
      await assertClean(page);
    }, { width, height }));
}

/** The text the trainer shows (rendered, not in a closed <details> but its summary), and
 *  every title (a hint shown on pointing), through its shadow roots. */
const shownText = async (page) => {
  const { texts, titles } = await shownTexts(page.locator('attn-gpt-train'));
  return { text: texts.map(([t]) => t).join('\n'), titles };
};

/** The six config names and the plain words beside each, as shown. */
const fieldHints = (gpt) => gpt.locator('attn-gpt-settings .fields label').evaluateAll((labels) => labels
  .map((l) => [l.querySelector('.name').textContent, l.querySelector('.what').textContent, l.querySelector('.what').checkVisibility()]));

test('plain words: no implementation word shows (en); each config name is explained beside it; the engine only in a closed "How it runs"', () => withGpt(async (page, gpt) => {
  assert.deepEqual(await fieldHints(gpt), [
    ['n_layer', 'layers (blocks) stacked', true], ['n_head', 'attention heads per layer', true],
    ['n_embd', 'numbers that stand for each character', true], ['block_size', 'characters the model reads at once', true],
    ['batch_size', 'pieces of text per training step', true], ['lr', 'learning rate: how big each step is', true]]);
  await button(gpt, 'Start').click();
  await waitStatus(page, 'running');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').state.step >= 5, null, { timeout: 60000 });
  assert.equal(await gpt.locator('p.status').innerText(), 'Training…');
  const running = await shownText(page);
  assert.doesNotMatch(running.text, IMPLEMENTATION_WORDS, 'while training');
  await button(gpt, 'Pause').click();
  await waitStatus(page, 'paused');
  await settled(page);
  const paused = await shownText(page);
  assert.doesNotMatch(paused.text, IMPLEMENTATION_WORDS, 'paused');
  for (const title of paused.titles) assert.doesNotMatch(title, /hover|\bTab\b|wasm|worker|simd/i, `a hint: ${title}`);
  assert.match(paused.text, /CPU cores used/);
  assert.match(paused.text, /How it runs/);
  // The engine line is for developers: inside the closed "How it runs", said when opened.
  const how = gpt.locator('details.how');
  assert.equal(await how.evaluate((d) => d.open), false);
  await how.locator('summary').click();
  assert.match(await how.innerText(), /This trainer runs on wasm (relaxed SIMD \(FMA\)|simd128), \d+ workers?\./);
  await assertClean(page);
}));

test('zh: no implementation word shows; the config names, the caption and the click hint are said in Chinese', () => withGpt(async (page, gpt) => {
  assert.deepEqual((await fieldHints(gpt)).map(([n, w]) => `${n}: ${w}`), [
    'n_layer: 叠起来的层（块）数', 'n_head: 每层的注意力头数', 'n_embd: 代表每个字符的数的个数',
    'block_size: 模型一次读取的字符数', 'batch_size: 每步训练用的文本片段数', 'lr: 学习率：每一步迈多大']);
  await trainAndPause(page, gpt, 20, { start: '开始', pause: '暂停' });
  const inspect = gpt.locator('attn-gpt-inspect');
  assert.equal(await inspect.locator('.read .muted').innerText(), '模型只读取最后 8 个字符（block_size = 8）：灰色部分没有被读取。');
  assert.equal(await inspect.locator('.click-hint').innerText(), '点击头里的任意数字，看它是怎样算出来的（或聚焦后按 Enter）。');
  const shown = await shownText(page);
  assert.doesNotMatch(shown.text, IMPLEMENTATION_WORDS);
  assert.match(shown.text, /使用的 CPU 核数/);
  assert.match(shown.text, /运行方式/);
  await explain(page, gpt, 'L1 H3', 7, 1);
  await assertInline(page, 'zh, L1 H3', { layer: 0, head: 2, nextHeading: '下一个字符：最可能的 10 个' });
  await assertClean(page);
}, { lang: 'zh' }));

test('on a touch screen (hover: none) the hint says Tap, and no hint says hover or Tab', () => withGpt(async (page, gpt) => {
  // A phone: a touch screen, whose media say no hover.
  assert.equal(await page.evaluate(() => matchMedia('(hover: none)').matches), true);
  await trainAndPause(page, gpt, 20);
  const inspect = gpt.locator('attn-gpt-inspect');
  assert.equal(await inspect.locator('.click-hint').innerText(), 'Tap any number in a head to see how it was computed.');
  const shown = await shownText(page);
  assert.doesNotMatch(shown.text, /hover|\bTab\b|Click any/i);
  for (const title of shown.titles) assert.doesNotMatch(title, /hover|\bTab\b/i, `a hint: ${title}`);
  // A tap opens the explanation, in the flow as with a click.
  const cell = inspect.locator('attn-matrix[label="L1 H2"] td[data-row="7"][data-col="2"]');
  await cell.scrollIntoViewIfNeeded();
  await cell.tap();
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot.querySelector('attn-gpt-inspect')
    .shadowRoot.querySelector('attn-explain')?.open === true);
  await settled(page);
  await assertInline(page, 'touch, L1 H2', { layer: 0, head: 1, nextHeading: 'Next character: the 10 most likely' });
  await assertClean(page);
}, { width: 390, height: 844, touch: true }));
