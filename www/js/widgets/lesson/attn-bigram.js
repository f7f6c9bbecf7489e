// <attn-bigram>: what a count bigram predicts after each word (LESSON §1).
//
//   <attn-bigram words="hou,you,thou" top="3" lang="zh">
//
// V = vocabulary size. The bigram's logits at the last position are one row of its
// (V, V) table, picked by the last character alone; Rust's BigramLab (built from the
// default corpus) compares the words and says whether their logits are identical.
// state = { words: string[] }.
// Until the core and the corpus arrive it shows its final layout (skeleton): one card
// per word with `top` rows of placeholder cells, so its first numbers land in place.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { whenNear } from '../../ui/schedule.js';
import { intAttr } from '../../ui/cell-checks.js';
import { formatCell, showChar } from '../../ui/format.js';
import { bigramLab } from './bigram-lab.js';
import { LessonWidget } from '../base/lesson-widget.js';

const DEFAULT_WORDS = ['hou', 'you', 'thou'];

class AttnBigram extends LessonWidget {
  static tag = 'attn-bigram';
  static attrs = ['words', 'top'];

  #words = null;
  #ui = {};
  #lab = null;
  #loadLab = null;

  get state() {
    return { words: this.#current() };
  }

  set state(s) {
    const words = s?.words;
    const ok = Array.isArray(words) && words.length >= 1 && words.length <= 6
      && words.every((w) => typeof w === 'string' && w.length >= 1 && w.length <= 16);
    if (!ok) throw new Error('words: expected 1 to 6 words of 1 to 16 characters');
    this.#words = words.slice();
    this.refresh();
  }

  #current() {
    if (this.#words) return this.#words.slice();
    const attr = this.getAttribute('words');
    return attr ? attr.split(',').map((w) => w.trim()).filter(Boolean) : DEFAULT_WORDS.slice();
  }

  make(root) {
    const ui = this.#ui;
    ui.labelText = h('span');
    ui.input = h('input', { type: 'text', class: 'words', autocomplete: 'off', spellcheck: 'false' });
    ui.label = h('label', { class: 'field' }, ui.labelText, ui.input);
    ui.input.addEventListener('input', () => {
      this.#words = ui.input.value.split(',').map((w) => w.trim()).filter(Boolean).slice(0, 6);
      this.refresh();
      this.emitChange();
    });
    ui.reset = h('button', { type: 'button', onclick: () => { this.#words = null; ui.input.value = ''; this.refresh(); this.emitChange(); } });
    ui.verdict = h('p', { class: 'msg', role: 'status' });
    ui.cards = h('div', { class: 'grid' });
    ui.vocab = h('p', { class: 'muted' });
    root.append(h('div', { class: 'controls' }, ui.label, ui.reset), ui.cards, ui.verdict, ui.vocab);
    this.#texts();
    ui.input.value = this.#current().join(', ');
    this.#skeleton(this.#current());
  }

  #texts() {
    const ui = this.#ui;
    ui.labelText.textContent = this.t('a.bigram.words');
    ui.reset.textContent = this.t('reset');
  }

  /** The final layout with placeholders for the numbers: while the corpus loads. */
  #skeleton(words) {
    const ui = this.#ui;
    let top = 3;
    try {
      top = intAttr(this, 'top', 3, 1, 10);
    } catch {
      // the render says what is wrong with it
    }
    const cell = () => h('td', {}, '…');
    ui.cards.replaceChildren(...words.slice(0, 6).map((word) => {
      const chars = [...word];
      const last = chars[chars.length - 1];
      return h('div', { class: 'panel skeleton', 'aria-busy': 'true' },
        h('h3', {}, h('span', { class: 'mono word' }, chars.slice(0, -1).join(''), h('mark', {}, showChar(last))),
          h('span', { class: 'muted' }, this.t('a.bigram.last', { c: showChar(last), i: '…' }))),
        h('table', { class: 'plain' },
          h('thead', {}, h('tr', {}, ...['a.bigram.next', 'a.bigram.count', 'a.bigram.prob', 'a.bigram.logit']
            .map((k) => h('th', { scope: 'col' }, this.t(k))))),
          h('tbody', {}, ...Array.from({ length: top }, () => h('tr', {}, cell(), cell(), cell(), cell())))),
        h('p', { class: 'fact' }, '\u00a0'));
    }));
    // The loading line takes the room of the longest verdict it may become (stacked
    // unseen in the same grid cell), so the verdict replaces it in place.
    const last = words[0] ? showChar([...words[0]].pop()) : '';
    ui.verdict.className = 'msg stack';
    ui.verdict.replaceChildren(h('span', {}, this.t('a.bigram.loading')),
      h('span', { class: 'spare', 'aria-hidden': 'true' }, this.t('a.bigram.same', { n: words.length, c: last, i: '00' })),
      h('span', { class: 'spare', 'aria-hidden': 'true' }, this.t('a.bigram.differ')));
    ui.vocab.textContent = this.t('a.bigram.vocab', { v: '…' });
  }

  draw(core) {
    const ui = this.#ui;
    this.#texts();
    const words = this.#current();
    if (this.shadowRoot.activeElement !== ui.input) ui.input.value = words.join(', ');
    if (!this.#lab) {
      this.#skeleton(words);
      this.#loadLab ??= whenNear(this).then(() => bigramLab(core))
        .then((lab) => { this.#lab = lab; this.refresh(); })
        .catch((e) => this.showError(message(e)));
      return;
    }
    let r;
    try {
      r = this.#lab.compare(words, intAttr(this, 'top', 3, 1, 10));
    } catch (e) {
      ui.verdict.className = 'msg bad';
      ui.verdict.textContent = message(e);
      return;
    }
    ui.cards.replaceChildren(...r.words.map((w) => this.#card(w)));
    ui.verdict.className = `msg ${r.all_identical ? 'ok' : 'bad'}`;
    ui.verdict.textContent = r.all_identical
      ? this.t('a.bigram.same', { n: r.words.length, c: showChar(r.words[0].last_char), i: r.words[0].last_index })
      : this.t('a.bigram.differ');
    ui.vocab.textContent = this.t('a.bigram.vocab', { v: r.vocab_size });
  }

  #card(w) {
    const chars = [...w.word];
    const word = h('span', { class: 'mono word' }, chars.slice(0, -1).join(''),
      h('mark', {}, showChar(chars[chars.length - 1])));
    const rows = Array.from(w.top, (c) => h('tr', {},
      h('td', { class: 'mono' }, `“${showChar(c.char)}”`), h('td', {}, String(c.count)),
      h('td', {}, formatCell(c.prob)), h('td', {}, formatCell(c.logit))));
    const table = h('table', { class: 'plain' },
      h('caption', { class: 'sr-only' }, this.t('a.bigram.caption', { w: w.word })),
      h('thead', {}, h('tr', {}, ...['a.bigram.next', 'a.bigram.count', 'a.bigram.prob', 'a.bigram.logit']
        .map((k) => h('th', { scope: 'col' }, this.t(k))))),
      h('tbody', {}, ...rows));
    const same = w.identical_to_first
      ? h('span', { class: 'ok' }, this.t('a.bigram.identical')) : h('span', { class: 'bad' }, this.t('a.bigram.notIdentical'));
    return h('div', { class: 'panel' },
      h('h3', {}, word, h('span', { class: 'muted' }, this.t('a.bigram.last', { c: showChar(w.last_char), i: w.last_index }))),
      table, h('p', { class: 'fact' }, same));
  }
}

AttnBigram.css = `${LessonWidget.css}
.skeleton td { color: var(--_muted); }
.msg.stack { display: grid; }
.msg.stack > span { grid-area: 1 / 1; }
.msg.stack > .spare { visibility: hidden; }
`;

define(AttnBigram);
