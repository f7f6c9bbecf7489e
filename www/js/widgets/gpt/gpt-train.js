// <attn-gpt-train>: "Train a GPT". Pick a preset or edit the config, train on the default
// corpus or your own text in a Web Worker (start, pause, resume, reset), watch the loss
// curves, steps/s, tokens/s and samples; pause to open the model (<attn-gpt-inspect>);
// save / load .safetensors checkpoints; open the pretrained small model; train without
// the causal mask to see the loss collapse while the samples turn to garbage.
//
//   status: idle (a fresh model, settings editable) → running ⇄ paused; loaded (a file);
//   Reset builds a fresh model from the settings. All math runs in gpt-worker.js.
//   el.state → { status, step, loss, stepsPerSec, tokensPerSec, info, plot, saved, run (its id),
//                owned (this trainer holds the run), offer ({ id, busy } or null) }  (for tests)
//
// This file is the run's life (build, train, pause, load, resume, a crashed worker); the
// worker is reached through GptClient (gpt-client.js), saves and the saved runs through
// RunSaves (gpt-train-saves.js; their list is gpt-train-runs.js), a run's ownership
// through gpt-run-lock.js, files through gpt-files.js; the screen is gpt-train-view.js.

import { AttnWidget, define, message } from '../../ui/widget-base.js';
import { addStrings } from '../../i18n/i18n.js';
import PART_GPT from '../../i18n/part-gpt.js';
import { GptClient, workerError } from '../../gpt/client.js';
import { loadSave } from '../../gpt/store.js';
import { formatGrouped } from '../../ui/format.js';
import { readKey, writeKey } from '../../core/storage.js';
import { TRAIN_CSS } from './gpt-train-css.js';
import { LiveMessage, buildTrainView, labelTrainView, paintTrainView } from './gpt-train-view.js';
import { RunSaves, paintSaves, runName, runRecord } from './gpt-train-saves.js';
import { RUNS_CSS } from './gpt-train-runs.js';
import { askToPause, heldElsewhere, onAskToPause, waitFor } from '../../gpt/run-lock.js';
import { PRETRAINED_NAME, download, downloadRun, fetchPretrained, fileKind } from './gpt-files.js';
import './gpt-plot.js';
import './gpt-settings.js';
import './gpt-inspect.js';

addStrings(PART_GPT);

const WORKERS_KEY = 'attention-playground.gpt.workers';

const FRESH = Object.freeze({ step: 0, loss: NaN, stepsPerSec: NaN, tokensPerSec: NaN });

class AttnGptTrain extends AttnWidget {
  static tag = 'attn-gpt-train';
  static css = TRAIN_CSS + RUNS_CSS;

  #status = 'starting';
  #info = null;
  #last = { ...FRESH };
  #rebuild = 0;
  #client = null;
  #frame = 0;
  #msg; // the message above the stats
  #fileMsg; // the message under the file buttons
  #gen = 0; // bumped by every reset / load / restore: a late reply of an older one is dropped
  #corpus = { source: 'default', text: null }; // the text the current model trains on
  #saves = new RunSaves({ snapshot: () => this.#snapshot(), changed: () => paintSaves(this.ui, this, this.#saves) });
  #offerChecked = false;
  #unlisten = null; // from another trainer's requests to pause (gpt-run-lock.js)
  // a tab hidden mid-run (switched away, closing, a phone locking) saves at once
  #onHidden = () => {
    if (document.visibilityState === 'hidden' && this.#status === 'running') this.saveNow();
  };

  build(root) {
    this.ui = buildTrainView(root, {
      settings: () => this.#settingsChanged(), start: () => this.start(), pause: () => this.pause(),
      reset: () => this.reset(), workers: () => this.#workersChanged(), causal: () => this.#setCausal(), save: () => this.save(),
      saveState: () => this.saveState(),
      file: () => this.#loadFile(), pretrained: () => this.loadPretrained(),
      resume: () => this.resumeSaved(), discard: () => this.discardSaved(),
      look: () => this.lookSaved(), takeOver: () => this.takeOver(),
      runs: {
        resume: (rec) => this.resumeSaved(rec), rename: (id, name) => this.#saves.rename(id, name),
        drop: (id) => this.#saves.drop(id), download: (rec, what) => this.#downloadRun(rec, what),
        dropOldest: (yes) => this.#saves.dropOldest(yes),
      },
    });
    this.#msg = new LiveMessage(this.ui.msg, 'msg');
    this.#fileMsg = new LiveMessage(this.ui.fileMsg, 'file-msg msg');
    this.ui.workers.value = readKey(WORKERS_KEY) ?? this.ui.workers.value; // the last visit's choice
    // Its texts, buttons and stats at once, not when the attention core arrives (it draws
    // no number of that core): the screen has its size before the first model does.
    this.render();
  }

  connectedCallback() {
    super.connectedCallback();
    if (!this.#client) this.#connectWorker();
    this.#settingsChanged();
    document.addEventListener('visibilitychange', this.#onHidden);
    this.#unlisten ??= onAskToPause((id) => this.#askedToPause(id));
    if (!this.#offerChecked) {
      this.#offerChecked = true;
      this.#saves.check();
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#saves.stop();
    this.#saves.release();
    this.#unlisten?.();
    this.#unlisten = null;
    document.removeEventListener('visibilitychange', this.#onHidden);
    this.#client?.terminate();
    this.#client = null;
  }

  #connectWorker() {
    this.#client = new GptClient((e) => this.#onEvent(e));
    this.ui.inspect.client = this.#client;
    this.#setWorkers();
  }

  /** The learner set the workers: kept for the next visit, and sent to the worker. */
  #workersChanged() {
    writeKey(WORKERS_KEY, this.ui.workers.value);
    this.#setWorkers();
  }

  /** The workers the learner asked for (1 … 64), to the worker; the screen says how many run. */
  async #setWorkers() {
    const input = this.ui.workers;
    const k = Math.min(64, Math.max(1, Math.round(Number(input.value)) || 1));
    input.value = String(k);
    try {
      const { engine } = await this.#client.call('setWorkers', { k });
      this.#last.engine = engine;
      if (this.#info) this.#info.engine = engine;
    } catch (err) {
      this.#showMsg(err);
    }
    this.#paint();
  }

  render() {
    labelTrainView(this.shadowRoot, this.ui, (key, vars) => this.t(key, vars));
    this.#fileMsg.render();
    this.#msg.render();
    paintSaves(this.ui, this, this.#saves);
    this.#paint();
  }

  get state() {
    return { status: this.#status, ...this.#last, info: this.#info, plot: this.ui?.plot.data, saved: this.#saves.saved,
      run: this.#saves.run.id, owned: this.#saves.owned, offer: this.#saves.offer && { id: this.#saves.offer.rec.id, busy: this.#saves.offer.busy } };
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

  /** Stops what an older model was doing; returns the new model's generation. */
  #begin() {
    clearTimeout(this.#rebuild);
    this.#saves.stop();
    return ++this.#gen;
  }

  /** The model of `info` is the one on screen from now, on `text` from `source`. */
  #adopt(info, status, source, text) {
    this.#corpus = { source, text: source === 'own' ? text : null };
    this.#info = info;
    this.#status = status;
    this.ui.settings.showInfo(info);
  }

  /** A run starting over: no curves, no sample, no numbers. */
  #clearRun() {
    this.ui.plot.clear();
    this.ui.sample.textContent = '';
    this.#last = { ...FRESH };
  }

  /** A fresh model from the settings (the plot and samples start over). */
  async reset() {
    const gen = this.#begin();
    this.#saves.newRun();
    const { config, text, source } = this.ui.settings.value;
    this.ui.settings.locked = false;
    this.#clearRun();
    this.#info = null;
    this.#status = 'building';
    this.#paint();
    try {
      const info = await this.#client.call('create', { config: { ...config, causal: !this.ui.causal.checked }, text });
      if (gen !== this.#gen) return;
      this.#adopt(info, 'idle', source, text);
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
    if (!(await this.#own())) return;
    this.ui.settings.locked = true;
    this.ui.inspect.close();
    const info = await this.#use(this.#client.call('start'), 'running');
    if (!info) this.#pauseUi();
    else this.#saves.start();
  }

  async pause() {
    const info = await this.#use(this.#client.call('pause'), 'paused');
    this.#saves.stop();
    if (info) {
      this.ui.inspect.open(info);
      await this.saveNow();
    }
    this.#saves.release(); // saved: another trainer may take the run over from here
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

  /** Downloads the checkpoint (weights and vocab): the page and `gpt` load it back. */
  save() {
    return this.#download('save', (bytes) => bytes, 'safetensors', 'gpt.saved');
  }

  /** Downloads the training state (weights, AdamW moments and step): what
   *  tools/export_nanogpt.py turns into a nanoGPT checkpoint that continues this run. */
  saveState() {
    return this.#download('state', (r) => r.bytes, 'state', 'gpt.savedState');
  }

  async #download(call, bytesOf, ext, savedKey) {
    if (!this.#info) return;
    try {
      const bytes = bytesOf(await this.#client.call(call));
      download(this.shadowRoot, bytes, `gpt-${this.#info.n_layer}x${this.#info.n_embd}-step${this.#last.step}.${ext}`);
      this.#fileMsg.show(() => this.t(savedKey, { kb: formatGrouped(bytes.length / 1024) }), true);
    } catch (err) {
      this.#fileMsg.show(() => message(err, this.language));
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
      await this.#load(await fetchPretrained(), PRETRAINED_NAME, this.ui.settings.defaultText, 'default');
    } catch (err) {
      this.#fileMsg.show(() => message(err, this.language));
    }
  }

  async #load(buffer, name, text, source = this.ui.settings.value.source) {
    const gen = this.#begin();
    try {
      const kind = await fileKind(buffer, (bytes) => this.t('gpt.notSafetensors', { bytes: formatGrouped(bytes) }));
      // A training state comes back with its AdamW moments, paused at its step (its curves
      // stayed in the tab that trained it); a checkpoint is a model, at step 0.
      const { batch_size, lr } = this.ui.settings.value.config; // a checkpoint has the shape, not these
      const info = kind === 'state'
        ? await this.#client.call('restore', { bytes: buffer, text }, [buffer])
        : await this.#client.call('load', { bytes: buffer, text, config: { batch_size, lr, causal: !this.ui.causal.checked }, seed: 1337 }, [buffer]);
      if (gen !== this.#gen) return;
      this.#saves.newRun(); // a file's model trains on as a run of its own
      this.#adopt(info, kind === 'state' ? 'paused' : 'loaded', source, text);
      this.ui.causal.checked = !info.causal;
      this.ui.settings.locked = true;
      this.ui.settings.showModel(info);
      this.#clearRun();
      if (kind === 'state') {
        this.#last.step = info.steps;
        this.#fileMsg.show(() => this.t('gpt.loadedState', { name, params: formatGrouped(info.params), step: formatGrouped(info.steps) }), true);
      } else {
        const note = () => (info.trainable ? ''
          : ` ${this.t('gpt.notTrainable', { why: message(info.untrainable ?? info.untrainable_reason, this.language) })}`);
        this.#fileMsg.show(() => this.t('gpt.loaded', { name, params: formatGrouped(info.params) }) + note(), true);
      }
      this.ui.inspect.open(info, this.#promptFor(info));
    } catch (err) {
      this.#fileMsg.show(() => this.t('gpt.loadFailed', { name, msg: message(err, this.language) }));
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
      Object.assign(this.#last, { step: e.step, loss: e.loss, stepsPerSec: e.stepsPerSec, tokensPerSec: e.tokensPerSec, engine: e.engine });
      this.ui.plot.add('batch', e.step, e.loss);
    } else if (e.event === 'eval') {
      this.ui.plot.add('train', e.step, e.train);
      this.ui.plot.add('val', e.step, e.val);
      this.#last.eval = { train: e.train, val: e.val };
    } else if (e.event === 'sample') {
      this.ui.sample.textContent = e.text;
      this.#last.sampleStep = e.step;
    } else if (e.event === 'stopped') {
      this.#saves.stop();
      this.#saves.release();
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
    paintTrainView(this.ui, (key, vars) => this.t(key, vars), { status: this.#status, info: this.#info, last: this.#last });
    this.dataset.status = this.#status;
    this.dataset.step = String(this.#last.step);
  }

  // ---- nothing lost: saves in IndexedDB, the resume offer, a crashed worker ----

  /** Saves the current run (state, curves, corpus, settings) to IndexedDB; resolves when done. */
  saveNow() {
    return this.#saves.saveNow();
  }

  /** The record of the current run, or null: nothing trained, or another model by now. */
  async #snapshot() {
    if (!this.#info?.trainable || !this.#client || this.#last.step <= 0) return null;
    const gen = this.#gen;
    const client = this.#client;
    const { bytes, step } = await client.call('state');
    if (gen !== this.#gen || client !== this.#client) return null;
    return runRecord(bytes, step, {
      corpus: this.#corpus, preset: this.ui.settings.state.preset, config: this.ui.settings.value.config,
      causal: Boolean(this.#info.causal), plot: this.ui.plot.data, sample: this.ui.sample.textContent, last: this.#last,
    });
  }

  discardSaved() {
    return this.#saves.discard();
  }

  /** Whether this trainer owns its run (claimed now if free). A run another trainer
   *  trains is offered to look at or take over; one another trainer saved since this
   *  one paused goes on from that save. */
  async #own() {
    if (this.#saves.owned) return true;
    const { stored, newer } = await this.#saves.storedSave();
    if (!(await this.#saves.own())) {
      // the run on screen is this run: offered as it is here when its save cannot be read
      const here = { ...this.#saves.run, step: this.#last.step, savedAt: this.#saves.saved?.savedAt ?? Date.now() };
      this.#saves.show(stored ?? here, true);
      this.#showMsg(() => this.t('gpt.trainedElsewhere'));
      return false;
    }
    if (newer) {
      const at = this.#last.step;
      if (!(await this.#open(stored, 'paused'))) return false;
      this.#showMsg(() => this.t('gpt.wentOnFrom', { step: formatGrouped(stored.step), was: formatGrouped(at) }));
    }
    return true;
  }

  /** Rebuilds saved run `rec` (settings, model, optimizer, curves, sample), paused;
   *  true when it is on screen. A record that does not restore stays on offer. */
  async #open(rec, status) {
    const gen = this.#begin();
    this.#status = 'resuming';
    this.#paint();
    try {
      const text = await this.#textOf(rec);
      clearTimeout(this.#rebuild); // the corpus arriving meanwhile scheduled a fresh model
      this.ui.settings.restore(rec);
      this.ui.causal.checked = !rec.causal;
      const bytes = rec.state.slice().buffer;
      const info = await this.#client.call('restore', { bytes, text }, [bytes]);
      if (gen !== this.#gen) return false;
      this.#adopt(info, status, rec.source, text);
      this.ui.settings.locked = true;
      this.#restoreRun(rec, info.steps);
      this.#saves.adopt(rec);
      this.#showMsg(null);
      this.#paint();
      return true;
    } catch (err) {
      if (gen !== this.#gen) return false;
      this.#showMsg(() => this.t('gpt.resumeFailed', { msg: message(err, this.language) }));
      this.#saves.show(rec); // still there: Discard, or try again
      await this.reset();
      return false;
    }
  }

  /** Resumes saved run `rec` (the one on offer by default) and trains on; one another
   *  trainer trains is offered instead. */
  async resumeSaved(rec = this.#saves.take()) {
    if (!rec) return;
    if (await heldElsewhere(rec.id)) {
      this.#saves.show(rec, true);
      return;
    }
    if (await this.#open(rec, 'paused')) await this.start();
  }

  /** Opens the run on offer without training it: another trainer owns it. */
  async lookSaved() {
    const rec = this.#saves.take();
    if (!rec?.state || !(await this.#open(rec, 'paused'))) return;
    this.#showMsg(() => this.t('gpt.looking', { name: runName(this, rec) }));
  }

  /** Asks the trainer of the run on offer to pause, and trains the run here from the
   *  save its Pause makes. */
  async takeOver() {
    const offered = this.#saves.take();
    if (!offered) return;
    const gen = this.#begin();
    this.#showMsg(() => this.t('gpt.askingToPause', { name: runName(this, offered) }));
    const lock = waitFor(offered.id);
    askToPause(offered.id);
    (await lock)?.release(); // free now: start() claims it again
    if (gen !== this.#gen) return;
    let rec = offered;
    try {
      rec = (await loadSave(offered.id)) ?? offered;
    } catch {
      // storage gone: the offered save it is
    }
    // no save to go on from (only the run on screen is offered so): it trains on as it is
    if (!rec.state || (await this.#open(rec, 'paused'))) await this.start();
  }

  /** Another trainer asks for run `id`: pause (which saves it), and say why. */
  async #askedToPause(id) {
    if (id !== this.#saves.run.id || !this.#saves.owned || this.#status !== 'running') return;
    await this.pause();
    this.#showMsg(() => this.t('gpt.takenOver', { step: formatGrouped(this.#last.step) }));
  }

  /** Downloads saved run `rec`: its training state, or its weights (gpt-files.js). */
  async #downloadRun(rec, what) {
    const text = await this.#textOf(rec);
    this.#fileMsg.show(...await downloadRun(this.shadowRoot, this.#client, rec, what, text, (k, v) => this.t(k, v), () => this.language));
  }

  /** The text saved run `rec` trained on: its own, or the default corpus once it is here. */
  async #textOf(rec) {
    if (rec.source === 'own') return rec.text;
    await this.ui.settings.whenReady();
    return this.ui.settings.defaultText;
  }

  /** The curves, sample and numbers of saved run `rec`, at `step`. */
  #restoreRun(rec, step) {
    this.ui.plot.clear();
    for (const [k, pts] of Object.entries(rec.plot ?? {})) for (const [x, y] of pts) this.ui.plot.add(k, x, y);
    this.ui.sample.textContent = rec.sample ?? '';
    this.#last = { ...FRESH, step, loss: rec.plot?.batch?.at(-1)?.[1] ?? NaN,
      eval: rec.eval ?? undefined, sampleStep: rec.sampleStep ?? undefined };
  }

  /** The worker died mid-run: a new one, and the last save offered. */
  #crashed(msg) {
    this.#client?.terminate();
    this.#connectWorker();
    this.ui.inspect.close();
    ++this.#gen;
    this.#info = null;
    this.#status = 'crashed';
    this.ui.settings.locked = false;
    this.#showMsg(() => this.t('gpt.crashed', { msg: msg || '?' }));
    this.#paint();
    this.#saves.check(true);
  }

  /** Test hook: makes the worker die as a crash would (an uncaught error in it). */
  crashWorkerForTest() {
    return this.#client?.call('crashForTest');
  }

  /** `what`: an error (said in the widget's language), a function giving the text in
   *  the current language, or null; it follows a language switch. */
  #showMsg(what) {
    this.#msg.show(!what ? null : typeof what === 'function' ? what : () => message(what, this.language));
  }
}

define(AttnGptTrain);
