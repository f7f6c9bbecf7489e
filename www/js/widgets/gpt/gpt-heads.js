// <attn-gpt-heads>: what each head of "Train a GPT"'s model has learned, live while it
// trains. Part of <attn-gpt-train>.
//
//   el.show(step, scores)   scores = GptLab.headScores() (src/wasm/gpt/heads.rs): redraws
//                           the three layer × head grids and adds a point to the curves
//   el.clear()              a new run: no grids, no curves
//   el.ablation = GptLab.ablation() result, or null (a new model, or the old one trained on)
//   el.curves = { first, second, induction }   a saved run's curves, back ([[step, value]…])
//   el.running = bool       switching a head off waits for a pause
//   el.why = () => text, or null   why this model cannot be measured (the core's error,
//                           e.g. a block too short for a probe), said instead of the grids
//   variant="gpt2": inside <attn-gpt2>, the grids and the chosen head only (no curves, no
//   switch: GPT-2's element switches heads off itself)
//   el.state → { step, best, previous_token, induction, first_token, selected, plot }  (tests)
//   events (bubbling, composed): 'gpt-head-open' { layer, head, prompt }: open the head's
//     attention on the probe's first row; 'gpt-head-ablate' { layer, head }: the host
//     answers with el.ablation.
//
// Every number comes from the core; this draws them (a cell's shade is its score) and
// says in words what each one means.

import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { addStrings } from '../../i18n/i18n.js';
import GPT_STRINGS from '../../i18n/gpt.js';
import { formatGrouped } from '../../ui/format.js';
import './gpt-plot.js';

addStrings(GPT_STRINGS);

const SCORES = ['previous_token', 'induction', 'first_token'];
/** The best induction score from which the grid calls a head an induction head: several
 *  times what evenly spread attention gives on the probe (about 0.06). */
const INDUCTION_SEEN = 0.3;

class AttnGptHeads extends AttnWidget {
  static tag = 'attn-gpt-heads';
  static attrs = ['variant'];
  static css = `
    /* variant="gpt2" (<attn-gpt2>): the grids and the chosen head only; its host says what
       the probe is and switches heads off itself */
    :host([variant="gpt2"]) .trainer-only { display: none; }
    .grids { display: flex; flex-wrap: wrap; gap: 10px 22px; margin: 8px 0; }
    table { border-collapse: separate; border-spacing: 3px; }
    caption { font-size: .85rem; font-weight: 600; text-align: left; padding-bottom: 2px; }
    th { font-size: .75rem; color: var(--_muted); font-weight: 600; padding: 0 2px; }
    td button, td button[aria-pressed="true"] { min-width: 2.9rem; min-height: 2.2rem; padding: 2px 4px; border: 1px solid var(--_line);
      border-radius: 6px; font: .8rem var(--_mono); font-variant-numeric: tabular-nums; color: var(--_fg);
      background: color-mix(in srgb, var(--_accent) calc(var(--v, 0) * 70%), var(--_bg)); }
    td button.dark, td button.dark[aria-pressed="true"] { color: #fff; }
    /* the chosen head: outlined, its shade still its score (not the pressed-button fill) */
    td button[aria-pressed="true"] { outline: 3px solid var(--_fg); outline-offset: 1px; font-weight: 700; }
    .head { margin: 6px 0; padding: 8px 10px; border-radius: 8px; background: var(--_accent-soft); }
    .head p { margin: 4px 0; }
    .head .actions { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; }
    .best { font-weight: 600; }
    .what { margin: 4px 0; }
    .what dt { font-weight: 600; display: inline; }
    .what dd { display: inline; margin: 0; }
    .what div { margin: 2px 0; }
  `;

  #scores = null;
  #step = 0;
  #selected = null; // { layer, head }
  #ablation = null;
  #off = false; // the switch of the selected head
  #running = false;
  #why = null;

  build(root) {
    const u = (this.ui = {});
    u.intro = h('p', { class: 'trainer-only', 'data-t': 'gpt.heads.intro' });
    u.what = h('dl', { class: 'what' }, ...SCORES.map((k) => h('div', {},
      h('dt', { 'data-t': `gpt.heads.${k}` }), ' ', h('dd', { 'data-t': `gpt.heads.${k}What` }))));
    u.watch = h('p', { class: 'muted trainer-only', 'data-t': 'gpt.heads.watch' });
    u.best = h('p', { class: 'best', role: 'status' });
    u.grids = h('div', { class: 'grids' });
    u.plot = h('attn-loss-plot', { class: 'trainer-only', kinds: 'first second induction' });
    u.headTitle = h('p', { class: 'title' });
    u.headScores = h('p');
    u.open = h('button', { type: 'button', 'data-t': 'gpt.heads.open', onclick: () => this.#open() });
    u.switch = h('input', { type: 'checkbox', onchange: () => this.#toggle() });
    u.switchLabel = h('label', { class: 'trainer-only' }, u.switch, h('span', { 'data-t': 'gpt.heads.switchOff' }));
    u.ablationText = h('p', { role: 'status' });
    u.head = h('div', { class: 'head', hidden: true }, u.headTitle, u.headScores,
      h('div', { class: 'actions' }, u.open, u.switchLabel), u.ablationText);
    root.append(u.intro, u.what, u.watch, u.best, u.grids, u.head, u.plot);
  }

  render() {
    for (const node of this.shadowRoot.querySelectorAll('[data-t]')) node.textContent = this.t(node.dataset.t);
    this.ui.plot.labels = {
      x: this.t('gpt.axisStep'), y: this.t('gpt.heads.axis'), first: this.t('gpt.heads.lossFirst'),
      second: this.t('gpt.heads.lossSecond'), induction: this.t('gpt.heads.bestInduction'), empty: this.t('gpt.plotEmpty'),
    };
    this.#paint();
  }

  get state() {
    const s = this.#scores;
    const arr = (k) => (s ? Array.from(s[k]) : []);
    return { step: this.#step, best: s?.best ?? null, previous_token: arr('previous_token'), induction: arr('induction'),
      first_token: arr('first_token'), selected: this.#selected, plot: this.ui?.plot.data };
  }

  show(step, scores) {
    if (!scores) return;
    this.#why = null;
    this.#scores = scores;
    this.#step = step;
    this.ui.plot.add('first', step, scores.loss_first);
    this.ui.plot.add('second', step, scores.loss_second);
    this.ui.plot.add('induction', step, scores.best.score);
    this.#selected ??= { layer: scores.best.layer, head: scores.best.head };
    if (this.#selected.layer >= scores.n_layer || this.#selected.head >= scores.n_head) {
      this.#selected = { layer: scores.best.layer, head: scores.best.head };
    }
    this.#paint();
  }

  clear() {
    this.#scores = null;
    this.#why = null;
    this.#selected = null;
    this.#ablation = null;
    this.#off = false;
    this.ui.plot.clear();
    this.#paint();
  }

  set curves(saved) {
    for (const k of ['first', 'second', 'induction']) {
      for (const [x, y] of Array.isArray(saved[k]) ? saved[k] : []) this.ui.plot.add(k, x, y);
    }
  }

  set ablation(result) {
    this.#ablation = result;
    this.#off = Boolean(result) && this.#off;
    this.#paint();
  }

  set why(say) {
    this.#why = say;
    if (say) this.#scores = null;
    this.#paint();
  }

  set running(on) {
    // the trainer sets this on every repaint (each frame while it trains): redraw on a change only
    if (this.#running === Boolean(on)) return;
    this.#running = Boolean(on);
    if (on) this.#ablation = null;
    this.#paint();
  }

  #select(layer, head) {
    this.#selected = { layer, head };
    this.#off = false;
    this.#paint();
    this.shadowRoot.querySelector(`button[data-l="${layer}"][data-h="${head}"]`)?.focus();
  }

  #open() {
    const s = this.#scores;
    if (!s || !this.#selected) return;
    this.dispatchEvent(new CustomEvent('gpt-head-open', {
      bubbles: true, composed: true, detail: { ...this.#selected, prompt: s.probe[0] } }));
  }

  #toggle() {
    this.#off = this.ui.switch.checked;
    if (this.#off && !this.#ablation) {
      this.dispatchEvent(new CustomEvent('gpt-head-ablate', { bubbles: true, composed: true, detail: { ...this.#selected } }));
    }
    this.#paint();
  }

  #paint() {
    const u = this.ui;
    const s = this.#scores;
    const t = (k, v) => this.t(k, v);
    u.head.hidden = !s;
    if (!s) {
      u.best.textContent = this.#why ? this.#why() : t('gpt.heads.none');
      u.grids.replaceChildren();
      return;
    }
    const label = (l, hd) => t('gpt.heads.name', { l: l + 1, h: hd + 1 });
    const formed = s.best.score >= INDUCTION_SEEN;
    u.best.textContent = t(formed ? 'gpt.heads.best' : 'gpt.heads.notYet', { step: formatGrouped(this.#step),
      name: label(s.best.layer, s.best.head), score: s.best.score.toFixed(2) });
    const sel = this.#selected;
    u.grids.replaceChildren(...SCORES.map((k) => h('table', {},
      h('caption', {}, t(`gpt.heads.${k}`)),
      h('tr', {}, h('th', {}), ...Array.from({ length: s.n_head }, (_, hd) => h('th', { scope: 'col' }, t('gpt.heads.col', { h: hd + 1 })))),
      ...Array.from({ length: s.n_layer }, (_, l) => h('tr', {},
        h('th', { scope: 'row' }, t('gpt.heads.row', { l: l + 1 })),
        ...Array.from({ length: s.n_head }, (_, hd) => {
          const v = s[k][l * s.n_head + hd];
          const b = h('button', { type: 'button', 'data-l': l, 'data-h': hd, 'data-score': k,
            class: v > 0.55 ? 'dark' : null, style: `--v: ${Math.max(0, Math.min(1, v)).toFixed(3)}`,
            'aria-pressed': String(sel?.layer === l && sel?.head === hd),
            'aria-label': `${t(`gpt.heads.${k}`)}, ${label(l, hd)}: ${v.toFixed(2)}`,
            onclick: () => this.#select(l, hd) }, v.toFixed(2));
          return h('td', {}, b);
        }))))));
    const i = sel.layer * s.n_head + sel.head;
    u.headTitle.textContent = label(sel.layer, sel.head);
    u.headScores.textContent = t('gpt.heads.scores', {
      prev: s.previous_token[i].toFixed(2), ind: s.induction[i].toFixed(2), first: s.first_token[i].toFixed(2) });
    u.switch.checked = this.#off;
    u.switch.disabled = this.#running;
    u.switchLabel.title = this.#running ? t('gpt.heads.pauseFirst') : '';
    u.ablationText.textContent = this.#ablationText(i);
  }

  /** What switching the selected head (index i) off did, in words; '' when not asked. */
  #ablationText(i) {
    const a = this.#ablation;
    if (this.#running) return this.#off ? this.t('gpt.heads.pauseFirst') : '';
    if (!this.#off) return '';
    if (!a) return this.t('gpt.heads.measuring');
    const sign = (d) => (d >= 0 ? `+${d.toFixed(2)}` : `−${(-d).toFixed(2)}`);
    const d2 = a.second_copy[i];
    let text = this.t('gpt.heads.offSecond', { from: a.base_second_copy.toFixed(2),
      to: (a.base_second_copy + d2).toFixed(2), d: sign(d2) });
    if (a.val) {
      const dv = a.val[i];
      text += ` ${this.t('gpt.heads.offVal', { from: a.base_val.toFixed(2), to: (a.base_val + dv).toFixed(2), d: sign(dv) })}`;
    }
    return text;
  }
}

define(AttnGptHeads);
