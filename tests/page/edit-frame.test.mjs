// An edit of the head on the lesson page (section 4) is drawn in one frame: the head at
// once, and every widget that follows it (for="head") by the end of the next animation
// frame's callbacks, with the numbers they show once everything has settled.
// Run from the repo root: node --test --test-concurrency=1 tests/page/edit-frame.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSuite } from './browser.mjs';

const { withPage } = pageSuite();

test('an edit of W_v redraws the head and its followers within the next frame', () => withPage(async (page) => {
  const result = await page.evaluate(async () => {
    const head = document.querySelector('attn-head');
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
      await new Promise((resolve) => setTimeout(resolve, 300));
      const settled = [head, ...followers].map(seen);
      out.push({ before, headNow, inFrame, settled, tags: followers.map((f) => f.localName) });
    }
    return out;
  });
  for (const { before, headNow, inFrame, settled, tags } of result) {
    assert.notEqual(headNow, before[0], 'the head redraws in the edit itself');
    assert.equal(headNow, settled[0]);
    tags.forEach((tag, i) => assert.equal(inFrame[i], settled[i + 1], `${tag} has drawn the edit by the next frame`));
    // W_v reaches the probe's output terms and the value change's "before" head.
    for (const tag of ['attn-head-probe', 'attn-value-change']) {
      const i = tags.indexOf(tag);
      assert.ok(i >= 0, tag);
      assert.notEqual(settled[i + 1], before[i + 1], `${tag} shows the new W_v`);
    }
    for (const text of [headNow, ...inFrame]) assert.doesNotMatch(text, /NaN|undefined/);
  }
}));
