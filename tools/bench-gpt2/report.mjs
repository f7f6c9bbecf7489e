// The GPT-2 benchmark's table and checks (tools/bench_gpt2.mjs): medians of the timed
// passes, each engine's speed against ours (the FMA build, the one Chromium runs), the
// open times, the memory, and that the engines computed the same logits.

import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => `${x.toFixed(0)} ms`;
const mb = (bytes) => (bytes == null ? '?' : `${(bytes / 2 ** 20).toFixed(0)} MB`);

/** log softmax(l) at each of `ids`. */
function logProbs(l, ids) {
  let max = -Infinity;
  for (const x of l) max = Math.max(max, x);
  let sum = 0;
  for (const x of l) sum += Math.exp(x - max);
  return ids.map((i) => l[i] - max - Math.log(sum));
}

/** max |a − b| over two equal-length arrays. */
function maxDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

/** Each engine's timings as a row; `speed` = its median ÷ ours: > 1 when ours is faster. */
function rows(r, base) {
  const all = [
    ...r.ours.map((o) => ({ engine: `ours (GPT-2's worker), ${o.build} build`, threads: 1, logits: 'last', ms: o.ms,
      peak: o.tabPeak, loadavg: o.loadavg })),
    ...r.ort.map((o) => ({ engine: `onnxruntime-web ${o.version} wasm`, threads: o.threads, logits: o.of, ms: o.ms,
      peak: o.tabPeak, loadavg: o.loadavg })),
    ...r.torch.map((t) => ({ engine: `PyTorch ${t.torch} CPU, ${t.blas === 'openblas' ? 'OpenBLAS' : "Debian's reference BLAS"}`,
      threads: t.threads, logits: 'last', ms: t.ms, peak: t.peak_rss, loadavg: t.loadavg })),
  ];
  return all.map((row) => ({ ...row, median: median(row.ms), min: Math.min(...row.ms), max: Math.max(...row.ms),
    speed: median(row.ms) / base }));
}

function table(list) {
  const head = ['engine', 'threads', 'logits', 'median', 'min–max', 'ours is ×', 'peak RSS', 'load'];
  const body = list.map((x) => [x.engine, String(x.threads), x.logits, ms(x.median),
    `${x.min.toFixed(0)}–${x.max.toFixed(0)}`, x.speed.toFixed(2), mb(x.peak), x.loadavg.toFixed(1)]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i ? c.padStart(w[i]) : c.padEnd(w[i]))).join('  ');
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...body.map(line)].join('\n');
}

/** The engines agree: ORT's last logits against torch's (every id), and our top 10's
 *  log-probabilities against ORT's at the same ids (the worker gives probabilities only). */
function checks(r) {
  const ortLast = r.ort.find((o) => o.of === 'last' && o.threads === 1);
  const ortAll = r.ort.find((o) => o.of === 'all' && o.threads === 1);
  const t = r.torch.find((x) => x.blas === 'openblas');
  const torchLogits = Array.from(new Float32Array(readFileSync(t.logitsFile).buffer.slice(0)));
  const ours = r.ours.find((o) => o.build === 'fma') ?? r.ours[0];
  const ids = ours.top.map(([id]) => id);
  const ortTop = ortLast.logits.map((x, i) => [x, i]).sort((a, b) => b[0] - a[0]).slice(0, ids.length).map(([, i]) => i);
  return {
    ortVsTorchLogits: maxDiff(ortLast.logits, torchLogits),
    ortAllVsLastLogits: maxDiff(ortAll.logits, ortLast.logits),
    oursVsOrtTop10LogProb: maxDiff(ours.top.map(([, p]) => Math.log(p)), logProbs(ortLast.logits, ids)),
    sameTop10: JSON.stringify(ortTop) === JSON.stringify(ids),
    buildsSameIds: r.ours.every((o) => JSON.stringify(o.ids) === JSON.stringify(ours.ids)),
    transformersSameIds: r.torch.every((x) => x.same_ids),
  };
}

/** Prints the table and the rest; returns it all for result.json. */
export function report(r) {
  const ours = r.ours.find((o) => o.build === 'fma') ?? r.ours[0];
  const list = rows(r, median(ours.ms));
  const c = checks(r);
  const open = {
    files: r.ours.map((o) => ({ build: o.build, load: o.load, firstHead: o.firstHead })),
    hubDownload: { load: r.hub.download.load, firstHead: r.hub.download.firstHead },
    cache: { load: r.hub.cached.load, firstHead: r.hub.cached.firstHead, hubRequests: r.hub.cached.hubRequests },
    ortSessionCreate: r.ort.map((o) => ({ threads: o.threads, logits: o.of, ms: o.create })),
  };
  const memory = { wasmAfterLoad: ours.memory, planMb: ours.planMb, wasmAfterBench: ours.memoryAfter, tabPeakFiles: ours.tabPeak,
    tabPeakDownload: r.hub.download.tabPeak, tabPeakCache: r.hub.cached.tabPeak };
  console.log(`\nGPT-2 small (124M, random weights), ${ours.tokens} tokens, median of ${r.iters} after ${r.warmup} warm-up; ${cpus().length} cores, ${cpus()[0].model}\n`);
  console.log(table(list));
  console.log('\n"ours is ×": its median ÷ ours (the fma build, which Chromium runs); > 1 = ours is faster. "peak RSS": the tab\'s'
    + ' (page and workers, /proc VmHWM) or Python\'s. "load": the 1-minute load average after the step (the step itself adds about 1 per busy thread).');
  console.log('logits "last": lm_head on the last position only (our forward_last); "all": every position (Transformer Explainer\'s export).');
  for (const f of open.files) console.log(`picked files → model open (${f.build}): ${ms(f.load)}; → first heads (attention result): ${ms(f.firstHead)}`);
  console.log(`hub → Cache API (download, then open): ${ms(open.hubDownload.load)}; first heads ${ms(open.hubDownload.firstHead)}`);
  console.log(`Cache API → model open in a fresh worker: ${ms(open.cache.load)}; first heads ${ms(open.cache.firstHead)} (${open.cache.hubRequests} requests to the hub)`);
  const wasm = memory.wasmAfterLoad == null ? `unknown (the worker answered null; gpt2Plan says ${memory.planMb} MB)` : mb(memory.wasmAfterLoad);
  console.log(`memory while loading: the worker's wasm memory (its peak: wasm memory never shrinks) ${wasm}; the tab's peak RSS `
    + `(page + worker, /proc VmHWM) from picked files ${mb(memory.tabPeakFiles)} (load and ${r.iters + r.warmup} passes), `
    + `hub download + open ${mb(memory.tabPeakDownload)}, open from the Cache API ${mb(memory.tabPeakCache)}`);
  console.log(`onnxruntime-web session create: ${open.ortSessionCreate.map((o) => `${ms(o.ms)} (${o.threads}t, ${o.logits})`).join(', ')}`);
  console.log(`checks: ORT vs torch logits max |Δ| ${c.ortVsTorchLogits.toExponential(2)}; ORT all vs last ${c.ortAllVsLastLogits.toExponential(2)}; `
    + `ours vs ORT top-10 log p max |Δ| ${c.oursVsOrtTop10LogProb.toExponential(2)}, same top 10 ${c.sameTop10}; `
    + `same ids: both builds ${c.buildsSameIds}, transformers ${c.transformersSameIds}`);
  console.log(`load average: ${r.loadBefore.toFixed(2)} before, ${r.loadAfter.toFixed(2)} after${r.busy ? '; cargo/rustc was running at the start' : ''}`
    + `${r.busy || r.loadBefore > 0.5 ? ': the machine was busy, the times are noisy' : ''}`);
  return { rows: list, open, memory, checks: c, prompt: ours.prompt, ids: ours.ids, load: [r.loadBefore, r.loadAfter], busy: r.busy };
}
