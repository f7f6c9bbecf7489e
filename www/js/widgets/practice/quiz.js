// <attn-quiz>: §8 recall quiz, six questions of four options each. Options are
// reshuffled on every retake (order from quizOrder, per attempt and question).
// Check reveals the right answers (and locks the quiz) only once every question has an
// answer; before that it names the unanswered ones and reveals nothing, so a misclick
// costs nothing. Spaced review: the date of the last checked quiz is kept in
// localStorage; two or more days later a banner offers the quiz again.
//
//   attributes: now (ISO date or milliseconds: the clock, injectable for tests)
//   state: { attempt, picks }   picks[i] = the canonical option chosen (0 = right)
//   localStorage: attention-playground.quiz.last = ISO time of the last check

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { checkInt, checkObject } from '../../ui/cell-checks.js';
import { formatDate } from '../../ui/format.js';
import { fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS } from '../base/lesson-css.js';
import { readKey, writeKey } from '../../core/storage.js';

export const QUIZ_KEY = 'attention-playground.quiz.last';
const N = 6;
const OPTIONS = 4;
const DAY = 86400000;
const REVIEW_DAYS = 2;

function readLast() {
  const v = readKey(QUIZ_KEY);
  const t = v ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : null;
}

class Quiz extends AttnWidget {
  static tag = 'attn-quiz';
  static attrs = ['now'];
  static css = `${NOTE_WIDGET_CSS}
    ol.quiz { padding-left: 1.4em; margin: 0; display: grid; gap: 14px; }
    .banner[hidden] { display: none; }
    .qtext { font-weight: 600; margin: 0 0 4px; }
    .options label { display: flex; align-items: flex-start; gap: 8px; padding: 4px 8px; border-radius: 8px; font-size: .92rem; }
    .options label:hover { background: var(--_accent-soft); }
    .options label input { margin-top: .3em; flex: none; }
    label.right { background: var(--_ok-bg); }
    label.wrong { background: var(--_error-bg); }
    .why { font-size: .88rem; margin: 4px 0 0 8px; }
    .banner { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; padding: 10px 12px; margin-bottom: 12px;
      border-radius: 10px; background: var(--_accent-soft); border-left: 4px solid var(--_accent); }
    .banner p { margin: 0; flex: 1 1 240px; }
    .score { font-weight: 600; }`;

  #attempt = 0;
  #picks = new Array(N).fill(null);
  #checked = false;
  #missing = []; // the questions Check found unanswered (1 per answer given since: removed)
  #reviewed = false; // the banner was acted on this visit

  build(root) {
    this.banner = h('div', { class: 'banner', role: 'status', hidden: true },
      h('p', {}), k('button', 'b.quiz.reviewNow', { type: 'button', class: 'primary', onclick: () => this.#retake(true) }));
    this.list = h('ol', { class: 'quiz' });
    this.checkBtn = k('button', 'b.quiz.check', { type: 'button', class: 'primary', onclick: () => this.#check() });
    this.retakeBtn = k('button', 'b.quiz.retake', { type: 'button', onclick: () => this.#retake(false) });
    this.score = h('p', { class: 'score', role: 'status' });
    this.next = h('p', { class: 'muted' });
    root.append(
      this.banner,
      k('p', 'b.quiz.lead', { class: 'lead' }),
      this.list,
      h('div', { class: 'controls', style: 'margin-top:12px' }, this.checkBtn, this.retakeBtn),
      this.score, this.next,
    );
    // The final layout before the core arrives (it only shuffles the options): the
    // questions with their options in their own order, each as tall as it will be.
    this.#draw(() => [0, 1, 2, 3]);
    this.#banner(); // the review banner, if due, is there from the first paint too
  }

  /** The clock: the `now` attribute when set (tests), else the real time. */
  get now() {
    const a = this.getAttribute('now');
    if (a) {
      const t = /^\d+$/.test(a) ? Number(a) : Date.parse(a);
      if (Number.isFinite(t)) return t;
    }
    return Date.now();
  }

  #check() {
    this.#missing = this.#picks.flatMap((p, q) => (p === null ? [q] : []));
    if (this.#missing.length) {
      this.refresh(); // names them; nothing revealed, nothing locked, no date kept
      return;
    }
    this.#checked = true;
    writeKey(QUIZ_KEY, new Date(this.now).toISOString()); // no storage: no reminder, the quiz still works
    this.refresh();
    this.emitChange();
  }

  #retake(fromBanner) {
    this.#attempt += 1;
    this.#picks = new Array(N).fill(null);
    this.#checked = false;
    this.#missing = [];
    if (fromBanner) this.#reviewed = true;
    this.refresh();
    this.emitChange();
    queueMicrotask(() => this.shadowRoot.querySelector('input[type="radio"]')?.focus());
  }

  render(core) {
    this.clearError();
    this.#draw((q) => core.quizOrder(OPTIONS, this.#attempt * 16 + q));
  }

  /** Everything, with each question's options in `order(q)`; picks are options, not
   *  places, so a pick made before the core shuffled them stays picked. */
  #draw(order) {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.list.replaceChildren(...Array.from({ length: N }, (_, q) => this.#question(order(q), q)));
    this.#scoreText();
    this.checkBtn.disabled = this.#checked;
    this.#banner();
  }

  /** The score once checked, else which questions Check found unanswered, if any. */
  #scoreText() {
    const right = this.#picks.filter((p) => p === 0).length;
    const missing = this.#missing;
    const list = missing.map((q) => q + 1).join(this.language === 'zh' ? '、' : ', '); // as the list numbers them
    const key = missing.length === N ? 'b.quiz.missingAll' : missing.length === 1 ? 'b.quiz.missingOne' : 'b.quiz.missingMany';
    this.score.classList.toggle('bad', !this.#checked && missing.length > 0);
    this.score.textContent = this.#checked ? this.t('b.quiz.score', { right, n: N })
      : missing.length ? this.t(key, { list, n: missing.length, total: N }) : '';
  }

  /** Question q has an answer now: the marks are updated in place (a redraw would make
   *  new radio buttons under the learner's focus). */
  #answered(q) {
    if (!this.#missing.includes(q)) return;
    this.#missing = this.#missing.filter((m) => m !== q);
    for (const li of this.list.children) this.#mark(li, Number(li.dataset.question));
    this.#scoreText();
  }

  /** Marks question q's item "no answer yet" when Check found it unanswered, one by one
   *  once some have answers (with none, the message below says it all). */
  #mark(li, q) {
    const on = !this.#checked && this.#missing.includes(q) && this.#missing.length < N;
    const note = li.querySelector('.why.missing');
    li.classList.toggle('missing', on);
    if (on && !note) li.append(h('p', { class: 'why missing bad' }, this.t('b.quiz.missing')));
    if (!on) note?.remove();
  }

  #question(order, q) {
    const name = `q${q}`;
    const labels = order.map((opt) => {
      const input = h('input', { type: 'radio', name, value: opt, disabled: this.#checked, onchange: () => {
        this.#picks[q] = opt;
        this.#answered(q);
        this.emitChange();
      } });
      input.checked = this.#picks[q] === opt;
      const cls = this.#checked && (opt === 0 ? 'right' : this.#picks[q] === opt ? 'wrong' : '');
      return h('label', { class: cls || null, 'data-opt': opt }, input, h('span', {}, this.t(`b.quiz.${q}.${opt}`)));
    });
    const sep = this.language === 'zh' ? '' : ' ';
    const why = this.#checked
      ? h('p', { class: `why ${this.#picks[q] === 0 ? 'ok' : 'bad'}` },
        `${this.t(this.#picks[q] === 0 ? 'b.quiz.right' : 'b.quiz.wrong')}${sep}${this.t(`b.quiz.${q}.why`)}`)
      : null;
    const id = `quiz-q${q}`;
    const li = h('li', { 'data-question': q },
      h('p', { class: 'qtext', id }, this.t(`b.quiz.${q}.q`)),
      h('div', { class: 'options', role: 'radiogroup', 'aria-labelledby': id }, ...labels), why);
    this.#mark(li, q);
    return li;
  }

  #banner() {
    const last = readLast();
    const p = this.banner.firstChild;
    if (last == null) {
      this.banner.hidden = true;
      this.next.textContent = '';
      return;
    }
    const days = Math.floor((this.now - last) / DAY);
    const due = days >= REVIEW_DAYS && !this.#reviewed && !this.#checked;
    this.banner.hidden = !due;
    if (due) p.textContent = this.t('b.quiz.banner', { days });
    const when = formatDate(last + REVIEW_DAYS * DAY, this.language);
    this.next.textContent = this.#checked ? this.t('b.quiz.comeBack', { date: when }) : '';
  }

  get state() {
    return { attempt: this.#attempt, picks: this.#picks.slice() };
  }

  set state(s) {
    checkObject(s);
    const attempt = checkInt(s.attempt ?? 0, 'attempt', 0, 9999);
    const picks = s.picks ?? new Array(N).fill(null);
    if (!Array.isArray(picks) || picks.length !== N || !picks.every((p) => p === null || (Number.isInteger(p) && p >= 0 && p < OPTIONS))) {
      throw new Error(`picks must be ${N} option numbers (0–3) or null`);
    }
    this.#attempt = attempt;
    this.#picks = picks.slice();
    this.#checked = false;
    this.#missing = [];
    this.refresh();
  }
}

define(Quiz);
