// A head on its defaults paints its numbers in the page's first frame, before its wasm has
// arrived: the numbers the core computed when the site was built (tools/head-first.mjs,
// www/js/widgets/head/head-first.gen.js). Here the core is held back until the test lets it go, as on a
// slow network: the first frame's numbers must be the very ones the core then draws (each
// cell's text and its exact value, and the stepper's text), for every causal/scaled
// setting; what a learner types
// or switches meanwhile must not be lost; a head given its own matrices shows no numbers
// until the core has computed them.
// Run from the repo root: node --test tests/page/head-first.test.mjs

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { pageSuite } from './browser.mjs';

const site = pageSuite();

const PAGE = '__head-first.html';
const PAGE_PATH = fileURLToPath(new URL(`../../www/${PAGE}`, import.meta.url));
const HEADS = {
  plain: '', off: 'causal="false"', scaled: 'scaled', both: 'causal="false" scaled="true"',
  // its own x: no numbers before the core (the built ones are the built-in head's)
  own: 'data-own',
  // a switch that is neither true nor false: said, and drawn at its default
  bad: 'causal="maybe"',
};
before(() => writeFile(PAGE_PATH, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Heads before their core</title><link rel="icon" href="data:,">
<script type="module" src="widgets.js" blocking="render"></script></head>
<body>${Object.entries(HEADS).map(([id, attrs]) => `<attn-head id="${id}" ${attrs}></attn-head>`).join('\n')}
<script type="module">document.getElementById('own').state = { x: { rows: 2, cols: 3, data: [1, 2, 3, 4, 5, 6] } };</script>
</body></html>
`));
after(() => rm(PAGE_PATH, { force: true }));

/** Opens the page with its wasm held back, runs `fn({ page, release })` once its first
 *  frame is painted (`release()` lets the wasm go), closes it and asserts it stayed clean. */
async function withHeld(fn) {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const { page, context, problems } = await site.open(PAGE, {
    ready: null,
    watchPage: (p) => p.route(/\.wasm$/, async (route) => {
      await held;
      await route.continue().catch(() => {});
    }),
  });
  try {
    // the first frame has been painted (and one more)
    await page.waitForFunction(() => performance.getEntriesByType('paint').length > 0, null, { polling: 20 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await fn({ page, release });
  } finally {
    release();
    await context.close();
  }
  assert.deepEqual(problems, []);
}

/** The input of cell (row, col) of grid `name` of head `id`. */
const cellInput = (page, id, name, row, col) =>
  page.locator(`attn-head#${id} attn-matrix#${name} td[data-row="${row}"][data-col="${col}"] input`);

/** What each grid of head `id` shows: every cell's text (an input's value) and its exact
 *  value (the title), by grid. */
const shown = (page, id) => page.locator(`attn-head#${id}`).evaluate((head) => Object.fromEntries(
  [...head.shadowRoot.querySelectorAll('attn-matrix')].map((m) => [m.id,
    [...m.shadowRoot.querySelectorAll('td')].map((td) => [td.querySelector('input')?.value ?? td.textContent, td.title])])));

/** What the stepper of head `id` says (the step, its description), or '' while it waits. */
const stepper = (page, id) => page.locator(`attn-head#${id}`).evaluate((head) => {
  const steps = head.shadowRoot.querySelector('attn-formula-steps');
  return steps.hasAttribute('data-pending') ? '' : steps.shadowRoot.textContent;
});

/** What head `id` tells in its own message line (an attribute it cannot read). */
const said = (page, id) => page.locator(`attn-head#${id}`).evaluate((head) => {
  const p = head.shadowRoot.querySelector('.widget-error');
  return p.hidden ? '' : p.textContent;
});

/** Resolves once every head has drawn with its core (its result is there). */
const drawn = (page, ids) => page.waitForFunction((list) => list.every((id) => document.getElementById(id).result), ids);

test('before its core arrives, a head on its defaults shows the numbers the core then draws, for every switch setting', async () => {
  await withHeld(async ({ page, release }) => {
    const ids = ['plain', 'off', 'scaled', 'both'];
    // the stepper is drawn in a task after the first frame (a head not built yet has none:
    // not drawn either)
    await page.waitForFunction((list) => list.every((id) => {
      const steps = document.getElementById(id)?.shadowRoot?.querySelector('attn-formula-steps');
      return steps != null && !steps.hasAttribute('data-pending');
    }), ids);
    assert.equal(await page.evaluate(() => document.getElementById('plain').result), null, 'no core yet');
    const before = {};
    for (const id of ids) {
      before[id] = { ...await shown(page, id), stepper: await stepper(page, id) };
      assert.match(before[id].stepper, /Step 1 of 5/, `${id}: the stepper is drawn`);
      const { stepper: _, ...grids } = before[id];
      const cells = Object.values(grids).flat();
      assert.equal(cells.length, 9 + 3 * 6 + 3 * 6 + 3 * 9 + 6, `${id}: every grid`);
      assert.ok(cells.every(([text, title]) => /^(−?\d+(\.\d+)?|−∞)$/.test(text) && title), `${id}: every cell holds a number: ${JSON.stringify(cells)}`);
    }
    // the settings differ where they should: the mask, and the scale of the scores
    assert.equal(before.plain.masked_scores[1][0], '−∞');
    assert.notEqual(before.off.masked_scores[1][0], '−∞');
    assert.notDeepEqual(before.scaled.scores, before.plain.scores);
    const numbers = (cells) => cells.map(([text, title]) => [text, title.split(' = ')[1]]);
    assert.deepEqual(numbers(before.both.masked_scores), numbers(before.both.scores), 'no mask: the masked scores are the scores');
    // a head given its own x before its core came shows no number yet
    const own = await shown(page, 'own');
    assert.equal(own.x.length, 6);
    assert.ok(Object.values(own).flat().every(([text]) => !/\d/.test(text)), 'no built-in number in a head with its own matrices');
    assert.equal(await stepper(page, 'own'), '', 'nor the built-in head\'s steps');
    release();
    await drawn(page, [...ids, 'own']);
    for (const id of ids) {
      const after = { ...await shown(page, id), stepper: await stepper(page, id) };
      assert.deepEqual(after, before[id], `${id}: the core drew what was on screen`);
    }
    assert.deepEqual((await shown(page, 'own')).x.map(([text]) => text), ['1', '2', '3', '4', '5', '6']);
  });
});

test('what a learner types or switches before the core arrives is kept', async () => {
  await withHeld(async ({ page, release }) => {
    // on the built-in head: W_v[0][0] = 7, a word where W_q[0][1] goes, the mask off
    await cellInput(page, 'plain', 'W_v', 0, 0).fill('7');
    await cellInput(page, 'plain', 'W_q', 0, 1).fill('seven');
    await page.locator('attn-head#plain #causal').uncheck();
    // before the core: the built-in head's numbers follow the switch at once
    assert.equal((await shown(page, 'plain')).masked_scores[1][0], '0.00', 'the mask is off: h→o is no longer −∞');
    assert.equal(await page.evaluate(() => document.getElementById('plain').result), null, 'no core yet');
    release();
    await drawn(page, ['plain', 'off']);
    const state = await page.evaluate(() => document.getElementById('plain').state);
    assert.equal(state.W_v.data[0], 7, 'the typed number is in the lab');
    assert.equal(state.W_q.data[1], 0, 'the word was refused');
    assert.equal(state.causal, false, 'the switch is in the lab');
    assert.equal(await cellInput(page, 'plain', 'W_q', 0, 1).getAttribute('aria-invalid'), 'true', 'the word is marked');
    assert.equal(await cellInput(page, 'plain', 'W_q', 0, 1).inputValue(), 'seven', 'the word stays where it was typed');
    // the same edit on a head whose core is here (the mask off by its attribute) draws the same
    await cellInput(page, 'off', 'W_v', 0, 0).fill('7');
    await page.waitForFunction(() => document.getElementById('off').state.W_v.data[0] === 7);
    const [mine, theirs] = [await shown(page, 'plain'), await shown(page, 'off')];
    assert.deepEqual(mine.out, theirs.out);
    assert.deepEqual(mine.weights, theirs.weights);
    assert.notDeepEqual(mine.out, (await shown(page, 'both')).out);
  });
});

test('before the core: reset drops what was typed, attributes redraw the head, a switch is announced, a bad switch is said', async () => {
  await withHeld(async ({ page, release }) => {
    const changes = await page.evaluateHandle(() => {
      const seen = [];
      document.addEventListener('attn-change', (e) => seen.push([e.target.id, e.detail.causal, e.detail.W_v.data[0]]));
      return seen;
    });
    const plainBefore = await shown(page, 'plain');
    // typed, then reset: the cells show the built-in numbers again, nothing is kept
    await cellInput(page, 'plain', 'W_v', 0, 0).fill('7');
    await cellInput(page, 'plain', 'W_q', 0, 1).fill('seven');
    await page.locator('attn-head#plain #reset').click();
    assert.deepEqual(await shown(page, 'plain'), plainBefore, 'reset before the core: the built-in head again');
    // an attribute set before the core: the head follows it at once
    await page.locator('attn-head#scaled').evaluate((head) => head.setAttribute('causal', 'false'));
    assert.deepEqual(await shown(page, 'scaled'), await shown(page, 'both'), 'causal="false" scaled: as the head with both attributes');
    assert.equal(await page.locator('attn-head#scaled #causal').isChecked(), false);
    // a switch turned before the core
    await page.locator('attn-head#off #scaled').check();
    // a bad switch: drawn at its default (the mask on) until its core says what was wrong
    assert.deepEqual(await shown(page, 'bad'), plainBefore);
    release();
    await drawn(page, ['plain', 'off', 'scaled', 'bad']);
    assert.deepEqual(await shown(page, 'plain'), plainBefore, 'the core has the built-in head');
    const state = await page.evaluate(() => document.getElementById('plain').state);
    assert.equal(state.W_v.data[0], 10, 'the reset number is in the lab');
    assert.equal(await cellInput(page, 'plain', 'W_q', 0, 1).getAttribute('aria-invalid'), null, 'no mark left of the word');
    assert.deepEqual(await shown(page, 'scaled'), await shown(page, 'both'), 'the core drew the same');
    assert.deepEqual(await shown(page, 'off'), await shown(page, 'both'), 'the early switch is in the lab');
    assert.deepEqual(await changes.jsonValue(), [['off', false, 10]], 'the early switch is announced, once; nothing else');
    assert.match(await said(page, 'bad'), /causal="maybe": expected true or false/);
    assert.deepEqual(await shown(page, 'bad'), plainBefore, 'the bad switch at its default');
    // and the head works: an edit redraws it
    await cellInput(page, 'bad', 'W_v', 0, 0).fill('7');
    await page.waitForFunction(() => document.getElementById('bad').state.W_v.data[0] === 7);
    assert.notDeepEqual((await shown(page, 'bad')).out, plainBefore.out);
  });
});
