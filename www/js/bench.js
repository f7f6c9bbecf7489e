// bench.html: times GPT training steps in this browser's wasm with the protocol of the
// native `gpt bench` (src/bin/gpt/bench.rs) and prints one JSON line like it; with
// `profile=1` it prints the per-op profile of one step instead (as `gpt profile`). The
// work runs in a worker (bench-worker.js) so the page stays responsive; `build=fma` picks
// the relaxed-SIMD wasm (www/pkg-fma/). The result also lands in
// document.body.dataset.result for scripts (tools/bench_wasm.mjs).

const params = new URLSearchParams(location.search);
const opts = {
  preset: params.get('preset') ?? 'tiny',
  iters: Math.max(1, Number(params.get('iters') ?? 200) | 0),
  seed: Number(params.get('seed') ?? 1337) >>> 0,
  data: new URL(params.get('data') ?? 'data/corpus.txt', location.href).href,
};
const build = params.get('build') ?? 'simd128';
const profile = params.get('profile') === '1';
const status = document.getElementById('status');
const out = document.getElementById('out');

status.textContent = profile
  ? `Profiling each op of preset ${opts.preset} (${opts.iters} calls each, ${build} build)…`
  : `Running ${opts.iters} steps of preset ${opts.preset} (${build} build)…`;
const workerUrl = new URL('./bench-worker.js', import.meta.url);
workerUrl.searchParams.set('build', build);
const worker = new Worker(workerUrl, { type: 'module' });
worker.onerror = (e) => {
  status.textContent = `Failed: ${e.message}`;
  document.body.dataset.error = e.message || 'the worker failed to start';
};
worker.onmessage = ({ data }) => {
  if (data.error) {
    status.textContent = `Failed: ${data.error}`;
    document.body.dataset.error = data.error;
    return;
  }
  const json = JSON.stringify(data.result);
  out.textContent = profile ? data.result.table : json;
  status.textContent = 'Done.';
  document.body.dataset.result = json;
};
worker.postMessage(profile ? { profile: opts.preset, iters: opts.iters } : opts);
