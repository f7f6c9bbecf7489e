// The widgets as an npm package (issue 34), as a course author gets them: the tarball
// `./build.sh npm` packs (dist/npm/attention-playground-<version>.tgz) installed with npm
// into an empty folder; a Vite site built around it by the real Vite (tests/hosts/vite/),
// served under a sub-path; and the package's widgets.js loaded from another origin, as from
// a CDN. Each page draws the head, takes a typed edit, explains a weight, fetches nothing
// from any origin but its own (the CDN's, for the CDN page), and keeps a clean console.
// ./build.sh test installs the host tools (tests/hosts/npm-tools/ → target/npm-hosts/,
// NPM_HOSTS names its node_modules).
// Run from the repo root: node --test --test-concurrency=1 tests/page/npm.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHOTS, pageSuite } from './browser.mjs';
import { REPO } from './dist.mjs';
import { serve } from './server.mjs';
import { headCell, useHead } from './host-checks.mjs';
import { WIDGETS } from '../../www/js/widgets/manifest.js';

const NPM_HOSTS = process.env.NPM_HOSTS ?? path.join(REPO, 'target/npm-hosts/node_modules');
let tmp;
let tarball;

const site = pageSuite({
  prepare: async () => {
    const dir = path.join(REPO, 'dist/npm');
    const name = (await readdir(dir).catch(() => [])).find((f) => /^attention-playground-.*\.tgz$/.test(f));
    assert.ok(name, 'no dist/npm/attention-playground-*.tgz: ./build.sh npm makes it');
    tarball = path.join(dir, name);
    tmp = await mkdtemp(path.join(tmpdir(), 'attn-npm-'));
  },
  root: () => tmp,
  cleanup: () => tmp && rm(tmp, { recursive: true, force: true }),
});

/** Runs `cmd args` in `cwd`; a failure shows its output. */
function run(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  } catch (err) {
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${err.stdout}\n${err.stderr}`);
  }
}

/** `npm install` of the tarball into `dir` (a package.json there or not): offline, no other package. */
const install = (dir) => run('npm', ['install', '--no-audit', '--no-fund', '--offline', '--no-save', tarball], dir);

/** tests/hosts/`name`/ copied to a work folder, the tarball installed there; resolves to the folder. */
async function hostSource(name) {
  const work = path.join(tmp, `${name}-src`);
  await cp(path.join(REPO, 'tests/hosts', name), work, { recursive: true });
  install(work);
  return work;
}

/** Resolves once the page's <attn-softmax-steps id="steps"> drew its first weight, 0.27. */
const stepsDrawn = (page) => page.waitForFunction(
  () => /0\.27/.test(document.querySelector('#steps')?.shadowRoot?.textContent ?? ''), null, { timeout: 20000 });

/** The origins of every request a page makes (its workers' too), recorded from before it
 *  loads: `watchPage` of withPage's options, and `seen`. */
function origins() {
  const seen = new Set();
  const watchPage = (page) => page.context().on('request', (r) => {
    if (!/^(data|blob):/.test(r.url())) seen.add(new URL(r.url()).origin);
  });
  return { seen, watchPage };
}

/** Starts the trainer of `page` (a fresh tiny model), waits for `steps` steps, pauses; its loss is finite. */
async function trains(page, steps) {
  const gpt = page.locator('attn-gpt-train');
  await gpt.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('attn-gpt-train')?.dataset.status === 'idle', null, { timeout: 60000 });
  await gpt.getByRole('button', { name: 'Start', exact: true }).click();
  await page.waitForFunction((n) => Number(document.querySelector('attn-gpt-train').dataset.step) >= n, steps,
    { timeout: 60000, polling: 200 });
  await gpt.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').dataset.status === 'paused');
  const { loss } = await gpt.evaluate((el) => el.state);
  assert.ok(Number.isFinite(loss) && loss > 0, `a finite loss: ${loss}`);
}

/**
 * A built site's head page at `start`: the head works (a screenshot `shot`); its menu's
 * (`menu`) link to the softmax page opens it (URL `there`) without a reload, and its widget
 * draws; back (URL `back`), the head works again; nothing came from elsewhere.
 */
async function aroundAndBack(start, shot, menu, [there, back]) {
  const { seen, watchPage } = origins();
  await site.withPage(async (page) => {
    await page.evaluate(() => { window.__sameDocument = true; });
    await useHead(page);
    await page.screenshot({ path: path.join(SHOTS, `${shot}.png`) });
    await page.locator(menu, { hasText: 'Softmax with a mask' }).click();
    await page.waitForURL(there);
    await stepsDrawn(page);
    await page.goBack();
    await page.waitForURL(back);
    assert.equal(await page.evaluate(() => window.__sameDocument), true, 'client-side navigation (no reload)');
    await useHead(page);
    assert.deepEqual([...seen], [new URL(site.base).origin], 'nothing fetched from elsewhere');
  }, { path: start, ready: null, watchPage });
}

test('npm install of the tarball into an empty folder: the scripts, the wasm, the manifest and the types, not the site', async () => {
  const dir = path.join(tmp, 'empty');
  await mkdir(dir);
  install(dir);
  const pkgDir = path.join(dir, 'node_modules/attention-playground');
  const pkg = JSON.parse(await readFile(path.join(pkgDir, 'package.json'), 'utf8'));
  const cargo = await readFile(path.join(REPO, 'Cargo.toml'), 'utf8');
  assert.equal(pkg.version, cargo.match(/^version = "(.*)"$/m)[1], 'the crate\'s version');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.customElements, 'custom-elements.json');
  // the exports resolve as a bundler resolves them (Node's own resolution of the same map)
  const resolve = (spec) => run('node', ['--input-type=module', '-e', `console.log(import.meta.resolve(${JSON.stringify(spec)}))`], dir).trim();
  for (const spec of ['attention-playground', 'attention-playground/widgets.js', 'attention-playground/attn-head.js']) {
    assert.match(resolve(spec), /node_modules\/attention-playground\/(widgets|attn-head)\.js$/, spec);
  }
  // each element alone, by its tag (<attn-play> is <attn-head>'s module)
  for (const w of WIDGETS) {
    const want = w.tag === 'attn-play' ? 'attn-head' : w.tag;
    assert.match(resolve(`attention-playground/${w.tag}.js`), new RegExp(`/attention-playground/${want}\\.js$`), w.tag);
  }
  const files = run('find', ['.', '-type', 'f'], pkgDir).split('\n').filter(Boolean).map((f) => f.slice(2)).sort();
  console.log(`# ${files.length} files: ${files.join(', ')}`);
  for (const f of ['widgets.js', 'attn-head.js', 'pkg/attention_playground_bg.wasm', 'pkg-gpt/attention_playground_bg.wasm',
    'pkg-gpt-fma/attention_playground_bg.wasm', 'js/gpt/worker.js', 'widgets.d.ts', 'custom-elements.json']) {
    assert.ok(files.includes(f), `${f} is in the package`);
  }
  for (const f of files) assert.doesNotMatch(f, /\.html$|^style\.css$|^js\/pages\//, `${f}: the site's pages stay out`);
  // the Custom Elements Manifest lists every element with its own attributes
  const cem = JSON.parse(await readFile(path.join(pkgDir, 'custom-elements.json'), 'utf8'));
  assert.equal(cem.schemaVersion, '2.1.0');
  const decls = cem.modules.flatMap((m) => m.declarations).filter((d) => d.customElement);
  assert.deepEqual(decls.map((d) => d.tagName).sort(), WIDGETS.map((w) => w.tag).sort());
  const headDecl = decls.find((d) => d.tagName === 'attn-head');
  assert.deepEqual(headDecl.attributes.map((a) => a.name).slice(0, 4), ['weights', 'scaled', 'causal', 'sequence']);
  assert.ok(headDecl.events.some((e) => e.name === 'attn-change'));
  assert.ok(headDecl.cssProperties.some((c) => c.name === '--attn-accent'));
  const defined = cem.modules.flatMap((m) => m.exports).filter((e) => e.kind === 'custom-element-definition');
  assert.ok(WIDGETS.every((w) => defined.some((e) => e.name === w.tag)), 'every tag is defined by an export');
  const alone = cem.modules.find((m) => m.path === 'attn-softmax-steps.js');
  assert.deepEqual(alone.exports.map((e) => e.name), ['attn-softmax-steps'], 'its own module defines it');
  const dts = await readFile(path.join(pkgDir, 'widgets.d.ts'), 'utf8');
  for (const w of WIDGETS) assert.match(dts, new RegExp(`'${w.tag}': AttnElement;`));
});

test('TypeScript (tsc, strict) types each element from the package\'s declarations, and refuses a wrong use', async () => {
  const work = await hostSource('typescript');
  const tsc = path.join(NPM_HOSTS, 'typescript/bin/tsc');
  run('node', [tsc, '-p', 'tsconfig.json'], work);
  let refused = '';
  try {
    execFileSync('node', [tsc, '--strict', '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext',
      '--target', 'es2022', '--lib', 'es2022,dom', 'bad.ts'], { cwd: work, encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    refused = `${err.stdout}`;
  }
  assert.match(refused, /bad\.ts\(5,7\): error TS2322: Type 'Record<string, unknown>' is not assignable to type 'number'/);
});

test('a Vite site (vite build, served under /course/): the head draws, edits and explains; a GPT trains in Vite\'s workers; back again', {
  timeout: 300000,
}, async () => {
  const work = await hostSource('vite');
  run('node', [path.join(NPM_HOSTS, 'vite/bin/vite.js'), 'build', '--outDir', path.join(tmp, 'course'), '--emptyOutDir'], work);
  const built = await readdir(path.join(tmp, 'course/assets'));
  assert.ok(built.some((f) => f.endsWith('.wasm')), `Vite emitted the wasm: ${built.join(', ')}`);
  assert.equal(built.filter((f) => f.endsWith('.wasm')).length, 3, 'the lesson\'s and both GPT builds');
  assert.ok(built.some((f) => /^KaTeX_Main-Regular.*\.woff2$/.test(f)), 'and KaTeX\'s fonts');
  const { seen, watchPage } = origins();
  await site.withPage(async (page) => {
    await useHead(page);
    await page.screenshot({ path: path.join(SHOTS, 'host-vite.png') });
    // another page of the site, with the trainer: its worker and wasm are Vite's build of them
    await page.getByRole('link', { name: 'Next: train a GPT' }).click();
    await page.waitForURL(/\/course\/gpt\.html$/);
    await trains(page, 20);
    await page.goBack();
    await page.waitForURL(/\/course\/(index\.html)?$/);
    await useHead(page);
    const scripts = () => page.evaluate(() => performance.getEntriesByType('resource')
      .filter((e) => /\.js$/.test(e.name)).reduce((n, e) => n + e.decodedBodySize, 0));
    const all = await scripts();
    // a page that imports one element alone: it draws, and its script holds no other element
    await page.goto(`${site.base}course/steps.html`);
    await stepsDrawn(page);
    assert.equal(await page.evaluate(() => customElements.get('attn-head')), undefined, 'no <attn-head> on the page of one element');
    const one = await scripts();
    console.log(`# Vite: the head page's scripts ${all} bytes, attn-softmax-steps alone ${one}`);
    assert.ok(one < all / 2, `one element's scripts (${one} bytes) against every element's (${all})`);
    assert.deepEqual([...seen], [new URL(site.base).origin], 'nothing fetched from elsewhere');
  }, { path: 'course/index.html', ready: null, watchPage });
});

test('VitePress (a Markdown page, the widgets imported in the browser only): draws, edits, explains, across client-side page changes', {
  timeout: 240000,
}, async () => {
  const work = await hostSource('vitepress');
  run('node', [path.join(NPM_HOSTS, 'vitepress/bin/vitepress.js'), 'build', 'docs', '--outDir', path.join(tmp, 'notes')], work);
  // VitePress's router swaps the page in: the next page's widget is made by Vue, then drawn
  await aroundAndBack('notes/head.html', 'host-vitepress', '.VPSidebar a', [/\/notes\/softmax(\.html)?$/, /\/notes\/head(\.html)?$/]);
});

test('Docusaurus (an MDX page, the widgets in a client module): draws, edits, explains, across client-side page changes', {
  timeout: 300000,
}, async () => {
  // Docusaurus resolves its preset and theme from the site's folder up: the site is built
  // inside the host tools' tree, with the tarball installed there
  const tools = path.dirname(NPM_HOSTS);
  const work = path.join(tools, 'sites', `docusaurus-${process.pid}`);
  await cp(path.join(REPO, 'tests/hosts/docusaurus'), work, { recursive: true });
  try {
    install(tools);
    run('node', [path.join(NPM_HOSTS, '@docusaurus/core/bin/docusaurus.mjs'), 'build', '--out-dir', path.join(tmp, 'site')], work);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  await aroundAndBack('site/head/', 'host-docusaurus', 'nav.menu a', [/\/site\/softmax\/?$/, /\/site\/head\/?$/]);
});

test('the CDN form: widgets.js from another origin (CORS, as jsDelivr serves npm) draws, edits and explains a head; a GPT trains in its workers', { timeout: 180000 }, async () => {
  const dir = path.join(tmp, 'cdn');
  await mkdir(dir);
  install(dir);
  const cdn = await serve(path.join(dir, 'node_modules'), { headers: { 'Access-Control-Allow-Origin': '*' } });
  try {
    const src = `${cdn.base}attention-playground/widgets.js`;
    await writeFile(path.join(tmp, 'cdn.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Notes, widgets from a CDN</title><link rel="icon" href="data:,"><script type="module" src="${src}"></script></head>
<body><h1>Week 7</h1><attn-head id="head" weights="hou" scaled="false"></attn-head>
<h2>Week 8</h2><attn-gpt-train id="gpt"></attn-gpt-train></body></html>\n`);
    const { seen, watchPage } = origins();
    await site.withPage(async (page) => {
      await useHead(page);
      assert.equal(await headCell(page, 'q', 2, 0).textContent(), '0.33');
      // the trainer's workers: a browser starts no worker from another origin's URL; the
      // package's start through a same-origin blob: that imports them from the CDN
      await trains(page, 10);
      assert.deepEqual([...seen].sort(), [new URL(site.base).origin, new URL(cdn.base).origin].sort(),
        'the page, and the CDN for the script, its chunks and the wasm');
    }, { path: 'cdn.html', ready: null, watchPage });
  } finally {
    await cdn.close();
  }
});
