// <attn-note-space>: note 2 of §5. Attention has no notion of space: shuffle the
// tokens and the outputs are shuffled the same way (permutation equivariance), so
// "dogs" and "gods" are the same bag of letters to it. Adding position vectors
// breaks the symmetry.
//
//   state: { a, b, positions, causal }   (two words over the toy letters d, o, g, s)
//   numbers: compareOrders(a, b, positions, causal)

import '../../i18n/notes-strings.js';
import { explainTraces } from '../explain/explain-trace.js';
import { AttnWidget, define, h, message } from '../../ui/widget-base.js';
import { checkBool, checkObject } from '../../ui/cell-checks.js';
import { formatSci } from '../../ui/format.js';
import { checkbox, fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS } from '../base/lesson-css.js';
import { heatmap, showMatrix } from '../base/matrix-block.js';

const WORD = /^[dogs]{1,8}$/;

class NoteSpace extends AttnWidget {
  static tag = 'attn-note-space';
  static css = `${NOTE_WIDGET_CSS}
    .words input[type="text"] { width: 7em; font-family: var(--_mono); }
    .verdict { margin-top: 10px; }
    .msg.pending { font-weight: 500; } /* a verdict's weight, until the core's verdict */`;

  #s = { a: 'dogs', b: 'gods', positions: false, causal: false };

  build(root) {
    const word = (which) => h('input', {
      type: 'text', maxlength: 8, spellcheck: 'false', autocomplete: 'off', 'data-k-aria': `b.space.word${which}`,
      oninput: (e) => {
        this.#s[which.toLowerCase()] = e.target.value.trim();
        this.refresh();
        this.emitChange();
      },
    });
    this.inA = word('A');
    this.inB = word('B');
    const pos = checkbox('b.space.positions', (on) => { this.#s.positions = on; this.refresh(); this.emitChange(); });
    const mask = checkbox('b.causalMask', (on) => { this.#s.causal = on; this.refresh(); this.emitChange(); });
    this.pos = pos.input;
    this.mask = mask.input;
    this.outA = heatmap('out A', 'signed');
    this.outB = heatmap('out B', 'signed');
    // Both outputs explain a clicked cell (explainTrace on each word's trace).
    for (const m of [this.outA, this.outB]) m.setAttribute('matrix', 'out');
    this.explainer = explainTraces(this, {
      grids: [this.outA, this.outB],
      source: (grid) => {
        const side = this.run?.[grid === this.outA ? 'a' : 'b'];
        return side && { trace: side.trace, causal: this.run.causal, tokens: [...side.word] };
      },
      key: () => JSON.stringify(this.state),
    });
    this.titleA = h('h4', { class: 'mono' });
    this.titleB = h('h4', { class: 'mono' });
    this.verdict = h('p', { class: 'msg verdict', role: 'status' });
    root.append(
      h('div', { class: 'head' }, k('span', 'b.tag2', { class: 'tag' }), k('h3', 'b.space.title')),
      k('p', 'b.space.lead', { class: 'lead' }),
      h('div', { class: 'controls words' }, this.inA, this.inB, pos.label, mask.label),
      h('div', { class: 'row' },
        h('div', { class: 'col panel', 'data-explain-scope': '' }, this.titleA, this.outA),
        h('div', { class: 'col panel', 'data-explain-scope': '' }, this.titleB, this.outB)),
      this.verdict,
      k('p', 'b.space.why', { class: 'muted' }),
      this.explainer.panel,
    );
    // The final layout before the core arrives: both words' grids (a row per letter,
    // their cells empty) and the verdict line with placeholders.
    this.#controls();
    const s = this.#s;
    const empty = (w) => ({ rows: w.length, cols: 2, data: new Array(w.length * 2).fill(NaN) });
    this.titleA.textContent = this.t('b.space.outOf', { w: s.a });
    this.titleB.textContent = this.t('b.space.outOf', { w: s.b });
    showMatrix(this.outA, empty(s.a), [...s.a], ['d₀', 'd₁']);
    showMatrix(this.outB, empty(s.b), [...s.b], ['d₀', 'd₁']);
    this.verdict.textContent = this.t(s.positions ? 'b.space.diffPos' : 'b.space.same', { err: '…', last: '…', a: s.a, b: s.b });
    this.verdict.className = 'msg verdict pending';
  }

  /** The texts, words and switches: no number from the core. */
  #controls() {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    const s = this.#s;
    if (this.inA.value.trim() !== s.a) this.inA.value = s.a;
    if (this.inB.value.trim() !== s.b) this.inB.value = s.b;
    this.pos.checked = s.positions;
    this.mask.checked = s.causal;
  }

  render(core) {
    this.#controls();
    const s = this.#s;
    this.explainer.sync();
    let r;
    try {
      r = core.compareOrders(s.a, s.b, s.positions, s.causal);
      this.run = { ...r, causal: s.causal };
    } catch (e) {
      // The core's message is English and names the letter; Chinese gets the gist.
      this.showError(this.language === 'en' ? message(e) : this.t('b.space.badWord'));
      return;
    }
    this.clearError();
    this.titleA.textContent = this.t('b.space.outOf', { w: r.a.word });
    this.titleB.textContent = this.t('b.space.outOf', { w: r.b.word });
    showMatrix(this.outA, r.a.trace.out, [...r.a.word], ['d₀', 'd₁']);
    showMatrix(this.outB, r.b.trace.out, [...r.b.word], ['d₀', 'd₁']);
    let key;
    if (r.permutation == null) key = 'b.space.notAnagram';
    else if (r.equivariance_max_err === 0 || r.equivariance_max_err < 1e-12) key = 'b.space.same';
    else key = s.positions ? 'b.space.diffPos' : 'b.space.diffMask';
    const vars = { err: formatSci(r.equivariance_max_err), last: formatSci(r.last_row_max_diff), a: r.a.word, b: r.b.word };
    this.verdict.textContent = this.t(key, vars);
    this.verdict.className = `msg verdict ${key === 'b.space.same' ? 'ok' : 'bad'}`;
  }

  get state() {
    return { ...this.#s };
  }

  set state(s) {
    checkObject(s);
    const next = { ...this.#s, ...s };
    for (const w of ['a', 'b']) {
      if (typeof next[w] !== 'string' || !WORD.test(next[w])) throw new Error(`${w} must be 1 to 8 of the letters d, o, g, s`);
    }
    checkBool(next.positions, 'positions');
    checkBool(next.causal, 'causal');
    this.#s = { a: next.a, b: next.b, positions: next.positions, causal: next.causal };
    this.refresh();
  }
}

define(NoteSpace);
