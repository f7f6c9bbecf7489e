// Wires the Rust HeadLab (WebAssembly) to the page: cell edits and toggles go
// to Rust, and every number Rust computes is handed to an <attn-matrix>.
// No attention math happens here.

import './attn-matrix.js';
import { applyI18n, onLangChange, setLang, t } from './i18n.js';
import { rampGradient } from './palette.js';

const INPUTS = ['x', 'W_q', 'W_k', 'W_v'];
const $ = (id) => document.getElementById(id);
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';
const sub = (prefix, n) => Array.from({ length: n }, (_, i) =>
  prefix + String(i).replace(/\d/g, (d) => SUBSCRIPTS[d]));

let core = null;
let lab = null;
let tokens = [];

/** Tells listeners (and tests) that the page now shows a new result. */
function announce(ok) {
  document.dispatchEvent(new CustomEvent('redrawn', { detail: { ok } }));
}

function showMessage(text) {
  const box = $('message');
  box.textContent = text;
  box.hidden = !text;
  $('head-lab').classList.toggle('stale', Boolean(text));
}

function setMatrix(id, value, rowLabels, colLabels) {
  const el = $(id);
  el.rowLabels = rowLabels;
  el.colLabels = colLabels;
  el.value = value;
}

/** Draws the four inputs from Rust's state (the values Rust actually holds). */
function drawInputs() {
  const s = lab.state();
  tokens = Array.from(s.tokens);
  const channels = sub('c', s.x.cols);
  setMatrix('x', s.x, tokens, channels);
  for (const name of ['W_q', 'W_k', 'W_v']) {
    setMatrix(name, s[name], sub('d', s[name].rows), sub('c', s[name].cols));
  }
  $('causal').checked = s.causal;
  $('scaled').checked = s.scaled;
  return s;
}

function drawFlags(result) {
  const scaled = $('scaled').checked;
  const formula = $('f-scores');
  formula.dataset.i18nHtml = scaled ? 'fScoresOn' : 'fScoresOff';
  formula.innerHTML = t(formula.dataset.i18nHtml);
  const explain = $('masked-explain');
  explain.dataset.i18n = $('causal').checked ? 'maskedExplainOn' : 'maskedExplainOff';
  explain.textContent = t(explain.dataset.i18n);
  const readout = $('scale-readout');
  if (!result) return;
  readout.textContent = scaled
    ? t('scaleOn', { d: result.q.cols, s: result.scale.toFixed(2) })
    : t('scaleOff');
}

let lastResult = null;

/** Asks Rust for every intermediate and draws them; keeps the last valid result on error. */
function recompute() {
  let r;
  try {
    r = lab.compute();
  } catch (err) {
    drawFlags(lastResult);
    showMessage(t('computeFailed', { msg: String(err?.message ?? err).replace(/\.$/, '') }));
    announce(false);
    return;
  }
  lastResult = r;
  showMessage('');
  const d = sub('d', r.q.cols);
  const dv = sub('d', r.v.cols);
  setMatrix('q', r.q, tokens, d);
  setMatrix('k', r.k, tokens, d);
  setMatrix('v', r.v, tokens, dv);
  setMatrix('scores', r.scores, tokens, tokens);
  setMatrix('masked_scores', r.masked_scores, tokens, tokens);
  const masked = Array.from(r.masked_scores.data, (s) => s === -Infinity);
  setMatrix('weights', { ...r.weights, masked }, tokens, tokens);
  setMatrix('out', r.out, tokens, dv);
  const rows = Array.from(r.fully_masked_rows ?? [], (i) => tokens[i] ?? i);
  const note = $('note');
  note.hidden = rows.length === 0;
  note.textContent = rows.length ? t('fullyMasked', { rows: rows.join(', ') }) : '';
  drawFlags(r);
  announce(true);
}

function onCellEdit(e) {
  const el = e.target;
  const name = el.id;
  if (!INPUTS.includes(name)) return;
  const { row, col, text } = e.detail;
  try {
    lab.setCell(name, row, col, text);
  } catch (err) {
    el.setCellError(row, col, t('invalidPrefix') + String(err?.message ?? err));
    announce(false);
    return;
  }
  el.clearCellError(row, col);
  el.value = lab.state()[name];
  recompute();
}

function reset() {
  lab.free();
  lab = new core.HeadLab();
  INPUTS.forEach((name) => $(name).clearErrors());
  drawInputs();
  recompute();
}

function wire() {
  $('head-lab').addEventListener('cell-edit', onCellEdit);
  $('causal').addEventListener('change', (e) => {
    lab.setCausal(e.target.checked);
    recompute();
  });
  $('scaled').addEventListener('change', (e) => {
    lab.setScaled(e.target.checked);
    recompute();
  });
  $('reset').addEventListener('click', reset);
}

function wireLanguage() {
  for (const button of document.querySelectorAll('[data-lang]')) {
    button.addEventListener('click', () => setLang(button.dataset.lang));
  }
  onLangChange(() => {
    drawFlags(lastResult);
    if (!$('message').hidden && lab) recompute();
  });
}

async function main() {
  applyI18n();
  $('ramp-signed').style.background = rampGradient('signed');
  $('ramp-weights').style.background = rampGradient('weights');
  wireLanguage();
  const status = $('status');
  try {
    const { loadCore } = await import('./wasm.js');
    core = await loadCore();
    lab = new core.HeadLab();
  } catch (err) {
    delete status.dataset.i18n;
    status.textContent = t('loadFailed', { msg: String(err?.message ?? err) });
    status.classList.add('fatal');
    return;
  }
  status.hidden = true;
  drawInputs();
  wire();
  recompute();
  document.documentElement.dataset.ready = 'true';
}

main();
