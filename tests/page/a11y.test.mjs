// Accessible to every reader, as an auditor checks it: axe-core (npm, the engine behind
// most accessibility audits, Lighthouse's too) on index.html, embed.html and
// notes-example.html, in English and Chinese, in the light and the dark theme, once every
// widget has drawn, and again with an explanation open and every "Show as tables" on. A
// violation of a WCAG 2.1 A or AA rule fails the test, named with its rule and nodes.
// Far lesson sections skip rendering (pages/lesson.js); the audit renders every section,
// as a reader scrolling through sees each. And every editable cell of the head has a
// spoken name: "W_q row d0 column c2", its value read after it.
// Run from the repo root: node --test --test-concurrency=1 tests/page/a11y.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { headDrawn, pageSuite } from './browser.mjs';

const { withPage } = pageSuite();
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// WCAG 2.2 AA adds target-size (24 px targets, or 24 px apart); heading-order is a best
// practice Lighthouse's accessibility score counts (a widget's first heading one level below
// the section's): both run too.
const RULES = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const EXTRA = { 'heading-order': { enabled: true } };

/** Every violation on the page now: "rule (impact): [node path] what fails". */
async function violations(page) {
  // scrolled through as a reader does: widgets far from the view draw once near it
  await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
    const back = window.scrollY;
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      window.scrollTo(0, y);
      await frame();
    }
    window.scrollTo(0, back);
    for (const s of document.querySelectorAll('.lesson-section')) s.style.contentVisibility = 'visible';
    await new Promise((r) => setTimeout(r, 300)); // the last widgets' draws, one per task
    await frame();
  });
  if (!await page.evaluate(() => 'axe' in window)) await page.addScriptTag({ content: AXE });
  return page.evaluate(async ([tags, rules]) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
    return r.violations.flatMap((v) => v.nodes.map((n) =>
      `${v.id} (${v.impact}): ${JSON.stringify(n.target)} ${n.failureSummary.replace(/\s+/g, ' ')}`));
  }, [RULES, EXTRA]);
}

/** Opens the first explainable cell's explanation and turns every "Show as tables" on. */
async function explainAndTables(page) {
  await page.locator('attn-matrix[explainable] td.explainable:visible').first().click();
  await page.locator('attn-explain[open], attn-explain:not([hidden]) .panel').first().waitFor();
  // by script: some of these buttons sit under the open panel
  const turned = await page.evaluate(() => {
    let n = 0;
    const walk = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.matches('button.tables[aria-pressed="false"]')) { el.click(); n++; }
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return n;
  });
  assert.ok(turned > 0, 'some "Show as tables" to turn on');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
}

for (const path of ['index.html', 'embed.html', 'notes-example.html']) {
  for (const lang of ['en', 'zh']) {
    for (const colorScheme of ['light', 'dark']) {
      test(`${path} (${lang}, ${colorScheme}): no WCAG 2.1 A/AA violation drawn, explained, as tables`, () => withPage(async (page) => {
        assert.deepEqual(await violations(page), [], 'as drawn');
        // The side roads (folded <details>) open, so that axe sees what they hold too.
        if (await page.locator('details.side-road').count()) {
          await page.evaluate(() => {
            const open = (root) => root.querySelectorAll('*').forEach((el) => {
              if (el.matches('details.side-road')) el.open = true;
              if (el.shadowRoot) open(el.shadowRoot);
            });
            open(document);
          });
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
          assert.deepEqual(await violations(page), [], 'with every side road open');
        }
        await explainAndTables(page);
        assert.deepEqual(await violations(page), [], 'with an explanation open and the tables on');
      }, { path, lang, colorScheme, bypassCSP: true, ...(path === 'notes-example.html' ? { ready: headDrawn } : {}) }));
    }
  }
}

test('every editable cell of the head has a spoken name, in both languages', () => withPage(async (page) => {
  const names = () => page.evaluate(() => {
    const head = document.querySelector('attn-head');
    return [...head.shadowRoot.querySelectorAll('attn-matrix[editable]')].flatMap((m) =>
      [...m.shadowRoot.querySelectorAll('td input')].map((i) => [i.getAttribute('aria-label'), i.value]));
  });
  const en = await names();
  assert.equal(en.length, 3 * 3 + 3 * 2 * 3, 'x is 3×3, W_q, W_k, W_v are 2×3');
  assert.ok(en.every(([name, value]) => name && value !== ''), 'every cell has a name and a value');
  const wq = await page.locator('attn-head attn-matrix#W_q td[data-row="0"][data-col="2"] input');
  assert.equal(await wq.getAttribute('aria-label'), 'W_q row d0 column c2');
  // what a screen reader gets: the name, then the value the cell shows
  assert.match(await page.locator('attn-head attn-matrix#W_q').ariaSnapshot(), new RegExp(`textbox "W_q row d0 column c2": "${await wq.inputValue()}"`));
  assert.ok(en.some(([name]) => /^x row h column c0$/.test(name)), 'x: rows by token');
  await page.locator('button[data-lang="zh"]').first().click();
  await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
  assert.equal(await wq.getAttribute('aria-label'), 'W_q 第 d0 行第 c2 列');
}));
