// The Python package in a real JupyterLab 4, Notebook 7 and marimo (PyPI jupyterlab,
// notebook, marimo, anywidget). The file starts one Jupyter server on loopback with a token; each test opens a
// notebook in headless Chromium and runs its cells one at a time, as a learner does.
// - The head draws (8.87); a Python assignment to w_v changes the drawn out; an edit typed
//   into the widget reaches Python; head.weights in a later cell equals the NumPy fixture
//   (tests/fixtures/hou.json) to 1e-12; bad input raises a ValueError and changes nothing;
//   lang="zh" draws Chinese; running every cell again leaves one working widget per output.
// - Notebook 7 draws the same head and hands back the same numbers.
// - The example notebook (docs/notebooks/attention.ipynb) runs: NumPy and the widget agree.
// - The other widgets draw; an element's state goes both ways; a bad one is refused.
// - GptInspect draws every head of the site's model; its weights equal a NumPy forward pass,
//   and its heads' scores ((n_layer, n_head) arrays) the CLI's (`gpt heads --json`) to 1e-6.
// - GptInspect("folder") on a GPT-2 folder that transformers wrote (tools/gpt2_hf.py make):
//   <attn-gpt2> reads it from the kernel chunk by chunk into its worker; the weights in
//   Python equal the release CLI's (`gpt eval --attentions`) to 1e-6 and the tokens its
//   pieces (`gpt tokenize`), for a prompt from Python and one typed into the widget; heads
//   arrive; a folder without a tokenizer is an InputError, a BERT config the core's `error`.
//   With NOTEBOOK_GPT2_BIG=DIR (GPT-2 small's 500 MB, say), that folder opens too, timed.
// - marimo (PyPI marimo, `marimo run`): the head draws, its numbers and an edit reach a cell.
// - A static book's {anywidget} directive (the ESM and a JSON of traits) draws the head.
// No test may log a console error or page error from the widgets (JupyterLab's own are
// printed, not failed on).
//
// NBTOOLS names the venv that holds JupyterLab and the built wheel (./build.sh test makes it
// in target/nbtools). Run from the repo root, after ./build.sh wheel:
//   NBTOOLS=target/nbtools node --test tests/page/notebook.test.mjs
// The GPT-2 case needs a Python with transformers: GPT2_PYTHON, else target/pytools's or
// /tmp/tfvenv's, the first that has it; and the release CLI (GPT_BIN, else target/release/gpt).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHOTS, closeBrowser, launch, watch } from './browser.mjs';
import { REPO } from './dist.mjs';
import { start, stop } from './server.mjs';

const NBTOOLS = path.resolve(REPO, process.env.NBTOOLS ?? 'target/nbtools');
const HOU = JSON.parse(await readFile(path.join(REPO, 'tests/fixtures/hou.json'), 'utf8'));

// The notebook, one cell per step (run one at a time: a widget's numbers reach Python
// after it has drawn, so a cell reads them in a later cell).
const CELLS = [
  'import json\nimport numpy as np\nfrom attention_playground import Head\nhead = Head()\nhead',
  'print(json.dumps({"weights": head.weights.tolist(), "out": head.out.tolist()}))',
  'head.w_v = np.array([[20.0, 0, 5], [0, 10, 5]])',
  'print(json.dumps({"w_q": head.w_q.tolist(), "weights": head.weights.tolist(), "out": head.out.tolist()}))',
  'try:\n    head.w_q = np.ones((2, 4))\nexcept ValueError as e:\n    print("refused:", e)\nprint(head.w_q.shape)',
  'zh = Head(lang="zh", scaled=True)\nzh',
];

// The other widgets, and one element's state both ways (softmax steps: scores, allowed).
const OTHERS = [
  'import json\nimport attention_playground as ap\nap.Schemes()',
  'ap.FormulaSteps()',
  'ap.NoteScale()',
  'ap.Exercise()',
  'ap.Widget("attn-bigram", lang="zh")',
  'steps = ap.SoftmaxSteps(state={"scores": [1.0, 2.0, 3.0, 4.0], "allowed": [True, True, True, False]})\nsteps',
  'print(json.dumps(steps.state))',
  'steps.state = {"scores": [1.0, 2.0], "allowed": []}',
  'print(json.dumps({"state": steps.state, "error": steps.error}))',
];

// GptInspect on the site's pretrained model, against a NumPy forward pass of the same file
// (nanoGPT's architecture in float64: LayerNorm, the causal heads, exact GELU).
const NUMPY_GPT = `import json, math
import numpy as np

def load(path):
    b = open(path, "rb").read()
    n = int.from_bytes(b[:8], "little")
    header = json.loads(b[8:8 + n])
    meta = header.pop("__metadata__")
    return {k: np.frombuffer(b[8 + n + v["data_offsets"][0]:8 + n + v["data_offsets"][1]], "<f4")
            .reshape(v["shape"]).astype(np.float64) for k, v in header.items()}, meta

def attention_of(path, prompt):
    p, meta = load(path)
    vocab, L, H = json.loads(meta["vocab"]), int(meta["n_layer"]), int(meta["n_head"])
    ln = lambda x, w, b: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * w + b
    gelu = np.vectorize(lambda v: 0.5 * v * (1 + math.erf(v / math.sqrt(2))))
    idx = [vocab.index(c) for c in prompt]
    T = len(idx)
    x = p["transformer.wte.weight"][idx] + p["transformer.wpe.weight"][:T]
    out = []
    for l in range(L):
        g = lambda name: p[f"transformer.h.{l}.{name}"]
        h = ln(x, g("ln_1.weight"), g("ln_1.bias")) @ g("attn.c_attn.weight").T + g("attn.c_attn.bias")
        q, k, v = (a.reshape(T, H, -1).transpose(1, 0, 2) for a in np.split(h, 3, axis=-1))
        s = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
        s = np.where(np.triu(np.ones((T, T), bool), 1), -np.inf, s)
        w = np.exp(s - s.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
        out.append(w)
        y = (w @ v).transpose(1, 0, 2).reshape(T, -1)
        x = x + y @ g("attn.c_proj.weight").T + g("attn.c_proj.bias")
        m = gelu(ln(x, g("ln_2.weight"), g("ln_2.bias")) @ g("mlp.c_fc.weight").T + g("mlp.c_fc.bias"))
        x = x + m @ g("mlp.c_proj.weight").T + g("mlp.c_proj.bias")
    return np.array(out)`;
/** The three scores of GptInspect.heads and of `gpt heads --json`. */
const SCORES = ['previous_token', 'induction', 'first_token'];
const GPT_CELLS = [
  'from attention_playground import GptInspect\ngpt = GptInspect(checkpoint="small.safetensors", prompt="ROMEO:")\ngpt',
  NUMPY_GPT,
  'ref = attention_of("small.safetensors", gpt.prompt)\nprint(json.dumps({"shape": gpt.weights.shape, "tokens": gpt.tokens, "config": [gpt.config["n_layer"], gpt.config["n_head"]],'
    + ' "diff": float(np.abs(gpt.weights - ref).max()), "prompt": gpt.prompt}))',
  'gpt.prompt = "JULIET: O"',
  'gpt.prompt = "ROMEO€"',
  'print(json.dumps({"error": gpt.error, "prompt": gpt.prompt}))',
  // What each head has learned (gpt.heads, once per checkpoint), against `gpt heads --json`.
  `h = gpt.heads\nprint(json.dumps({**{k: {"shape": h[k].shape, "dtype": str(h[k].dtype), "rows": h[k].tolist()} for k in ${JSON.stringify(SCORES)}},`
    + ' **{k: h[k] for k in ("probe", "probe_len", "loss_first", "loss_second", "best")}, "vocab": gpt.config["vocab"]}))',
];

// GptInspect on GPT-2 folders of the work folder (made in the test): gpt2 (a model
// transformers wrote and trained 20 steps), no_tokenizer (its tokenizer files gone), bert
// (its config.json BERT's).
const GPT2_PROMPTS = ["ROMEO: The cat sat on the mat, and the cat's hat fell off.", 'It is 1984; they\'ll say "we\'ve won" ✓'];
const GPT2_TYPED = 'Typed in the widget: hello, world!';
const GPT2_CELLS = [
  `from attention_playground import GptInspect\ngpt2 = GptInspect("gpt2", prompt=${JSON.stringify(GPT2_PROMPTS[0])})\ngpt2`,
  'import json\nw = gpt2.weights\nprint(json.dumps({"prompt": gpt2.prompt, "tokens": gpt2.tokens, "shape": w.shape, "dtype": str(w.dtype),'
    + ' "weights": w.tolist(), "config": gpt2.config, "error": gpt2.error}))',
  `gpt2.prompt = ${JSON.stringify(GPT2_PROMPTS[1])}`,
  `h = gpt2.heads\nprint(json.dumps({**{k: {"shape": h[k].shape, "dtype": str(h[k].dtype), "rows": h[k].tolist()} for k in ${JSON.stringify(SCORES)}},`
    + ' **{k: h[k] for k in ("probe", "probe_len", "loss_first", "loss_second", "best")}}))',
  'try:\n    GptInspect("no_tokenizer")\nexcept ValueError as e:\n    print("refused:", e)',
  'bert = GptInspect("bert", prompt="x")\nbert',
  'print(json.dumps({"error": bert.error, "config": bert.config, "weights": bert.weights}))',
  'import os\nbig = GptInspect(os.environ["NOTEBOOK_GPT2_BIG"], prompt="The cat sat on the mat. The dog sat on the log. The cat sat on the")\nbig',
  'import resource\nprint(json.dumps({"shape": big.weights.shape, "tokens": len(big.tokens), "config": big.config, "error": big.error,'
    + ' "kernel_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))',
  'big.prompt = " ".join(["The cat sat on the mat."] * 60)',
  'print(json.dumps({"shape": big.weights.shape, "sum": float(big.weights.sum()), "prompt": big.prompt[:40], "error": big.error}))',
  'bert.load("gpt2")',
  'print(json.dumps({"error": bert.error, "config": bert.config, "tokens": bert.tokens, "shape": None if bert.weights is None else bert.weights.shape}))',
  'bert.load("small.safetensors")\nbert.prompt = "ROMEO:"',
];

// marimo: the head wrapped by mo.ui.anywidget; a cell that reads its numbers runs again
// whenever the widget sends new ones (marimo's reactivity), so it prints them as JSON.
const MARIMO_APP = `import marimo

app = marimo.App()


@app.cell
def _():
    import json
    import marimo as mo
    from attention_playground import Head

    head = mo.ui.anywidget(Head())
    head
    return head, json, mo


@app.cell
def _(head, json, mo):
    h = head.widget
    mo.plain_text("numbers: " + json.dumps(None if h.weights is None else {"weights": h.weights.tolist(), "out": h.out.tolist()}))
    return


if __name__ == "__main__":
    app.run()
`;

let server;
let work;
let base;
let query;
let browser;

/** A free loopback port. */
const freePort = () => new Promise((resolve, reject) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  }).on('error', reject);
});

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  work = await mkdtemp(path.join(tmpdir(), 'attn-notebook-'));
  const cell = (source) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source });
  const nb = {
    cells: CELLS.map(cell), nbformat: 4, nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
  };
  await writeFile(path.join(work, 'head.ipynb'), JSON.stringify(nb));
  await cp(path.join(REPO, 'docs/notebooks/attention.ipynb'), path.join(work, 'attention.ipynb'));
  await cp(path.join(REPO, 'www/models/small.safetensors'), path.join(work, 'small.safetensors'));
  await writeFile(path.join(work, 'gpt.ipynb'), JSON.stringify({ ...nb, cells: GPT_CELLS.map(cell) }));
  await writeFile(path.join(work, 'gpt2.ipynb'), JSON.stringify({ ...nb, cells: GPT2_CELLS.map(cell) }));
  await writeFile(path.join(work, 'marimo_head.py'), MARIMO_APP);
  await writeFile(path.join(work, 'others.ipynb'), JSON.stringify({ ...nb, cells: OTHERS.map(cell) }));
  await writeFile(path.join(work, 'notebook7.ipynb'), JSON.stringify({ ...nb, cells: CELLS.slice(0, 3).map(cell) }));
  const token = randomBytes(16).toString('hex');
  const port = await freePort();
  const home = path.join(work, 'home');
  // The user's settings, workspaces and kernels' runtime files stay in the work folder.
  const env = {
    ...process.env, HOME: home, JUPYTER_CONFIG_DIR: path.join(home, 'config'), JUPYTER_DATA_DIR: path.join(home, 'data'),
    JUPYTER_RUNTIME_DIR: path.join(home, 'runtime'), JUPYTERLAB_SETTINGS_DIR: path.join(home, 'settings'),
    JUPYTERLAB_WORKSPACES_DIR: path.join(home, 'workspaces'), IPYTHONDIR: path.join(home, 'ipython'),
    PATH: `${path.join(NBTOOLS, 'bin')}:${process.env.PATH}`,
  };
  base = `http://127.0.0.1:${port}`;
  server = await serve('jupyter-lab', [
    '--no-browser', `--ServerApp.ip=127.0.0.1`, `--ServerApp.port=${port}`, '--ServerApp.port_retries=0',
    `--IdentityProvider.token=${token}`, `--ServerApp.root_dir=${work}`, '--LabApp.expose_app_in_browser=True',
    '--JupyterNotebookApp.expose_app_in_browser=True',
    // Offline: no news or update checks from the web.
    '--LabApp.news_url=', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate',
    '--LabApp.extension_manager=readonly', '--allow-root', // CI runs as root
  ], `${base}/api/status?token=${token}`, env);
  query = `?token=${token}`;
  browser = await launch();
});

after(async () => {
  await closeBrowser(browser);
  await ended(server);
  if (work) await rm(work, { recursive: true, force: true });
});

/** Starts NBTOOLS's `tool` with `args` (a server, its output kept); resolves to its process
 *  once `url` answers, or rejects with that output. */
async function serve(tool, args, url, env = process.env) {
  const proc = spawn(path.join(NBTOOLS, 'bin', tool), args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout.on('data', (d) => { log += d; });
  proc.stderr.on('data', (d) => { log += d; });
  const deadline = Date.now() + 90_000;
  while (!(await fetch(url).then((r) => r.ok, () => false))) {
    if (proc.exitCode != null || Date.now() > deadline) {
      await ended(proc);
      throw new Error(`${tool} did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return proc;
}

/** Stops a server `serve` started (waiting at most 10 s). */
async function ended(proc) {
  if (!proc || proc.exitCode != null) return;
  const gone = new Promise((resolve) => { proc.once('exit', resolve); setTimeout(resolve, 10_000); });
  proc.kill('SIGTERM');
  await gone;
}

/** Runs cell `i` of the open notebook and resolves with its outputs' text once the kernel is idle. */
async function run(page, i) {
  return page.evaluate(async (index) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    panel.content.activeCellIndex = index;
    await app.commands.execute('notebook:run-cell');
    const kernel = panel.sessionContext.session.kernel;
    while (kernel.status !== 'idle') await new Promise((r) => setTimeout(r, 50));
    const outputs = panel.content.widgets[index].model.outputs.toJSON();
    return outputs.map((o) => (o.output_type === 'stream' ? o.text : o.output_type === 'error' ? `${o.ename}: ${o.evalue}` : ''))
      .join('');
  }, i);
}

/** Opens a notebook of the work folder (alone: JupyterLab's workspace is reset) and waits
 *  until its kernel is idle. */
async function openNotebook(page, where) {
  await page.goto(`${base}${where}${query}${where.startsWith('/lab/') ? '&reset' : ''}`);
  await page.waitForFunction(() => window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel?.status === 'idle',
    null, { timeout: 90_000 });
}

/** Who logs a message: the widgets' own (their ESM is a blob: module) fail a test, the
 *  host's own (JupyterLab, Notebook 7, marimo) are printed only. */
const hostsOwn = (text, where) => !/blob:|attention|attn-|wasm/i.test(`${text} ${where}`);

/**
 * Runs `fn(page)` in a fresh page (`init`: a script run before the host's), with `where` (a
 * notebook path) opened first unless null; then prints the host's own messages and
 * asserts the widgets logged none.
 */
async function withPage(where, fn, { init } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const { problems, others } = watch(page, { aside: hostsOwn });
  try {
    if (where) await openNotebook(page, where);
    await fn(page);
  } finally {
    await context.close();
  }
  if (others.length) console.log(`# the host's own messages, set aside: ${[...new Set(others)].join(' | ')}`);
  assert.deepEqual(problems, [], 'console errors/warnings or page errors from the widgets');
}

/** The i-th cell's output area. */
const output = (page, i) => page.locator('.jp-Notebook .jp-Cell').nth(i).locator('.jp-OutputArea');
const cellOf = (head, id, row, col) => head.locator(`attn-matrix#${id} td[data-row="${row}"][data-col="${col}"]`);
/** Waits until `head` shows `text` at (row, col) of grid `id`. */
const shows = (head, id, row, col, text) => cellOf(head, id, row, col).filter({ hasText: new RegExp(`^${text}$`) })
  .waitFor({ timeout: 30_000 });
/** Reads `read()` until `ok(value)` holds, `tries` more times at most, 250 ms apart;
 *  resolves to the last value read. `ok` must not throw on what the page holds half-way:
 *  it says "not yet" there, and the test's own assertions check the value it resolves to. */
async function poll(page, read, ok, tries) {
  for (let n = 0; ; n++) {
    const value = await read();
    if (ok(value) || n === tries) return value;
    await page.waitForTimeout(250);
  }
}
/** Until Python holds what the widget sent: a drawn widget's numbers arrive a moment after it draws. */
const untilPython = (page, i, ok) => poll(page, () => run(page, i), ok, 20);
/** `text` as a JSON object, or undefined while it is none: a cell that prints the widget's
 *  numbers prints `AttributeError: …` until they have come (they are None before), and a
 *  wait goes on waiting there instead of throwing. */
function jsonOr(text) {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
/** untilPython for a cell that prints one JSON object: resolves to it once `ok(object)`
 *  holds (`ok` sees objects only); the test fails if the last try printed none. */
async function untilJson(page, i, ok = () => true) {
  const text = await untilPython(page, i, (t) => {
    const got = jsonOr(t);
    return got !== undefined && ok(got);
  });
  const got = jsonOr(text);
  assert.ok(got, `cell ${i} printed no JSON object:\n${text}`);
  return got;
}
const close = (a, b, tol, what) => {
  assert.equal(a.length, b.length, what);
  a.flat().forEach((v, j) => assert.ok(Math.abs(v - b.flat()[j]) <= tol, `${what}[${j}]: ${v} against ${b.flat()[j]}`));
};

// Counts what a rerun must not repeat: starting a wasm core, defining an element.
function countStarts() {
  window.apCounts = { wasm: 0, defined: {} };
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const was = WebAssembly[name];
    WebAssembly[name] = function counted(...args) {
      window.apCounts.wasm++;
      return was.apply(this, args);
    };
  }
  const define = customElements.define.bind(customElements);
  customElements.define = (tag, cls, options) => {
    window.apCounts.defined[tag] = (window.apCounts.defined[tag] ?? 0) + 1;
    return define(tag, cls, options);
  };
}

test('JupyterLab: the head draws, Python and the widget change each other, numbers are exact, zh, a rerun', () => withPage(
  '/lab/tree/head.ipynb', async (page) => {
  // Cell 0: the head draws the lesson's numbers (out[u, d₁] = 8.87).
  assert.equal(await run(page, 0), '');
  const head = output(page, 0).locator('attn-head');
  await shows(head, 'out', 2, 0, '8\\.87');
  assert.equal(await output(page, 0).locator('attn-head').count(), 1);
  // The formulas are typeset with KaTeX's stylesheet and fonts, carried inside the ESM.
  const tex = await head.evaluate(async (el) => {
    await document.fonts.ready;
    const mathml = el.shadowRoot.querySelector('.katex .katex-mathml');
    return { mathml: mathml && getComputedStyle(mathml).position, main: document.fonts.check('16px KaTeX_Main') };
  });
  assert.deepEqual(tex, { mathml: 'absolute', main: true }, 'KaTeX styles the formulas');
  await page.screenshot({ path: path.join(SHOTS, 'notebook-head.png') });

  // Cell 1: the weights the core computed, in Python, equal NumPy's to 1e-12.
  const drawn = await untilJson(page, 1);
  close(drawn.weights, HOU.unscaled.weights_full_precision, 1e-12, 'weights');
  close(drawn.out, HOU.unscaled.out_full_precision, 1e-12, 'out');

  // Cell 2: a Python assignment to w_v redraws out (v = x W_vᵀ: out[h, d₁] = 20).
  await run(page, 2);
  await shows(head, 'out', 0, 0, '20\\.00');
  await shows(head, 'v', 0, 0, '20\\.00');

  // An edit typed into the widget reaches Python: W_q[h, c₃] = 1/3.
  await cellOf(head, 'W_q', 0, 2).locator('input').fill('1/3');
  await shows(head, 'q', 2, 0, '0\\.33');
  const edited = await untilJson(page, 3, (n) => n.w_q?.[0]?.[2] !== 2);
  assert.equal(edited.w_q[0][2], 1 / 3);
  assert.equal(edited.out[0][0], 20, 'the Python assignment stayed');
  assert.ok(Math.abs(edited.weights[2][0] - drawn.weights[2][0]) > 0.01, 'the weights changed with W_q');

  // Cell 4: a wrong shape from Python is refused with what was wrong; nothing changes.
  const refused = await run(page, 4);
  assert.match(refused, /refused: w_q has 4 columns but x has 3/);
  assert.match(refused, /\(2, 3\)/);
  await shows(head, 'q', 2, 0, '0\\.33');

  // Cell 5: a head in Chinese.
  await run(page, 5);
  const zh = output(page, 5).locator('attn-head');
  await shows(zh, 'out', 2, 0, '\\d+\\.\\d\\d');
  assert.match(await zh.evaluate((el) => el.shadowRoot.textContent), /因果掩码/);
  await zh.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'notebook-zh.png') });

  // Every cell again: one widget per output, drawn and working, the same numbers.
  for (let i = 0; i < CELLS.length; i++) await run(page, i);
  for (const i of [5, 0]) {
    await output(page, i).scrollIntoViewIfNeeded(); // JupyterLab draws the cells in view
    await shows(output(page, i).locator('attn-head'), 'out', 2, 0, '\\d+\\.\\d\\d');
    assert.equal(await output(page, i).locator('attn-head').count(), 1, `cell ${i}'s widgets`);
  }
  const again = output(page, 0).locator('attn-head');
  await shows(again, 'out', 0, 0, '20\\.00'); // cell 2 ran again on the new head
  await cellOf(again, 'W_v', 0, 0).locator('input').fill('30');
  await shows(again, 'out', 0, 0, '30\\.00');
  const counts = await page.evaluate(() => window.apCounts);
  assert.equal(counts.wasm, 1, 'the core started once, for both heads and both runs');
  assert.equal(counts.defined['attn-head'], 1);
  assert.ok(Object.values(counts.defined).every((n) => n === 1), JSON.stringify(counts.defined));
  const rerun = await untilJson(page, 3, (n) => n.out?.[0]?.[0] === 30);
  assert.equal(rerun.out[0][0], 30);
  close(rerun.weights, HOU.unscaled.weights_full_precision, 1e-12, 'weights after the rerun');
  await page.screenshot({ path: path.join(SHOTS, 'notebook-rerun.png') });
}, { init: countStarts }));

test('Notebook 7: the same package draws, sends its numbers and takes an assignment', () => withPage('/notebooks/notebook7.ipynb', async (page) => {
  await run(page, 0);
  const head = output(page, 0).locator('attn-head');
  await shows(head, 'out', 2, 0, '8\\.87');
  const drawn = await untilJson(page, 1);
  close(drawn.weights, HOU.unscaled.weights_full_precision, 1e-12, 'weights');
  await run(page, 2);
  await shows(head, 'out', 0, 0, '20\\.00');
  await page.screenshot({ path: path.join(SHOTS, 'notebook-nb7.png') });
}));

test('the example notebook (docs/notebooks/attention.ipynb) runs cell by cell: NumPy and the widget agree', () => withPage('/lab/tree/attention.ipynb', async (page) => {
  const nb = JSON.parse(await readFile(path.join(REPO, 'docs/notebooks/attention.ipynb'), 'utf8'));
  const texts = [];
  for (const [i, c] of nb.cells.entries()) {
    if (c.cell_type !== 'code') continue;
    // A cell that reads the widget's numbers runs again until the widget has drawn them.
    texts.push(await untilPython(page, i, (t) => !/Error: /.test(t)));
    assert.doesNotMatch(texts.at(-1), /Error: /, `cell ${i}:\n${[c.source].flat().join('')}`);
  }
  const all = texts.join('\n');
  const diffs = [...all.matchAll(/largest difference from NumPy: (\S+) (\S+)/g)].flatMap((m) => [Number(m[1]), Number(m[2])]);
  assert.equal(diffs.length, 4, all);
  for (const d of diffs) assert.ok(d >= 0 && d <= 1e-12, `NumPy against the widget: ${d}`);
  assert.match(all, /row sums: \[1\. 1\. 1\. 1\.\]/);
  assert.match(all, /nothing above the diagonal: True/);
  await page.screenshot({ path: path.join(SHOTS, 'notebook-example.png') });
}));

test('the other widgets draw in JupyterLab; an element\'s state goes both ways and a bad one is refused', () => withPage('/lab/tree/others.ipynb', async (page) => {
  const drawnIn = async (i, tag, what) => {
    await run(page, i);
    const el = output(page, i).locator(tag).first();
    await el.scrollIntoViewIfNeeded();
    await assert.doesNotReject(el.locator(what).first().waitFor({ timeout: 30_000 }), `${tag} draws ${what}`);
    const error = await el.evaluate((e) => [...e.shadowRoot.querySelectorAll('.widget-error')].filter((p) => !p.hidden).map((p) => p.textContent));
    assert.deepEqual(error, [], `${tag} shows no error`);
    return el;
  };
  await drawnIn(0, 'attn-schemes', 'attn-matrix');
  await drawnIn(1, 'attn-formula-steps', '.katex');
  await drawnIn(2, 'attn-note-scale', 'button');
  await drawnIn(3, 'attn-exercise', 'button');
  const bigram = await drawnIn(4, 'attn-bigram', '.panel:not(.skeleton) td'); // the table inlined in the ESM
  assert.match(await bigram.evaluate((e) => e.shadowRoot.textContent), /[\u4e00-\u9fff]/, 'the bigram widget in Chinese');
  await page.screenshot({ path: path.join(SHOTS, 'notebook-others.png') });
  const steps = await drawnIn(5, 'attn-softmax-steps', 'input');
  const sent = await untilJson(page, 6);
  assert.deepEqual(sent, { scores: [1, 2, 3, 4], allowed: [true, true, true, false] });
  assert.deepEqual(await steps.evaluate((e) => e.state), sent);
  // A state the element refuses: said in `error`, and the state it draws comes back.
  await run(page, 7);
  const refused = await untilJson(page, 8, (n) => n.error !== '');
  assert.deepEqual(refused.state, sent);
  assert.match(refused.error, /\S/);
  console.log(`# SoftmaxSteps refused: ${refused.error}`);
}));

test('GptInspect: every layer and head of a checkpoint, its weights in Python equal a NumPy forward pass', () => withPage('/lab/tree/gpt.ipynb', async (page) => {
  await run(page, 0);
  const inspect = output(page, 0).locator('attn-gpt-inspect');
  // 2 layers × 4 heads, each a 6 × 6 heatmap of "ROMEO:".
  await assert.doesNotReject(output(page, 0).locator('attn-gpt-inspect[data-heads="8"]').waitFor({ timeout: 30_000 }));
  assert.equal(await inspect.locator('attn-matrix').count(), 8);
  await page.screenshot({ path: path.join(SHOTS, 'notebook-gpt.png') });
  await run(page, 1);
  const check = (want) => untilJson(page, 2, (n) => n.prompt === want);
  const first = await check('ROMEO:');
  assert.deepEqual(first.shape, [2, 4, 6, 6]);
  assert.deepEqual(first.tokens, [...'ROMEO:']);
  assert.deepEqual(first.config, [2, 4]);
  assert.ok(first.diff <= 1e-5, `the widget's weights against NumPy's float64 forward: ${first.diff}`);
  console.log(`# GptInspect against NumPy (f32 wasm vs f64): max |Δweight| ${first.diff.toExponential(2)}`);
  // The heads' scores: (n_layer, n_head) float64 arrays in Python, equal to the native CLI's
  // on the same file (its own build of the core: no wasm, no page, no widget protocol).
  const heads = await untilJson(page, 6);
  const cli = JSON.parse(execFileSync('cargo', ['run', '--release', '--quiet', '--bin', 'gpt', '--', 'heads', '--ckpt',
    path.join(work, 'small.safetensors'), '--json'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 15 * 60_000 }));
  assert.deepEqual([cli.n_layer, cli.n_head], [2, 4]);
  let most = 0;
  for (const k of SCORES) {
    assert.deepEqual(heads[k].shape, [2, 4], `${k}'s shape in Python`);
    assert.equal(heads[k].dtype, 'float64', k);
    close(heads[k].rows, cli[k], 1e-6, `heads["${k}"] against gpt heads`);
    most = Math.max(most, ...heads[k].rows.flat().map((v, j) => Math.abs(v - cli[k].flat()[j])));
  }
  for (const k of ['loss_first', 'loss_second']) {
    assert.ok(Math.abs(heads[k] - cli[k]) <= 1e-6 * Math.max(1, Math.abs(cli[k])), `${k}: ${heads[k]} against ${cli[k]}`);
  }
  const vocab = Array.from(heads.vocab);
  assert.equal(heads.probe_len, cli.probe_len);
  assert.deepEqual(heads.probe, cli.probe.map((ids) => ids.map((i) => vocab[i]).join('')), 'the probe rows, as text');
  const flat = heads.induction.rows.flat();
  const top = flat.indexOf(Math.max(...flat));
  assert.deepEqual([heads.best.layer, heads.best.head], [Math.floor(top / 4), top % 4], 'best: the largest induction score');
  console.log(`# GptInspect.heads against gpt heads --json: max |Δscore| ${most.toExponential(2)}, losses ${heads.loss_first.toFixed(3)} / ${heads.loss_second.toFixed(3)}`);
  // From Python: a new prompt redraws (9 characters).
  await run(page, 3);
  const second = await check('JULIET: O');
  assert.deepEqual(second.shape, [2, 4, 9, 9]);
  assert.ok(second.diff <= 1e-5, `after a new prompt: ${second.diff}`);
  // Typed into the widget: the prompt and its weights reach Python.
  await inspect.locator('input[type="text"]').first().fill('KING');
  await inspect.locator('input[type="text"]').first().press('Enter');
  const typed = await check('KING');
  assert.deepEqual(typed.shape, [2, 4, 4, 4]);
  // A character the model does not know: the widget says so, and so does `error`.
  await run(page, 4);
  const bad = await untilJson(page, 5, (n) => n.error !== '');
  assert.match(bad.error, /€/);
  assert.equal(bad.prompt, 'ROMEO€');
  assert.match(await inspect.evaluate((e) => e.shadowRoot.textContent), /€/, 'the widget says it too');
  console.log(`# GptInspect refused: ${bad.error}`);
}));

/** A Python with transformers for tools/gpt2_hf.py: GPT2_PYTHON, else the first of
 *  target/pytools's and /tmp/tfvenv's that imports it. */
function transformersPython() {
  if (process.env.GPT2_PYTHON) return process.env.GPT2_PYTHON;
  for (const py of [path.join(REPO, 'target/pytools/bin/python'), '/tmp/tfvenv/bin/python']) {
    if (!existsSync(py)) continue;
    try {
      execFileSync(py, ['-c', 'import transformers'], { stdio: 'ignore' });
      return py;
    } catch {
      // not this one
    }
  }
  throw new Error('no Python with transformers: set GPT2_PYTHON (./build.sh test puts it in target/pytools)');
}

/** The release CLI's JSON answer on a GPT-2 folder (built, not run through cargo: another
 *  build may be under way). */
const gptCli = (...args) => JSON.parse(execFileSync(process.env.GPT_BIN ?? path.join(REPO, 'target/release/gpt'), args,
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 }));

/** Asserts two nested arrays of numbers agree to `tol`; resolves to their largest difference. */
function agree(got, want, tol, what) {
  const a = got.flat(Infinity);
  const b = want.flat(Infinity);
  assert.equal(a.length, b.length, `${what}: ${a.length} numbers against ${b.length}`);
  let most = 0;
  a.forEach((v, j) => {
    most = Math.max(most, Math.abs(v - b[j]));
    assert.ok(Math.abs(v - b[j]) <= tol, `${what}[${j}]: ${v} against ${b[j]}`);
  });
  return most;
}

test('GptInspect on a GPT-2 folder: read from the kernel in chunks, its weights and tokens equal the CLI\'s', () => withPage(null, async (page) => {
  // The folders: made here by transformers (a model trained 20 steps: its maps not uniform).
  const dir = path.join(work, 'gpt2');
  execFileSync(transformersPython(), [path.join(REPO, 'tools/gpt2_hf.py'), 'make', '--out', dir, '--train-steps', '20'],
    { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], timeout: 10 * 60_000 });
  await cp(dir, path.join(work, 'no_tokenizer'), { recursive: true });
  for (const f of ['tokenizer.json', 'vocab.json', 'merges.txt']) await rm(path.join(work, 'no_tokenizer', f));
  await cp(dir, path.join(work, 'bert'), { recursive: true });
  await writeFile(path.join(work, 'bert/config.json'), JSON.stringify({ model_type: 'bert', hidden_size: 64,
    num_attention_heads: 4, num_hidden_layers: 2, vocab_size: 1000 }));
  await openNotebook(page, '/lab/tree/gpt2.ipynb');

  // The prompt from Python: <attn-gpt2> opens the folder, runs it, measures the heads.
  assert.equal(await run(page, 0), '');
  const el = output(page, 0).locator('attn-gpt2');
  await assert.doesNotReject(output(page, 0).locator('attn-gpt2[data-heads="measured"]').waitFor({ timeout: 60_000 }));
  assert.equal(await el.locator('section.open input[type="file"]').isVisible(), false, 'the model is Python\'s: no file choice');
  await page.screenshot({ path: path.join(SHOTS, 'notebook-gpt2.png') });
  /** Python's numbers once it holds the prompt `want`, against the CLI's on the same text. */
  const check = async (want) => {
    const got = await untilJson(page, 1, (n) => n.prompt === want);
    const ref = gptCli('eval', '--ckpt', dir, '--text', want, '--attentions');
    const { pieces } = gptCli('tokenize', '--ckpt', dir, '--text', want);
    assert.deepEqual(got.tokens, pieces, `the tokens of ${JSON.stringify(want)}: gpt tokenize's pieces`);
    const t = pieces.length;
    assert.deepEqual([got.shape, got.dtype, got.error], [[2, 4, t, t], 'float64', '']);
    const most = agree(got.weights, ref.attentions, 1e-6, `weights of ${JSON.stringify(want)} against gpt eval --attentions`);
    console.log(`# GptInspect(GPT-2 folder), ${t} tokens: max |Δweight| against the CLI ${most.toExponential(2)}`);
    return got;
  };
  const first = await check(GPT2_PROMPTS[0]);
  const { config } = first;
  assert.deepEqual([config.kind, config.n_layer, config.n_head, config.n_embd, config.block_size, config.vocab_size, config.max_tokens],
    ['gpt2', 2, 4, 64, 128, 1000, 128]);
  const spread = Math.max(...first.weights.flat(2).map((row, r) => {
    const seen = row.slice(0, (r % row.length) + 1); // the causal part of row r
    return Math.max(...seen) - Math.min(...seen);
  }));
  assert.ok(spread > 0.01, `the maps are not uniform (the most a row's weights differ: ${spread})`);
  // Set from Python: redrawn, the new numbers back.
  await run(page, 2);
  await check(GPT2_PROMPTS[1]);
  // Typed into the widget: its prompt, tokens and weights reach Python.
  await el.locator('section.model textarea').fill(GPT2_TYPED);
  await el.locator('section.model button.primary').click();
  await check(GPT2_TYPED);
  // The heads, as the element measured them: (n_layer, n_head) float64 arrays.
  const heads = await untilJson(page, 3);
  for (const k of SCORES) {
    assert.deepEqual([heads[k].shape, heads[k].dtype], [[2, 4], 'float64'], k);
    assert.ok(heads[k].rows.flat().every((v) => v >= 0 && v <= 1), `${k}: mean attention weights`);
  }
  assert.equal(heads.probe.length, 4);
  assert.equal(heads.probe_len, 12);
  const flat = heads.induction.rows.flat();
  assert.deepEqual([heads.best.layer, heads.best.head], [Math.floor(flat.indexOf(Math.max(...flat)) / 4), flat.indexOf(Math.max(...flat)) % 4]);
  // A folder without a tokenizer: refused in Python; BERT's config: the core's message.
  assert.match(await run(page, 4), /refused: checkpoint: no_tokenizer has no tokenizer: tokenizer\.json, or vocab\.json and merges\.txt/);
  await run(page, 5);
  const bert = await untilJson(page, 6, (n) => n.error !== '');
  assert.match(bert.error, /bert/i);
  assert.deepEqual([bert.config, bert.weights], [{}, null]);
  console.log(`# GptInspect refused a BERT folder: ${bert.error}`);
  assert.match(await output(page, 5).locator('attn-gpt2').evaluate((e) => e.shadowRoot.textContent), /bert/i, 'the widget says it too');
  // load(): another folder opens in the same widget; a checkpoint of ours turns it into <attn-gpt-inspect>.
  await run(page, 11);
  const loaded = await untilJson(page, 12, (n) => n.config.kind === 'gpt2' && n.shape !== null);
  assert.equal(loaded.error, '');
  assert.deepEqual(loaded.shape, [2, 4, loaded.tokens.length, loaded.tokens.length]);
  await run(page, 13);
  await assert.doesNotReject(output(page, 5).locator('attn-gpt-inspect[data-heads="8"]').waitFor({ timeout: 30_000 }));
  const ours = await untilJson(page, 12, (n) => Array.isArray(n.config.vocab) && n.shape !== null);
  assert.deepEqual([ours.shape, ours.tokens, ours.error], [[2, 4, 6, 6], [...'ROMEO:'], '']);
  assert.equal(await output(page, 5).locator('attn-gpt2').count(), 0, 'the GPT-2 view has gone');

  // A large folder (NOTEBOOK_GPT2_BIG): opened the same way, timed.
  if (!process.env.NOTEBOOK_GPT2_BIG) return;
  const t0 = Date.now();
  await run(page, 7);
  const bigEl = output(page, 7).locator('attn-gpt2');
  await assert.doesNotReject(output(page, 7).locator('attn-gpt2[data-status="open"]').waitFor({ timeout: 20 * 60_000 }));
  const opened = (Date.now() - t0) / 1000;
  const big = await untilJson(page, 8, (n) => Array.isArray(n.shape));
  const info = await bigEl.evaluate((e) => e.state.info);
  console.log(`# GptInspect(${process.env.NOTEBOOK_GPT2_BIG}): ${info.params} parameters open in ${opened.toFixed(1)} s, `
    + `weights ${JSON.stringify(big.shape)}, the kernel's peak memory ${big.kernel_peak_mb.toFixed(0)} MB`);
  assert.deepEqual(big.shape, [big.config.n_layer, big.config.n_head, big.tokens, big.tokens]);
  assert.equal(big.error, '');
  // The longest prompt: max_tokens tokens (GPT-2 small: 256, 75 MB of weights back in parts).
  const t1 = Date.now();
  await run(page, 9);
  const n = big.config.max_tokens;
  await assert.doesNotReject(output(page, 7).locator(`attn-gpt2[data-tokens="${n}"]`).waitFor({ timeout: 5 * 60_000 }));
  const long = await untilJson(page, 10, (m) => m.prompt.startsWith('The cat') && Array.isArray(m.shape));
  assert.deepEqual(long.shape, [big.config.n_layer, big.config.n_head, n, n]);
  assert.ok(Math.abs(long.sum - big.config.n_layer * big.config.n_head * n) < 1e-3, `each row sums to 1: ${long.sum}`);
  console.log(`# ${n} tokens: ${(8 * big.config.n_layer * big.config.n_head * n * n / 2 ** 20).toFixed(0)} MB of weights in Python ${((Date.now() - t1) / 1000).toFixed(1)} s after the prompt was set`);
}));

test('marimo: the head in mo.ui.anywidget draws, and its numbers (and an edit) reach the cell that reads them', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const marimo = await serve('marimo', [
    'run', path.join(work, 'marimo_head.py'), '--headless', '--host', '127.0.0.1', '--port', String(port), '--no-token',
  ], url, { ...process.env, HOME: path.join(work, 'home') });
  try {
    await withPage(null, async (page) => {
      await page.goto(url);
      const head = page.locator('attn-head');
      await shows(head, 'out', 2, 0, '8\\.87');
      // The numbers marimo shows now, or undefined while there is no such line, two of them
      // (an output being replaced) or one cut short: a wait goes on past those.
      const line = page.getByText(/^numbers: \{/);
      const read = () => line.textContent({ timeout: 30_000 }).then((t) => jsonOr(t?.replace(/^numbers: /, '')), () => undefined);
      const numbers = async (ok) => {
        const got = await poll(page, read, (n) => n !== undefined && ok(n), 60);
        assert.ok(got, 'the cell that reads the widget printed its numbers');
        return got;
      };
      const drawn = await numbers(() => true);
      close(drawn.weights, HOU.unscaled.weights_full_precision, 1e-12, 'weights in marimo');
      await cellOf(head, 'W_v', 0, 0).locator('input').fill('20');
      const edited = await numbers((n) => n.out?.[0]?.[0] === 20);
      assert.equal(edited.out[0][0], 20, 'the edit reached the cell');
      await page.screenshot({ path: path.join(SHOTS, 'notebook-marimo.png') });
    });
  } finally {
    await ended(marimo);
  }
});

// What Jupyter Book 2's {anywidget} directive does in a static book (mystmd itself cannot
// build here: it downloads its site theme from the web): it imports the ESM and calls its
// render with a model of the directive's JSON, and no kernel behind it.
const STATIC_PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,"><title>static</title><body><div id="out"></div>
<script type="module">
const traits = { _tag: 'attn-head', attributes: { sequence: 'hou|you' }, lang: 'en',
  w_v: { rows: 2, cols: 3, data: [20, 0, 5, 0, 10, 5] } }; // a JSON's numbers: a list, not bytes
const listeners = {};
const model = {
  get: (k) => traits[k],
  set: (k, v) => { traits[k] = v; for (const f of listeners['change:' + k] ?? []) f(); },
  on: (e, f) => { (listeners[e] ??= []).push(f); },
  off: (e, f) => { listeners[e] = (listeners[e] ?? []).filter((g) => g !== f); },
  save_changes: () => {},
};
const mod = await import('./widget.js');
await mod.default.render({ model, el: document.getElementById('out') });
window.traits = traits;
</script>`;

test('a static book (the {anywidget} directive: the ESM and a JSON of traits, no kernel) draws the head', async () => {
  const site = await mkdtemp(path.join(tmpdir(), 'attn-static-'));
  const pkg = execFileSync(path.join(NBTOOLS, 'bin/python'), ['-c', 'import attention_playground, os; print(os.path.dirname(attention_playground.__file__))'])
    .toString().trim();
  await cp(path.join(pkg, 'static/widget.js'), path.join(site, 'widget.js'));
  await writeFile(path.join(site, 'index.html'), STATIC_PAGE);
  const base = await start(site);
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  try {
    const page = await context.newPage();
    const { problems } = watch(page);
    await page.goto(`${base}index.html`);
    const head = page.locator('attn-head');
    await shows(head, 'out', 0, 0, '20\\.00'); // out[h] = v[h] = W_v's first column
    await head.locator('button.word', { hasText: 'you' }).click();
    await shows(head, 'weights', 1, 0, '0\\.\\d\\d');
    const sent = await page.evaluate(() => ({ tokens: window.traits.tokens, weights: window.traits.weights?.rows }));
    assert.deepEqual(sent, { tokens: ['y', 'o', 'u'], weights: 3 });
    assert.deepEqual(problems, [], 'a clean console');
  } finally {
    await context.close();
    await stop();
    await rm(site, { recursive: true, force: true });
  }
});
