// The widgets on course-notes tools no one here wrote, as docs/embedding.md's recipes say:
// each test builds a small site from tests/hosts/<tool>/ with the real tool around
// dist/attention-playground/ (MkDocs Material from PyPI, mdBook from crates.io, reveal.js
// from npm), serves it under a sub-path, and checks in Chromium that a widget draws its
// numbers, an edit changes them, a click opens an explanation, moving to another page and
// back keeps it working, theme="auto" follows the host's palette, and the console stays
// clean. ./build.sh test installs the tools (MKDOCS and MDBOOK name them; else PATH).
// Run from the repo root: node --test --test-concurrency=1 tests/page/hosts.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHOTS, pageSuite } from './browser.mjs';
import { DIST, REPO, freshDist } from './dist.mjs';
import { DARK, LIGHT, head, headCell, headDrawn, palette, useHead } from './host-checks.mjs';

const HOSTS = path.join(REPO, 'tests/hosts');
let tmp;

const site = pageSuite({
  prepare: async () => {
    await freshDist();
    tmp = await mkdtemp(path.join(tmpdir(), 'attn-hosts-'));
  },
  root: () => tmp,
  cleanup: () => tmp && rm(tmp, { recursive: true, force: true }),
});

/** Runs a host's tool; a missing tool fails with how to get it. */
function run(tool, args, cwd, env = {}) {
  try {
    return execFileSync(tool, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000, env: { ...process.env, NO_MKDOCS_2_WARNING: '1', ...env } });
  } catch (err) {
    if (err.code === 'ENOENT') assert.fail(`${tool} not found: ./build.sh test installs it (or set MKDOCS / MDBOOK)`);
    throw new Error(`${tool} ${args.join(' ')} failed:\n${err.stderr}`);
  }
}

/** Copies tests/hosts/<name>/ to a work folder with the built widgets at `assets` inside it. */
async function source(name, assets) {
  const work = path.join(tmp, `${name}-src`);
  await cp(path.join(HOSTS, name), work, { recursive: true });
  await cp(DIST, path.join(work, assets, 'attention-playground'), { recursive: true });
  return work;
}

test('MkDocs Material with navigation.instant: draws, edits, explains, survives instant page changes; theme="auto" follows its palette toggle', async () => {
  const work = await source('mkdocs', 'docs');
  // site_url is where the site is served: instant navigation takes only the links its sitemap lists
  run(process.env.MKDOCS ?? 'mkdocs', ['build', '--strict', '--site-dir', path.join(tmp, 'mkdocs')], work, { SITE_URL: `${site.base}mkdocs/` });
  await site.withPage(async (page) => {
    await page.evaluate(() => { window.__sameDocument = true; });
    await useHead(page);
    assert.equal(await page.locator('#__search').isChecked(), false, 'the "/" typed into a cell did not open the search');
    assert.deepEqual(await palette(head(page)), LIGHT, 'the default (light) scheme');
    await page.locator('label[title="Switch to dark mode"]').click();
    await page.waitForFunction(() => document.body.dataset.mdColorScheme === 'slate');
    assert.deepEqual(await palette(head(page)), DARK, 'slate: dark, at once');
    await page.screenshot({ path: path.join(SHOTS, 'host-mkdocs-slate.png') });
    // instant navigation: the next page's content is swapped in, the document stays
    await page.locator('a.md-nav__link', { hasText: 'Softmax with a mask' }).first().click();
    await page.waitForURL(/\/softmax\/$/);
    const steps = page.locator('attn-softmax-steps#steps');
    await assert.doesNotReject(steps.locator('.widget-error[hidden]').waitFor({ state: 'attached', timeout: 20000 }));
    await page.waitForFunction(() => /0\.27/.test(document.querySelector('#steps')?.shadowRoot?.textContent ?? ''), null, { timeout: 20000 });
    assert.equal(await page.evaluate(() => window.__sameDocument), true, 'instant navigation (no reload)');
    assert.deepEqual(await palette(steps), DARK, 'the new page\'s widget is dark too');
    await page.goBack();
    await page.waitForURL(/\/head\/$/);
    assert.equal(await page.evaluate(() => window.__sameDocument), true, 'back, instantly');
    await useHead(page);
    await page.locator('label[title="Switch to light mode"]').click();
    await page.waitForFunction(() => document.body.dataset.mdColorScheme === 'default');
    assert.deepEqual(await palette(head(page)), LIGHT, 'back to light, at once');
  }, { path: 'mkdocs/head/', ready: null });
  // A reader whose system is dark: Material's media palette picks slate, and so do the widgets.
  await site.withPage(async (page) => {
    await headDrawn(page);
    assert.equal(await page.evaluate(() => document.body.dataset.mdColorScheme), 'slate');
    assert.deepEqual(await palette(head(page)), DARK);
  }, { path: 'mkdocs/head/', colorScheme: 'dark', ready: null });
});

test('mdBook (widgets.js from theme/head.hbs): draws, edits, explains, across chapters; theme="auto" follows light, navy and ayu', async () => {
  const work = await source('mdbook', 'src');
  run(process.env.MDBOOK ?? 'mdbook', ['build', '--dest-dir', path.join(tmp, 'mdbook')], work);
  await site.withPage(async (page) => {
    await useHead(page);
    const theme = async (name) => {
      if (!await page.locator('#mdbook-theme-list').isVisible()) await page.locator('#mdbook-theme-toggle').click();
      await page.locator(`#mdbook-theme-${name}`).click();
      await page.waitForFunction((n) => document.documentElement.classList.contains(n), name);
    };
    assert.deepEqual(await palette(head(page)), LIGHT, 'light');
    for (const name of ['navy', 'ayu']) {
      await theme(name);
      assert.deepEqual(await palette(head(page)), DARK, name);
      await page.screenshot({ path: path.join(SHOTS, `host-mdbook-${name}.png`) });
    }
    // the next chapter (another folder level), in the theme the reader chose
    await page.locator('a[rel="next prefetch"]').first().click();
    await page.waitForURL(/softmax\.html$/);
    const steps = page.locator('attn-softmax-steps#steps');
    await page.waitForFunction(() => /0\.27/.test(document.querySelector('#steps')?.shadowRoot?.textContent ?? ''), null, { timeout: 20000 });
    assert.deepEqual(await palette(steps), DARK, 'ayu kept on the next chapter');
    await page.goBack();
    await useHead(page);
    await theme('light');
    assert.deepEqual(await palette(head(page)), LIGHT, 'light again');
  }, { path: 'mdbook/week7/head.html', ready: null });
});

test('reveal.js: the head on the third slide, scaled by a transform, draws, takes typed keys, explains, and survives slide changes', async () => {
  const work = await source('reveal', '.');
  await cp(path.join(REPO, 'node_modules/reveal.js/dist'), path.join(work, 'reveal'), { recursive: true });
  await cp(work, path.join(tmp, 'reveal'), { recursive: true });
  await site.withPage(async (page) => {
    const slide = () => page.evaluate(() => window.Reveal.getIndices().h);
    await page.waitForFunction(() => window.Reveal?.isReady());
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.Reveal.getIndices().h === 2);
    const scale = await page.evaluate(() => new DOMMatrix(getComputedStyle(document.querySelector('.reveal .slides')).transform).a);
    assert.ok(scale < 0.95, `the slides are scaled down by a transform (${scale})`);
    await useHead(page);
    assert.equal(await slide(), 2, 'typing into a cell did not turn the slide');
    await headCell(page, 'weights', 2, 0).click();
    const box = await head(page).locator('attn-explain').evaluate((el) => el.shadowRoot.querySelector('.panel').getBoundingClientRect().toJSON());
    assert.ok(box.width > 150 && box.left >= 0 && box.right <= 800 + 1, `the panel is inside the screen: ${JSON.stringify(box)}`);
    await page.screenshot({ path: path.join(SHOTS, 'host-reveal.png') });
    await page.keyboard.press('Escape');
    assert.deepEqual(await palette(head(page)), DARK, 'the deck declares color-scheme: dark');
    await page.evaluate(() => window.Reveal.next());
    await page.waitForFunction(() => /0\.27/.test(document.querySelector('#steps')?.shadowRoot?.textContent ?? ''), null, { timeout: 20000 });
    await page.evaluate(() => window.Reveal.prev());
    await page.waitForFunction(() => window.Reveal.getIndices().h === 2);
    assert.equal(await headCell(page, 'q', 2, 0).textContent(), '0.33', 'the edit is still there');
    await headCell(page, 'out', 2, 0).click();
    assert.match(await head(page).locator('attn-explain').evaluate((el) => el.shadowRoot.querySelector('.panel').textContent), /0\.\d\d·10/);
  }, { path: 'reveal/index.html', width: 800, height: 600, ready: null });
});
