#!/usr/bin/env node
// GPT-2 small (124M, random weights), one 64-token prompt, back to back on this machine:
// our forward pass in GPT-2's worker (both wasm builds), onnxruntime-web's wasm backend on
// the same model exported to ONNX (1 thread and all threads) in the same Chromium, and
// PyTorch on the CPU (1 thread). Also the load from picked files, the time to the first
// heads, the open from the Cache API, and the wasm memory's peak. Prints one table and
// writes it as JSON to target/gpt2-bench/result.json. A tool, not a test.
//
//   node tools/bench_gpt2.mjs [--iters 7] [--warmup 2]
//
// Needs ./build.sh build (www/pkg-gpt*/), npm's playwright-core and Debian's chromium
// (./build.sh installs both), and a Python with transformers (target/pytools). Makes or
// reuses the model, its ONNX files, onnxruntime-web and OpenBLAS (bench-gpt2/prepare.mjs).

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../tests/page/server.mjs';
import { OUT, ROOT, prepare } from './bench-gpt2/prepare.mjs';
import { report } from './bench-gpt2/report.mjs';
import { quiet, rendererPeak } from './bench-gpt2/rss.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ITERS = arg('--iters', 7);
const WARMUP = arg('--warmup', 2); // onnxruntime-web's second pass can still be slow
// real text for the prompt (the README's opening), cut to 64 tokens on the page
const TEXT = 'Run scaled dot-product self-attention instead of reading about it. Every number on '
  + 'the page is computed by a Rust core compiled to WebAssembly; the page draws each matrix '
  + '(q, k, v, scores, masked scores, weights, out), lets you edit inputs and weights, explains '
  + 'any cell you click, and trains a small GPT whose heads you can open. English and Chinese.';
// as tests/page/browser.mjs's launch(), in a profile on disk (the Cache API as a learner's)
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'same-origin' };
const REPO = 'bench/gpt2-random';

function link(target, at) {
  rmSync(at, { recursive: true, force: true });
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at);
}

/** target/gpt2-bench/site/ (the page, www/, the ONNX files, ORT's dist/) and hub/ (the
 *  model in the hub's layout <repo>/resolve/main/<file>), both links to the real files. */
function lay(made) {
  const site = path.join(OUT, 'site');
  mkdirSync(site, { recursive: true });
  for (const f of ['bench.html', 'bench.js']) copyFileSync(path.join(ROOT, 'tools/bench-gpt2', f), path.join(site, f));
  link(path.join(ROOT, 'www'), path.join(site, 'www'));
  link(path.dirname(made.onnxAll), path.join(site, 'onnx'));
  link(made.ortDist, path.join(site, 'ort'));
  const hub = path.join(OUT, 'hub');
  for (const f of readdirSync(made.model)) link(path.join(made.model, f), path.join(hub, REPO, 'resolve/main', f));
  return { site, hub };
}

/** A fresh page of the bench site that prints what goes wrong on it. */
async function benchPage(context, base) {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && console.error(`console: ${m.text()}`));
  await page.goto(`${base}bench.html`);
  if (!await page.evaluate(() => crossOriginIsolated)) throw new Error('the bench page is not cross-origin isolated');
  return page;
}

async function inBrowser(made, dirs) {
  const site = await serve(dirs.site, { headers: ISOLATED });
  const hub = await serve(dirs.hub, { headers: { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' } });
  const profile = mkdtempSync(path.join(tmpdir(), 'gpt2-bench-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: ARGS, timeout: 60000 });
  // one page per step, alone in the browser: its renderer's peak is the step's (rss.mjs)
  const step = async (label, fn) => {
    console.log(`# ${label}`);
    await quiet(profile);
    const page = await benchPage(context, site.base);
    try {
      return { ...await fn(page), tabPeak: rendererPeak(profile), loadavg: loadavg()[0] };
    } finally {
      await page.close();
    }
  };
  const r = { ours: [], ort: [] };
  try {
    const files = readdirSync(made.model).map((f) => path.join(made.model, f));
    for (const build of ['simd128', 'fma']) {
      r.ours.push(await step(`ours, ${build} build`, async (page) => {
        await page.setInputFiles('#files', files); // as a learner picks the folder's files
        return page.evaluate((a) => window.ours(a), { build, text: TEXT, iters: ITERS, warmup: WARMUP });
      }));
    }
    const ids = r.ours[0].ids;
    const { threads } = await step('threads', async (page) => ({ threads: await page.evaluate(() => navigator.hardwareConcurrency) }));
    for (const [of, model] of [['last', 'onnx/model-last.onnx'], ['all', 'onnx/model.onnx']]) {
      for (const n of [1, threads]) { // ORT reads numThreads once per page
        r.ort.push(await step(`onnxruntime-web, ${n} thread(s), logits of ${of}`, async (page) => ({ of,
          ...await page.evaluate((a) => window.ortRun(a), { model, threads: n, ids, iters: ITERS, warmup: WARMUP }) })));
      }
    }
    const hubArgs = { hub: hub.base.replace(/\/$/, ''), repo: REPO };
    const download = await step('hub → the Cache API, then open', async (page) => {
      await page.evaluate(() => caches.delete('attention-playground-gpt2'));
      return page.evaluate((a) => window.hubOpen(a), hubArgs);
    });
    const cached = await step('the Cache API → open, in a fresh page and worker', async (page) => {
      let hubRequests = 0;
      page.on('request', (q) => { hubRequests += q.url().startsWith(hub.base); });
      return { ...await page.evaluate((a) => window.hubOpen(a), hubArgs), hubRequests };
    });
    r.hub = { download, cached };
  } finally {
    await context.close();
    await site.close();
    await hub.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return r;
}

/** tools/gpt2_hf.py bench on the same ids: torch, 1 thread, `blas` = its own (Debian's
 *  reference BLAS) or OpenBLAS preloaded. */
function torchBench(made, ids, text, blas) {
  const idsFile = path.join(OUT, 'ids.json');
  writeFileSync(idsFile, JSON.stringify(ids));
  const logitsFile = path.join(OUT, `torch-logits-${blas}.f32`);
  const env = { ...process.env, OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' };
  if (blas === 'openblas') env.LD_PRELOAD = made.openblas;
  console.log(`# PyTorch, 1 thread, ${blas}`);
  const r = spawnSync(made.py, ['tools/gpt2_hf.py', 'bench', '--model', made.model, '--ids', idsFile,
    '--text', text, '--threads', '1', '--iters', String(ITERS), '--warmup', String(WARMUP), '--last',
    '--logits-out', logitsFile], { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`gpt2_hf.py bench exited ${r.status}`);
  return { ...JSON.parse(r.stdout.trim().split('\n').pop()), blas, logitsFile, loadavg: loadavg()[0] };
}

const busy = spawnSync('pgrep', ['-x', 'cargo|rustc'], { encoding: 'utf8' }).stdout.trim();
const load0 = loadavg()[0];
const made = prepare();
const browser = await inBrowser(made, lay(made));
const { prompt, ids } = browser.ours[0];
const torch = ['openblas', 'reference'].map((blas) => torchBench(made, ids, prompt, blas));
const result = report({ ...browser, torch, iters: ITERS, warmup: WARMUP, loadBefore: load0, loadAfter: loadavg()[0], busy: Boolean(busy) });
writeFileSync(path.join(OUT, 'result.json'), JSON.stringify(result, null, 1));
console.log(`\nwrote ${path.relative(ROOT, path.join(OUT, 'result.json'))}`);
