// How fast a page's first view comes, as a learner on a cold cache sees it: bytes on the
// wire (gzipped, as a static host serves them), requests, time from navigation to the first
// number drawn, layout shift while it loads, the longest task, and on the lesson page the
// time an edit of one W_v cell takes to redraw the head (p50/p95), set by script and typed
// as a learner types it (Event Timing: key press to the next paint). A benchmark: it prints,
// asserts nothing.
//
//   node tools/bench_load.mjs [--root www|dist/attention-playground]... [--runs 15] [--edits 30]
//                             [--settle 3000] [--cpu] [--lighthouse] [--list] [PAGE ...]
//
// --root may be given more than once (a build before a change and one after): the cold
// loads of each page then alternate between the roots, load by load, so that a machine
// that is busier at one moment than another weighs on every root alike; each root gets
// its own server and its own table.
// PAGE: a path under root (index.html, embed.html, notes-example.html), or `one-head`, a
// plain course page with a single <attn-head> that the script writes next to widgets.js,
// loading it as embed.html's snippet does (blocking="render"), or `one-head-alone`, the
// same page loading attn-head.js (the head alone) instead.
// Each cold load opens a new window (a fresh browser context: no cache, no cookies, a new
// renderer) and then, before it navigates, waits until the machine is quiet (--settle: at
// most that many ms; 0 navigates at once). A new window of Chromium starts a renderer of
// its own for its address bar's popup (chrome://omnibox-popup.top-chrome, two WebUI pages):
// in the window's first second that renderer used 630-910 ms of CPU and the browser process
// 260-350 ms (/proc/PID/stat, three windows), about 0.9 s of the machine is busy; on this
// 2-core machine, navigating at once put that start beside the page's load (the one-head
// page's first number: 445-498 ms at once, 299-364 ms settled, same build, back to back). A
// learner's page loads in a window that is already open.
// --cpu traces each cold load (Chromium's trace, as DevTools records it) and prints, beside
// the table, the CPU time the page's main thread and all of Chromium's threads spent from
// navigation to the first number: on this machine the main thread's spreads by some 20 ms
// from load to load where the first number spreads by 100 ms and more, so it tells two
// builds apart when the first number cannot. Tracing slows the load: read the first
// numbers of a --cpu run only against each other.
// --lighthouse also runs Lighthouse (npm, fetched by `npm exec` on first use) against
// Debian's Chromium (CHROME_PATH) for each page, desktop and mobile. --list prints every
// request of each load with its bytes on the wire.

import http from 'node:http';
import zlib from 'node:zlib';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile, writeFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../tests/page/browser.mjs';

const args = process.argv.slice(2);
const flag = (name, dflt) => flags(name, [dflt])[0];
/** Every value given for --name, in order (`dflt` when there is none). */
function flags(name, dflt) {
  const out = [];
  for (let i = args.indexOf(`--${name}`); i >= 0; i = args.indexOf(`--${name}`)) out.push(...args.splice(i, 2).slice(1));
  return out.length ? out : dflt;
}
const bool = (name) => {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const REPO = fileURLToPath(new URL('../', import.meta.url));
const roots = flags('root', ['www']).map((r) => path.resolve(REPO, r));
// 15 cold loads a page: on a 2-core machine one load's first number spreads over some
// 100 ms, and medians of 7 loads of two builds that draw the one-head page with the same
// code came 40 ms apart in one interleaved run.
const runs = Number(flag('runs', '15'));
const edits = Number(flag('edits', '30'));
const lighthouse = bool('lighthouse');
const list = bool('list');
const cpu = bool('cpu');
const settleMax = Number(flag('settle', '3000'));
const pages = args.length ? args : ['one-head', 'one-head-alone', 'index.html', 'embed.html', 'notes-example.html'];

/** The synthetic pages: name → [file written under root, its HTML]. */
const onePage = (script) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A course page with one head</title>${script}</head>
<body><main style="max-width:44rem;margin:auto;font:16px/1.5 system-ui">
<h1>Self-attention</h1><p>Each token asks a question (q), offers a key (k) and a value (v).</p>
<attn-head></attn-head>
<p>Edit any weight and every number after it changes.</p></main></body></html>`;
const SYNTHETIC = {
  'one-head': ['__bench-one-head.html', onePage('<script type="module" src="widgets.js" blocking="render"></script>'), 'widgets.js'],
  'one-head-alone': ['__bench-one-head-alone.html', onePage('<script type="module" src="attn-head.js" blocking="render"></script>'), 'attn-head.js'],
};
const urlOf = (base, p) => `${base}${SYNTHETIC[p]?.[0] ?? p}`;
/** Whether root k has what page p loads (an older build has no attn-head.js): the file
 *  the page is, or the script a synthetic page loads. */
const has = (k, p) => existsSync(path.join(roots[k], SYNTHETIC[p]?.[2] ?? p));

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.txt': 'text/plain; charset=utf-8',
  '.safetensors': 'application/octet-stream' };
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.wasm', '.json', '.svg', '.txt']);

/** A static host: gzip where the browser accepts it (not woff2: already compressed), each
 *  file compressed once, as a host that keeps its compressed copies serves it (compressing
 *  the 315 KB wasm at level 9 for each load took 10 ms of this machine's two cores). */
const gzipped = new Map(); // path → [mtime, gzipped bytes]
const serve = (root) => http.createServer(async (req, res) => {
  const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = path.normalize(path.join(root, rel));
  if (!file.startsWith(root)) return res.writeHead(403).end();
  try {
    let info = await stat(file);
    if (info.isDirectory()) info = await stat((file = path.join(file, 'index.html')));
    let body = await readFile(file);
    const ext = path.extname(file);
    const headers = { 'Content-Type': MIME[ext] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' };
    if (COMPRESSIBLE.has(ext) && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
      if (gzipped.get(file)?.[0] !== info.mtimeMs) gzipped.set(file, [info.mtimeMs, zlib.gzipSync(body, { level: 9 })]);
      body = gzipped.get(file)[1];
      headers['Content-Encoding'] = 'gzip';
    }
    res.writeHead(200, headers).end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
});

/** Runs in the page before its scripts: layout shifts, long tasks and the first number. */
function observe() {
  const w = (window.__load = { cls: 0, longest: 0, first: null });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (!e.hadRecentInput) w.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) w.longest = Math.max(w.longest, e.duration);
  }).observe({ type: 'longtask', buffered: true });
  // The first number drawn: a matrix cell with a digit inside a widget (a shadow root),
  // looked for in each frame (a requestAnimationFrame callback runs just before the frame
  // is painted, so the frame it finds a number in is the first to show one) until found.
  // Only the shadow roots are searched, as they are made (every widget has one; the page
  // has no other): walking every element of the page each frame, as an earlier version
  // did, cost the load itself up to 13 ms a frame (measured on the one-head page), which
  // the figure then counted. w.check is the longest that search took in one frame. Any
  // number counts, as before: on the lesson's pages that includes a widget's default
  // inputs written in its build (the softmax stepper's scores, the schemes' sizes), now
  // seen in the first frame that paints them rather than after a widget's draw event or
  // the next 250 ms poll; on the one-head pages only the head's grids hold numbers.
  const roots = [];
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    roots.push(root);
    return root;
  };
  w.check = 0;
  const seen = () => {
    for (const r of roots) {
      for (const el of r.querySelectorAll('td, input')) if (/\d/.test(el.value || el.textContent)) return true;
    }
    return false;
  };
  const tick = () => {
    const t0 = performance.now();
    const found = seen();
    w.check = Math.max(w.check, performance.now() - t0);
    if (!found) return requestAnimationFrame(tick);
    w.first = t0;
    performance.mark('attn-bench-first'); // where --cpu ends its count in the trace
    console.debug('attn-bench-first'); // the bench waits for this message, not by polling the page
  };
  requestAnimationFrame(tick);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** "median (min–max)" of some ms. */
const spread = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/** Stops the trace and sums, from navigation to the first number, the CPU time of every
 *  thread's top-level tasks: the page's main thread alone, and all of Chromium's threads. */
async function cpuUntilFirst(browser, file) {
  await browser.stopTracing();
  const { traceEvents: ev } = JSON.parse(await readFile(file, 'utf8'));
  await rm(file, { force: true });
  const mark = ev.find((e) => e.name === 'attn-bench-first');
  const start = ev.find((e) => e.name === 'navigationStart' && e.pid === mark?.pid)?.ts;
  if (!mark || start == null) return { mainCpu: NaN, allCpu: NaN };
  const threads = new Map();
  for (const e of ev) {
    if (e.ph !== 'X' || e.tdur == null || e.ts < start || e.ts > mark.ts) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!threads.has(key)) threads.set(key, []);
    threads.get(key).push(e);
  }
  let mainCpu = 0;
  let allCpu = 0;
  for (const [key, es] of threads) {
    es.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    let end = 0;
    let sum = 0;
    for (const e of es) {
      if (e.ts < end) continue; // inside a task already counted
      sum += e.tdur;
      end = e.ts + e.dur;
    }
    allCpu += sum / 1000;
    if (key === `${mark.pid}:${mark.tid}`) mainCpu = sum / 1000;
  }
  return { mainCpu, allCpu };
}

/** The busy share of all cores over `ms` (Linux's /proc/stat; null elsewhere). */
async function busy(ms) {
  const read = async () => (await readFile('/proc/stat', 'utf8')).split('\n')[0].split(/\s+/).slice(1).map(Number);
  try {
    const a = await read();
    await new Promise((r) => setTimeout(r, ms));
    const b = await read();
    const d = b.map((x, i) => x - a[i]);
    const total = d.reduce((x, y) => x + y, 0);
    return total > 0 ? 1 - (d[3] + d[4]) / total : 0; // idle + iowait
  } catch {
    return null;
  }
}

/** Waits until the machine has been quiet (under 15% busy) for two 100 ms windows in a
 *  row, at most `settleMax` ms; a fixed 1 s where /proc/stat cannot be read. */
async function settle() {
  const until = performance.now() + settleMax;
  let quiet = 0;
  while (quiet < 2 && performance.now() < until) {
    const b = await busy(100);
    if (b == null) return new Promise((r) => setTimeout(r, Math.min(1000, settleMax)));
    quiet = b < 0.15 ? quiet + 1 : 0;
  }
}

async function loadOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const t0 = performance.now();
  if (settleMax > 0) await settle(); // the new window's own renderers start (see the top)
  const settled = performance.now() - t0;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  let requests = 0;
  const urls = new Map();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  const seen = [];
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    requests += 1;
    seen.push([e.encodedDataLength, urls.get(e.requestId)]);
  });
  await page.addInitScript(observe);
  // Nothing of Playwright's runs in the page until the first number is drawn: a
  // waitForFunction there injects Playwright's script into the page (some 20 ms of a
  // cold renderer's main thread, traced), in the middle of the load it times.
  const first = page.waitForEvent('console', { predicate: (m) => m.text() === 'attn-bench-first', timeout: 60000 });
  const trace = cpu ? path.join(os.tmpdir(), `bench-load-${process.pid}.json`) : null;
  if (trace) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'blink.user_timing', 'toplevel'] });
  await page.goto(url, { waitUntil: 'commit' });
  await first;
  const spent = trace ? await cpuUntilFirst(browser, trace) : {};
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500); // late shifts
  const m = await page.evaluate(() => ({ ...window.__load }));
  await context.close();
  if (list) for (const [b, u] of seen) console.log(`  ${String(b).padStart(8)} ${u}`);
  return { bytes, requests, settled, ...m, ...spent };
}

/** On the lesson page: edits W_v[0][0] of the head `edits` times; ms until the head's text changed. */
async function editLatency(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(observe);
  await page.goto(`${base}index.html`);
  await page.waitForSelector('html[data-ready="true"]');
  await page.waitForTimeout(500);
  const times = await page.evaluate(async (n) => {
    window.__load.longest = 0; // from here on: the longest task while editing
    const deep = (root, sel) => {
      const hit = root.querySelector(sel);
      if (hit) return hit;
      for (const el of root.querySelectorAll('*')) {
        const inner = el.shadowRoot && deep(el.shadowRoot, sel);
        if (inner) return inner;
      }
      return null;
    };
    // the head: the page's <attn-head> (on the lesson page, section 3's: the first screen's
    // <attn-play> is another), else the element or section around the first W_v
    const lessonHead = document.querySelector('attn-head');
    const wv = deep(lessonHead?.shadowRoot ?? document, 'attn-matrix#W_v');
    const input = deep(wv.shadowRoot ?? wv, 'td[data-row="0"][data-col="0"] input');
    const head = lessonHead ?? wv.getRootNode().host ?? wv.closest('section');
    const text = (el) => {
      const parts = [];
      const walk = (r) => {
        for (const e of r.querySelectorAll('*')) {
          if (e.shadowRoot) walk(e.shadowRoot);
          else if (!e.children.length) parts.push(e.textContent);
        }
      };
      walk(el.shadowRoot ?? el);
      return parts.join('|');
    };
    const out = [];
    for (let i = 0; i < n; i++) {
      const before = text(head);
      const t0 = performance.now();
      input.value = String((i % 7) - 3 + 0.5);
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
      while (text(head) === before && performance.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))); // the frame it lands in
      out.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 200)); // the long-task entries of the last edit
    return { out, longest: window.__load.longest };
  }, edits);
  await context.close();
  return times;
}

/**
 * On the lesson page: types into W_v[0][0] of the head `edits` values, as a learner does
 * (real key presses: each keystroke is an edit that redraws the head and its followers).
 * Each keystroke's latency is the Event Timing API's duration (the browser's own: from the
 * key press to the next paint that shows its effect, as INP counts it; entries under 16 ms,
 * one frame, are not reported, so those count as "within a frame").
 */
async function typingLatency(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(observe);
  await page.goto(`${base}index.html#s4`);
  await page.waitForSelector('html[data-ready="true"]');
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    window.__events = [];
    new PerformanceObserver((l) => window.__events.push(...l.getEntries().map((e) => ({
      name: e.name, start: e.startTime, duration: e.duration, work: e.processingEnd - e.startTime })))).observe({ type: 'event', durationThreshold: 16 });
    window.__load.longest = 0;
  });
  const input = page.locator('attn-head attn-matrix#W_v td[data-row="0"][data-col="0"] input');
  await input.click();
  const keys = [];
  for (let i = 0; i < edits; i++) {
    const value = String((i % 7) - 3 + 0.5); // e.g. "-2.5": each character is a keystroke
    await input.press('Control+A');
    for (const ch of value) {
      const t0 = await page.evaluate(() => performance.now());
      await page.keyboard.press(ch);
      await page.waitForTimeout(60); // let the frame land and its entries arrive
      keys.push(t0);
    }
  }
  await page.waitForTimeout(300);
  const { events, longest } = await page.evaluate(() => ({ events: window.__events, longest: window.__load.longest }));
  await context.close();
  // A keystroke's latency: the longest event entry that began after it was sent (and before
  // the next one), else under a frame (reported as 16, an upper bound).
  const within = (i) => events.filter((e) => e.start >= keys[i] - 1 && e.start < (keys[i + 1] ?? Infinity));
  const per = keys.map((_, i) => Math.max(16, ...within(i).map((e) => e.duration)));
  // the part before the frame: input delay and the handlers (the followers draw in the frame)
  const work = keys.map((_, i) => Math.max(0, ...within(i).map((e) => e.work)));
  return { per, work, over: per.filter((d) => d > 16).length, longest };
}

// Not execFileSync: the static server above runs in this process and must keep answering.
async function runLighthouse(url, mobile) {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const { stdout: out } = await promisify(execFile)('npm', ['exec', '--yes', '--', 'lighthouse@12', url, '--quiet', '--output=json',
    '--only-categories=performance', '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
    ...(mobile ? [] : ['--preset=desktop'])], { env: { ...process.env, CHROME_PATH: chrome }, maxBuffer: 64 << 20 });
  const r = JSON.parse(out);
  const a = r.audits;
  return { score: r.categories.performance.score, cls: a['cumulative-layout-shift'].numericValue,
    lcp: a['largest-contentful-paint'].numericValue, tbt: a['total-blocking-time'].numericValue,
    fcp: a['first-contentful-paint'].numericValue, bytes: a['total-byte-weight'].numericValue };
}

const servers = roots.map(serve);
for (const server of servers) await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const bases = servers.map((server) => `http://127.0.0.1:${server.address().port}/`);
const written = [];
for (const root of roots) {
  for (const p of pages) {
    if (!SYNTHETIC[p]) continue;
    written.push(path.join(root, SYNTHETIC[p][0]));
    await writeFile(written.at(-1), SYNTHETIC[p][1]);
  }
}
const label = (k) => path.relative(REPO, roots[k]) || '.';
const browser = await launch();
try {
  const loads = roots.map(() => ({}));
  for (const p of pages) {
    // not counted: the server compresses each file on its first request
    for (let k = 0; k < roots.length; k++) if (has(k, p)) await loadOnce(browser, urlOf(bases[k], p));
    for (const l of loads) l[p] = [];
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < roots.length; k++) if (has(k, p)) loads[k][p].push(await loadOnce(browser, urlOf(bases[k], p)));
    }
  }
  const load = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
  for (let k = 0; k < roots.length; k++) {
    const base = bases[k];
    const root = roots[k];
    console.log(`root ${label(k)}, ${runs} cold loads each (median; first number also min–max)${roots.length > 1 ? `, alternating with ${roots.length - 1} other root(s)` : ''}, gzip, localhost; load ${load}`);
    console.log(`${'page'.padEnd(22)} ${'KB'.padStart(8)} ${'requests'.padStart(9)} ${'first number ms'.padStart(22)} ${'CLS'.padStart(7)} ${'longest task ms'.padStart(16)}`);
    for (const p of pages) {
      const rs = loads[k][p];
      if (!rs.length) {
        console.log(`${p.padEnd(22)} (this build has no ${SYNTHETIC[p]?.[2] ?? p})`);
        continue;
      }
      const m = (key) => median(rs.map((r) => r[key]));
      const first = spread(rs.map((r) => r.first));
      console.log(`${p.padEnd(22)} ${(m('bytes') / 1024).toFixed(0).padStart(8)} ${String(m('requests')).padStart(9)} ${first.padStart(22)} ${m('cls').toFixed(3).padStart(7)} ${m('longest').toFixed(0).padStart(16)}`
        + `   number search ≤ ${Math.max(...rs.map((r) => r.check)).toFixed(1)} ms a frame`
        + (settleMax > 0 ? `   quiet after ${spread(rs.map((r) => r.settled))} ms` : '')
        + (cpu ? `   CPU until it, ms: main thread ${spread(rs.map((r) => r.mainCpu))}, all threads ${spread(rs.map((r) => r.allCpu))}` : ''));
    }
    if (edits > 0) {
      const { per, work, over, longest } = await typingLatency(browser, base);
      console.log(`typing into W_v[0][0] on index.html (${per.length} keystrokes, Event Timing, key press to next paint): p50 ${pct(per, 0.5) <= 16 ? '≤16' : pct(per, 0.5).toFixed(0)} ms, p95 ${pct(per, 0.95) <= 16 ? '≤16' : pct(per, 0.95).toFixed(0)} ms, max ${Math.max(...per) <= 16 ? '≤16' : Math.max(...per).toFixed(0)} ms; ${over} over one frame (input delay + handlers of those: p50 ${pct(work, 0.5).toFixed(0)}, p95 ${pct(work, 0.95).toFixed(0)} ms); longest task while typing ${longest.toFixed(0)} ms`);
    }
    for (const pkg of ['pkg', 'pkg-gpt', 'pkg-gpt-fma', 'pkg-fma']) {
      const wasm = await readFile(path.join(root, pkg, 'attention_playground_bg.wasm')).catch(() => null);
      if (wasm) console.log(`wasm ${`${pkg}/`.padEnd(13)} ${(wasm.length / 1024).toFixed(0).padStart(5)} KB, ${(zlib.gzipSync(wasm, { level: 9 }).length / 1024).toFixed(0).padStart(4)} KB gzipped`);
    }
    if (edits > 0) {
      const { out: t, longest } = await editLatency(browser, base);
      console.log(`edit W_v[0][0] on index.html, until the head redraws (${t.length} edits): p50 ${pct(t, 0.5).toFixed(1)} ms, p95 ${pct(t, 0.95).toFixed(1)} ms, max ${Math.max(...t).toFixed(1)} ms; longest task while editing ${longest.toFixed(0)} ms`);
    }
    if (lighthouse) {
      for (const p of pages.filter((q) => has(k, q))) {
        for (const mobile of [false, true]) {
          const r = await runLighthouse(urlOf(base, p), mobile);
          console.log(`lighthouse ${p} ${mobile ? 'mobile' : 'desktop'}: performance ${r.score}, CLS ${r.cls.toFixed(3)}, FCP ${(r.fcp / 1000).toFixed(2)} s, LCP ${(r.lcp / 1000).toFixed(2)} s, TBT ${r.tbt.toFixed(0)} ms, ${(r.bytes / 1024).toFixed(0)} KB`);
        }
      }
    }
  }
} finally {
  await browser.close();
  for (const server of servers) server.close();
  for (const f of written) await rm(f, { force: true });
}
