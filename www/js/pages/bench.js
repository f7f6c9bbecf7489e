// bench.html: times GPT training steps in this browser's wasm with the protocol of the
// native `gpt bench` (src/bin/gpt/bench.rs) and prints one JSON line like it; with
// `profile=1` it prints the per-op profile of one step instead (as `gpt profile`), with
// `attention=1&t=256&d=64` the causal attention forward alone, with `workers=k` the steps
// of the page's own GPT worker training on k data-parallel workers. The
// work runs in a worker (bench-worker.js) so the page stays responsive; `build=fma` picks
// the relaxed-SIMD wasm (www/pkg-gpt-fma/). The result also lands in
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
const attention = params.get('attention') === '1'
  ? { t: Number(params.get('t') ?? 256) >>> 0, d: Number(params.get('d') ?? 64) >>> 0 } : null;
const workers = params.has('workers') ? Math.max(1, Number(params.get('workers')) >>> 0) : 0;
const status = document.getElementById('status');
const out = document.getElementById('out');

status.textContent = profile
  ? `Profiling each op of preset ${opts.preset} (${opts.iters} calls each, ${build} build)…`
  : `Running ${opts.iters} steps of preset ${opts.preset} (${build} build${workers ? `, ${workers} workers` : ''})…`;

function done(result, text = JSON.stringify(result)) {
  out.textContent = text;
  status.textContent = 'Done.';
  document.body.dataset.result = JSON.stringify(result);
}

function failed(msg) {
  status.textContent = `Failed: ${msg}`;
  document.body.dataset.error = msg || 'failed';
}

/** `workers=k`: the page's own GPT worker and its k data-parallel workers (gpt/pool.js),
 *  timed by its `bench` command. */
async function benchWorkers() {
  const { GptClient } = await import('../gpt/client.js');
  const client = new GptClient(() => {}, { build });
  const text = await (await fetch(opts.data)).text();
  const info = await client.call('create', { config: { preset: opts.preset }, text, seed: opts.seed });
  await client.call('setWorkers', { k: workers });
  const r = await client.call('bench', { iters: opts.iters });
  client.terminate();
  const round = (x, d) => Math.round(x * 10 ** d) / 10 ** d;
  return {
    preset: opts.preset, batch_size: info.batch_size, params: info.params, iters: opts.iters,
    step_ms_median: round(r.step_ms_median, 4), step_ms_min: round(r.step_ms_min, 4),
    tokens_per_s: round(r.tokens_per_s, 1), engine: 'rust-wasm', build: r.engine.build,
    threads: r.engine.workers, shared: r.engine.shared, cross_origin_isolated: self.crossOriginIsolated === true,
  };
}

if (workers) benchWorkers().then(done, (err) => failed(String(err?.message ?? err)));
const workerUrl = new URL('./bench-worker.js', import.meta.url);
workerUrl.searchParams.set('build', build);
const worker = workers ? null : new Worker(workerUrl, { type: 'module' });
if (worker) {
  worker.onerror = (e) => failed(e.message || 'the worker failed to start');
  worker.onmessage = ({ data }) => {
    if (data.error) failed(data.error);
    else done(data.result, profile ? data.result.table : undefined);
  };
  worker.postMessage(profile ? { profile: opts.preset, iters: opts.iters } : attention ? { attention, iters: opts.iters } : opts);
}
