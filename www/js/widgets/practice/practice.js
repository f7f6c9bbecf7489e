// <attn-practice>: §8 exercises with answer checking. Each question takes typed
// numbers ("1/4, 1/2, 1/4" works); the core judges them against the exact answer
// at the lesson's rounding. A first wrong try gets a hint (and, for a list, which
// positions are off, counted from 0 like the tokens); the answer shows after a second
// wrong try or on "Show answer". Two exercises can be run: the weighted output of
// [0, ln 2, 0] and the softmax taken on the wrong axis of a (B, T, T) tensor.
//
//   state: { answers: { id: text } }   numbers: practiceQuestions, checkAnswer,
//   weightedOutput, shiftValues, wrongAxis
//   The right- and wrong-axis weights explain themselves (explainWrongAxis
//   with the same seed, B and T): a softmax along the row, or down the column.

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h, message } from '../../ui/widget-base.js';
import { checkObject as object } from '../../ui/cell-checks.js';
import { formatFixed as num, formatList as list, formatSci as err, formatShort as short } from '../../ui/format.js';
import { fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS as B_CSS } from '../base/lesson-css.js';
import { heatmap as matrix, showMatrix as show } from '../base/matrix-block.js';
import { explainGrids } from '../explain/explain-grids.js';

/** The wrong-axis run drawn: wrongAxis(seed, B, T), batch 0. */
const AXIS_RUN = [0, 1, 3];
const AXIS_TOKENS = ['t0', 't1', 't2'];

const IDS = ['weights_ln2', 'output_ln2', 'shift_c', 'masked_softmax', 'var_dk_64', 'std_512',
  'params_split', 'initial_loss', 'loop_iterations'];

class Practice extends AttnWidget {
  static tag = 'attn-practice';
  static css = `${B_CSS}
    ol.qs { padding-left: 1.4em; margin: 0; display: grid; gap: 12px; }
    ol.qs li { padding-left: 4px; }
    form { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: center; margin-top: 4px; }
    form input { flex: 1 1 180px; max-width: 280px; font-family: var(--_mono); }
    .verdict { margin-top: 6px; }
    .verdict:empty { display: none; }
    .verdict.hint, .verdict.info { background: var(--_accent-soft); }
    form button[hidden] { display: none; }
    details { margin-top: 14px; border: 1px solid var(--_line); border-radius: 10px; padding: 8px 12px; }
    summary { cursor: pointer; font-weight: 600; }
    table.plain td { font-family: var(--_mono); }`;

  #answers = {};
  /** What each question's verdict says: { kind: 'right' | 'hint' | 'reveal' | 'shown' |
   *  'count' | 'error', r } (r: the core's check, or the error's text). */
  #checked = {};
  #tries = {}; // wrong tries so far, per question
  #revealed = {}; // the answer was shown (a second wrong try, or "Show answer")

  build(root) {
    this.items = IDS.map((id) => {
      const input = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false', 'data-k-aria': 'b.pr.answer',
        oninput: (e) => this.#typed(id, e.target.value) });
      const verdict = h('p', { class: 'msg verdict', role: 'status', 'aria-live': 'polite' });
      const show = k('button', 'b.pr.show', { type: 'button', class: 'show', hidden: true, onclick: () => this.#show(id) });
      const form = h('form', { onsubmit: (e) => { e.preventDefault(); this.#check(id); } },
        input, k('button', 'b.pr.check', { type: 'submit' }), show);
      return { id, input, verdict, show, li: h('li', { 'data-q': id }, k('span', `b.pr.q.${id}`), form, verdict) };
    });
    this.wrong = { right: matrix('right', 'weights'), wrong: matrix('wrong', 'weights') };
    this.wrongSums = h('table', { class: 'plain' });
    this.wrongNote = h('p', { class: 'result' });
    this.explainer = explainGrids(this, {
      grids: () => [this.wrong.right, this.wrong.wrong],
      explain: (grid, row, col) => this.core.explainWrongAxis(...AXIS_RUN, grid === this.wrong.right ? 'right' : 'wrong', 'weights', row, col),
      key: () => JSON.stringify(AXIS_RUN),
      panel: (grid, panel) => { panel.tokens = AXIS_TOKENS; },
    });
    root.append(
      k('p', 'b.pr.lead', { class: 'lead' }),
      h('ol', { class: 'qs' }, ...this.items.map((it) => it.li)),
      h('details', {}, k('summary', 'b.pr.axisTitle'), k('p', 'b.pr.axisLead', { class: 'lead' }),
        h('div', { class: 'row' },
          h('div', { class: 'col panel' }, k('h3', 'b.pr.axisRight'), this.wrong.right),
          h('div', { class: 'col panel' }, k('h3', 'b.pr.axisWrong'), this.wrong.wrong)),
        h('div', { class: 'scroll-x', style: 'margin-top:8px' }, this.wrongSums), this.wrongNote),
      this.explainer.panel,
    );
    this.#text(); // the final layout before the core arrives: the questions need none
  }

  /** The questions, their inputs and verdicts: no number from the core. */
  #text() {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    for (const it of this.items) {
      if (it.input.value !== (this.#answers[it.id] ?? '')) it.input.value = this.#answers[it.id] ?? '';
      it.input.placeholder = this.t(it.id === 'weights_ln2' || it.id === 'masked_softmax' ? 'b.pr.phList' : 'b.pr.phOne');
      this.#verdict(it.id);
    }
  }

  /** A new text: a verdict about the old one goes, except a hint or a shown answer,
   *  which the learner may want to read while typing the next try. */
  #typed(id, text) {
    this.#answers[id] = text;
    if (!['hint', 'reveal', 'shown'].includes(this.#checked[id]?.kind)) delete this.#checked[id];
    this.#verdict(id);
  }

  #check(id) {
    let r;
    try {
      r = this.core.checkAnswer(id, this.#answers[id] ?? '');
    } catch (e) {
      this.#checked[id] = { kind: 'error', r: message(e) };
      this.#verdict(id);
      return;
    }
    let kind = 'right';
    if (!r.correct && r.given.length !== r.expected.length) kind = 'count'; // a slip of form, not a try
    else if (!r.correct) {
      this.#tries[id] = (this.#tries[id] ?? 0) + 1;
      if (this.#tries[id] >= 2) this.#revealed[id] = true;
      kind = this.#revealed[id] ? 'reveal' : 'hint';
    }
    this.#checked[id] = { kind, r };
    this.emitChange();
    this.#verdict(id);
  }

  #show(id) {
    this.#revealed[id] = true;
    this.#checked[id] = { kind: 'shown', r: this.core.practiceQuestions().find((q) => q.id === id) };
    this.#verdict(id);
    this.items.find((it) => it.id === id).input.focus();
  }

  #verdict(id) {
    const { verdict: el, show } = this.items.find((it) => it.id === id);
    const { kind, r } = this.#checked[id] ?? {};
    show.hidden = !this.#tries[id] || Boolean(this.#revealed[id]) || kind === 'right';
    el.removeAttribute('data-correct');
    el.dataset.kind = kind ?? '';
    const cls = { right: 'ok', hint: 'hint', reveal: 'bad', shown: 'info', count: 'bad', error: 'bad' }[kind];
    el.className = `msg verdict${cls ? ` ${cls}` : ''}`;
    if (kind === 'right' || kind === 'reveal') el.dataset.correct = String(kind === 'right');
    el.textContent = kind ? this.#say(id, kind, r) : '';
  }

  /** The verdict's text. */
  #say(id, kind, r) {
    const sep = this.language === 'zh' ? '' : ' ';
    const join = (...parts) => parts.filter(Boolean).join(sep);
    // The core's message is English and names the exact problem; Chinese gets the gist.
    if (kind === 'error') return this.language === 'en' ? r : this.t('b.pr.notNumber');
    if (kind === 'count') {
      return this.t(r.expected.length === 1 ? 'b.pr.countOne' : 'b.pr.count', { n: r.expected.length, m: r.given.length });
    }
    if (kind === 'hint') {
      const off = r.wrong_positions;
      const where = r.expected.length < 2 ? ''
        : this.t(off.length === 1 ? 'b.pr.position' : 'b.pr.positions', { list: off.join(this.language === 'zh' ? '、' : ', ') });
      return join(this.t('b.pr.notYet'), where, this.t('b.pr.hint', { hint: this.t(`b.pr.hint.${id}`) }), this.t('b.pr.again'));
    }
    const said = { right: 'b.pr.right', reveal: 'b.pr.wrong', shown: 'b.pr.shown' }[kind];
    return join(this.t(said, { exact: r.exact }), this.#demo(id));
  }

  /** The run behind an answer, where the core has one. */
  #demo(id) {
    const core = this.core;
    if (id === 'weights_ln2' || id === 'output_ln2') {
      const r = core.weightedOutput(new Float64Array([0, Math.LN2, 0]), new Float64Array([2, 4, 10]));
      return this.t('b.pr.demoLn2', { w: list(r.weights), v: list(r.values, 0), o: short(r.output) });
    }
    if (id === 'shift_c') {
      const r = core.shiftValues(0, 4, 3, 3);
      return this.t('b.pr.demoShift', { c: short(r.c), err: err(r.max_err) });
    }
    return '';
  }

  render(core) {
    this.clearError();
    this.#text();
    this.explainer.sync();
    const w = core.wrongAxis(...AXIS_RUN);
    const toks = AXIS_TOKENS;
    show(this.wrong.right, w.right[0], toks, toks);
    show(this.wrong.wrong, w.wrong[0], toks, toks);
    const row = (key, values) => h('tr', {}, h('th', { scope: 'row' }, this.t(key)), ...values.map((v) => h('td', {}, num(v, 2))));
    this.wrongSums.replaceChildren(
      h('thead', {}, h('tr', {}, h('th'), ...toks.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, row('b.pr.wrongRows', w.wrong_row_sums[0]), row('b.pr.wrongCols', w.wrong_col_sums[0])));
    this.wrongNote.textContent = this.t('b.pr.axisErr', { err: num(w.max_err, 4) });
  }

  get state() {
    return { answers: { ...this.#answers } };
  }

  set state(s) {
    object(s);
    const answers = s.answers ?? {};
    object(answers);
    for (const [id, text] of Object.entries(answers)) {
      if (!IDS.includes(id)) throw new Error(`unknown question ${id}`);
      if (typeof text !== 'string' || text.length > 200) throw new Error(`the answer to ${id} must be a short text`);
    }
    this.#answers = { ...answers };
    this.#checked = {};
    this.#tries = {};
    this.#revealed = {};
    this.refresh();
  }
}

define(Practice);
