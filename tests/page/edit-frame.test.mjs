// An edit of the head on the lesson page (section 4) is drawn in one frame: the head at
// once, and every widget that follows it (for="head") and can be seen by the end of the
// next animation frame's callbacks; a follower far from the viewport (more than half a
// screen away, draw-in-frame.js) right after that frame, in the next task. Each shows the
// numbers it shows once everything has settled.
// Run from the repo root: node --test --test-concurrency=1 tests/page/edit-frame.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSuite } from './browser.mjs';

const { withPage } = pageSuite();

/** Edits W_v[0][0] three times; what the head and each follower show at each moment. */
function edits(page) {
  return page.evaluate(async () => {
    const head = document.querySelector('attn-head#head');
    const followers = [...document.querySelectorAll('[for="head"]')];
    // What a reader sees of a widget: the text of every leaf and every input, shadow roots too.
    const seen = (el) => {
      const parts = [];
      const walk = (root) => {
        for (const e of root.querySelectorAll('*')) {
          if (e.shadowRoot) walk(e.shadowRoot);
          if (e.tagName === 'INPUT') parts.push(e.value);
          else if (!e.children.length) parts.push(e.textContent);
        }
      };
      walk(el.shadowRoot);
      return parts.join('|');
    };
    const inView = (el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight;
    };
    const grid = head.shadowRoot.querySelector('attn-matrix#W_v');
    const input = grid.shadowRoot.querySelector('td[data-row="0"][data-col="0"] input');
    const out = [];
    for (const value of ['3', '-1.5', '7']) {
      const before = [head, ...followers].map(seen);
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      const headNow = seen(head);
      // The followers' own frame callbacks were asked for first: they have run by now.
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const inFrame = followers.map(seen);
      await new Promise((resolve) => setTimeout(resolve, 0)); // the task after the frame
      const afterFrame = followers.map(seen);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const settled = [head, ...followers].map(seen);
      out.push({ before, headNow, inFrame, afterFrame, settled, visible: followers.map(inView),
        tags: followers.map((f) => f.localName) });
    }
    return out;
  });
}

function check(result) {
  for (const { before, headNow, inFrame, afterFrame, settled, visible, tags } of result) {
    assert.notEqual(headNow, before[0], 'the head redraws in the edit itself');
    assert.equal(headNow, settled[0]);
    tags.forEach((tag, i) => {
      if (visible[i]) assert.equal(inFrame[i], settled[i + 1], `${tag}, in view, has drawn the edit in the next frame`);
      assert.equal(afterFrame[i], settled[i + 1], `${tag} has drawn the edit by the task after the next frame`);
    });
    // W_v reaches the probe's output terms and the value change's "before" head.
    for (const tag of ['attn-head-probe', 'attn-value-change']) {
      const i = tags.indexOf(tag);
      assert.ok(i >= 0, tag);
      assert.notEqual(settled[i + 1], before[i + 1], `${tag} shows the new W_v`);
    }
    for (const text of [headNow, ...inFrame, ...afterFrame]) assert.doesNotMatch(text, /NaN|undefined/);
  }
}

test('an edit of W_v redraws the head at once, its followers in view within the next frame, the far ones just after it', () => withPage(async (page) => {
  // At the page's top every follower is screens away.
  const far = await edits(page);
  assert.deepEqual(far[0].visible, [false, false, false, false]);
  check(far);
  // A far follower waits for the task after the frame: none had drawn the edit within it.
  assert.ok(far.some(({ inFrame, settled }) => inFrame.some((text, i) => text !== settled[i + 1])),
    'the far followers draw after the frame');
  // With the probe at the top of the view, the probe (and what fits below it) is in view.
  await page.evaluate(() => {
    const probe = document.querySelector('attn-head-probe');
    const side = probe.closest('details'); // the side road it may sit in, opened
    if (side) side.open = true;
    probe.scrollIntoView();
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const near = await edits(page);
  assert.equal(near[0].visible[near[0].tags.indexOf('attn-head-probe')], true, 'the probe is in view');
  check(near);
}));
