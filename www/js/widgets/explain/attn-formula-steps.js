// <attn-formula-steps>: walks softmax(mask(QKᵀ/√d_k))·V one step at a time,
// QKᵀ → scale → mask → softmax → ·V, with the current term highlighted in the
// typeset formula.
//
//   stepper.latex = core.formulaLatex();
//   stepper.steps = lab.formulaSteps();   // [{name, term, span, produces, active, factor, masked_cells, output}]
//   stepper.tokens = ['h', 'o', 'u'];     // labels of the output matrix (show-output)
//
//   properties:  steps, latex, index (0-based current step), tokens
//   attributes:  lang (en | zh; default: the page's), show-output (draw the step's
//                output matrix under the formula)
//   events:      'step-change' {index, name, produces} (bubbles, composed) when the
//                learner moves to another step
//   keyboard:    ← / → (and Home / End) anywhere in the element, or the two buttons.
//   pinned:      an attribute its host sets while it keeps the stepper stuck on screen
//                (in-view.js followSteps): drawn raised over the page.
// The numbers (factor, masked cells, shapes, the output) come from formulaSteps().
// The buttons stay where they are from step to step: they come first on their line,
// and the formula, the step's name and its description each take the room of the
// largest of their kind (every step's, hidden, in the same grid cell): no step moves them.

import '../../ui/matrix/attn-matrix.js';
import { BASE_CSS, sheet } from '../../ui/widget-css.js';
import { followScheme, unfollowScheme } from '../../ui/color-scheme.js';
import { langOf, onLangChange, t } from '../../i18n/i18n.js';
import { formatNum, subscript } from '../../ui/format.js';
import { adoptTex, tex, usePrebuilt } from '../../ui/tex.js';
import { steps as TYPESET } from '../../ui/formulas.gen.js';
import { highlighted } from '../../ui/tex-mark.js';
import { onTouchChange, touchScreen } from '../../ui/matrix/touch.js';

usePrebuilt(TYPESET);

/** DOM writes only when something changed: a redraw after every edit stays cheap. */
const setText = (node, text) => { if (node.textContent !== text) node.textContent = text; };
const setAttr = (node, name, value) => { if (node.getAttribute(name) !== value) node.setAttribute(name, value); };

// The highlight is a box in the formula; dark text keeps it readable in either theme.

const CSS = `
:host { display: block; }
.frame { padding: 10px 14px; }
.title { font-weight: 600; font-size: .92rem; margin: 0 0 2px; }
.formula { overflow-x: auto; overflow-y: hidden; padding: 2px 4px; border-radius: 8px; font-size: .95rem; }
.formula:focus-visible { outline-offset: 0; }
.formula .katex-display { margin: .45em 0; }
.nav { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; }
.count-room { font-weight: 600; font-size: .9rem; }
.count-room .name { color: var(--_accent); }
button[aria-disabled="true"] { opacity: .45; cursor: default; }
.desc-room { margin: 6px 0 0; font-size: .9rem; }
.desc-room p { margin: 0; min-height: 1.5em; }
/* Each room is as large as the largest of its texts: all in one grid cell, one shown. */
.count-room, .desc-room, .formula-room { display: grid; }
.formula-room { grid-template-columns: minmax(0, 1fr); }
.count-room > *, .desc-room > *, .formula-room > * { grid-area: 1 / 1; }
.sizer { visibility: hidden; }
.keys { margin: 4px 0 0; font-size: .8rem; }
.keys:empty::before { content: "\\a0"; } /* no keys to name on a touch screen: its line stays */
:host([pinned]) .frame { box-shadow: 0 8px 24px rgb(20 22 40 / .22); }
attn-matrix { margin-top: 8px; }
`;

const styles = () => [sheet(BASE_CSS), sheet(CSS)];

class AttnFormulaSteps extends HTMLElement {
  static observedAttributes = ['lang', 'show-output'];

  #steps = [];
  #typeset = new Map(); // highlighted latex -> typeset node
  #latex = '';
  #index = 0;
  #tokens = [];
  #offLang = null;
  #offTouch = null;
  #sizers = ''; // what the hidden texts that size the rooms say
  #ui = {};

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = styles();
    root.innerHTML = '<div class="frame" part="frame"><p class="title" id="title"></p>'
      + '<div class="formula-room"><div class="formula"></div></div>'
      + '<div class="nav" role="group" aria-labelledby="title">'
      + '<button type="button" class="prev"></button><button type="button" class="next"></button>'
      + '<span class="count-room"><span class="count" aria-live="polite"></span></span></div>'
      + '<div class="desc-room"><p class="desc" aria-live="polite"></p></div><attn-matrix hidden></attn-matrix>'
      + '<p class="keys muted"></p></div>';
    for (const name of ['title', 'formula', 'prev', 'next', 'count', 'desc', 'keys']) {
      this.#ui[name] = root.querySelector(name === 'title' ? '#title' : `.${name}`);
    }
    this.#ui.formulaRoom = root.querySelector('.formula-room');
    this.#ui.countRoom = root.querySelector('.count-room');
    this.#ui.descRoom = root.querySelector('.desc-room');
    this.#ui.matrix = root.querySelector('attn-matrix');
    this.#ui.prev.addEventListener('click', () => this.#go(this.#index - 1));
    this.#ui.next.addEventListener('click', () => this.#go(this.#index + 1));
    root.addEventListener('keydown', (e) => this.#onKey(e));
    adoptTex(root).catch(() => {});
  }

  connectedCallback() {
    followScheme(this); // its palette: its own theme, or that of the widget it sits in
    this.#offLang ??= onLangChange(() => {
      if (!this.hasAttribute('lang')) this.#render();
    }, this);
    this.#offTouch ??= onTouchChange(() => this.#render()); // the keys line names no key on a touch screen
    this.#render();
  }

  disconnectedCallback() {
    unfollowScheme(this);
    this.#offLang?.();
    this.#offLang = null;
    this.#offTouch?.();
    this.#offTouch = null;
  }

  attributeChangedCallback() {
    this.#render();
  }

  get language() {
    return langOf(this);
  }

  get steps() { return this.#steps; }
  set steps(list) {
    this.#steps = Array.isArray(list) ? list : Array.from(list ?? []);
    this.#index = Math.min(this.#index, Math.max(0, this.#steps.length - 1));
    this.#render();
  }

  get latex() { return this.#latex; }
  set latex(s) {
    const next = String(s ?? '');
    if (next !== this.#latex) this.#typeset.clear();
    this.#latex = next;
    this.#render();
  }

  get index() { return this.#index; }
  set index(i) {
    if (Number.isInteger(i) && i >= 0 && i < this.#steps.length) {
      this.#index = i;
      this.#render();
    }
  }

  get tokens() { return this.#tokens.slice(); }
  set tokens(list) {
    this.#tokens = Array.from(list ?? [], String);
    this.#render();
  }

  get current() { return this.#steps[this.#index] ?? null; }

  #go(i) {
    if (!Number.isInteger(i) || i < 0 || i >= this.#steps.length || i === this.#index) return;
    this.#index = i;
    this.#render();
    const { name, produces } = this.current;
    this.dispatchEvent(new CustomEvent('step-change', {
      bubbles: true, composed: true, detail: { index: i, name, produces },
    }));
  }

  #onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const path = e.composedPath();
    if (path.includes(this.#ui.matrix)) return; // its own arrow keys move between cells
    const next = { ArrowLeft: this.#index - 1, ArrowRight: this.#index + 1, Home: 0, End: this.#steps.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    this.#go(next);
  }

  /** The formula with the step's term boxed (the span is where the term sits in latex). */
  #highlighted(step) {
    return highlighted(this.#latex, step);
  }

  /** "Step 2 of 5: " and the step's name. */
  #countText(i, lang) {
    const lead = `${t('c.stepOf', { i: i + 1, n: this.#steps.length }, lang)}${t('c.colon', {}, lang)}`;
    return [lead, t(`c.stepName.${this.#steps[i].name}`, {}, lang)];
  }

  /** Every step's formula, count line and description, hidden, each in its room: the
   *  rooms are as large as the largest, whichever step is shown (the highlight changes
   *  the formula's height). Made again when they change. */
  #drawSizers(lang) {
    const counts = this.#steps.map((_, i) => this.#countText(i, lang).join(''));
    const descs = this.#steps.map((step) => this.#description(step, lang));
    const formulas = this.#latex ? [...new Set(this.#steps.map((step) => this.#highlighted(step)))] : [];
    const key = JSON.stringify([counts, descs, formulas]);
    if (key === this.#sizers) return;
    this.#sizers = key;
    const sizer = (tag, cls, content) => {
      const node = document.createElement(tag);
      node.className = `${cls} sizer`.trim();
      node.setAttribute('aria-hidden', 'true');
      node.append(content);
      return node;
    };
    const rooms = [
      [this.#ui.countRoom, counts.map((text) => sizer('span', '', text))],
      [this.#ui.descRoom, descs.map((text) => sizer('p', '', text))],
      [this.#ui.formulaRoom, formulas.map((latex) => sizer('div', 'formula', tex(latex, true)))],
    ];
    for (const [room, nodes] of rooms) {
      for (const old of room.querySelectorAll('.sizer')) old.remove();
      room.append(...nodes);
    }
  }

  #description(step, lang) {
    const vars = { rows: step.output?.rows, cols: step.output?.cols };
    switch (step.name) {
      case 'scale':
        return step.active ? t('c.step.scale', { f: formatNum(step.factor) }, lang) : t('c.step.scaleOff', {}, lang);
      case 'mask':
        return step.active ? t('c.step.mask', { n: step.masked_cells }, lang) : t('c.step.maskOff', {}, lang);
      default:
        return t(`c.step.${step.name}`, vars, lang);
    }
  }

  #render() {
    const lang = this.language;
    const ui = this.#ui;
    const steps = this.#steps;
    const step = this.current;
    setText(ui.title, t('c.stepsLabel', {}, lang));
    setText(ui.prev, t('c.prev', {}, lang));
    setText(ui.next, t('c.next', {}, lang));
    setText(ui.keys, touchScreen() ? '' : t('c.stepKeys', {}, lang));
    setAttr(ui.prev, 'aria-disabled', String(this.#index <= 0));
    setAttr(ui.next, 'aria-disabled', String(this.#index >= steps.length - 1));
    this.#drawSizers(lang);
    if (!step) {
      setText(ui.count, '');
      setText(ui.desc, '');
      ui.formula.replaceChildren();
      ui.matrix.hidden = true;
      return;
    }
    const [lead, name] = this.#countText(this.#index, lang);
    const [first, count] = ui.count.childNodes;
    if (ui.count.childNodes.length === 2 && first.nodeType === Node.TEXT_NODE && count.className === 'name') {
      if (first.data !== lead) first.data = lead;
      setText(count, name);
    } else {
      const span = document.createElement('span');
      span.className = 'name';
      span.textContent = name;
      ui.count.replaceChildren(lead, span);
    }
    setText(ui.desc, this.#description(step, lang));
    if (this.#latex) {
      // Typesetting is the slow part of a redraw: each highlighted variant is made once.
      const latex = this.#highlighted(step);
      let node = this.#typeset.get(latex);
      if (!node) {
        node = tex(latex, true);
        this.#typeset.set(latex, node);
      }
      if (ui.formula.firstChild !== node) ui.formula.replaceChildren(node);
    }
    if (ui.formula.dataset.step !== step.name) ui.formula.dataset.step = step.name;
    this.#renderOutput(step);
  }

  #renderOutput(step) {
    const m = this.#ui.matrix;
    m.hidden = !this.hasAttribute('show-output') || !step.output;
    if (m.hidden) return;
    const { rows, cols } = step.output;
    const tokens = (n) => Array.from({ length: n }, (_, i) => this.#tokens[i] ?? String(i));
    const out = step.produces === 'out';
    m.setAttribute('label', step.produces);
    m.setAttribute('palette', step.produces === 'weights' ? 'weights' : 'signed');
    m.rowLabels = tokens(rows);
    m.colLabels = out ? Array.from({ length: cols }, (_, i) => subscript('d', i)) : tokens(cols);
    m.value = step.output;
  }
}

if (!customElements.get('attn-formula-steps')) customElements.define('attn-formula-steps', AttnFormulaSteps);

export { AttnFormulaSteps };
