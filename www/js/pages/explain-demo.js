// explain-demo.html's wiring (an external module, not an inline script: the page runs
// under the strict Content-Security-Policy of README, script-src 'self').
import '../ui/matrix/attn-matrix.js';
import '../widgets/explain/attn-explain.js';
import '../widgets/explain/attn-formula-steps.js';
import { loadCore } from '../core/wasm.js';
import { setLang, onLangChange } from '../i18n/i18n.js';

const HEAD = ['q', 'k', 'v', 'scores', 'masked_scores', 'weights', 'out'];
const X = { rows: 3, cols: 2, data: [1, 2, 3, 4, 5, 6] };
const sub = (p, n) => Array.from({ length: n }, (_, i) => p + '₀₁₂₃₄₅₆₇₈₉'[i]);
const $ = (id) => document.getElementById(id);
const core = await loadCore();
const lab = new core.HeadLab();
const tokens = Array.from(lab.state().tokens);
const panel = $('panel');
const steps = $('steps');
const grids = {};

function grid(parent, id, label, palette) {
  const card = document.createElement('div');
  card.className = 'card';
  const title = document.createElement('h3');
  title.textContent = label;
  card.append(title);
  const m = document.createElement('attn-matrix');
  Object.assign(m, { id });
  m.setAttribute('label', label);
  m.setAttribute('palette', palette);
  m.setAttribute('explainable', '');
  m.setAttribute('table-toggle', '');
  card.append(m);
  parent.append(card);
  return (grids[id] = m);
}
for (const name of HEAD) grid($('head'), name, name, name === 'weights' ? 'weights' : 'signed');
grid($('scheme'), 'scheme_weights', 'weights', 'weights').dataset.scheme = 'matrix';
grid($('scheme'), 'scheme_out', 'out', 'signed').dataset.scheme = 'matrix';
grids.scheme_weights.setAttribute('matrix', 'weights');
grids.scheme_out.setAttribute('matrix', 'out');

function draw() {
  const r = lab.compute();
  for (const name of HEAD) {
    const m = grids[name];
    m.rowLabels = tokens;
    m.colLabels = ['q', 'k', 'v', 'out'].includes(name) ? sub('d', r[name].cols) : tokens;
    const masked = name === 'weights' ? Array.from(r.masked_scores.data, (s) => s === -Infinity) : null;
    m.value = masked ? { ...r[name], masked } : r[name];
    m.highlight(null);
    m.markSelected(null);
  }
  const ladder = core.averagingLadder(X).matrix_average;
  for (const [id, v, cols] of [['scheme_weights', ladder.weights, ['0', '1', '2']], ['scheme_out', ladder.out, sub('c', 2)]]) {
    grids[id].rowLabels = ['0', '1', '2'];
    grids[id].colLabels = cols;
    grids[id].value = v;
  }
  steps.latex = core.formulaLatex();
  steps.tokens = tokens;
  steps.steps = lab.formulaSteps();
  panel.tokens = tokens;
  panel.explanation = null;
}

document.addEventListener('cell-explain', (e) => {
  const m = e.composedPath()[0].closest?.('attn-matrix') ?? e.target;
  const { row, col, label } = e.detail;
  const scheme = m.dataset.scheme;
  const ex = scheme ? core.explainScheme(scheme, X, label, row, col) : lab.explain(label, row, col);
  panel.labels = scheme ? { weights: { rows: ['0', '1', '2'], cols: ['0', '1', '2'] }, tril: { rows: ['0', '1', '2'], cols: ['0', '1', '2'] }, x: { rows: ['0', '1', '2'], cols: sub('c', 2) }, out: { rows: ['0', '1', '2'], cols: sub('c', 2) } } : {};
  panel.explanation = ex; // the panel outlines the sources in the grids of this scope
});
steps.addEventListener('step-change', (e) => {
  for (const name of HEAD) grids[name].closest('.card').classList.toggle('produces', name === e.detail.produces);
});
$('causal').addEventListener('change', (e) => { lab.setCausal(e.target.checked); draw(); });
$('scaled').addEventListener('change', (e) => { lab.setScaled(e.target.checked); draw(); });
for (const b of document.querySelectorAll('[data-lang]')) b.addEventListener('click', () => setLang(b.dataset.lang));
onLangChange((lang) => {
  for (const b of document.querySelectorAll('[data-lang]')) b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
});
setLang('en');
draw();
window.explainDemo = { core, lab, panel, steps }; // for the page tests
document.documentElement.dataset.ready = 'true';
