// <attn-gpt-train>: "Train a GPT". Pick a preset or edit the config, train on the default
// corpus or your own text in a Web Worker (start, pause, resume, reset), watch the loss
// curves, steps/s, tokens/s and samples; pause to open the model (<attn-gpt-inspect>);
// save / load .safetensors checkpoints; open the pretrained small model; train without
// the causal mask to see the loss collapse while the samples turn to garbage.
//
//   status: idle (a fresh model, settings editable) → running ⇄ paused; loaded (a file);
//   Reset builds a fresh model from the settings. All math runs in gpt-worker.js.
//   el.state → { status, step, loss, stepsPerSec, tokensPerSec, info, plot, saved }  (for tests)
//
// Nothing lost: while training, the full state (weights, AdamW moments, step, sampler),
// the curves, the sample and the corpus / config / causal choice are saved to IndexedDB
// (gpt-store.js) every SAVE_MS, on Pause and when the tab is hidden; after a reload or a crashed worker the
// widget offers "Resume training from step N (saved HH:MM)?" (Resume / Discard).

import { AttnWidget, define, h, message } from '../widget-base.js';
import { addStrings } from '../i18n.js';
import PART_GPT from '../i18n/part-gpt.js';
import { GptClient, workerError } from '../gpt-client.js';
import { loadSave, putSave, dropSave } from '../gpt-store.js';
import './gpt-plot.js';
import './gpt-settings.js';
import './gpt-inspect.js';

addStrings(PART_GPT);

/** How often a running model is saved to IndexedDB (and on every Pause). */
const SAVE_MS = 10000;

const PRETRAINED_URL = new URL('../../models/small.safetensors', import.meta.url);

/** HH:MM of a time in ms (local clock). */
function hhmm(ms) {
  const d = new Date(ms);
  return Number.isFinite(d.getTime()) ? `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}` : '–';
}

/** A number for the screen: fixed decimals and grouping, '–' for anything not finite. */
function fmt(v, digits = 0) {
  return Number.isFinite(v)
    ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';
}

class AttnGptTrain extends AttnWidget {
  static tag = 'attn-gpt-train';
  static css = `
    .panel { border-top: 1px solid var(--_line); padding-top: 10px; margin-top: 12px; }
    .controls button { min-width: 5.5rem; }
    .stats { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: .9rem; margin: 8px 0; }
    .stats b { font-family: var(--_mono); font-variant-numeric: tabular-nums; font-weight: 600; }
    pre.sample { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 11rem; overflow: auto; margin: 4px 0 0;
      padding: 8px 10px; border-radius: 8px; background: var(--_accent-soft); font-size: .82rem; min-height: 2.6rem; }
    .nomask { display: flex; gap: 8px; align-items: flex-start; margin: 6px 0; }
    .nomask .muted { display: block; }
    .files { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; }
    .files label.button { border: 1px solid var(--_line); border-radius: 8px; padding: 4px 10px; font-weight: 600; font-size: .9rem; }
    .files label.button:focus-within { outline: 2.5px solid var(--_focus); outline-offset: 2px; }
    .files input[type="file"] { position: absolute; opacity: 0; width: 1px; height: 1px; }
    .status { font-weight: 600; }
    .offer { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; padding: 8px 10px; margin: 0 0 10px;
      border: 1px solid var(--_accent); border-radius: 8px; background: var(--_accent-soft); }
    .offer[hidden] { display: none; }
    .offer span { flex: 1 1 14rem; font-weight: 600; }
  `;

  #status = 'starting';
  #info = null;
  #last = { step: 0, loss: NaN, stepsPerSec: NaN, tokensPerSec: NaN };
  #rebuild = 0;
  #client = null;
  #frame = 0;
  #fileText = null;
  #msgText = null; // () => the message above the stats, in the current language
  #gen = 0; // bumped by every reset / load / restore: a late reply of an older one is dropped
  #corpus = { source: 'default', text: null }; // the text the current model trains on
  #saveTimer = 0;
  #saving = null;
  #saved = null; // { step, savedAt } of the last save this page made or found
  #offer = null; // the save record the offer would resume
  #offerChecked = false;
  // a tab hidden mid-run (switched away, closing, a phone locking) saves at once
  #onHidden = () => {
    if (document.visibilityState === 'hidden' && this.#status === 'running') this.saveNow();
  };

  build(root) {
    const u = (this.ui = {});
    const button = (key, onclick, cls) => h('button', { type: 'button', class: cls, 'data-t': key, onclick });
    u.settings = h('attn-gpt-settings', { frameless: true, 'ongpt-settings': () => this.#settingsChanged() });
    u.start = button('gpt.start', () => this.start(), 'primary');
    u.pause = button('gpt.pause', () => this.pause());
    u.reset = button('gpt.reset', () => this.reset());
    u.causal = h('input', { type: 'checkbox', onchange: () => this.#setCausal() });
    u.status = h('p', { class: 'status', role: 'status' });
    u.msg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
    u.stats = h('div', { class: 'stats', 'aria-live': 'off' });
    u.plot = h('attn-loss-plot');
    u.sample = h('pre', { class: 'sample' });
    u.sampleTitle = h('h4');
    u.inspect = h('attn-gpt-inspect', { frameless: true });
    u.save = button('gpt.save', () => this.save());
    u.file = h('input', { type: 'file', accept: '.safetensors,application/octet-stream', onchange: () => this.#loadFile() });
    u.pretrained = button('gpt.pretrained', () => this.loadPretrained());
    u.fileMsg = h('p', { class: 'file-msg msg', role: 'status', hidden: true });
    u.offerText = h('span');
    u.offer = h('div', { class: 'offer', role: 'alert', hidden: true }, u.offerText,
      button('gpt.resumeSaved', () => this.resumeSaved(), 'primary'), button('gpt.discardSaved', () => this.discardSaved()));
    u.saveNote = h('p', { class: 'save-note muted', hidden: true });
    root.append(
      u.offer,
      u.settings,
      h('div', { class: 'panel' },
        h('div', { class: 'controls' }, u.start, u.pause, u.reset),
        h('label', { class: 'nomask' }, u.causal, h('span', {},
          h('span', { 'data-t': 'gpt.noMask' }), h('span', { class: 'muted', 'data-t': 'gpt.noMaskHint' }))),
        u.status, u.msg, u.saveNote, u.stats, u.plot, u.sampleTitle, u.sample),
      h('div', { class: 'panel' },
        h('h4', { 'data-t': 'gpt.filesTitle' }),
        h('div', { class: 'files' }, u.save, h('label', { class: 'button' }, h('span', { 'data-t': 'gpt.load' }), u.file),
          u.pretrained),
        u.fileMsg),
      h('div', { class: 'panel' }, h('h3', { 'data-t': 'gpt.inspectTitle' }), u.inspect));
  }

  connectedCallback() {
    super.connectedCallback();
    if (!this.#client) {
      this.#client = new GptClient((e) => this.#onEvent(e));
      this.ui.inspect.client = this.#client;
    }
    this.#settingsChanged();
    document.addEventListener('visibilitychange', this.#onHidden);
    if (!this.#offerChecked) {
      this.#offerChecked = true;
      this.#checkSave();
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#stopSaving();
    document.removeEventListener('visibilitychange', this.#onHidden);
    this.#client?.terminate();
    this.#client = null;
  }

  render() {
    for (const node of this.shadowRoot.querySelectorAll('[data-t]')) node.textContent = this.t(node.dataset.t);
    this.ui.plot.labels = {
      x: this.t('gpt.axisStep'), y: this.t('gpt.axisLoss'), batch: this.t('gpt.batchLoss'),
      train: this.t('gpt.trainLoss'), val: this.t('gpt.valLoss'), empty: this.t('gpt.plotEmpty'),
    };
    if (this.#fileText) this.ui.fileMsg.textContent = this.#fileText();
    if (this.#msgText) this.ui.msg.textContent = this.#msgText();
    if (this.#offer) this.ui.offerText.textContent = this.t('gpt.resumeOffer', { step: fmt(this.#offer.step), time: hhmm(this.#offer.savedAt) });
    this.#paintSaved();
    this.#paint();
  }

  get state() {
    return { status: this.#status, ...this.#last, info: this.#info, plot: this.ui.plot.data, saved: this.#saved };
  }

  // ---- the model's life: build, train, pause, reset, save, load ----

  #settingsChanged() {
    if (!this.ui.settings.ready || !this.#client || this.ui.settings.locked || this.#status === 'resuming') return;
    clearTimeout(this.#rebuild);
    this.#rebuild = setTimeout(() => this.reset(), 250);
  }

  async #use(promise, status) {
    try {
      const info = await promise;
      this.#info = info;
      this.#status = status;
      this.#showMsg(null);
      return info;
    } catch (err) {
      this.#showMsg(err);
      return null;
    } finally {
      this.#paint();
    }
  }

  /** A fresh model from the settings (the plot and samples start over). */
  async reset() {
    clearTimeout(this.#rebuild);
    this.#stopSaving();
    const gen = ++this.#gen;
    this.#saved = null; // a new run: the note speaks of its saves (the last one stays stored)
    this.#paintSaved();
    const { config, text, source } = this.ui.settings.value;
    this.ui.settings.locked = false;
    this.ui.plot.clear();
    this.ui.sample.textContent = '';
    this.#last = { step: 0, loss: NaN, stepsPerSec: NaN, tokensPerSec: NaN };
    this.#info = null;
    this.#status = 'building';
    this.#paint();
    try {
      const info = await this.#client.call('create', { config: { ...config, causal: !this.ui.causal.checked }, text });
      if (gen !== this.#gen) return;
      this.#corpus = { source, text: source === 'own' ? text : null };
      this.#info = info;
      this.#status = 'idle';
      this.ui.settings.showInfo(info);
      this.ui.inspect.open(info, this.#promptFor(info));
    } catch (err) {
      if (gen !== this.#gen) return;
      this.#status = 'invalid';
      this.ui.settings.showMessage(() => this.t('gpt.cannotBuild', { msg: message(err, this.language) }));
      this.ui.inspect.close();
    }
    this.#paint();
  }

  async start() {
    if (!this.#info) return;
    this.ui.settings.locked = true;
    this.ui.inspect.close();
    const info = await this.#use(this.#client.call('start'), 'running');
    if (!info) this.#pauseUi();
    else this.#startSaving();
  }

  async pause() {
    const info = await this.#use(this.#client.call('pause'), 'paused');
    this.#stopSaving();
    if (info) {
      this.ui.inspect.open(info);
      await this.saveNow();
    }
  }

  #pauseUi() {
    if (this.#info) this.ui.inspect.open(this.#info);
    this.#status = this.#info ? 'paused' : this.#status;
    this.#paint();
  }

  async #setCausal() {
    const on = !this.ui.causal.checked;
    if (!this.#info) return;
    const info = await this.#use(this.#client.call('setCausal', { on }), this.#status);
    if (info && this.#status !== 'running') this.ui.inspect.open(info);
  }

  async save() {
    if (!this.#info) return;
    try {
      const bytes = await this.#client.call('save');
      const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
      const a = h('a', { href: url, download: `gpt-${this.#info.n_layer}x${this.#info.n_embd}-step${this.#last.step}.safetensors` });
      this.shadowRoot.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      this.#fileMsg(() => this.t('gpt.saved', { kb: fmt(bytes.length / 1024) }), true);
    } catch (err) {
      this.#fileMsg(() => message(err, this.language), false);
    }
  }

  async #loadFile() {
    const file = this.ui.file.files?.[0];
    if (!file) return;
    await this.#load(await file.arrayBuffer(), file.name, this.ui.settings.value.text);
    this.ui.file.value = '';
  }

  async loadPretrained() {
    try {
      const r = await fetch(PRETRAINED_URL);
      if (!r.ok) throw new Error(`${PRETRAINED_URL.pathname}: HTTP ${r.status}`);
      await this.#load(await r.arrayBuffer(), 'small.safetensors', this.ui.settings.defaultText, 'default');
    } catch (err) {
      this.#fileMsg(() => message(err, this.language), false);
    }
  }

  async #load(buffer, name, text, source = this.ui.settings.value.source) {
    clearTimeout(this.#rebuild);
    this.#stopSaving();
    const gen = ++this.#gen;
    try {
      // safetensors = u64 header length, then a JSON header: anything else (an image, a
      // text) is named as such instead of as a "corrupt" checkpoint
      const head = new Uint8Array(buffer, 0, Math.min(9, buffer.byteLength));
      if (head.length < 9 || head[8] !== 0x7b) throw new Error(this.t('gpt.notSafetensors', { bytes: fmt(buffer.byteLength) }));
      const { batch_size, lr } = this.ui.settings.value.config; // the file has the shape, not these
      const config = { batch_size, lr, causal: !this.ui.causal.checked };
      const info = await this.#client.call('load', { bytes: buffer, text, config, seed: 1337 }, [buffer]);
      if (gen !== this.#gen) return;
      this.#corpus = { source, text: source === 'own' ? text : null };
      this.#info = info;
      this.#status = 'loaded';
      this.ui.causal.checked = !info.causal;
      this.ui.settings.locked = true;
      this.ui.settings.showModel(info);
      this.ui.settings.showInfo(info);
      this.ui.plot.clear();
      this.ui.sample.textContent = '';
      this.#last = { step: 0, loss: NaN, stepsPerSec: NaN, tokensPerSec: NaN };
      const note = () => (info.trainable ? ''
        : ` ${this.t('gpt.notTrainable', { why: message(info.untrainable ?? info.untrainable_reason, this.language) })}`);
      this.#fileMsg(() => this.t('gpt.loaded', { name, params: fmt(info.params) }) + note(), true);
      this.ui.inspect.open(info, this.#promptFor(info));
    } catch (err) {
      this.#fileMsg(() => this.t('gpt.loadFailed', { name, msg: message(err, this.language) }), false);
    }
    this.#paint();
  }

  /** A prompt in the model's vocab: the default one if it fits, else its first letters. */
  #promptFor(info) {
    const fits = [...'To be, or not'].every((c) => info.vocab.includes(c));
    return fits ? 'To be, or not' : [...info.vocab].filter((c) => c.trim()).slice(0, 6).join('');
  }

  // ---- the worker's events and the screen ----

  #onEvent(e) {
    // a Reset or Load while running: the old loop's last events are not the new model's
    if (this.#status !== 'running' && e.event !== 'stopped') return;
    if (e.event === 'progress') {
      Object.assign(this.#last, { step: e.step, loss: e.loss, stepsPerSec: e.stepsPerSec, tokensPerSec: e.tokensPerSec });
      this.ui.plot.add('batch', e.step, e.loss);
    } else if (e.event === 'eval') {
      this.ui.plot.add('train', e.step, e.train);
      this.ui.plot.add('val', e.step, e.val);
      this.#last.eval = { train: e.train, val: e.val };
    } else if (e.event === 'sample') {
      this.ui.sample.textContent = e.text;
      this.#last.sampleStep = e.step;
    } else if (e.event === 'stopped') {
      this.#stopSaving();
      if (e.reason === 'crashed') {
        this.#crashed(e.message);
        return;
      }
      this.#showMsg(e.reason === 'diverged' ? () => this.t('gpt.diverged') : workerError(e));
      this.#pauseUi();
    }
    this.#schedulePaint();
  }

  #schedulePaint() {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#paint();
    });
  }

  #paint() {
    const u = this.ui;
    const s = this.#status;
    const running = s === 'running';
    const trainable = Boolean(this.#info?.trainable);
    u.start.disabled = running || !trainable;
    u.start.textContent = this.t(this.#last.step > 0 ? 'gpt.resume' : 'gpt.start');
    u.pause.disabled = !running;
    u.reset.disabled = s === 'building' || s === 'starting' || s === 'resuming';
    u.save.disabled = running || !this.#info;
    u.pretrained.disabled = running;
    u.file.disabled = running;
    u.status.textContent = this.t(`gpt.status.${s}`, { step: fmt(this.#last.step) });
    const L = this.#last;
    const ev = L.eval;
    u.stats.replaceChildren(
      ...[['gpt.step', fmt(L.step)], ['gpt.loss', fmt(L.loss, 3)],
        ['gpt.evalLoss', ev ? `${fmt(ev.train, 3)} / ${fmt(ev.val, 3)}` : '–'],
        ['gpt.stepsPerSec', fmt(L.stepsPerSec, L.stepsPerSec < 10 ? 1 : 0)], ['gpt.tokensPerSec', fmt(L.tokensPerSec)]]
        .map(([k, v]) => h('span', {}, `${this.t(k)} `, h('b', {}, v))));
    u.sampleTitle.textContent = L.sampleStep == null ? this.t('gpt.sampleNone') : this.t('gpt.sampleTitle', { step: fmt(L.sampleStep) });
    this.dataset.status = s;
    this.dataset.step = String(L.step);
  }

  // ---- nothing lost: saves in IndexedDB, the resume offer, a crashed worker ----

  #startSaving() {
    clearInterval(this.#saveTimer);
    this.#saveTimer = setInterval(() => this.saveNow(), SAVE_MS);
  }

  #stopSaving() {
    clearInterval(this.#saveTimer);
    this.#saveTimer = 0;
  }

  /** Saves the current run (state, curves, corpus, settings) to IndexedDB; resolves when done. */
  async saveNow() {
    if (!this.#info?.trainable || !this.#client || this.#last.step <= 0) return;
    if (this.#saving) return this.#saving;
    const gen = this.#gen;
    const client = this.#client;
    this.#saving = (async () => {
      try {
        const state = await client.call('state');
        if (gen !== this.#gen || client !== this.#client) return;
        const { config } = this.ui.settings.value;
        const plotStep = this.#stepOf(state) ?? this.#last.step;
        const plot = this.ui.plot.data;
        for (const k of Object.keys(plot)) plot[k] = plot[k].filter(([s]) => s <= plotStep);
        const rec = {
          state, step: plotStep, savedAt: Date.now(), ...this.#corpus, preset: this.ui.settings.state.preset, config,
          causal: Boolean(this.#info.causal), plot, sample: this.ui.sample.textContent, sampleStep: this.#last.sampleStep ?? null,
          eval: this.#last.eval ?? null,
        };
        await putSave(rec);
        this.#saved = { step: rec.step, savedAt: rec.savedAt };
        this.#hideOffer(); // the newest save is this run's
        this.#paintSaved();
      } catch (err) {
        this.#saved = { error: err };
        this.#paintSaved();
      } finally {
        this.#saving = null;
      }
    })();
    return this.#saving;
  }

  /** The step a state container records (its JSON header), or null. */
  #stepOf(bytes) {
    try {
      const len = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
      const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + len)));
      return Number.isFinite(header.step) ? header.step : null;
    } catch {
      return null;
    }
  }

  #paintSaved() {
    const s = this.#saved;
    const note = this.ui.saveNote;
    note.hidden = !s;
    if (!s) return;
    note.textContent = s.error ? this.t('gpt.saveFailed', { msg: message(s.error, this.language) })
      : this.t('gpt.savedNote', { step: fmt(s.step), time: hhmm(s.savedAt) });
  }

  /** Offers the stored save, if any (on a fresh page: unless this page has saved since). */
  async #checkSave(afterCrash = false) {
    try {
      const rec = await loadSave();
      if (rec && (afterCrash || !this.#saved)) this.#showOffer(rec);
    } catch {
      // no storage (private window, disabled): nothing to offer, nothing lost here
    }
  }

  #showOffer(rec) {
    this.#offer = rec;
    this.ui.offerText.textContent = this.t('gpt.resumeOffer', { step: fmt(rec.step), time: hhmm(rec.savedAt) });
    this.ui.offer.hidden = false;
  }

  #hideOffer() {
    this.#offer = null;
    this.ui.offer.hidden = true;
  }

  async discardSaved() {
    this.#hideOffer();
    try {
      await dropSave();
    } catch {
      // nothing stored, nothing to drop
    }
  }

  /** Rebuilds the saved run (settings, model, optimizer, curves, sample) and trains on. */
  async resumeSaved() {
    const rec = this.#offer;
    if (!rec) return;
    this.#hideOffer();
    clearTimeout(this.#rebuild);
    this.#stopSaving();
    const gen = ++this.#gen;
    this.#status = 'resuming';
    this.#paint();
    try {
      if (rec.source !== 'own') await this.#defaultText();
      clearTimeout(this.#rebuild); // the corpus arriving meanwhile scheduled a fresh model
      const text = rec.source === 'own' ? rec.text : this.ui.settings.defaultText;
      this.ui.settings.restore(rec);
      this.ui.causal.checked = !rec.causal;
      const bytes = rec.state.slice().buffer;
      const info = await this.#client.call('restore', { bytes, text }, [bytes]);
      if (gen !== this.#gen) return;
      this.#corpus = { source: rec.source, text: rec.source === 'own' ? text : null };
      this.#info = info;
      this.ui.settings.locked = true;
      this.ui.settings.showInfo(info);
      this.ui.plot.clear();
      for (const [k, pts] of Object.entries(rec.plot ?? {})) for (const [x, y] of pts) this.ui.plot.add(k, x, y);
      this.ui.sample.textContent = rec.sample ?? '';
      this.#last = { step: info.steps, loss: rec.plot?.batch?.at(-1)?.[1] ?? NaN, stepsPerSec: NaN, tokensPerSec: NaN,
        eval: rec.eval ?? undefined, sampleStep: rec.sampleStep ?? undefined };
      this.#saved = { step: rec.step, savedAt: rec.savedAt };
      this.#paintSaved();
      this.#status = 'paused';
      this.#showMsg(null);
      this.#paint();
      await this.start();
    } catch (err) {
      if (gen !== this.#gen) return;
      this.#showMsg(() => this.t('gpt.resumeFailed', { msg: message(err, this.language) }));
      this.#showOffer(rec); // still there: Discard, or try again
      await this.reset();
    }
  }

  /** The default corpus, once the settings have fetched it. */
  #defaultText() {
    if (this.ui.settings.ready) return Promise.resolve();
    return new Promise((resolve) => {
      const poll = () => (this.ui.settings.ready ? resolve() : setTimeout(poll, 50));
      poll();
    });
  }

  /** The worker died mid-run: a new one, and the last save offered. */
  #crashed(msg) {
    this.#client?.terminate();
    this.#client = new GptClient((e) => this.#onEvent(e));
    this.ui.inspect.client = this.#client;
    this.ui.inspect.close();
    ++this.#gen;
    this.#info = null;
    this.#status = 'crashed';
    this.ui.settings.locked = false;
    this.#showMsg(() => this.t('gpt.crashed', { msg: msg || '?' }));
    this.#paint();
    this.#checkSave(true);
  }

  /** Test hook: makes the worker die as a crash would (an uncaught error in it). */
  crashWorkerForTest() {
    return this.#client?.call('crashForTest');
  }

  /** `what`: an error (said in the widget's language), a function giving the text in
   *  the current language, or null; it follows a language switch. */
  #showMsg(what) {
    this.#msgText = !what ? null : typeof what === 'function' ? what : () => message(what, this.language);
    this.ui.msg.textContent = this.#msgText ? this.#msgText() : '';
    this.ui.msg.hidden = !what;
  }

  /** `text`: a string, or a function giving it in the current language. */
  #fileMsg(text, ok) {
    this.#fileText = typeof text === 'function' ? text : () => text;
    this.ui.fileMsg.textContent = this.#fileText();
    this.ui.fileMsg.className = `file-msg msg ${ok ? 'ok' : 'bad'}`;
    this.ui.fileMsg.setAttribute('role', ok ? 'status' : 'alert');
    this.ui.fileMsg.hidden = false;
  }
}

define(AttnGptTrain);
