// bench.html: times GPT training steps in this browser's wasm with the protocol of the
// native `gpt bench` (src/bin/gpt.rs) and prints one JSON line like it. The steps run in
// a worker (bench-worker.js) so the page stays responsive; the result also lands in
// document.body.dataset.result for scripts (tools/bench_wasm.mjs).

const params = new URLSearchParams(location.search);
const opts = {
  preset: params.get('preset') ?? 'tiny',
  iters: Math.max(1, Number(params.get('iters') ?? 200) | 0),
  seed: Number(params.get('seed') ?? 1337) >>> 0,
  data: new URL(params.get('data') ?? 'data/corpus.txt', location.href).href,
};
const status = document.getElementById('status');
const out = document.getElementById('out');

status.textContent = `Running ${opts.iters} steps of preset ${opts.preset}…`;
const worker = new Worker(new URL('./bench-worker.js', import.meta.url), { type: 'module' });
worker.onmessage = ({ data }) => {
  if (data.error) {
    status.textContent = `Failed: ${data.error}`;
    document.body.dataset.error = data.error;
    return;
  }
  const json = JSON.stringify(data.result);
  out.textContent = json;
  status.textContent = 'Done.';
  document.body.dataset.result = json;
};
worker.postMessage(opts);
