// Times GPT training steps in the release wasm under Node (V8, close to Chromium's wasm):
// the same protocol as `gpt bench` (20 untimed warm-up steps, batch sampling untimed,
// median of N timed steps) and prints one JSON line like it.
//
//   node tools/bench_wasm_node.mjs [--preset tiny|small|cpu] [--iters 200]
//        [--data www/data/corpus.txt] [--pkg www/pkg-gpt] [--seed 1337]
//
// --pkg is a `wasm-pack build --target web` output dir and --data the corpus; ./build.sh
// writes both (www/data/corpus.txt is the page's default corpus). Paths are from the cwd.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const preset = flag("preset", "tiny");
const iters = Number(flag("iters", "200"));
const seed = Number(flag("seed", "1337"));
const dataPath = flag("data", "www/data/corpus.txt");
const pkg = path.resolve(flag("pkg", "www/pkg-gpt"));
const WARMUP = 20;
if (!fs.existsSync(dataPath)) {
  console.error(`${dataPath}: no such corpus; run ./build.sh (it assembles www/data) or pass --data FILE`);
  process.exit(2);
}

const mod = await import(pathToFileURL(path.join(pkg, "attention_playground.js")).href);
mod.initSync({ module: fs.readFileSync(path.join(pkg, "attention_playground_bg.wasm")) });
const text = fs.readFileSync(dataPath, "utf8");
const lab = new mod.GptLab(JSON.stringify({ preset }), text, seed);
const times = [];
for (let i = 0; i < WARMUP + iters; i++) {
  lab.nextBatch();
  const t0 = performance.now();
  lab.stepBatch();
  const dt = performance.now() - t0;
  if (i >= WARMUP) times.push(dt);
}
times.sort((a, b) => a - b);
const n = times.length;
const median = n % 2 ? times[(n - 1) / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
const [train, val] = lab.estimateLoss(50);
const cfg = lab.config();
const r = (x, d) => Math.round(x * 10 ** d) / 10 ** d;
console.log(
  JSON.stringify({
    preset,
    config: cfg,
    iters,
    warmup: WARMUP,
    step_ms_median: r(median, 4),
    step_ms_min: r(times[0], 4),
    tokens_per_s: r((lab.tokensPerStep() / median) * 1e3, 1),
    train_loss: r(train, 4),
    val_loss: r(val, 4),
    engine: "rust-wasm",
    runtime: `node ${process.version}`,
    threads: 1,
  }),
);
