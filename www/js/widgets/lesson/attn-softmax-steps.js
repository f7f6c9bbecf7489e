// <attn-softmax-steps>: softmax over a −∞ mask, one step at a time (LESSON §2).
//
//   <attn-softmax-steps>
//
// Rust masks the chosen positions to −∞, exponentiates, sums and divides; it also
// shows what masking *after* the softmax would leave (rows that sum to < 1) and
// flags a row with every position masked. state = { scores, allowed }.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { formatCell } from '../../ui/format.js';
import { LessonWidget } from '../base/lesson-widget.js';
import { stackedTable } from '../base/lesson-css.js';

const ROWS = { scores: 'a.sum.scores', allowed: 'a.softmax.allowed', masked: 'a.softmax.masked',
  exp: 'a.softmax.exp', weights: 'a.sum.weights' };
const DEFAULT = { scores: [2, -1, 3, 5], allowed: [true, true, true, false] };

class AttnSoftmaxSteps extends LessonWidget {
  static tag = 'attn-softmax-steps';

  #s = null;
  #ui = {};

  get state() {
    const s = this.#s ?? DEFAULT;
    return { scores: s.scores.slice(), allowed: s.allowed.slice() };
  }

  set state(s) {
    const { scores, allowed } = s ?? {};
    const ok = Array.isArray(scores) && Array.isArray(allowed) && scores.length === 4 && allowed.length === 4
      && scores.every((v) => typeof v === 'number' && Math.abs(v) <= 1e300) && allowed.every((v) => typeof v === 'boolean');
    if (!ok) throw new Error('expected { scores: 4 numbers within ±1e300, allowed: 4 booleans }');
    this.#s = { scores: scores.slice(), allowed: allowed.slice() };
    this.refresh();
  }

  make(root) {
    const ui = this.#ui;
    ui.inputs = DEFAULT.scores.map((_, i) => {
      const input = h('input', { type: 'text', class: 'score', autocomplete: 'off', spellcheck: 'false' });
      input.addEventListener('input', () => this.#onScore(i, input));
      return input;
    });
    ui.checks = DEFAULT.allowed.map((_, i) => {
      const box = h('input', { type: 'checkbox' });
      box.addEventListener('change', () => this.#change((s) => { s.allowed[i] = box.checked; }));
      return box;
    });
    ui.zero = h('button', { type: 'button', onclick: () => this.#change((s) => { s.scores = [0, 0, 0, s.scores[3]]; }, true) });
    ui.reset = h('button', { type: 'button', onclick: () => { this.#s = null; this.refresh(); this.emitChange(); } });
    ui.table = h('table', { class: 'plain steps' });
    ui.cells = {};
    const tr = (key, tag, fill) => {
      const th = h('th', { scope: tag === 'th' ? 'col' : 'row' });
      const tds = DEFAULT.scores.map((_, i) => h(tag, tag === 'th' ? { scope: 'col' } : {}, fill?.(i) ?? ''));
      const sum = h(tag, { class: 'value' });
      ui.cells[key] = { th, tds, sum };
      return h('tr', {}, th, ...tds, sum);
    };
    ui.table.append(h('thead', {}, tr('head', 'th', (i) => String(i))), h('tbody', {},
      tr('scores', 'td', (i) => ui.inputs[i]), tr('allowed', 'td', (i) => ui.checks[i]),
      tr('masked', 'td'), tr('exp', 'td'), tr('weights', 'td')));
    ui.after = h('p', { class: 'fact' });
    ui.msg = h('p', { class: 'msg', role: 'status' });
    root.append(h('div', { class: 'scroll' }, ui.table), h('div', { class: 'controls' }, ui.zero, ui.reset), ui.msg, ui.after);
    // The final layout before the core arrives: labels, inputs, and placeholder numbers.
    this.#controls();
    for (const key of ['masked', 'exp', 'weights']) ui.cells[key].tds.forEach((td) => { td.textContent = '…'; });
    ui.cells.exp.sum.textContent = '…';
    ui.cells.weights.sum.textContent = '…';
    ui.msg.textContent = '\u00a0';
    this.#after('[…, …, …, …]', '…');
  }

  /** The labels, the inputs and boxes from the state (no number of the core's). */
  #controls() {
    const ui = this.#ui;
    const s = this.state;
    ui.zero.textContent = this.t('a.softmax.zero');
    ui.reset.textContent = this.t('reset');
    s.scores.forEach((v, i) => {
      if (this.shadowRoot.activeElement !== ui.inputs[i]) {
        ui.inputs[i].value = String(v); // the state's number replaces any refused text
        ui.inputs[i].removeAttribute('aria-invalid');
        ui.inputs[i].title = '';
      }
      ui.inputs[i].setAttribute('aria-label', this.t('a.softmax.scoreAt', { i }));
      ui.checks[i].checked = s.allowed[i];
      ui.checks[i].setAttribute('aria-label', this.t('a.softmax.allowedAt', { i }));
    });
    const c = ui.cells;
    const set = (el, text) => { if (el.textContent !== text) el.textContent = text; };
    for (const key of Object.keys(ROWS)) set(c[key].th, this.t(ROWS[key]));
    set(c.head.th, this.t('a.softmax.position'));
    set(c.head.sum, this.t('a.sum.sum'));
    s.allowed.forEach((ok, i) => {
      for (const key of Object.keys(ROWS)) c[key].tds[i].classList.toggle('future', !ok);
    });
  }

  #after(weights, sum) {
    this.#ui.after.replaceChildren(this.t('a.softmax.after'), ' ', h('b', { class: 'value' }, weights), ' ',
      this.t('a.softmax.afterSum'), ' ', h('b', { class: 'value' }, sum));
  }

  #change(fn, redrawInputs = false) {
    const s = this.state;
    fn(s);
    this.#s = s;
    if (redrawInputs) this.#ui.inputs.forEach((i) => i.blur());
    this.refresh();
    this.emitChange();
  }

  #onScore(i, input) {
    let v;
    try {
      v = this.core.parseNumber(input.value);
    } catch (e) {
      input.setAttribute('aria-invalid', 'true');
      input.title = message(e, this.language);
      this.#ui.msg.className = 'msg bad';
      this.#ui.msg.textContent = message(e, this.language);
      return;
    }
    input.removeAttribute('aria-invalid');
    input.title = '';
    this.#change((s) => { s.scores[i] = v; });
  }

  draw(core) {
    const ui = this.#ui;
    const s = this.state;
    this.#controls();
    const r = core.maskedSoftmaxSteps({ scores: s.scores, allowed: s.allowed });
    const c = ui.cells;
    const set = (el, text) => { if (el.textContent !== text) el.textContent = text; };
    s.allowed.forEach((ok, i) => {
      const m = r.masked[i];
      set(c.masked.tds[i], m === null || m === -Infinity ? '−∞' : formatCell(m));
      set(c.exp.tds[i], formatCell(r.exp[i]));
      set(c.weights.tds[i], r.fully_masked ? '–' : formatCell(r.weights[i]));
    });
    set(c.exp.sum, formatCell(r.sum));
    set(c.weights.sum, r.fully_masked ? '–' : '1.00');
    if (r.fully_masked) {
      ui.msg.className = 'msg bad';
      ui.msg.textContent = this.t('a.softmax.fully');
    } else if (r.exp_overflow) {
      ui.msg.className = 'msg bad';
      ui.msg.textContent = this.t('a.softmax.overflow');
    } else {
      ui.msg.className = 'msg ok';
      ui.msg.textContent = this.t('a.softmax.ok');
    }
    this.#after(`[${Array.from(r.mask_after_weights, (v) => formatCell(v)).join(', ')}]`, formatCell(r.mask_after_sum));
  }
}

// Narrower than the table (a phone): each row's name on a line of its own above its five
// cells (positions 0–3 and the sum), so the masked position stays in view.
const NARROW = 480;

AttnSoftmaxSteps.css = `${LessonWidget.css}
.scroll { overflow-x: auto; }
table.steps td { min-width: 4.2em; }
${stackedTable('.scroll', 'table.steps', 5, NARROW)}
@container (max-width: ${NARROW}px) {
  table.steps td { min-width: 0; padding-inline: 4px; }
  table.steps th { padding-inline: 4px; }
  input.score { width: 100%; }
}
table.steps td.future { background: repeating-linear-gradient(135deg, #eceef2 0 3px, #f8f9fb 3px 7px); }
input.score { width: 4.2em; text-align: right; font-family: var(--_mono); padding: 2px 6px; }
input[aria-invalid="true"] { outline: 2px solid var(--_error); }
`;

define(AttnSoftmaxSteps);
