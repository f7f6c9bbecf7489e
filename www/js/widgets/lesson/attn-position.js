// <attn-position>: attention has no sense of order until positions are added (LESSON §4).
//
//   <attn-position a="dogs" b="gods">
//
// T = tokens, C = 2. Part 1: Rust's toy table embeds d, o, g, s and adds a position row
// per slot (dog vs god). Part 2: one head runs on two orderings of the same letters;
// with neither positions nor a mask the outputs are the inputs' permutation, row for
// row. state = { toy: [w1, w2], a, b, positions, causal }.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { explainTraces } from '../explain/explain-trace.js';
import { checkBool } from '../../ui/cell-checks.js';
import { formatDiff, subscripted } from '../../ui/format.js';
import { LessonWidget } from '../base/lesson-widget.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';

const DEFAULT = { toy: ['dog', 'god'], a: 'dogs', b: 'gods', positions: false, causal: false };
const WORD = /^[dogs]{1,8}$/;

class AttnPosition extends LessonWidget {
  static tag = 'attn-position';
  static attrs = ['a', 'b'];

  #s = null;
  #ui = {};

  get state() {
    const s = this.#s ?? { ...DEFAULT, a: this.getAttribute('a') || DEFAULT.a, b: this.getAttribute('b') || DEFAULT.b };
    return { ...s, toy: s.toy.slice() };
  }

  set state(s) {
    const words = [s?.a, s?.b, ...(Array.isArray(s?.toy) ? s.toy : [])];
    if (!Array.isArray(s?.toy) || s.toy.length !== 2 || !words.every((w) => typeof w === 'string' && WORD.test(w))) {
      throw new Error('words: use 1 to 8 of the letters d, o, g, s');
    }
    this.#s = { toy: s.toy.slice(), a: s.a, b: s.b, positions: checkBool(s.positions, 'positions'), causal: checkBool(s.causal, 'causal') };
    this.refresh();
  }

  #update(fn) {
    this.changeState(fn, (s) => { this.#s = s; });
  }

  make(root) {
    const ui = this.#ui;
    const wordInput = (get, set) => {
      const input = h('input', { type: 'text', class: 'word', maxlength: '8', autocomplete: 'off', spellcheck: 'false' });
      input.addEventListener('input', () => {
        const w = input.value.trim();
        const ok = WORD.test(w);
        input.toggleAttribute('aria-invalid', !ok);
        if (ok) this.#update((s) => set(s, w));
      });
      input._get = get;
      return input;
    };
    ui.toyInputs = [0, 1].map((i) => wordInput((s) => s.toy[i], (s, w) => { s.toy[i] = w; }));
    ui.toy = [0, 1].map(() => ({ tok: matrixBlock({ label: 'tok' }), x: matrixBlock({ label: 'x' }) }));
    ui.tables = tableSwitch(this, root);
    ui.toyTitle = h('h3');
    ui.toyNote = h('p', { class: 'muted' });
    ui.toyPanels = ui.toy.map((t, i) => h('div', { class: 'panel' },
      h('label', { class: 'field' }, ui.toyInputs[i]), h('div', { class: 'row' }, t.tok.el, t.x.el)));
    ui.a = wordInput((s) => s.a, (s, w) => { s.a = w; });
    ui.b = wordInput((s) => s.b, (s, w) => { s.b = w; });
    ui.shuffle = h('button', { type: 'button', class: 'primary', onclick: () => this.#shuffle() });
    const toggle = (key) => {
      const box = h('input', { type: 'checkbox' });
      box.addEventListener('change', () => this.#update((s) => { s[key] = box.checked; }));
      const text = h('span');
      return { box, text, el: h('label', {}, box, text) };
    };
    ui.positions = toggle('positions');
    ui.causal = toggle('causal');
    ui.orderTitle = h('h3', { class: 'side-title' });
    ui.outs = [0, 1].map(() => ({ title: h('h3', { class: 'mono' }), x: matrixBlock({ label: 'x' }), out: matrixBlock({ label: 'out' }) }));
    ui.verdict = h('p', { class: 'msg', role: 'status' });
    // Each word's outputs explain a clicked cell (explainTrace on its trace).
    ui.explain = explainTraces(this, {
      grids: ui.outs.map((o) => o.out.matrix),
      source: (grid) => {
        const side = this.run?.[grid === ui.outs[0].out.matrix ? 'a' : 'b'];
        return side && { trace: side.trace, causal: this.run.causal, tokens: this.labelsOf(side.word) };
      },
      key: () => JSON.stringify(this.state),
    });
    root.append(h('div', { class: 'controls' }, ui.tables.el), ui.toyTitle, ui.toyNote, h('div', { class: 'grid content-width' }, ...ui.toyPanels),
      ui.orderTitle,
      h('div', { class: 'controls' }, h('label', { class: 'field' }, 'A', ui.a), h('label', { class: 'field' }, 'B', ui.b),
        ui.shuffle, ui.positions.el, ui.causal.el),
      h('div', { class: 'grid content-width' }, ...ui.outs.map((o) => h('div', { class: 'panel', 'data-explain-scope': '' }, o.title, h('div', { class: 'row' }, o.x.el, o.out.el)))),
      ui.verdict, ui.explain.panel);
    this.draw(null); // the final layout before the core arrives: placeholder numbers
  }

  /** Row labels of a word: its letters with their positions (d₀ o₁ g₂). */
  labelsOf(word) {
    return [...word].map((c, t) => `${c}${subscripted('', word.length)[t]}`);
  }

  /** B becomes a random reordering of A's letters (a choice of input, not arithmetic). */
  #shuffle() {
    this.#update((s) => {
      const letters = [...s.a];
      for (let i = letters.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [letters[i], letters[j]] = [letters[j], letters[i]];
      }
      s.b = letters.join('');
    });
  }

  /** Everything; without the core (before it arrives) each grid has its shape (a row
   *  per letter, two channels, as the core's toy embeddings and head have) with empty
   *  cells, and the verdict placeholders. */
  draw(core) {
    const ui = this.#ui;
    const s = this.state;
    const empty = (word) => ({ rows: word.length, cols: 2, data: new Array(word.length * 2).fill(NaN) });
    ui.tables.label();
    for (const input of [...ui.toyInputs, ui.a, ui.b]) {
      if (this.shadowRoot.activeElement !== input) input.value = input._get(s);
    }
    ui.toyInputs.forEach((input, i) => input.setAttribute('aria-label', this.t('a.pos.toyWord', { n: i + 1 })));
    ui.toyTitle.textContent = this.t('a.pos.toyTitle');
    ui.toyNote.textContent = this.t('a.pos.toyNote');
    s.toy.forEach((word, i) => {
      const labels = [...word].map((c, t) => `${c}${subscripted('', word.length)[t]}`);
      try {
        ui.toy[i].tok.set(core ? core.embedToy(word, false) : empty(word), labels, subscripted('c', 2));
        ui.toy[i].x.set(core ? core.embedToy(word, true) : empty(word), labels, subscripted('c', 2));
        ui.toy[i].tok.caption.textContent = this.t('a.pos.tok');
        ui.toy[i].x.caption.textContent = this.t('a.pos.x');
      } catch (e) {
        this.showError(message(e));
      }
    });
    ui.orderTitle.textContent = this.t('a.pos.orderTitle');
    ui.shuffle.textContent = this.t('a.pos.shuffle');
    ui.positions.text.textContent = this.t('a.pos.positions');
    ui.causal.text.textContent = this.t('causal');
    ui.positions.box.checked = s.positions;
    ui.causal.box.checked = s.causal;
    if (!core) {
      [s.a, s.b].forEach((word, i) => {
        const o = ui.outs[i];
        o.title.textContent = `${i ? 'B' : 'A'} = ${word}`;
        o.x.set(empty(word), this.labelsOf(word), subscripted('c', 2));
        o.out.set(empty(word), this.labelsOf(word), subscripted('d', 2));
        o.x.caption.textContent = this.t('a.pos.in');
        o.out.caption.textContent = this.t('a.pos.out');
      });
      ui.verdict.className = 'msg pending';
      ui.verdict.textContent = !s.positions && !s.causal
        ? this.t('a.pos.equivariant', { p: `[${[...s.a].map(() => '\u2007').join(', ')}]`, e: '…' })
        : this.t('a.pos.lastDiffers', { e: '…', mask: s.causal ? this.t('a.pos.maskOn') : '' });
      return;
    }
    ui.explain.sync();
    let r;
    try {
      r = core.compareOrders(s.a, s.b, s.positions, s.causal);
      this.run = { ...r, causal: s.causal }; // what is drawn, for explanations
    } catch (e) {
      ui.verdict.className = 'msg bad';
      ui.verdict.textContent = message(e);
      return;
    }
    [r.a, r.b].forEach((side, i) => {
      const o = ui.outs[i];
      const labels = this.labelsOf(side.word);
      o.title.textContent = `${i ? 'B' : 'A'} = ${side.word}`;
      o.x.set(side.x, labels, subscripted('c', side.x.cols));
      o.out.set(side.trace.out, labels, subscripted('d', side.trace.out.cols));
      o.x.caption.textContent = this.t('a.pos.in');
      o.out.caption.textContent = this.t('a.pos.out');
    });
    this.#verdict(r, s);
  }

  #verdict(r, s) {
    const ui = this.#ui;
    const perm = r.permutation ? Array.from(r.permutation) : null;
    if (perm && r.equivariance_max_err != null && !s.positions && !s.causal) {
      ui.verdict.className = 'msg ok';
      ui.verdict.textContent = this.t('a.pos.equivariant', { p: `[${perm.join(', ')}]`, e: formatDiff(r.equivariance_max_err) });
    } else {
      const same = r.last_row_max_diff === 0;
      ui.verdict.className = `msg ${same ? 'ok' : 'bad'}`;
      const key = !perm ? 'a.pos.notPerm' : same ? 'a.pos.lastSame' : 'a.pos.lastDiffers';
      ui.verdict.textContent = this.t(key, { e: formatDiff(r.last_row_max_diff), mask: s.causal ? this.t('a.pos.maskOn') : '' });
    }
  }
}

AttnPosition.css = `${LessonWidget.css}
.side-title { margin: 16px 0 8px; }
input[aria-invalid] { outline: 2px solid var(--_error); }
.msg.pending { font-weight: 600; } /* a verdict's weight (.ok, .bad), until the core's verdict */
`;

define(AttnPosition);
