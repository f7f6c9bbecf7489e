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
// - marimo (PyPI marimo, `marimo run`): the head draws, its numbers and an edit reach a cell.
// - A static book's {anywidget} directive (the ESM and a JSON of traits) draws the head.
// No test may log a console error or page error from the widgets (JupyterLab's own are
// printed, not failed on).
//
// NBTOOLS names the venv that holds JupyterLab and the built wheel (./build.sh test makes it
// in target/nbtools). Run from the repo root, after ./build.sh wheel:
//   NBTOOLS=target/nbtools node --test tests/page/notebook.test.mjs

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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
