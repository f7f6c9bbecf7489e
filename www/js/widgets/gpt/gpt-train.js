// <attn-gpt-train>: "Train a GPT". Pick a preset or edit the config, train on the default
// corpus or your own text in a Web Worker (start, pause, resume, reset), watch the loss
// curves, steps/s, tokens/s and samples; pause to open the model (<attn-gpt-inspect>);
// save / load .safetensors checkpoints; open the pretrained small model; train without
// the causal mask to see the loss collapse while the samples turn to garbage.
//
//   Reset builds a fresh model from the settings. All math runs in the GPT's worker
//   (gpt/worker.js); the statuses are gpt/train-session.js's.
//   el.state → { status, step, loss, stepsPerSec, tokensPerSec, info, plot, saved, run (its id),
//                owned (this trainer holds the run), offer ({ id, busy } or null) }  (for tests)
//
// This file is the run's life on screen (build, train, pause, a crashed worker) and the
// worker's events. The model apart from the screen (its worker, status and numbers) is a
// TrainSession (gpt/train-session.js); its saves and who owns the run, RunSaves
// (gpt/run-saves.js). Files in and out are gpt-files.js, saved runs coming back
// gpt-train-resume.js: both work on this element's #host. The screen is gpt-train-view.js,
// its saves' part gpt-train-saves.js and gpt-train-runs.js.

import { AttnWidget, define, message } from '../../ui/widget-base.js';
import { addStrings } from '../../i18n/i18n.js';
import GPT_STRINGS from '../../i18n/gpt.js';
import { workerError } from '../../gpt/client.js';
import { TrainSession } from '../../gpt/train-session.js';
import { RunSaves, runRecord } from '../../gpt/run-saves.js';
import { formatGrouped } from '../../ui/format.js';
import { readKey, writeKey } from '../../core/storage.js';
import { TRAIN_CSS } from './gpt-train-css.js';
import { LiveMessage, buildTrainView, labelTrainView, paintTrainView, promptFor } from './gpt-train-view.js';
import { paintSaves } from './gpt-train-saves.js';
import { RUNS_CSS } from './gpt-train-runs.js';
import { downloadSaved, openPicked, openPretrained, saveModel } from './gpt-files.js';
import { claimRun, lookAtRun, resumeRun, takeOverRun } from './gpt-train-resume.js';
import './gpt-plot.js';
import './gpt-settings.js';
import './gpt-inspect.js';
import './gpt-heads.js';

addStrings(GPT_STRINGS);

const WORKERS_KEY = 'attention-playground.gpt.workers';

class AttnGptTrain extends AttnWidget {
  static tag = 'attn-gpt-train';
  static css = TRAIN_CSS + RUNS_CSS;

  #s = new TrainSession((e) => this.#onEvent(e));
  #rebuild = 0;
  #frame = 0;
  #msg; // the message above the stats
  #fileMsg; // the message under the file buttons
  #saves = new RunSaves({ snapshot: () => this.#snapshot(), changed: () => paintSaves(this.ui, this, this.#saves) });
  #host = null; // what gpt-files.js and gpt-train-resume.js work on (build)
  #offerChecked = false;
  #unlisten = null; // from another trainer's requests to pause (gpt/run-lock.js)
  // a tab hidden mid-run (switched away, closing, a phone locking) saves at once
  #onHidden = () => {
    if (document.visibilityState === 'hidden' && this.#s.status === 'running') this.saveNow();
  };

  build(root) {
    this.ui = buildTrainView(root, {
      settings: () => this.#settingsChanged(), start: () => this.start(), pause: () => this.pause(),
      reset: () => this.reset(), workers: () => this.#workersChanged(), causal: () => this.#setCausal(), save: () => this.save(),
      saveState: () => this.saveState(),
      file: () => openPicked(this.#host), pretrained: () => this.loadPretrained(),
      resume: () => this.resumeSaved(), discard: () => this.discardSaved(),
      look: () => this.lookSaved(), takeOver: () => this.takeOver(),
      openHead: (e) => this.#openHead(e.detail), ablate: () => this.#ablate(),
      runs: {
        resume: (rec) => this.resumeSaved(rec), rename: (id, name) => this.#saves.rename(id, name),
        drop: (id) => this.#saves.drop(id), download: (rec, what) => downloadSaved(this.#host, rec, what),
        dropOldest: (yes) => this.#saves.dropOldest(yes),
      },
    });
    this.#msg = new LiveMessage(this.ui.msg, 'msg');
    this.#fileMsg = new LiveMessage(this.ui.fileMsg, 'file-msg msg');
    // The helpers' way in (gpt-files.js, gpt-train-resume.js): the element (widget: t,
    // language, start, reset), the shared model (session), saves and screen (ui), and the
    // steps of the run's life they take part in, private here so that only they get them:
    // begin() → a generation, stopRebuild(), adopt(info, status, source, text), clearRun(),
    // paint(), say(what) (#showMsg), sayFile(say, ok) (the message under the file buttons).
    this.#host = {
      widget: this, ui: this.ui, session: this.#s, saves: this.#saves,
      begin: () => this.#begin(), stopRebuild: () => clearTimeout(this.#rebuild),
      adopt: (info, status, source, text) => this.#adopt(info, status, source, text),
      clearRun: () => this.#clearRun(), paint: () => this.#paint(),
      say: (what) => this.#showMsg(what), sayFile: (say, ok) => this.#fileMsg.show(say, ok),
    };
    this.ui.workers.value = readKey(WORKERS_KEY) ?? this.ui.workers.value; // the last visit's choice
    // Its texts, buttons and stats at once, not when the attention core arrives (it draws
    // no number of that core): the screen has its size before the first model does.
    this.render();
  }

  connectedCallback() {
    super.connectedCallback();
    if (!this.#s.client) this.#connectWorker();
    this.#settingsChanged();
    document.addEventListener('visibilitychange', this.#onHidden);
    this.#unlisten ??= this.#saves.onAskedToPause(() => this.#askedToPause());
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
    this.#s.disconnect();
  }

  #connectWorker() {
    this.ui.inspect.client = this.#s.connect();
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
      const { engine } = await this.#s.client.call('setWorkers', { k });
      this.#s.last.engine = engine;
      if (this.#s.info) this.#s.info.engine = engine;
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
    const { status, last, info } = this.#s;
    const saves = this.#saves;
    return { status, ...last, info, plot: this.ui?.plot.data, saved: saves.saved,
      run: saves.run.id, owned: saves.owned, offer: saves.offer && { id: saves.offer.rec.id, busy: saves.offer.busy } };
  }

  // ---- the model's life: build, train, pause, reset ----

  #settingsChanged() {
    if (!this.ui.settings.ready || !this.#s.client || this.ui.settings.locked || this.#s.status === 'resuming') return;
    clearTimeout(this.#rebuild);
    this.#rebuild = setTimeout(() => this.reset(), 250);
  }

  async #use(promise, status) {
    try {
      const info = await promise;
      this.#s.info = info;
      this.#s.status = status;
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
    return this.#s.begin();
  }

  /** The model of `info` is the one on screen from now, on `text` from `source`. */
  #adopt(info, status, source, text) {
    this.#s.adopt(info, status, source, text);
    this.ui.settings.showInfo(info);
    this.#measureHeads();
  }

  // ---- what its heads learned (<attn-gpt-heads>) ----

  /** The heads grid of the model as it is now (while it trains, the 'heads' events). */
  async #measureHeads() {
    const { client, info } = this.#s;
    this.ui.heads.ablation = null;
    try {
      const scores = await client.call('heads');
      if (this.#s.info === info) this.ui.heads.show(info?.steps ?? 0, scores); // still that model
    } catch (err) {
      // e.g. a block too short for the probe: said in the grid's place, in the page's language
      if (this.#s.info === info) this.ui.heads.why = () => message(err, this.language);
    }
  }

  /** Opens head { layer, head } on `prompt` (a probe row) in the inspector: paused first. */
  async #openHead({ layer, head, prompt }) {
    if (this.#s.status === 'running') await this.pause();
    if (!this.#s.info) return;
    await this.ui.inspect.open(this.#s.info, prompt);
    this.ui.inspect.focusHead(layer, head);
  }

  /** Every head switched off in turn, measured by the worker (paused models only). */
  async #ablate() {
    if (this.#s.status === 'running' || !this.#s.info) return;
    try {
      this.ui.heads.ablation = await this.#s.client.call('ablation');
    } catch (err) {
      this.#showMsg(err);
    }
  }

  /** A run starting over: no curves, no sample, no numbers. */
  #clearRun() {
    this.ui.plot.clear();
    this.ui.heads.clear();
    this.ui.sample.textContent = '';
    this.#s.clear();
  }

  /** A fresh model from the settings (the plot and samples start over). */
  async reset() {
    const s = this.#s;
    const gen = this.#begin();
    this.#saves.newRun();
    const { config, text, source } = this.ui.settings.value;
    this.ui.settings.locked = false;
    this.#clearRun();
    s.info = null;
    s.status = 'building';
    this.#paint();
    try {
      const info = await s.client.call('create', { config: { ...config, causal: !this.ui.causal.checked }, text });
      if (!s.current(gen)) return;
      this.#adopt(info, 'idle', source, text);
      this.ui.inspect.open(info, promptFor(info));
    } catch (err) {
      if (!s.current(gen)) return;
      s.status = 'invalid';
      this.ui.settings.showMessage(() => this.t('gpt.cannotBuild', { msg: message(err, this.language) }));
      this.ui.inspect.close();
    }
    this.#paint();
  }

  async start() {
    if (!this.#s.info) return;
    if (!(await claimRun(this.#host))) return;
    this.ui.settings.locked = true;
    this.ui.inspect.close();
    const info = await this.#use(this.#s.client.call('start'), 'running');
    if (!info) this.#pauseUi();
    else this.#saves.start();
  }

  async pause() {
    const info = await this.#use(this.#s.client.call('pause'), 'paused');
    this.#saves.stop();
    if (info) {
      this.ui.inspect.open(info);
      await this.saveNow();
    }
    this.#saves.release(); // saved: another trainer may take the run over from here
  }

  #pauseUi() {
    const s = this.#s;
    if (s.info) this.ui.inspect.open(s.info);
    s.status = s.info ? 'paused' : s.status;
    this.#paint();
  }

  async #setCausal() {
    const on = !this.ui.causal.checked;
    if (!this.#s.info) return;
    const info = await this.#use(this.#s.client.call('setCausal', { on }), this.#s.status);
    if (info && this.#s.status !== 'running') this.ui.inspect.open(info);
  }

  // ---- files (gpt-files.js) ----

  /** Downloads the checkpoint (weights and vocab): the page and `gpt` load it back. */
  save() {
    return saveModel(this.#host, 'save');
  }

  /** Downloads the training state (weights, AdamW moments and step): what
   *  tools/export_nanogpt.py turns into a nanoGPT checkpoint that continues this run. */
  saveState() {
    return saveModel(this.#host, 'state');
  }

  loadPretrained() {
    return openPretrained(this.#host);
  }

  // ---- the worker's events and the screen ----

  #onEvent(e) {
    // a Reset or Load while running: the old loop's last events are not the new model's
    if (this.#s.status !== 'running' && e.event !== 'stopped') return;
    this.#s.note(e);
    if (e.event === 'progress') {
      this.ui.plot.add('batch', e.step, e.loss);
    } else if (e.event === 'eval') {
      this.ui.plot.add('train', e.step, e.train);
      this.ui.plot.add('val', e.step, e.val);
    } else if (e.event === 'sample') {
      this.ui.sample.textContent = e.text;
    } else if (e.event === 'heads') {
      this.ui.heads.show(e.step, e.scores);
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
    const { status, info, last } = this.#s;
    this.ui.heads.running = status === 'running';
    paintTrainView(this.ui, (key, vars) => this.t(key, vars), { status, info, last });
    this.dataset.status = status;
    this.dataset.step = String(last.step);
  }

  /** The worker died mid-run: a new one, and the last save offered. */
  #crashed(msg) {
    const s = this.#s;
    this.#connectWorker(); // the dead one ends
    this.ui.inspect.close();
    s.begin();
    s.info = null;
    s.status = 'crashed';
    this.ui.settings.locked = false;
    this.#showMsg({ crashed: true, message: msg });
    this.#paint();
    this.#saves.check(true);
  }

  /** `what`: an error (said in the widget's language), a function giving the text in
   *  the current language, or null; it follows a language switch. A dead worker's error
   *  (`crashed`, gpt/client.js) is said in plain words, its own message as the title. */
  #showMsg(what) {
    if (what?.crashed) {
      this.#msg.show(() => this.t('gpt.crashed'), false, what.message || '');
      return;
    }
    this.#msg.show(!what ? null : typeof what === 'function' ? what : () => message(what, this.language));
  }

  // ---- nothing lost: saves in IndexedDB (gpt/run-saves.js), saved runs back (gpt-train-resume.js) ----

  /** Saves the current run (state, curves, corpus, settings) to IndexedDB; resolves when done. */
  saveNow() {
    return this.#saves.saveNow();
  }

  /** The record of the current run, or null: nothing trained, or another model by now. */
  async #snapshot() {
    const state = await this.#s.trainedState();
    if (!state) return null;
    const { corpus, info, last } = this.#s;
    return runRecord(state.bytes, state.step, {
      corpus, preset: this.ui.settings.state.preset, config: this.ui.settings.value.config,
      causal: Boolean(info.causal), plot: { ...this.ui.plot.data, ...this.ui.heads.state.plot },
      sample: this.ui.sample.textContent, last,
    });
  }

  discardSaved() {
    return this.#saves.discard();
  }

  /** Resumes saved run `rec` (the one on offer by default) and trains on; one another
   *  trainer trains is offered instead. */
  resumeSaved(rec = this.#saves.take()) {
    return resumeRun(this.#host, rec);
  }

  /** Opens the run on offer without training it: another trainer owns it. */
  lookSaved() {
    return lookAtRun(this.#host);
  }

  /** Asks the trainer of the run on offer to pause, and trains the run here from the
   *  save its Pause makes. */
  takeOver() {
    return takeOverRun(this.#host);
  }

  /** Another trainer asks for the run this one holds: pause (which saves it), and say why. */
  async #askedToPause() {
    if (this.#s.status !== 'running') return;
    await this.pause();
    this.#showMsg(() => this.t('gpt.takenOver', { step: formatGrouped(this.#s.last.step) }));
  }
}

define(AttnGptTrain);
