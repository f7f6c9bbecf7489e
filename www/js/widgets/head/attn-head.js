// <attn-head>: one self-attention head the learner edits (LESSON §3, page section 4).
//
//   <attn-head weights="hou" sequence="hou|you" causal scaled="false" readonly lang="zh">
//   <attn-play sequence="hou|you">   the same head, compact (the page's first screen)
//
// T = tokens, C = channels, d = head size. x (T, C) and W_q, W_k, W_v (d, C) are
// editable grids; Rust's HeadLab computes q, k, v, scores, masked scores, weights
// and out, drawn as heatmaps. A bad cell is marked beside itself and the last valid
// result stays on screen. state = { x, W_q, W_k, W_v, causal, scaled, tokens }.
// Explaining a number: output grids carry `explainable`; their bubbling `cell-explain`
// fills <attn-explain>, and <attn-formula-steps> gets the formula's steps.

import { t } from '../../i18n/i18n.js';
import { AttnWidget, define, message } from '../../ui/widget-base.js';
import { adoptTex, usePrebuilt } from '../../ui/tex.js';
import { head as TYPESET } from '../../ui/formulas.gen.js';
import { HEAD_FIRST } from './head-first.gen.js';
import { HEAD_CSS } from './attn-head-css.js';
import { boolAttr, checkBool, checkMatrix, plain } from '../../ui/cell-checks.js';
import { subscripted as sub } from '../../ui/format.js';
import { LESSON_WIDGET_CSS } from '../base/lesson-css.js';
import { HeadView, INPUTS, OUTPUTS } from './head-view.js';

usePrebuilt(TYPESET);

// A switch as its attribute sets it; a bad value draws the default (render() says what
// was wrong).
const flag = (el, name, fallback) => {
  try {
    return boolAttr(el, name, fallback);
  } catch {
    return fallback;
  }
};

class AttnHead extends AttnWidget {
  static tag = 'attn-head';
  static attrs = ['weights', 'scaled', 'causal', 'sequence'];
  static css = LESSON_WIDGET_CSS + HEAD_CSS;

  #lab = null;
  #attrKey = '';
  #pending = null;
  #last = null;
  #view = null;
  #state = null; // the lab's state as plain data, until the lab changes (#changed)
  #early = []; // cells typed before the core arrived: [grid, name, row, col, text]
  #switched = false; // a switch was turned before the core arrived (into #pending)
  #firstSteps = null; // the built-in head whose steps the stepper is to draw before the core

  attributeChangedCallback(name, oldValue, newValue) {
    super.attributeChangedCallback(name, oldValue, newValue);
    // Before the core (render() waits for it): the head drawn so far follows at once.
    if (oldValue !== newValue && this.#view && !this.#lab) {
      this.#view.drawText();
      this.#drawPlaceholder();
    }
  }

  build(root) {
    this.#view = new HeadView(this, root, {
      switch: (name, on) => this.#setSwitch(name, on),
      reset: () => this.#reset(),
      word: (w) => this.#setWord(w),
    });
    root.addEventListener('cell-edit', (e) => this.#onCellEdit(e));
    root.addEventListener('cell-explain', (e) => this.#onExplain(e));
    adoptTex(this.shadowRoot).catch(() => {});
    // The final layout before the core arrives, so that its numbers land in place: every
    // text, switch and formula, the stepper's room, and each grid at its final shape.
    this.#view.drawText();
    this.#drawPlaceholder();
  }

  /** Before the first draw. The built-in head (no matrices or tokens set before the
   *  core arrived) is drawn with its own numbers, which the core computed when the site
   *  was built (tools/head-first.mjs): they are on screen in the page's first frame, not a
   *  frame after the wasm has arrived and compiled. Otherwise the grids are drawn at the
   *  shapes the head will have, their cells empty. The switches, the sequence and the
   *  formulas are as the attributes (or that state) set them. */
  #drawPlaceholder() {
    const p = this.#pending ?? {};
    const switches = this.#switches(p);
    const first = INPUTS.some((name) => p[name]) || p.tokens ? null : HEAD_FIRST[`${switches.causal}|${switches.scaled}`];
    if (first) {
      this.#view.drawInputs(first.state);
      this.#view.drawResult(first.state, first.result);
      // The stepper (its room is kept) in a task after that frame: its formula's DOM and
      // layout would make the first frame some 25 ms later (traced, a cold one-head load).
      this.#firstSteps = first;
      requestAnimationFrame(() => setTimeout(() => {
        if (!this.#lab && this.#firstSteps === first) this.#view.drawSteps(first.state, first.latex, () => first.steps);
      }, 0));
      return;
    }
    this.#firstSteps = null;
    this.#view.drawEmpty(p, switches);
  }

  // ---- state ----

  get state() {
    if (!this.#lab) return this.#pending ?? {};
    // Read once from Rust per change of the lab: the followers, the URL and the explain
    // keys all ask for it after each edit. Each caller gets its own copy.
    if (!this.#state) {
      const s = this.#lab.state();
      this.#state = {
        x: plain(s.x), W_q: plain(s.W_q), W_k: plain(s.W_k), W_v: plain(s.W_v),
        causal: s.causal, scaled: s.scaled, tokens: Array.from(s.tokens),
      };
    }
    const s = this.#state;
    const copy = (m) => ({ rows: m.rows, cols: m.cols, data: m.data.slice() });
    return {
      x: copy(s.x), W_q: copy(s.W_q), W_k: copy(s.W_k), W_v: copy(s.W_v),
      causal: s.causal, scaled: s.scaled, tokens: s.tokens.slice(),
    };
  }

  /** What the core computed from the state on screen: `{ q, k, v, scores, masked_scores,
   *  weights, out }`, each `{ rows, cols, data }` (masked scores hold -Infinity), copied;
   *  null before the first draw and while the inputs cannot run (the page shows the last
   *  valid result greyed). */
  get result() {
    const r = this.#last;
    if (!r || this.#view?.stale) return null;
    return Object.fromEntries(OUTPUTS.map((name) => [name, plain(r[name])]));
  }

  /** The lab's numbers changed: the cached state is stale. */
  #changed() {
    this.#state = null;
  }

  set state(s) {
    if (!s || typeof s !== 'object') throw new Error('state: expected an object');
    const next = {};
    for (const name of INPUTS) if (s[name] != null) next[name] = checkMatrix(s[name], name);
    if (s.causal != null) next.causal = checkBool(s.causal, 'causal');
    if (s.scaled != null) next.scaled = checkBool(s.scaled, 'scaled');
    if (s.tokens != null) {
      const ok = Array.isArray(s.tokens) && s.tokens.every((t) => typeof t === 'string' && t.length <= 8);
      if (!ok) throw new Error('tokens: expected a list of short strings');
      next.tokens = s.tokens.slice();
    }
    this.#dropEarly(); // a whole new state: what was typed or switched before it is gone
    if (!this.core || !this.#lab) {
      // Before the first draw: check it now (a link's numbers the core refuses make
      // the page's URL notice, not a late inline error), draw it on first render.
      if (this.core) this.#makeLab(next).free();
      this.#pending = next;
      if (!this.#lab) this.#drawPlaceholder(); // its shapes, until the first draw
      return;
    }
    const lab = this.#makeLab(next); // throws on shapes the head cannot run
    this.#lab?.free();
    this.#lab = lab;
    this.#changed();
    this.#pending = null;
    this.#redraw(true);
  }

  /** The switches of state `over` where it sets them, else as the attributes set them. */
  #switches(over) {
    return { causal: over.causal ?? flag(this, 'causal', true), scaled: over.scaled ?? flag(this, 'scaled', false) };
  }

  /** A HeadLab from the attributes, then `over` (validated state); throws if it cannot run. */
  #makeLab(over = {}) {
    const lab = new this.core.HeadLab();
    try {
      const { causal, scaled } = this.#switches(over);
      lab.setCausal(causal);
      lab.setScaled(scaled);
      for (const name of INPUTS) {
        const m = over[name];
        if (m) lab.setMatrix(name, m.rows, m.cols, new Float64Array(m.data));
      }
      const rows = lab.state().x.rows;
      if (over.tokens && over.tokens.length !== rows) throw new Error('tokens: one per row of x');
      if (over.tokens || rows !== 3) lab.setTokens(over.tokens ?? sub('t', rows));
      lab.compute();
    } catch (e) {
      lab.free();
      throw e;
    }
    return lab;
  }

  // ---- drawing ----

  render() {
    const weights = this.getAttribute('weights');
    // An unknown name or a bad switch is said, and the built-in head is drawn (the switch
    // at its default): never empty cards.
    let bad = weights && weights !== 'hou' ? this.t('a.head.badWeights', { w: weights }) : null;
    for (const name of ['causal', 'scaled']) {
      try {
        boolAttr(this, name, false);
      } catch (e) {
        bad ??= message(e);
      }
    }
    const key = ['weights', 'scaled', 'causal'].map((a) => this.getAttribute(a)).join('|');
    if (!this.#lab || key !== this.#attrKey || this.#pending) {
      this.#attrKey = key;
      const pending = this.#pending;
      this.#pending = null;
      let lab;
      try {
        lab = this.#makeLab(pending ?? {});
      } catch (e) {
        this.showError(message(e));
        lab = this.#makeLab();
      }
      this.#lab?.free();
      this.#lab = lab;
      this.#changed();
    }
    this.#view.drawText();
    this.#redraw(false);
    // Cells typed before the core arrived, now that there is a lab to take them; they and
    // the switches turned meanwhile are the learner's change.
    const early = this.#early.splice(0).filter((cell) => this.#setCell(...cell));
    if (early.length) this.#redraw(false);
    if (early.length || this.#switched) this.emitChange();
    this.#switched = false;
    if (bad) this.showError(bad);
  }

  /** Draws the inputs Rust holds, then every intermediate (or keeps the last on error). */
  #redraw(inputsToo) {
    this.state; // fills the cache
    const s = this.#state;
    const view = this.#view;
    if (inputsToo || !this.#last) for (const name of INPUTS) view.blocks[name].matrix.clearErrors?.();
    view.drawInputs(s);
    let r;
    try {
      r = this.#lab.compute();
    } catch (e) {
      view.drawStale(this.t('computeFailed', { msg: message(e) }), s.scaled, this.#last);
      return false;
    }
    this.#last = r;
    view.drawFresh();
    view.drawResult(s, r);
    view.drawSteps(s, this.#lab.formulaLatex?.() ?? this.core.formulaLatex(), () => this.#lab.formulaSteps());
    return true;
  }

  // ---- interaction ----

  /** A switch the learner turned: into the lab, or, before the core has arrived, into the
   *  state the lab will be made from (the built-in head's numbers follow it). */
  #setSwitch(name, on) {
    if (this.readonly) return;
    if (!this.#lab) {
      this.#pending = { ...this.#pending, [name]: on };
      this.#switched = true;
      this.#drawPlaceholder();
      return;
    }
    this.#edit(() => (name === 'causal' ? this.#lab.setCausal(on) : this.#lab.setScaled(on)));
  }

  /** Applies a change to the lab, redraws, and tells the host. */
  #edit(fn) {
    if (!this.#lab) return;
    try {
      fn();
    } catch (e) {
      this.#changed(); // fn may have changed part of the lab before it threw
      this.showError(message(e));
      return;
    }
    this.#changed();
    this.clearError();
    this.#redraw(false);
    this.#announce();
  }

  #announce() {
    this.emitChange();
    this.dispatchEvent(new CustomEvent('attn-rendered', { bubbles: true, composed: true }));
  }

  #setWord(word) {
    this.#edit(() => {
      const x = this.core.compareWords(word, word, {}).a.x; // the word's one-hot rows, from Rust
      this.#lab.setMatrix('x', x.rows, x.cols, new Float64Array(x.data));
      this.#lab.setTokens([...word]);
    });
  }

  #onCellEdit(e) {
    const el = e.composedPath()[0]?.closest?.('attn-matrix') ?? e.target;
    const name = el.id;
    if (!INPUTS.includes(name) || this.readonly) return;
    const { row, col, text } = e.detail;
    if (!this.#lab) {
      // Typed while the core is on its way (the built-in head's numbers are on screen by
      // then): kept, and given to the lab once it is made (render).
      this.#early.push([el, name, row, col, text]);
      return;
    }
    if (!this.#setCell(el, name, row, col, text)) return;
    this.#redraw(false); // draws the edited grid too (the cell being typed in keeps its text)
    this.#announce();
  }

  /** Forgets the cells typed and the switches turned before the core arrived; each grid
   *  typed in shows its own numbers again. */
  #dropEarly() {
    for (const [grid] of this.#early) grid.revert();
    this.#early = [];
    this.#switched = false;
  }

  /** One cell's text into the lab (the core reads the number); false, with the cell
   *  marked, when it is not one. */
  #setCell(el, name, row, col, text) {
    try {
      this.#lab.setCell(name, row, col, text);
    } catch (err) {
      // Number errors come with a code and are said in the grid's language, live.
      el.setCellError(row, col, (lang) => (err?.code ? '' : t('invalidPrefix', {}, lang)) + message(err, lang));
      return false;
    }
    this.#changed();
    el.clearCellError(row, col);
    return true;
  }

  #reset() {
    if (!this.#lab) {
      // Before the core: back to the attributes' head, nothing typed or switched kept.
      this.#pending = null;
      this.#dropEarly();
      this.#drawPlaceholder();
      return;
    }
    this.#lab.free();
    this.#lab = this.#makeLab();
    this.#changed();
    this.clearError();
    for (const name of INPUTS) this.#view.blocks[name].matrix.clearErrors();
    this.#redraw(true);
    this.#announce();
  }

  #onExplain(e) {
    const { row, col, label } = e.detail ?? {};
    if (!this.#lab || !OUTPUTS.includes(label)) return;
    let ex;
    try {
      ex = this.#lab.explain(label, row, col);
    } catch (err) {
      this.showError(message(err));
      return;
    }
    this.#view.ui.explain.explanation = ex;
    this.#view.highlight(Array.from(ex?.sources ?? []));
  }
}

define(AttnHead);

/** <attn-play>: the same head, compact, for a page's first screen (index.html #play): x and
 *  the weights grid (with W_q, W_k, W_v and out where there is room), no stepper, legend or
 *  notes. Every cell edits and every number explains as in <attn-head>; it keeps no URL
 *  state. Its own tag, so that it is never taken for the lesson's head. */
class AttnPlay extends AttnHead {
  static tag = 'attn-play';
}

define(AttnPlay);
