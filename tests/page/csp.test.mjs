// The pages under a strict Content-Security-Policy. The server sends CSP on
// every response; an init script records every `securitypolicyviolation` event (they
// bubble, composed, out of shadow roots to the document) and the console's "Refused /
// violates the following Content Security Policy" errors. Each page must load with
// zero violations and still draw what it draws without the header.
// Run from the repo root: node --test --test-concurrency=1 tests/page/csp.test.mjs
// Needs the wasm built into www/pkg (./build.sh).
//
// The policy (the one README recommends for a deployment):
//   default-src 'self'        scripts, styles, fonts (KaTeX's woff2), fetch (corpus,
//                             checkpoints, KaTeX's CSS for shadow roots), workers, images
//   script-src 'self' 'wasm-unsafe-eval'
//                             ES modules from files only; WebAssembly.instantiate needs
//                             'wasm-unsafe-eval' (no 'unsafe-eval': nothing uses eval)
//   style-src 'self'          <link rel="stylesheet"> only. Constructed stylesheets
//                             (adoptedStyleSheets) and CSSOM writes (el.style.x = …, which
//                             KaTeX uses for its struts and the heatmaps for cell colours)
//                             are not inline styles and need nothing more. Inline <style>
//                             elements and style="" attributes parsed from HTML are blocked.
//   object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'
//                             hardening that costs nothing (no plugins, forms or <base>).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { headDrawn, pageSuite } from './browser.mjs';

export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));

const site = pageSuite({ headers: { 'Content-Security-Policy': CSP } });

const exists = (file) => access(`${WWW}${file}`).then(() => true, () => false);

/**
 * Opens `file` under the CSP (`ready`: what to wait for, as openPage), runs `fn(page)`,
 * and returns what was recorded: { violations, consoleViolations, problems, page, context }.
 */
async function underCsp(file, fn, options) {
  const { page, context, response, problems, others: consoleViolations } = await site.open(file, {
    readyTimeout: 20000, ...options, init: recordViolations,
    aside: (text) => text.startsWith('console.') && /Content Security Policy|Refused to/i.test(text),
  });
  try {
    assert.equal(response.headers()['content-security-policy'], CSP, 'the page is served with the policy');
    await fn?.(page);
    // Scroll through the page so lazily drawn parts (KaTeX in late sections) run too.
    await page.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += 700) {
        scrollTo(0, y);
        // a frame, or 500 ms if no frame comes (page.evaluate itself has no timeout)
        await new Promise((r) => { requestAnimationFrame(() => setTimeout(r, 20)); setTimeout(r, 500); });
      }
    });
    await page.waitForTimeout(300);
    const violations = await page.evaluate(() => window.__cspViolations);
    return { violations, consoleViolations, problems, page, context };
  } catch (err) {
    await context.close();
    throw err;
  }
}

/** An init script: records every securitypolicyviolation event in window.__cspViolations. */
function recordViolations() {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    const where = e.sourceFile ? ` at ${e.sourceFile.replace(location.origin, '')}:${e.lineNumber}` : '';
    window.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}${where}`
      + ` (${e.target?.localName ?? e.target?.nodeName ?? '?'})${e.sample ? `: ${e.sample.slice(0, 60)}` : ''}`);
  }, true);
}

/** Elements with KaTeX output (class .katex) anywhere, shadow roots included; and how many have a visible size. */
const katexCount = (page) => page.evaluate(() => {
  let all = 0;
  let drawn = 0;
  let errors = 0;
  const walk = (root) => {
    errors += root.querySelectorAll('.tex-error, .katex-error').length;
    for (const el of root.querySelectorAll('.katex')) {
      if (!el.checkVisibility()) continue; // in a folded side road, or the first screen's compact head
      all += 1;
      const box = el.getBoundingClientRect();
      // KaTeX's CSS must have applied: its hidden MathML twin stays invisible.
      const mathml = el.querySelector('.katex-mathml');
      const hidden = !mathml || getComputedStyle(mathml).position === 'absolute';
      if (box.width > 0 && box.height > 0 && hidden) drawn += 1;
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return { all, drawn, errors };
});

/** Separates violations that come from the GPT section: tests of their own hold it to none. */
const isGpt = (v) => /gpt-|attn-gpt|attn-loss-plot|bench/.test(v);

// ---- index.html ----

let lesson = null; // { violations, consoleViolations } of index.html, shared by two tests

test('index.html under the CSP: the lesson draws its numbers and formulas', async () => {
  const run = await underCsp('', async (page) => {
    const cell = (id, r, c) => page.locator(`attn-head attn-matrix#${id} td[data-row="${r}"][data-col="${c}"]`).textContent();
    assert.equal(await cell('scores', 2, 0), '4.00', 'score u→h');
    assert.equal(await cell('out', 2, 0), '8.87', 'out[u, d₀]');
    assert.equal(await cell('out', 2, 1), '1.13', 'out[u, d₁]');
    assert.equal(await cell('weights', 2, 0), '0.80');
    // Heatmap colours are CSSOM writes (td.style.backgroundColor): allowed, so cells are coloured.
    const bg = await page.locator('attn-head attn-matrix#weights td[data-row="2"][data-col="0"]')
      .evaluate((td) => getComputedStyle(td).backgroundColor);
    assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'the heatmap cell has its colour');
    // Widget styles come from constructed sheets: the head's cards are laid out.
    const display = await page.locator('attn-head').evaluate((el) => getComputedStyle(el.shadowRoot.querySelector('.cards')).display);
    assert.match(display, /grid|flex/);
    // The page's own stylesheet applied (style.css through <link>).
    assert.notEqual(await page.locator('header.top').evaluate((el) => getComputedStyle(el).display), 'inline');
    // An edit still computes (wasm under 'wasm-unsafe-eval').
    await page.locator('attn-head attn-matrix#W_v td[data-row="0"][data-col="0"] input').fill('20');
    assert.equal(await cell('out', 0, 0), '20.00');
    // The side roads unfolded (in the page and in widgets), so that their formulas count too.
    await page.locator('details.side-road').evaluateAll((roads) => roads.forEach((d) => { d.open = true; }));
    const { all, drawn, errors } = await katexCount(page);
    assert.ok(all >= 20, `KaTeX formulas rendered: ${all}`);
    assert.equal(drawn, all, 'every formula has a size and KaTeX\'s CSS applied');
    assert.equal(errors, 0, 'no formula failed to parse');
    // A module worker with its own wasm (note 6's variance experiment) runs under the policy.
    await page.locator('attn-variance button.primary').click();
    await page.waitForFunction(() => {
      const el = document.querySelector('attn-note-scale')?.shadowRoot?.querySelector('attn-variance');
      return el && !el.running && el.shadowRoot.querySelectorAll('tbody tr td').length >= 10;
    }, null, { timeout: 60000 });
    assert.ok(page.workers().some((w) => /variance-worker\.js$/.test(w.url())), 'the variance ran in its worker');
    const variances = await page.locator('attn-variance tbody tr').evaluateAll((trs) =>
      trs.map((tr) => tr.querySelectorAll('td')[1]?.textContent));
    assert.deepEqual(variances.slice(0, 2), ['3.99', '16.03'], 'seed 0 variances');
    // KaTeX's fonts load from 'self' (default-src).
    await page.evaluate(() => Promise.race([document.fonts.ready, new Promise((r) => setTimeout(r, 10000))]));
    const fonts = await page.evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family));
    assert.ok(fonts.some((f) => /KaTeX/.test(f)), `KaTeX fonts loaded: ${fonts}`);
    // Each of those formulas was typeset when the site was built, in the group its widget
    // registers (tex.js usePrebuilt): KaTeX's script is never fetched for the lesson.
    const katexScript = await page.evaluate(() => performance.getEntriesByType('resource')
      .map((e) => e.name).filter((u) => /katex[^/]*\.js$/.test(u)));
    assert.deepEqual(katexScript, [], 'KaTeX\'s script fetched for a formula typeset at build time');
  });
  lesson = run;
  await run.context.close();
  assert.deepEqual(run.problems, [], 'console errors or failed requests');
  const outside = run.violations.filter((v) => !isGpt(v));
  assert.deepEqual(outside, [], 'no CSP violation outside the GPT section');
  if (!run.violations.some(isGpt)) assert.deepEqual(run.consoleViolations, []);
});

test('index.html under the CSP: the GPT section (section 9) has no violations either', () => {
    assert.ok(lesson, 'the lesson test ran');
    assert.deepEqual(lesson.violations.filter(isGpt), []);
    assert.deepEqual(lesson.consoleViolations, []);
  });

test('index.html under the CSP: tokens from a link that look like LaTeX are typeset as text', async () => {
  const tokens = ['\\href', '}{%x', '$^_~#&'];
  const hash = `#head=${encodeURIComponent(JSON.stringify({ tokens }))}&probe=${encodeURIComponent('{"receiver":2,"source":0}')}`;
  const run = await underCsp(hash, async (page) => {
    assert.ok(await page.locator('#url-notice').isHidden(), 'short tokens are a valid state');
    const formula = page.locator('attn-head-probe .formula');
    assert.equal(await formula.locator('.katex').count(), 1, 'the probe formula is typeset');
    assert.equal(await formula.locator('.tex-error, .katex-error').count(), 0);
    assert.equal(await formula.locator('a').count(), 0, 'no link from \\href');
    const text = await formula.locator('.katex-mathml annotation').textContent();
    assert.match(text, /\\backslash href/);
    assert.match(text, /q_\{\\\$\\wedge \\_\\sim \\#\\&\}/);
  });
  await run.context.close();
  assert.deepEqual(run.violations.filter((v) => !isGpt(v)), []);
  assert.deepEqual(run.problems, []);
});

// ---- the other pages ----

const others = {}; // file -> the recorded run, for the GPT todo below

for (const [file, check] of [
  ['embed.html', async (page) => {
    assert.ok(await page.locator('attn-head').count() >= 1, 'the catalogue shows live widgets');
    // The catalogue's widgets far from the viewport draw after data-ready, one per task; until
    // then their cells hold placeholders (they keep the final layout): wait for the number.
    const out = page.locator('attn-head attn-matrix#out td[data-row="2"][data-col="0"]').first();
    await out.filter({ hasText: /\d/ }).waitFor({ timeout: 20000 });
    assert.equal(await out.textContent(), '8.87');
  }],
  ['notes-example.html', async (page) => {
    assert.ok(await page.locator('attn-head').count() >= 1);
    assert.equal(await page.locator('attn-head attn-matrix#scores td[data-row="2"][data-col="0"]').first().textContent(), '4.00');
  }],
  ['explain-demo.html', async (page) => {
    assert.equal(await page.locator('attn-matrix#out td[data-row="2"][data-col="0"]').textContent(), '8.87');
    const { all, drawn } = await katexCount(page);
    assert.ok(all >= 1 && drawn === all, `formula steps typeset: ${drawn}/${all}`);
  }],
  ['bench.html', null],
]) {
  test(`${file} under the CSP: no violations`, async (t) => {
    if (!(await exists(file))) {
      t.skip(`${file} is not in www/`);
      return;
    }
    const ready = file === 'bench.html' || file === 'notes-example.html' ? null : 'html[data-ready="true"]';
    const run = await underCsp(file, async (page) => {
      if (!ready) await page.waitForFunction(() => customElements.get('attn-head') || document.getElementById('status'), null, { timeout: 20000 });
      if (file === 'notes-example.html') {
        await headDrawn(page);
      }
      if (file === 'bench.html') {
        // bench.html runs a GPT benchmark: only check that it starts under the policy.
        await page.waitForFunction(() => !/Loading/.test(document.getElementById('status')?.textContent ?? 'Loading'), null, { timeout: 30000 }).catch(() => {});
      }
      await check?.(page);
    }, { ready });
    await run.context.close();
    others[file] = run;
    assert.deepEqual(run.violations.filter((v) => !isGpt(v)), [], 'no securitypolicyviolation event outside <attn-gpt-train>');
    if (!run.violations.some(isGpt)) assert.deepEqual(run.consoleViolations, [], 'no CSP message in the console');
    assert.deepEqual(run.problems, [], 'console errors or failed requests');
  });
}

test('embed.html under the CSP: its <attn-gpt-train> example has no violations either', () => {
    const run = others['embed.html'];
    if (!run) return;
    assert.deepEqual(run.violations.filter(isGpt), []);
    assert.deepEqual(run.consoleViolations, []);
  });

test('the server sends the policy on every response, with the right MIME types', async () => {
  const res = await fetch(`${site.base}index.html`);
  assert.equal(res.headers.get('content-security-policy'), CSP);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  const wasm = await fetch(`${site.base}pkg/attention_playground_bg.wasm`, { method: 'HEAD' });
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  assert.equal(wasm.headers.get('content-security-policy'), CSP);
});
