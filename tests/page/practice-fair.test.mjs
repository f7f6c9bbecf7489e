// §8 is fair to a learner (issue 32): a wrong practice answer gets a hint before the
// answer, positions count from 0 as the lesson's tokens do, Check on a quiz with
// unanswered questions reveals and locks nothing, and the "come back" date is written one
// way per language. Plus the strings of sections 5–8 in plain words (no browser).
// Run from the repo root: node --test --test-concurrency=1 tests/page/practice-fair.test.mjs
// Screenshots: target/screenshots/practice-fair-<lang>-<width>.png and quiz-fair-….png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, pageSuite, settled } from './browser.mjs';
import notes from '../../www/js/i18n/notes.js';
import practice from '../../www/js/i18n/practice.js';

const MINE = /practice\.js|quiz\.js|i18n\/(notes|practice|notes-strings)\.js|format\.js/;
const site = pageSuite();
const withPage = (fn, options) => site.withPage(fn, {
  readyTimeout: 20000, aside: (text, where) => !MINE.test(where) && !MINE.test(text), ...options,
});

/** What each language's texts say; the test below does the same in both. */
const SAYS = {
  en: {
    hint1: 'Not yet. The number at position 1 is off (positions count from 0, like the tokens). Hint: softmax takes e to the power of each score, then divides each result by their sum. What is e to the power ln 2? Try again, or show the answer.',
    reveal: 'Not quite. The answer is [1/4, 1/2, 1/4]. Run: weights [0.25, 0.50, 0.25] times values [2, 4, 10] gives 5.',
    right: 'Right. Exact answer: [1/4, 1/2, 1/4]. Run: weights [0.25, 0.50, 0.25] times values [2, 4, 10] gives 5.',
    positions02: 'The numbers at positions 0, 2 are off',
    count: 'The answer has 4 numbers; you typed 2.',
    shown: 'The answer is [0.27, 0.01, 0.72, 0].',
    missing6: 'No question has an answer yet. Pick one answer for each, then check: no right answer is shown before every question has one.',
    missing5: /^Questions 2, 3, 4, 5, 6 have no answer yet \(5 of 6\)\./,
    missing1: /^Question 6 has no answer yet\./,
    score: '1 of 6 right.',
    why1: /^Not this one\. Var\(q·k\) grows like d_k/,
    comeBack: /^Come back on 5 Jan 2026 or later/,
  },
  zh: {
    hint1: '还不对。位置 1 上的数不对（位置和词元一样从 0 数起）。提示：softmax 先对每个分数取 e 的幂，再把每个结果除以它们的和。e 的 ln 2 次幂等于多少？再试一次，或者显示答案。',
    reveal: '不太对。答案是 [1/4, 1/2, 1/4]。运行：权重 [0.25, 0.50, 0.25] 乘以值 [2, 4, 10]，得到 5。',
    right: '正确。精确答案：[1/4, 1/2, 1/4]。运行：权重 [0.25, 0.50, 0.25] 乘以值 [2, 4, 10]，得到 5。',
    positions02: '位置 0、2 上的数不对',
    count: '答案有 4 个数，你输入了 2 个。',
    shown: '答案是 [0.27, 0.01, 0.72, 0]。',
    missing6: '还没有任何题目作答。每题选一个答案后再检查：每道题都有答案之前，不会显示任何正确答案。',
    missing5: /^还有 5 道题没有作答：第 2、3、4、5、6 题。/,
    missing1: /^第 6 题还没有作答。/,
    score: '答对 1/6 题。',
    why1: /^不是这个。Var\(q·k\) 随 d_k 增长/,
    comeBack: /^请在2026年1月5日或之后回来/,
  },
};

const VIEWPORTS = [[1280, 800], [390, 844]];

for (const lang of ['en', 'zh']) {
  for (const [width, height] of VIEWPORTS) {
    test(`${lang}, ${width}×${height}: practice hints before it tells; the quiz reveals nothing until all are answered`, () => withPage(async (page) => {
      const says = SAYS[lang];
      const q = (id) => page.locator(`attn-practice li[data-q="${id}"]`);
      const verdict = (id) => q(id).locator('p.verdict');
      const answer = async (id, text, how = 'Enter') => {
        await q(id).locator('input').fill(text);
        if (how === 'Enter') await q(id).locator('input').press('Enter');
        await settled(page);
      };

      // A first wrong try: which number is off, counted from 0, and a hint; no answer.
      await answer('weights_ln2', '1/4, 1/3, 1/4');
      assert.equal(await verdict('weights_ln2').textContent(), says.hint1);
      assert.equal(await verdict('weights_ln2').getAttribute('data-kind'), 'hint');
      assert.equal(await q('weights_ln2').locator('button.show').isVisible(), true, '"Show answer" is offered');
      // Typing the next try keeps the hint in view.
      await answer('weights_ln2', '0.3, 0.5, 0.4', 'type');
      assert.equal(await verdict('weights_ln2').textContent(), says.hint1);
      // The second wrong try shows the answer, with the run behind it.
      await q('weights_ln2').locator('input').press('Enter');
      await settled(page);
      assert.equal(await verdict('weights_ln2').textContent(), says.reveal);
      assert.equal(await verdict('weights_ln2').getAttribute('data-correct'), 'false');
      assert.equal(await q('weights_ln2').locator('button.show').isVisible(), false);
      await answer('weights_ln2', '1/4, 1/2, 1/4');
      assert.equal(await verdict('weights_ln2').textContent(), says.right);
      assert.equal(await verdict('weights_ln2').getAttribute('data-correct'), 'true');

      // One number: a hint that names no position and gives nothing away.
      await answer('output_ln2', '6');
      const hint = await verdict('output_ln2').textContent();
      assert.doesNotMatch(hint, /position|位置|\b5\b/, hint);
      assert.equal(await verdict('output_ln2').getAttribute('data-kind'), 'hint');

      // Several numbers off; then a list of the wrong length, which costs no try; then
      // the answer on request, with the focus back in the field for the next try.
      await answer('masked_softmax', '0.2, 0.01, 0.7, 0');
      assert.match(await verdict('masked_softmax').textContent(), new RegExp(says.positions02));
      await answer('masked_softmax', '0.27, 0.72');
      assert.equal(await verdict('masked_softmax').textContent(), says.count);
      await q('masked_softmax').locator('button.show').click();
      await settled(page);
      assert.equal(await verdict('masked_softmax').textContent(), says.shown);
      assert.equal(await verdict('masked_softmax').getAttribute('data-kind'), 'shown');
      assert.equal(await q('masked_softmax').locator('button.show').isVisible(), false);
      assert.equal(await page.locator('attn-practice').evaluate((el) => el.shadowRoot.activeElement?.closest('li')?.dataset.q),
        'masked_softmax');
      await q('weights_ln2').scrollIntoViewIfNeeded();
      await page.locator('attn-practice').screenshot({ path: `${SHOTS}practice-fair-${lang}-${width}.png` });

      // The quiz: Check with nothing picked says so, and reveals and locks nothing.
      const quiz = page.locator('attn-quiz');
      await quiz.evaluate((el) => el.setAttribute('now', '2026-01-03T12:00:00Z'));
      const score = page.locator('attn-quiz p.score');
      const check = page.locator('attn-quiz .controls button.primary');
      const pick = (question, opt) => page.locator(`attn-quiz li[data-question="${question}"] label[data-opt="${opt}"] input`).check();
      await check.click();
      await settled(page);
      assert.equal(await score.textContent(), says.missing6);
      assert.equal(await page.locator('attn-quiz li.missing').count(), 0, 'with none answered the message says it all');
      assert.equal(await page.locator('attn-quiz label.right, attn-quiz label.wrong, attn-quiz p.why.ok').count(), 0, 'no answer revealed');
      assert.equal(await page.locator('attn-quiz input[type="radio"]:enabled').count(), 24, 'nothing locked');
      assert.equal(await check.isEnabled(), true);
      assert.equal(await page.evaluate(() => localStorage.getItem('attention-playground.quiz.last')), null, 'not a checked quiz');
      await quiz.screenshot({ path: `${SHOTS}quiz-fair-${lang}-${width}.png` });

      // From the first answer on, the unanswered ones are marked; each answer takes its
      // question off, in place: the radio keeps the focus.
      await pick(0, 0);
      await settled(page);
      assert.match(await score.textContent(), says.missing5);
      assert.deepEqual(await page.locator('attn-quiz li.missing').evaluateAll((lis) => lis.map((li) => li.dataset.question)),
        ['1', '2', '3', '4', '5']);
      assert.equal(await page.locator('attn-quiz li.missing p.why.missing').count(), 5);
      await quiz.screenshot({ path: `${SHOTS}quiz-fair-partial-${lang}-${width}.png` });
      assert.equal(await quiz.evaluate((el) => el.shadowRoot.activeElement?.name), 'q0');
      for (const question of [1, 2, 3, 4]) await pick(question, 1);
      await check.click();
      await settled(page);
      assert.match(await score.textContent(), says.missing1);
      assert.deepEqual(await page.locator('attn-quiz li.missing').evaluateAll((lis) => lis.map((li) => li.dataset.question)), ['5']);
      await pick(5, 1);
      await settled(page);
      assert.equal(await score.textContent(), '', 'all answered: nothing is missing');
      assert.equal(await page.locator('attn-quiz li.missing, attn-quiz p.why').count(), 0);

      // All six answered: Check scores, reveals, locks and says when to come back.
      await check.click();
      await settled(page);
      assert.equal(await score.textContent(), says.score);
      assert.equal(await page.locator('attn-quiz label.right').count(), 6);
      assert.match(await page.locator('attn-quiz li[data-question="1"] p.why').textContent(), says.why1);
      assert.equal(await page.locator('attn-quiz input[type="radio"]:enabled').count(), 0);
      assert.match(await page.locator('attn-quiz p.muted').last().textContent(), says.comeBack);
      assert.equal(await page.evaluate(() => localStorage.getItem('attention-playground.quiz.last')), '2026-01-03T12:00:00.000Z');
      await quiz.screenshot({ path: `${SHOTS}quiz-fair-checked-${lang}-${width}.png` });
    }, { lang, width, height }));
  }
}

test('the strings of sections 5–8 say what they refer to, in plain words, on any screen', () => {
  for (const lang of ['en', 'zh']) {
    const all = { ...notes[lang], ...practice[lang] };
    for (const [key, text] of Object.entries(all)) {
      assert.doesNotMatch(text, /\b(Rust|WebAssembly|wasm|SIMD|FMA|workers?)\b/i, `${lang} ${key}: no implementation words`);
      assert.doesNotMatch(text, /\bhover|\bTab\b|悬停/i, `${lang} ${key}: no hint a touch screen cannot follow`);
      assert.doesNotMatch(text, /lesson[ -]1|第一课|第 1 课/i, `${lang} ${key}`);
      // "the course" only as the course it describes.
      const course = lang === 'en' ? [/course/gi, /A PyTorch course that builds a GPT from scratch/g]
        : [/课程/g, /一门从零搭建 GPT 的 PyTorch 课程/g];
      assert.equal((text.match(course[0]) ?? []).length, (text.match(course[1]) ?? []).length, `${lang} ${key}: ${text}`);
    }
    // The PyTorch runs keep every number.
    for (const [key, numbers] of [['b.var.course', ['3.91', '15.98', '63.76', '258.20']],
      ['b.scale.avg', ['0.958', '0.365']], ['b.batch.normLead', ['−3.8143', '−4.3548']]]) {
      for (const n of numbers) assert.ok(all[key].includes(n), `${lang} ${key} keeps ${n}`);
      assert.match(all[key], /PyTorch/, `${lang} ${key} names whose random numbers those are`);
    }
  }
});
