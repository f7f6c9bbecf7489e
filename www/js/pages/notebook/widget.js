// The widgets in notebooks: the ESM of the Python package attention_playground (anywidget:
// JupyterLab, Notebook 7, VS Code, Colab, marimo). One render for every class: it makes the
// element the Python widget names (`_tag`), sets its attributes and `lang`, and keeps the
// Python traits and the element's state in step, both ways.
//
// tools/notebook-bundle.mjs makes this file one self-contained module, the core's wasm and
// KaTeX's stylesheet (its fonts as data: URLs) inlined through the 'ap-inline:' imports:
// anywidget imports a widget's ESM from a blob: URL, where new URL('x', import.meta.url)
// finds nothing (anywidget issue 921). So it is never loaded unbundled.
//
// Re-running a cell, or a second widget, imports the ESM again: the elements stay those of
// the first import (define() skips a tag already defined) and so does the core, loaded once.
//
// <attn-head> (Python `Head`) talks in fixed names: tokens, x, w_q, w_k, w_v, causal, scaled
// in, and q, k, v, scores, masked_scores, weights, out (null until drawn) out. Matrices
// travel as { rows, cols, data } with `data` the float64 bytes (binary buffers of the
// widget protocol: exact, and -Infinity survives). Any other element: its `state` both ways.

import WASM from 'ap-inline:wasm';
import KATEX_CSS from 'ap-inline:katex-css';
import { loadCore, provideCore } from '../../core/wasm.js';
import { provideTexCss } from '../../ui/tex.js';
import { message } from '../../ui/widget-base.js';
import { followAttributes, fromKernel, toKernel } from './wire.js';
import '../../widgets/lesson-set.gen.js';
import '../../widgets/notes-set.gen.js';

provideCore(WASM);
provideTexCss(KATEX_CSS);

const HEAD_INPUTS = { x: 'x', w_q: 'W_q', w_k: 'W_k', w_v: 'W_v' };
const HEAD_OUTPUTS = ['q', 'k', 'v', 'scores', 'masked_scores', 'weights', 'out'];

/** The head's inputs as the Python widget holds them: those it has (a static book's
 *  {anywidget} directive may give none: the element's own head is drawn). */
function headState(model) {
  const s = {};
  for (const key of ['tokens', 'causal', 'scaled']) if (model.get(key) != null) s[key] = model.get(key);
  for (const [py, js] of Object.entries(HEAD_INPUTS)) if (model.get(py) != null) s[js] = fromKernel(model.get(py));
  return s;
}

/** Whether every key of `next` already has its value in `current` (plain JSON data). */
function sameState(next, current) {
  if (!next || !current) return false;
  return Object.entries(next).every(([key, value]) => JSON.stringify(value) === JSON.stringify(current[key]));
}

/** The head's inputs and what the core computed from them, to Python. */
function sendHead(model, node) {
  const s = node.state;
  const r = node.result;
  model.set('tokens', s.tokens);
  model.set('causal', s.causal);
  model.set('scaled', s.scaled);
  for (const [py, js] of Object.entries(HEAD_INPUTS)) model.set(py, toKernel(s[js]));
  for (const name of HEAD_OUTPUTS) model.set(name, r ? toKernel(r[name]) : null);
  model.set('error', '');
  model.save_changes();
}

/** <attn-formula-steps> alone (Python FormulaSteps): the steps of the lesson's h/o/u head,
 *  as <attn-head> hands them to its own stepper. */
async function stepsOfTheHead(node) {
  const core = await loadCore();
  const lab = new core.HeadLab();
  try {
    node.latex = core.formulaLatex();
    node.tokens = Array.from(lab.state().tokens);
    node.steps = lab.formulaSteps();
  } finally {
    lab.free();
  }
}

function render({ model, el }) {
  const tag = model.get('_tag');
  if (!customElements.get(tag)) {
    el.textContent = `attention_playground: <${tag}> is not one of the notebook's widgets`;
    return undefined;
  }
  const node = document.createElement(tag);
  const head = tag === 'attn-head';
  const unfollow = followAttributes(model, node);
  const send = head ? () => sendHead(model, node) : () => {
    model.set('state', node.state ?? {});
    model.save_changes();
  };
  // What Python set, to the element (a change of several traits at once is applied once).
  let queued = false;
  const fromPython = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      const next = head ? headState(model) : model.get('state');
      // What the element already holds (this view's own send, echoed by a host whose model
      // fires a change on every set, or another view's): nothing to redraw, nothing to send.
      if (sameState(next, node.state)) {
        // …unless Python has no numbers for it (it set the same value again and cleared
        // them, or an error is still said): send them once (the next round is the same).
        if (head && node.result && (model.get('weights') == null || model.get('error'))) send();
        return;
      }
      try {
        node.state = next;
      } catch (err) {
        // What the element refused (Python checks the head's inputs; any other element's
        // state only the element does): said in `error`, and the state it still draws sent back.
        model.set('error', message(err));
        if (!head) model.set('state', node.state ?? {});
        model.save_changes();
        return;
      }
      if (head && node.result) send();
    });
  };
  const keys = head ? ['tokens', 'causal', 'scaled', ...Object.keys(HEAD_INPUTS)] : ['state'];
  for (const key of keys) model.on(`change:${key}`, fromPython);
  // A learner's edit (attn-change) and every draw (attn-rendered: the first, a new
  // language) go to Python; an edit the core refused is marked in the grid and sends nothing.
  // Only the element's own events: those of the grids inside it cross its shadow root too.
  const own = (e) => e.composedPath()[0] === node && send();
  node.addEventListener('attn-change', own);
  node.addEventListener('attn-rendered', own);
  if (Object.keys(head ? headState(model) : model.get('state') ?? {}).length) fromPython();
  if (tag === 'attn-formula-steps') stepsOfTheHead(node);
  el.append(node);
  return () => {
    for (const key of keys) model.off(`change:${key}`, fromPython);
    unfollow();
    node.remove();
  };
}

export default { render };
