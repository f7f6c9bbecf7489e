// Opens www/bench.html in headless Chromium (playwright-core, /usr/bin/chromium) and prints
// its JSON: the wasm counterpart of `cargo run --release --bin gpt -- bench`. With
// --profile it prints the per-op profile table instead (as `gpt profile`; --iters is then
// the calls per op). --build picks the wasm: simd128 (www/pkg-gpt/, default) or fma
// (www/pkg-gpt-fma/, relaxed SIMD). A benchmark, not a test (hence not *.test.mjs).
//
//   node tools/bench_wasm.mjs [--preset tiny|small|cpu] [--iters 200] [--seed 1337] [--data data/corpus.txt]
//                             [--build simd128|fma] [--profile] [--workers K]
//                             [--attention [--t 256] [--d 64]]
//
// --workers K trains through the page's own GPT worker on K data-parallel workers;
// --attention times the causal attention forward alone (median ms, like gpt_torch.py
// bench-attention).
//
// www/ is served with COOP/COEP headers: a cross-origin-isolated page gets
// performance.now() at 5 µs instead of 100 µs, which a 1 ms step needs, and the data-parallel
// workers share memory. --plain serves it without them (the workers transfer buffers).

import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../tests/page/browser.mjs';

const ROOT = fileURLToPath(new URL('../www/', import.meta.url));
const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.txt': 'text/plain' };
const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};

const plain = args.includes('--plain'); // as a static host without COOP/COEP serves it
const server = http.createServer(async (req, res) => {
  const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const file = path.normalize(path.join(ROOT, rel));
  if (!file.startsWith(ROOT)) return res.writeHead(403).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, {
      'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream',
      ...(plain ? {} : { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }),
    }).end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const profile = args.includes('--profile');
const query = new URLSearchParams({
  preset: flag('preset', 'tiny'), iters: flag('iters', '200'), seed: flag('seed', '1337'),
  data: flag('data', 'data/corpus.txt'), build: flag('build', 'simd128'),
});
if (profile) query.set('profile', '1');
if (args.includes('--attention')) {
  query.set('attention', '1');
  query.set('t', flag('t', '256'));
  query.set('d', flag('d', '64'));
  if (!args.includes('--iters')) query.set('iters', '500');
}
if (args.includes('--workers')) query.set('workers', flag('workers', '1'));
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/bench.html?${query}`);
  const handle = await page.waitForFunction(
    () => document.body.dataset.result || (document.body.dataset.error && `ERROR ${document.body.dataset.error}`),
    null, { timeout: 30 * 60 * 1000, polling: 250 });
  const text = await handle.jsonValue();
  if (text.startsWith('ERROR ')) throw new Error(text.slice(6));
  console.log(profile ? JSON.parse(text).table : text);
} finally {
  await browser.close();
  server.close();
}
