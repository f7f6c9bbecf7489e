// What the GPT-2 benchmark runs on, made once under target/ and reused (delete a file to
// make it again):
//   target/gpt2-bench/tokenizer/   GPT-2's vocab.json, merges.txt, tokenizer.json, written
//                                  offline from tiktoken-rs's r50k (tests/bpe.rs)
//   target/gpt2-bench/model/       GPT-2 small's shape, random weights (gpt2_hf.py make --full)
//   target/gpt2-bench/onnx/        its ONNX exports: model.onnx (logits of every position, as
//                                  Transformer Explainer's) and model-last.onnx (the last only)
//   target/bench-tools/            onnxruntime-web (npm, pinned), and OpenBLAS (PyPI's
//                                  cmeel-openblas) for torch, whose Debian build calls the
//                                  reference BLAS
// None of it is in the root package.json or CI: the benchmark is a tool, not a test.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OUT = path.join(ROOT, 'target', 'gpt2-bench');
const TOOLS = path.join(ROOT, 'target', 'bench-tools');
export const ORT_VERSION = '1.31.1';
const OPENBLAS = 'cmeel-openblas==0.3.31';
const SEQ = '64';

function run(cmd, args, env = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args[0]} exited ${r.status ?? r.signal}`);
}

/** A Python with PyPI's transformers: $GPT2_BENCH_PYTHON, target/pytools (./build.sh's),
 *  or /tmp/tfvenv (a machine's own). */
function python() {
  const candidates = [process.env.GPT2_BENCH_PYTHON, path.join(ROOT, 'target/pytools/bin/python'),
    '/tmp/tfvenv/bin/python'].filter(Boolean);
  for (const py of candidates) {
    if (existsSync(py) && spawnSync(py, ['-c', 'import transformers, torch'], { stdio: 'ignore' }).status === 0) return py;
  }
  throw new Error(`no Python with transformers and torch among ${candidates.join(', ')}`);
}

/** Runs `make(tmp)` and renames tmp to `out`: a broken run leaves no half-made `out`. */
function once(out, make) {
  if (existsSync(out)) return out;
  const tmp = `${out}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  make(tmp);
  renameSync(tmp, out);
  return out;
}

function models(py) {
  const tokenizer = once(path.join(OUT, 'tokenizer'), (tmp) => run('cargo',
    ['test', '--release', '--test', 'bpe', '--', '--ignored', 'write_gpt2_tokenizer_files'],
    { GPT2_TOKENIZER_OUT: tmp }));
  const model = once(path.join(OUT, 'model'), (tmp) => run(py,
    ['tools/gpt2_hf.py', 'make', '--full', '--tokenizer', tokenizer, '--out', tmp]));
  mkdirSync(path.join(OUT, 'onnx'), { recursive: true });
  const onnx = (name, extra) => once(path.join(OUT, 'onnx', name), (tmp) => run(py,
    ['tools/gpt2_hf.py', 'onnx', '--model', model, '--out', tmp, '--seq', SEQ, ...extra]));
  return { model, onnxAll: onnx('model.onnx', []), onnxLast: onnx('model-last.onnx', ['--last']) };
}

/** onnxruntime-web's dist/, installed at ORT_VERSION into target/bench-tools. */
function ort() {
  const dir = path.join(TOOLS, 'node_modules', 'onnxruntime-web');
  const have = existsSync(path.join(dir, 'package.json'))
    && JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  if (have !== ORT_VERSION) {
    run('npm', ['install', '--prefix', TOOLS, '--save-exact', '--no-audit', '--no-fund',
      `onnxruntime-web@${ORT_VERSION}`]);
  }
  return path.join(dir, 'dist');
}

/** libopenblas.so from PyPI (cmeel-openblas), installed into target/bench-tools/openblas. */
function openblas(py) {
  const dir = path.join(TOOLS, 'openblas');
  const lib = path.join(dir, 'cmeel.prefix', 'lib', 'libopenblas.so.0');
  if (!existsSync(lib)) run(py, ['-m', 'pip', 'install', '--no-deps', '--target', dir, OPENBLAS]);
  return lib;
}

/** Everything the benchmark needs: { py, model, onnxAll, onnxLast, ortDist, openblas }. */
export function prepare() {
  const py = python();
  return { py, ...models(py), ortDist: ort(), openblas: openblas(py) };
}
