// <attn-examples>: one chunk of text is block_size training examples at once (LESSON §1).
//
//   <attn-examples chunk="Let's hea">
//
// Position t sees the characters 0..t and must predict character t+1: Rust lists
// every (context, target) pair of the chunk. state = { chunk }.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { showChar } from '../../ui/format.js';
import { LessonWidget } from '../base/lesson-widget.js';

const DEFAULT_CHUNK = "Let's hea";

class AttnExamples extends LessonWidget {
  static tag = 'attn-examples';
  static attrs = ['chunk'];

  #chunk = null;
  #ui = {};

  get state() {
    return { chunk: this.#value() };
  }

  set state(s) {
    if (typeof s?.chunk !== 'string' || s.chunk.length > 65) throw new Error('chunk: expected text of at most 65 characters');
    this.#chunk = s.chunk;
    this.refresh();
  }

  #value() {
    return this.#chunk ?? this.getAttribute('chunk') ?? DEFAULT_CHUNK;
  }

  make(root) {
    const ui = this.#ui;
    ui.labelText = h('span');
    ui.input = h('input', { type: 'text', class: 'words', maxlength: '65', autocomplete: 'off', spellcheck: 'false' });
    ui.input.addEventListener('input', () => {
      this.#chunk = ui.input.value;
      this.refresh();
      this.emitChange();
    });
    ui.summary = h('p', { class: 'fact' });
    ui.list = h('ol', { class: 'examples' });
    ui.msg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
    root.append(h('div', { class: 'controls' }, h('label', { class: 'field' }, ui.labelText, ui.input)), ui.msg, ui.summary, ui.list);
    // The final layout before the core arrives: one placeholder line per position of the
    // chunk but the last (each predicts the character after it).
    const chunk = [...this.#value()];
    ui.labelText.textContent = this.t('a.examples.chunk');
    ui.input.value = chunk.join('');
    ui.summary.textContent = this.t('a.examples.count', { n: '…', t: '…' });
    ui.list.replaceChildren(...chunk.slice(1).map((_, t) => this.#item(t, '…', '…')));
  }

  #item(t, context, target) {
    return h('li', {},
      h('span', { class: 'pos' }, `t = ${t}`),
      h('span', { class: 'ctx mono' }, context),
      h('span', { class: 'arrow', 'aria-label': this.t('a.examples.then') }, '→'),
      h('span', { class: 'target mono' }, target));
  }

  draw(core) {
    const ui = this.#ui;
    ui.labelText.textContent = this.t('a.examples.chunk');
    const chunk = this.#value();
    if (this.shadowRoot.activeElement !== ui.input) ui.input.value = chunk;
    let list;
    try {
      list = core.trainingExamples(chunk);
    } catch (e) {
      ui.msg.textContent = message(e);
      ui.msg.hidden = false;
      return;
    }
    ui.msg.hidden = true;
    ui.summary.textContent = this.t('a.examples.count', { n: list.length, t: [...chunk].length });
    ui.list.replaceChildren(...Array.from(list, (ex, t) => this.#item(t, [...ex.context].map(showChar).join(''), showChar(ex.target))));
  }
}

AttnExamples.css = `${LessonWidget.css}
ol.examples { list-style: none; margin: 0; padding: 0; display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 13rem), 1fr)); gap: 4px 16px; }
ol.examples li { display: flex; gap: 8px; align-items: baseline; font-size: .92rem; }
.pos { color: var(--_muted); font-size: .78rem; min-width: 3.2em; }
.ctx { background: var(--_accent-soft); border-radius: 4px; padding: 0 4px; white-space: pre; }
.target { font-weight: 700; background: #fde68a; color: #1b1e27; border-radius: 4px; padding: 0 5px; }
.arrow { color: var(--_muted); }
`;

define(AttnExamples);
