// The screen of <attn-gpt-train>: its DOM (buildTrainView), how a run's status, buttons
// and numbers are drawn (paintTrainView), messages that follow a language switch
// (LiveMessage) and the inspector's first prompt (promptFor). It holds no run:
// gpt/train-session.js does, and gpt-train.js calls these to show it.

import { formatGrouped } from '../../ui/format.js';
import { h } from '../../ui/widget-base.js';
import { runsView } from './gpt-train-runs.js';

/** HH:MM of a time in ms (local clock). */
export function hhmm(ms) {
  const d = new Date(ms);
  return Number.isFinite(d.getTime()) ? `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}` : '–';
}

/** The prompt the inspector opens a model with: the default one if its vocab has every
 *  character of it, else the vocab's first letters (an own text's model knows no other). */
export function promptFor(info) {
  const fits = [...'To be, or not'].every((c) => info.vocab.includes(c));
  return fits ? 'To be, or not' : [...info.vocab].filter((c) => c.trim()).slice(0, 6).join('');
}

/** A message element whose text is a function of the current language, so that it is
 *  said again after a language switch (`render`). */
export class LiveMessage {
  #el;
  #say = null;
  #cls;

  /** `el`: the element; `cls`: its classes, to which `show` adds 'ok' or 'bad'. */
  constructor(el, cls) {
    this.#el = el;
    this.#cls = cls;
  }

  /** Shows `say()` (its role: status when ok, else alert); null hides the message.
   *  `detail`: for developers, as the message's title (e.g. why the training stopped). */
  show(say, ok = false, detail = '') {
    this.#say = say;
    this.#el.hidden = !say;
    this.#el.title = say ? detail : '';
    if (say) {
      this.#el.className = `${this.#cls} ${ok ? 'ok' : 'bad'}`;
      this.#el.setAttribute('role', ok ? 'status' : 'alert');
    }
    this.render();
  }

  render() {
    this.#el.textContent = this.#say ? this.#say() : '';
  }
}

/** Builds the widget's DOM into `root`. `on` = { settings, start, pause, reset, workers,
 *  causal, save, saveState, file, pretrained, resume, discard, look, takeOver, runs,
 *  openHead, ablate (the heads grid's events) }:
 *  what each control calls (`runs`: gpt-train-runs.js's). Returns the elements the
 *  widget updates. */
export function buildTrainView(root, on) {
  const u = {};
  const button = (key, onclick, cls) => h('button', { type: 'button', class: cls, 'data-t': key, onclick });
  u.settings = h('attn-gpt-settings', { frameless: true, 'ongpt-settings': on.settings });
  u.start = button('gpt.start', on.start, 'primary');
  u.pause = button('gpt.pause', on.pause);
  u.reset = button('gpt.reset', on.reset);
  const cores = Math.max(1, navigator.hardwareConcurrency || 2);
  u.workers = h('input', { type: 'number', class: 'workers', min: '1', max: String(Math.max(cores, 8)),
    value: String(Math.max(1, cores - 1)), onchange: on.workers });
  u.causal = h('input', { type: 'checkbox', onchange: on.causal });
  u.status = h('p', { class: 'status', role: 'status' });
  u.msg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
  u.stats = h('div', { class: 'stats', 'aria-live': 'off' });
  // Which build and how many threads train: for developers, closed by default.
  u.engine = h('p', { class: 'engine' });
  u.how = h('details', { class: 'how' }, h('summary', { 'data-t': 'gpt.howItRuns' }), u.engine);
  u.plot = h('attn-loss-plot');
  u.sample = h('pre', { class: 'sample' });
  u.sampleTitle = h('h3');
  u.inspect = h('attn-gpt-inspect', { frameless: true });
  u.heads = h('attn-gpt-heads', { frameless: true, 'ongpt-head-open': on.openHead, 'ongpt-head-ablate': on.ablate });
  u.save = button('gpt.save', on.save);
  u.saveState = button('gpt.saveState', on.saveState);
  u.file = h('input', { type: 'file', accept: '.safetensors,.state,application/octet-stream', onchange: on.file });
  u.pretrained = button('gpt.pretrained', on.pretrained);
  u.fileMsg = h('p', { class: 'file-msg msg', role: 'status', hidden: true });
  u.offerText = h('span');
  u.offerResume = button('gpt.resumeSaved', on.resume, 'primary');
  u.offerDiscard = button('gpt.discardSaved', on.discard);
  u.offerLook = button('gpt.lookSaved', on.look);
  u.offerTake = button('gpt.takeOver', on.takeOver, 'primary');
  u.offer = h('div', { class: 'offer', role: 'alert', hidden: true }, u.offerText,
    u.offerResume, u.offerDiscard, u.offerTake, u.offerLook);
  u.runs = runsView(on.runs);
  u.saveNote = h('p', { class: 'save-note muted', hidden: true });
  root.append(
    u.offer,
    u.settings,
    h('div', { class: 'panel' },
      h('div', { class: 'controls' }, u.start, u.pause, u.reset,
        h('label', { class: 'workers-label' }, h('span', { 'data-t': 'gpt.workers' }), u.workers)),
      h('label', { class: 'nomask' }, u.causal, h('span', {},
        h('span', { 'data-t': 'gpt.noMask' }), h('span', { class: 'muted', 'data-t': 'gpt.noMaskHint' }))),
      u.status, u.msg, u.saveNote, u.stats, u.how, u.plot, u.sampleTitle, u.sample),
    h('div', { class: 'panel heads-panel' }, h('h3', { 'data-t': 'gpt.headsTitle' }), u.heads),
    h('div', { class: 'panel' },
      h('h3', { 'data-t': 'gpt.filesTitle' }),
      h('div', { class: 'files' }, u.save, u.saveState, h('label', { class: 'button' }, h('span', { 'data-t': 'gpt.load' }), u.file),
        u.pretrained),
      u.fileMsg),
    u.runs.el,
    h('div', { class: 'panel' }, h('h3', { 'data-t': 'gpt.inspectTitle' }), u.inspect));
  return u;
}

/** The fixed texts ([data-t]) and the plot's labels, in the language of `t`. */
export function labelTrainView(root, u, t) {
  for (const node of root.querySelectorAll('[data-t]')) node.textContent = t(node.dataset.t);
  u.workers.title = t('gpt.workersHint');
  u.saveState.title = t('gpt.saveStateHint');
  u.plot.labels = {
    x: t('gpt.axisStep'), y: t('gpt.axisLoss'), batch: t('gpt.batchLoss'),
    train: t('gpt.trainLoss'), val: t('gpt.valLoss'), empty: t('gpt.plotEmpty'),
  };
}

/** Which path trains, e.g. "wasm relaxed SIMD (FMA), 2 workers"; '–' before the worker said.
 *  Shown only inside the closed "How it runs" (u.how). */
function engineText(t, engine) {
  if (!engine) return '–';
  const build = t(`gpt.engine.${engine.build}`);
  return engine.workers === 1 ? t('gpt.engine.one', { build }) : t('gpt.engine.many', { build, k: engine.workers });
}

/** Draws a run: `status` (gpt/train-session.js lists them), `info` (the worker's, or null) and
 *  `last` = { step, loss, stepsPerSec, tokensPerSec, eval?, sampleStep? }. */
export function paintTrainView(u, t, { status, info, last: L }) {
  const running = status === 'running';
  u.start.disabled = running || !info?.trainable;
  u.start.textContent = t(L.step > 0 ? 'gpt.resume' : 'gpt.start');
  u.pause.disabled = !running;
  u.reset.disabled = status === 'building' || status === 'starting' || status === 'resuming';
  u.save.disabled = running || !info;
  u.saveState.disabled = running || !info?.trainable || !(L.step > 0);
  u.pretrained.disabled = running;
  u.file.disabled = running;
  u.status.textContent = t(`gpt.status.${status}`, { step: formatGrouped(L.step) });
  const ev = L.eval;
  u.stats.replaceChildren(
    ...[['gpt.step', formatGrouped(L.step)], ['gpt.loss', formatGrouped(L.loss, 3)],
      ['gpt.evalLoss', ev ? `${formatGrouped(ev.train, 3)} / ${formatGrouped(ev.val, 3)}` : '–'],
      ['gpt.stepsPerSec', formatGrouped(L.stepsPerSec, L.stepsPerSec < 10 ? 1 : 0)], ['gpt.tokensPerSec', formatGrouped(L.tokensPerSec)]]
      .map(([k, v]) => h('span', {}, `${t(k)} `, h('b', {}, v))));
  u.engine.textContent = `${t('gpt.engine')} ${engineText(t, L.engine ?? info?.engine)}.`;
  u.sampleTitle.textContent = L.sampleStep == null ? t('gpt.sampleNone') : t('gpt.sampleTitle', { step: formatGrouped(L.sampleStep) });
}
