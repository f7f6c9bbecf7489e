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
// The numbers (factor, masked cells, shapes, the output) come from formulaSteps().

import '../../ui/matrix/attn-matrix.js';
import { BASE_CSS, sheet } from '../../ui/widget-css.js';
import { followScheme, unfollowScheme } from '../../ui/color-scheme.js';
import { langOf, onLangChange, t } from '../../i18n/i18n.js';
import { formatNum, subscript } from '../../ui/format.js';
import { adoptTex, tex, usePrebuilt } from '../../ui/tex.js';
import { steps as TYPESET } from '../../ui/formulas.gen.js';
import { highlighted } from '../../ui/tex-mark.js';

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
.count { font-weight: 600; font-size: .9rem; min-width: 9em; }
.count .name { color: var(--_accent); }
button[aria-disabled="true"] { opacity: .45; cursor: default; }
.desc { margin: 6px 0 0; font-size: .9rem; min-height: 1.5em; }
.keys { margin: 4px 0 0; font-size: .8rem; }
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
  #ui = {};

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = styles();
    root.innerHTML = '<div class="frame" part="frame"><p class="title" id="title"></p>'
      + '<div class="formula"></div>'
      + '<div class="nav" role="group" aria-labelledby="title">'
      + '<button type="button" class="prev"></button><span class="count" aria-live="polite"></span>'
      + '<button type="button" class="next"></button></div>'
      + '<p class="desc" aria-live="polite"></p><attn-matrix hidden></attn-matrix>'
      + '<p class="keys muted"></p></div>';
    for (const name of ['title', 'formula', 'prev', 'next', 'count', 'desc', 'keys']) {
      this.#ui[name] = root.querySelector(name === 'title' ? '#title' : `.${name}`);
    }
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
    this.#render();
  }

  disconnectedCallback() {
    unfollowScheme(this);
    this.#offLang?.();
    this.#offLang = null;
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
    setText(ui.keys, t('c.stepKeys', {}, lang));
    setAttr(ui.prev, 'aria-disabled', String(this.#index <= 0));
    setAttr(ui.next, 'aria-disabled', String(this.#index >= steps.length - 1));
    if (!step) {
      setText(ui.count, '');
      setText(ui.desc, '');
      ui.formula.replaceChildren();
      ui.matrix.hidden = true;
      return;
    }
    const name = t(`c.stepName.${step.name}`, {}, lang);
    const lead = `${t('c.stepOf', { i: this.#index + 1, n: steps.length }, lang)}${t('c.colon', {}, lang)}`;
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
