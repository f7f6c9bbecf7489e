// <attn-gpt-settings>: what "Train a GPT" trains: a preset or an edited config, and the
// default corpus or the learner's own pasted / uploaded text. Part of <attn-gpt-train>.
//
//   el.value        → { config: { preset, n_layer, …, lr }, text, source: 'default' | 'own' | 'repeat' }
//                     'repeat': lines of a random string written twice, made by the core
//                     (gptRepeatText, src/wasm/gpt/toy.rs), on which an induction head forms
//   el.locked       = true while a model exists that these settings did not make
//   el.showInfo(info)   the built model: its vocab and parameter count
//   el.showModel(info)  a loaded model's shape in the fields
//   el.showMessage(msg) / el.clearMessage()  why no model was built (msg: a string, or a
//                       function giving it in the current language: it follows a language
//                       switch). Not AttnWidget's showError / clearError: every re-render
//                       (a language switch) clears those.
//   el.restore({ preset, config, source, text })   the settings of a saved run (no event)
//   el.ready, el.defaultText, el.whenReady()        the default corpus: here yet, it, once here
//   el.repeatText() → Promise of the repeated strings' text (the same every time)
//   event 'gpt-settings' (bubbles, composed) whenever the learner changes something
//
// It fetches the default corpus (www/data/corpus.txt, through corpusText of
// bigram-lab.js) once it is near the viewport, or at once when asked (whenReady).

import { showChar } from '../../ui/format.js';
import { AttnWidget, define, h, message } from '../../ui/widget-base.js';
import { whenNear } from '../../ui/schedule.js';
import { addStrings } from '../../i18n/i18n.js';
import { corpusText } from '../lesson/bigram-lab.js';
import { loadCore } from '../../core/wasm.js';
import GPT_STRINGS from '../../i18n/gpt.js';

addStrings(GPT_STRINGS);

const PRESETS = {
  tiny: { n_layer: 1, n_head: 4, n_embd: 32, block_size: 8, batch_size: 32, lr: 0.001 },
  small: { n_layer: 2, n_head: 4, n_embd: 64, block_size: 32, batch_size: 16, lr: 0.001 },
  cpu: { n_layer: 4, n_head: 4, n_embd: 128, block_size: 64, batch_size: 12, lr: 0.001 },
  induction: { n_layer: 2, n_head: 4, n_embd: 32, block_size: 64, batch_size: 32, lr: 0.003 },
};
/** The seed of the repeated strings' text: `gpt train --toy repeat`'s default. */
const REPEAT_SEED = 1337;
const SAMPLE_LINES = 4;
const FIELDS = ['n_layer', 'n_head', 'n_embd', 'block_size', 'batch_size', 'lr'];
const MAX_FILE = 20 * 1024 * 1024;

/** Fills the fields of `ui` with preset `name`. */
function setPreset(ui, name) {
  ui.preset.value = name;
  for (const f of FIELDS) ui.inputs[f].value = String(PRESETS[name][f]);
}

const loadDefaultCorpus = corpusText;

class AttnGptSettings extends AttnWidget {
  static tag = 'attn-gpt-settings';
  static css = `
    fieldset { border: 0; padding: 0; margin: 0; min-width: 0; }
    .fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(118px, 1fr)); gap: 8px 12px; margin: 8px 0; }
    .fields label { display: flex; flex-direction: column; align-items: stretch; gap: 2px; font-size: .82rem; color: var(--_muted); }
    .fields input { width: 100%; margin-top: auto; }
    .fields .name { font-family: var(--_mono); color: var(--_fg); }
    .fields .what { font-size: .75rem; line-height: 1.25; }
    textarea { width: 100%; min-height: 6.5rem; font: .85rem/1.4 var(--_mono); color: var(--_fg);
      background: var(--_bg); border: 1px solid var(--_line); border-radius: 8px; padding: 6px 8px; resize: vertical; }
    .vocab { font-family: var(--_mono); font-size: .82rem; overflow-wrap: anywhere; background: var(--_accent-soft);
      border-radius: 8px; padding: 4px 8px; margin: 6px 0 0; }
    .own[hidden] { display: none; }
    .own { margin-top: 6px; }
    .repeat[hidden] { display: none; }
    .repeat pre { font: .85rem/1.4 var(--_mono); background: var(--_accent-soft); border-radius: 8px; padding: 6px 8px;
      margin: 4px 0 0; overflow-x: auto; }
    .radios { display: flex; flex-wrap: wrap; gap: 4px 16px; }
  `;

  #text = '';
  #defaultText = '';
  #repeatText = '';
  #info = null;
  #msg = null; // () => the message shown, in the current language

  build(root) {
    const e = (this.ui = {});
    const emit = () => this.#changed();
    e.preset = h('select', { onchange: () => this.#pickPreset() },
      ...['tiny', 'small', 'cpu', 'induction', 'custom'].map((p) => h('option', { value: p }, p)));
    e.inputs = Object.fromEntries(FIELDS.map((f) => [f, h('input', {
      type: 'number', min: f === 'lr' ? '0.00001' : '1', step: f === 'lr' ? '0.0001' : '1', name: f,
      oninput: () => { e.preset.value = 'custom'; emit(); },
    })]));
    e.radioDefault = h('input', { type: 'radio', name: 'corpus', value: 'default', checked: true, onchange: emit });
    e.radioOwn = h('input', { type: 'radio', name: 'corpus', value: 'own', onchange: emit });
    e.radioRepeat = h('input', { type: 'radio', name: 'corpus', value: 'repeat', onchange: () => this.#pickRepeat() });
    e.repeatSample = h('pre', {});
    e.textarea = h('textarea', { rows: 5, spellcheck: false, oninput: emit });
    e.file = h('input', { type: 'file', accept: '.txt,text/plain', onchange: () => this.#readFile() });
    e.msg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
    e.info = h('p', { class: 'muted' });
    e.vocab = h('p', { class: 'vocab' });
    e.fieldset = h('fieldset', {},
      h('h3', { 'data-t': 'gpt.model' }),
      h('label', {}, h('span', { 'data-t': 'gpt.preset' }), e.preset),
      // nanoGPT's config names, each said in plain words beside it (gpt.field.*)
      h('div', { class: 'fields' }, ...FIELDS.map((f) => h('label', {},
        h('span', { class: 'name' }, f), h('span', { class: 'what', 'data-t': `gpt.field.${f}` }), e.inputs[f]))),
      h('h3', { 'data-t': 'gpt.corpus' }),
      h('div', { class: 'radios', role: 'radiogroup' },
        h('label', {}, e.radioDefault, h('span', { 'data-t': 'gpt.corpusDefault' })),
        h('label', {}, e.radioOwn, h('span', { 'data-t': 'gpt.corpusOwn' })),
        h('label', {}, e.radioRepeat, h('span', { 'data-t': 'gpt.corpusRepeat' }))),
      e.repeat = h('div', { class: 'repeat', hidden: true },
        h('p', { class: 'muted', 'data-t': 'gpt.repeatSample' }), e.repeatSample),
      e.own = h('div', { class: 'own', hidden: true },
        h('label', { class: 'col' }, h('span', { class: 'muted', 'data-t': 'gpt.pasteHint' }), e.textarea),
        h('label', {}, h('span', { class: 'muted', 'data-t': 'gpt.upload' }), e.file)));
    root.append(e.fieldset, e.msg, e.info, e.vocab);
    setPreset(e, 'tiny');
  }

  connectedCallback() {
    super.connectedCallback();
    whenNear(this).then(loadDefaultCorpus).then((text) => {
      this.#defaultText = text;
      this.#changed();
    }, (err) => this.showMessage(() => this.t('gpt.corpusFailed', { msg: message(err, this.language) })));
  }

  render() {
    for (const node of this.shadowRoot.querySelectorAll('[data-t]')) node.textContent = this.t(node.dataset.t);
    this.ui.preset.lastElementChild.textContent = this.t('gpt.custom');
    if (this.#info) this.showInfo(this.#info);
    if (this.#msg) this.ui.msg.textContent = this.#msg();
  }

  /** True once the default corpus is here (a model can be built). */
  get ready() {
    return Boolean(this.#defaultText);
  }

  get defaultText() {
    return this.#defaultText;
  }

  /** Resolves once the default corpus is here (rejects when it cannot be fetched). */
  whenReady() {
    return loadDefaultCorpus().then(() => {});
  }

  get value() {
    const e = this.ui;
    const config = { preset: e.preset.value === 'custom' ? 'tiny' : e.preset.value };
    for (const f of FIELDS) {
      const v = Number(e.inputs[f].value);
      if (e.inputs[f].value.trim() !== '') config[f] = f === 'lr' ? v : Math.trunc(v);
    }
    const source = e.radioOwn.checked ? 'own' : e.radioRepeat.checked && this.#repeatText ? 'repeat' : 'default';
    const text = { own: this.#text, repeat: this.#repeatText, default: this.#defaultText }[source];
    return { config, text, source };
  }

  /** The repeated strings' text, made once by the core. */
  async repeatText() {
    if (!this.#repeatText) {
      const core = this.core ?? (await loadCore());
      this.#repeatText = core.gptRepeatText(REPEAT_SEED);
      this.ui.repeatSample.textContent = this.#repeatText.split('\n').slice(0, SAMPLE_LINES).join('\n');
    }
    return this.#repeatText;
  }

  /** "Repeated random strings": its text (the first lines shown) and the induction preset. */
  async #pickRepeat() {
    try {
      await this.repeatText();
    } catch (err) {
      this.#fileError(() => this.t('gpt.cannotBuild', { msg: message(err, this.language) }));
      return;
    }
    if (!this.ui.fieldset.disabled) setPreset(this.ui, 'induction');
    this.#changed();
  }

  get state() {
    return { preset: this.ui.preset.value, source: this.value.source };
  }

  set locked(on) {
    this.ui.fieldset.disabled = Boolean(on);
  }

  get locked() {
    return this.ui.fieldset.disabled;
  }

  showInfo(info) {
    this.#info = info;
    this.clearMessage();
    this.ui.info.textContent = this.t('gpt.info', {
      params: info.params.toLocaleString('en-US'),
      train: info.train_tokens.toLocaleString('en-US'),
      val: info.val_tokens.toLocaleString('en-US'),
    });
    const chars = [...info.vocab].map(showChar).join(' ');
    this.ui.vocab.textContent = `${this.t('gpt.vocab', { n: info.vocab_size })} ${chars}`;
  }

  /** Puts back the settings of a saved run without announcing a change. */
  restore({ preset, config = {}, source, text }) {
    const e = this.ui;
    e.preset.value = PRESETS[preset] || preset === 'custom' ? preset : 'custom';
    for (const f of FIELDS) if (config[f] != null) e.inputs[f].value = String(config[f]);
    e.radioOwn.checked = source === 'own';
    e.radioRepeat.checked = source === 'repeat';
    e.radioDefault.checked = source !== 'own' && source !== 'repeat';
    if (source === 'own') e.textarea.value = text ?? '';
    e.own.hidden = source !== 'own';
    e.repeat.hidden = source !== 'repeat';
    this.#text = e.textarea.value;
  }

  /** A message about the learner's file that leaves the built model (and its info) alone. */
  #fileError(text) {
    this.#msg = typeof text === 'function' ? text : () => text;
    this.ui.msg.textContent = this.#msg();
    this.ui.msg.hidden = false;
  }

  showModel(info) {
    this.ui.preset.value = 'custom';
    for (const f of FIELDS) this.ui.inputs[f].value = String(info[f]);
  }

  showMessage(text) {
    this.#info = null;
    this.#fileError(text);
    this.ui.info.textContent = '';
    this.ui.vocab.textContent = '';
  }

  clearMessage() {
    this.#msg = null;
    this.ui.msg.hidden = true;
    this.ui.msg.textContent = '';
  }

  #pickPreset() {
    const p = this.ui.preset.value;
    if (PRESETS[p]) setPreset(this.ui, p);
    this.#changed();
  }

  async #readFile() {
    const file = this.ui.file.files?.[0];
    if (!file) return;
    this.ui.file.value = ''; // the same file chosen again is a new choice
    if (file.size > MAX_FILE) { // checked before a byte is read: no frozen tab
      const mb = (file.size / 1048576).toFixed(1);
      this.#fileError(() => this.t('gpt.fileTooBig', { name: file.name, mb }));
      return;
    }
    let text;
    try {
      text = await file.text();
    } catch (err) {
      this.#fileError(() => this.t('gpt.fileUnreadable', { name: file.name, msg: message(err, this.language) }));
      return;
    }
    if (!text) {
      this.#fileError(() => this.t('gpt.fileEmpty', { name: file.name }));
      return;
    }
    this.ui.textarea.value = text;
    this.ui.radioOwn.checked = true;
    this.#changed();
  }

  #changed() {
    const e = this.ui;
    e.own.hidden = !e.radioOwn.checked;
    e.repeat.hidden = !e.radioRepeat.checked;
    this.#text = e.textarea.value;
    if (this.#defaultText) {
      this.dispatchEvent(new CustomEvent('gpt-settings', { bubbles: true, composed: true, detail: this.value }));
    }
  }
}

define(AttnGptSettings);
