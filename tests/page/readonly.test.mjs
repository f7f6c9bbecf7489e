// Page tests for the `readonly` attribute on every lesson widget (widget-base.js):
// readonly disables every input, select, textarea and button of the widget except the
// [data-view] ones ("Show as tables"), takes `editable` from every <attn-matrix>, keeps
// explainable cells explaining, stays on through re-renders, and removing it gives back
// exactly what it took (a control the widget disabled itself stays disabled).
// Run from the repo root after ./build.sh:
//   node --test --test-concurrency=1 tests/page/readonly.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSuite } from './browser.mjs';

// Every lesson widget of index.html (all of them have controls or editable grids).
const LESSON = ['attn-bigram', 'attn-examples', 'attn-bigram-split', 'attn-schemes', 'attn-sum-norm',
  'attn-softmax-steps', 'attn-normalize', 'attn-position', 'attn-pos-table', 'attn-head', 'attn-head-probe',
  'attn-compare-words', 'attn-value-change', 'attn-bias', 'attn-note-graph', 'attn-note-space', 'attn-note-batch',
  'attn-note-encoder', 'attn-note-cross', 'attn-note-scale', 'attn-exercise', 'attn-proofs', 'attn-practice',
  'attn-quiz', 'attn-interview'];
// The ones whose numbers a learner types or picks (each had something to lock).
const EDITABLE = ['attn-head', 'attn-value-change', 'attn-note-cross', 'attn-sum-norm', 'attn-softmax-steps',
  'attn-note-scale', 'attn-compare-words'];

const { withPage } = pageSuite();

/** Sets or removes `readonly` on the first element of each tag; resolves once each has re-rendered. */
const setReadonly = (page, tags, on) => page.evaluate(({ tags, on }) => Promise.all(tags.map((tag) => {
  const el = document.querySelector(tag);
  const drawn = new Promise((resolve) => {
    const done = (e) => {
      if (e.composedPath()[0] !== el) return; // not a nested widget's draw
      el.removeEventListener('attn-rendered', done);
      resolve();
    };
    el.addEventListener('attn-rendered', done);
  });
  el.toggleAttribute('readonly', on);
  return drawn;
})), { tags, on });

/** Per tag: every control's [kind, disabled, data-view] in order, and which grids are editable. */
const snapshot = (page, tags) => page.evaluate((tags) => Object.fromEntries(tags.map((tag) => {
  const root = document.querySelector(tag).shadowRoot;
  const controls = [...root.querySelectorAll('input, select, textarea, button')].map((c) =>
    `${c.localName}${c.type ? `:${c.type}` : ''}${c.disabled ? ' disabled' : ''}${c.closest('[data-view]') ? ' view' : ''}`);
  const grids = [...root.querySelectorAll('attn-matrix')].map((m) => `${m.getAttribute('label')}${m.hasAttribute('editable') ? ' editable' : ''}`);
  return [tag, { controls, grids }];
})), tags);

/** Per tag: what readonly should have left usable (nothing but [data-view] controls). */
// Widgets nested inside a widget (note 6's <attn-variance>) count as part of it.
const usable = (page, tags) => page.evaluate((tags) => Object.fromEntries(tags.map((tag) => {
  const roots = [];
  const walk = (root) => {
    roots.push(root);
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot && el.constructor.observedAttributes?.includes('readonly')) walk(el.shadowRoot);
    }
  };
  walk(document.querySelector(tag).shadowRoot);
  const controls = roots.flatMap((root) => [...root.querySelectorAll('input, select, textarea, button')])
    .filter((c) => !c.disabled && !c.closest('[data-view]')).map((c) => c.outerHTML.slice(0, 80));
  const grids = roots.flatMap((root) => [...root.querySelectorAll('attn-matrix')])
    .filter((m) => m.hasAttribute('editable') || m.shadowRoot?.querySelector('input')).map((m) => m.getAttribute('label'));
  return [tag, { controls, grids }];
})), tags);

const nothingUsable = (tags) => Object.fromEntries(tags.map((tag) => [tag, { controls: [], grids: [] }]));

/** The drawn texts of a grid (input values in editable grids). */
const gridTexts = (page, css) => page.locator(css).first().evaluate((el) =>
  [...el.shadowRoot.querySelectorAll('td')].map((td) => td.querySelector('input')?.value ?? td.textContent.trim()));

const state = (page, tag) => page.locator(tag).first().evaluate((el) => JSON.stringify(el.state));

/** Switches the page language and waits until every tag has re-rendered. */
const switchLang = (page, lang, tags) => page.evaluate(({ lang, tags }) => {
  const drawn = tags.map((tag) => {
    const el = document.querySelector(tag);
    return new Promise((resolve) => {
      const done = (e) => {
        if (e.composedPath()[0] !== el) return;
        el.removeEventListener('attn-rendered', done);
        resolve();
      };
      el.addEventListener('attn-rendered', done);
    });
  });
  document.querySelector(`button[data-lang="${lang}"]`).click();
  return Promise.all(drawn);
}, { lang, tags });

/** Waits until the first <attn-explain> in `tag`'s shadow root is open. */
const panelOpens = (page, tag, what) => page.locator(tag).first().evaluate((el, what) => new Promise((resolve, reject) => {
  const t0 = performance.now();
  const poll = () => {
    const panel = el.shadowRoot.querySelector('attn-explain');
    if (panel && panel.open && !panel.hidden) resolve();
    else if (performance.now() - t0 > 5000) reject(new Error(`${what}: the explain panel did not open under readonly`));
    else setTimeout(poll, 20);
  };
  poll();
}), what);

test('readonly locks every lesson widget, keeps views and explanations, and unlocks exactly', () => withPage(async (page) => {
  // A control the widget disables itself: the quiz's Check button once checked (with every
  // question answered: a check with questions left open locks nothing).
  for (let q = 0; q < 6; q++) await page.locator(`attn-quiz li[data-question="${q}"] input[type="radio"]`).first().check();
  await page.locator('attn-quiz .controls button.primary').click();
  await page.waitForFunction(() => document.querySelector('attn-quiz').shadowRoot.querySelector('input[type="radio"]').disabled);
  const before = await snapshot(page, LESSON);
  for (const tag of EDITABLE) {
    const { controls, grids } = before[tag];
    const open = controls.filter((c) => !/disabled|view/.test(c)).length + grids.filter((g) => g.endsWith('editable')).length;
    assert.ok(open > 0, `${tag} has something editable to lock (${JSON.stringify(before[tag])})`);
  }
  assert.ok(before['attn-quiz'].controls.some((c) => c.endsWith('disabled')), 'the checked quiz disabled its own controls');
  const headState = await state(page, 'attn-head');
  const wvState = await state(page, 'attn-value-change');
  const outAfter = 'attn-value-change .panel:nth-child(3) attn-matrix[label="out"]';
  const outBefore = await gridTexts(page, outAfter);

  await setReadonly(page, LESSON, true);
  assert.deepEqual(await usable(page, LESSON), nothingUsable(LESSON), 'no enabled control but [data-view], no editable grid');

  // Typing is impossible: a text field, a score cell, a slider, an editable grid.
  await assert.rejects(page.locator('attn-sum-norm input.words').fill('1, 1', { timeout: 400 }), 'the scores field takes no text');
  await assert.rejects(page.locator('attn-softmax-steps input.score').first().fill('7', { timeout: 400 }));
  await assert.rejects(page.locator('attn-note-scale input[type="range"]').fill('64', { timeout: 400 }));
  assert.equal(await page.locator('attn-value-change attn-matrix[label="W_v"] input').count(), 0, 'the W_v grid has no inputs');
  await page.locator('attn-value-change attn-matrix[label="W_v"] td[data-row="0"][data-col="0"]').click();
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await page.locator('attn-head attn-matrix#x td[data-row="0"][data-col="0"]').click();
  await page.keyboard.type('9');
  await page.keyboard.press('Enter');
  assert.equal(await state(page, 'attn-value-change'), wvState, 'W_v unchanged');
  assert.deepEqual(await gridTexts(page, outAfter), outBefore, 'out unchanged');
  assert.equal(await state(page, 'attn-head'), headState, 'x unchanged');

  // Viewing still works: the table view, and explainable cells (click and Enter).
  const tables = page.locator('attn-head button.tables');
  assert.equal(await tables.isEnabled(), true, '"Show as tables" stays usable');
  await tables.click();
  assert.equal(await tables.getAttribute('aria-pressed'), 'true');
  await tables.click();
  await page.locator('attn-note-cross attn-matrix[label="weights"] td[data-row="0"][data-col="0"]').click();
  await panelOpens(page, 'attn-note-cross', 'note 5 weights');
  await page.locator('attn-compare-words attn-matrix[label="weights"] td[data-row="1"][data-col="0"]').first().click();
  await panelOpens(page, 'attn-compare-words', 'two words');
  const headCell = page.locator('attn-head attn-matrix#weights td[data-row="2"][data-col="0"]');
  await headCell.focus();
  await page.keyboard.press('Enter');
  await panelOpens(page, 'attn-head', 'the head, by keyboard');
  assert.match(await page.locator('attn-head attn-explain').evaluate((el) => el.shadowRoot.textContent), /0\.80/);

  // Every render re-applies the lock (a language switch redraws every widget; the
  // quiz makes new radio buttons, the note-6 picks get new states).
  await switchLang(page, 'zh', LESSON);
  assert.deepEqual(await usable(page, LESSON), nothingUsable(LESSON), 'still locked after a re-render in Chinese');
  await switchLang(page, 'en', LESSON);
  assert.deepEqual(await usable(page, LESSON), nothingUsable(LESSON), 'still locked after switching back');

  // Removing readonly gives back exactly what it took.
  await setReadonly(page, LESSON, false);
  assert.deepEqual(await snapshot(page, LESSON), before, 'controls and grids as before readonly');
  const marks = await page.evaluate((tags) => tags.filter((tag) =>
    document.querySelector(tag).shadowRoot.querySelector('[data-readonly-locked], [data-readonly-editable]')), LESSON);
  assert.deepEqual(marks, [], 'no lock marks left');
  await page.locator('attn-value-change attn-matrix[label="W_v"] td[data-row="0"][data-col="0"] input').fill('3');
  await page.waitForFunction(() => document.querySelector('attn-value-change').state.W_v.data[0] === 3);
  await page.waitForFunction(([css, old]) => {
    const grid = document.querySelector('attn-value-change').shadowRoot.querySelector(css.replace(/^attn-value-change /, ''));
    return JSON.stringify([...grid.shadowRoot.querySelectorAll('td')].map((td) => td.textContent.trim())) !== JSON.stringify(old);
  }, [outAfter, outBefore]);
  await page.locator('attn-sum-norm input.words').fill('1, 1');
  await page.waitForFunction(() => document.querySelector('attn-sum-norm').state.scores.join() === '1,1');
}));

test('attn-head honours readonly with the lock: switches, word buttons and grids, and back', () => withPage(async (page) => {
  const head = page.locator('attn-head');
  await setReadonly(page, ['attn-head'], true);
  assert.equal(await head.locator('#causal').isDisabled(), true);
  assert.equal(await head.locator('#scaled').isDisabled(), true);
  assert.equal(await head.locator('button.word').first().isDisabled(), true);
  assert.equal(await head.locator('#reset').isHidden(), true, 'attn-head hides its reset');
  assert.equal(await head.locator('attn-matrix[editable]').count(), 0);
  // A follower that is not readonly keeps working while the head is.
  await page.locator('attn-value-change attn-matrix[label="W_v"] td[data-row="0"][data-col="1"] input').fill('4');
  await page.waitForFunction(() => document.querySelector('attn-value-change').state.W_v.data[1] === 4);
  await setReadonly(page, ['attn-head'], false);
  assert.equal(await head.locator('#causal').isEnabled(), true);
  assert.equal(await head.locator('#reset').isVisible(), true);
  assert.equal(await head.locator('attn-matrix[editable]').count(), 4, 'x, W_q, W_k, W_v editable again');
  await head.locator('button.word', { hasText: 'you' }).click();
  await page.waitForFunction(() => document.querySelector('attn-head').state.tokens.join('') === 'you');
  await head.locator('attn-matrix#W_q td[data-row="0"][data-col="0"] input').fill('2');
  await page.waitForFunction(() => document.querySelector('attn-head').state.W_q.data[0] === 2);
}));

test('the GPT trainer is not a lesson widget: readonly leaves its controls alone', () => withPage(async (page) => {
  // Its code loads once it comes near the viewport (widgets/index.js).
  await page.locator('attn-gpt-train').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').shadowRoot?.querySelector('button'));
  await setReadonly(page, ['attn-gpt-train'], true);
  const { marks, enabled } = await page.locator('attn-gpt-train').evaluate((el) => ({
    marks: el.shadowRoot.querySelectorAll('[data-readonly-locked], [data-readonly-editable]').length,
    enabled: [...el.shadowRoot.querySelectorAll('input, select, textarea, button')].filter((c) => !c.disabled).length,
  }));
  assert.equal(marks, 0, 'nothing locked');
  assert.ok(enabled > 0, 'its controls stay usable');
  await setReadonly(page, ['attn-gpt-train'], false);
}));
