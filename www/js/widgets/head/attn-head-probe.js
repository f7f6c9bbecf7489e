// <attn-head-probe>: one score computed two ways, and one output taken apart (LESSON §3).
//
//   <attn-head-probe for="head" receiver="2" source="0">
//
// T = tokens, C = channels. Rust returns M (C, C) with score(i→j) = x_i M x_jᵀ
// (in nn.Linear's (d, C) layout M = W_qᵀ W_k; the math texts write W_q W_kᵀ),
// the full score matrix both ways, and the receiver's output as a sum of
// weight × value rows. `for` = id of an <attn-head> whose weights it follows.
// state = { receiver, source }.
// Every cell of M, q kᵀ and x M xᵀ explains itself (core.explainProbe with
// the same head): an M cell is a column of W_q dotted with a column of W_k over d.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { formatCell as num, formatCells as vec, formatDiff as err, subscripted as sub } from '../../ui/format.js';
import { LessonWidget as PartAWidget, linkedHead } from '../base/lesson-widget.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';
import { tex, texEscape, usePrebuilt } from '../../ui/tex.js';
import { probe as TYPESET } from '../../ui/formulas.gen.js';
import { probeLatex } from '../../ui/formulas.js';
import { explainGrids } from '../explain/explain-grids.js';
import { FOLLOWER_CSS, drawsInFrame } from './draw-in-frame.js';
import { setText } from '../../ui/matrix/attn-matrix-table.js';

usePrebuilt(TYPESET);

/** Fills `box` with `make()`'s nodes, unless `key` says they would be the ones shown. */
function fill(box, key, make) {
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...make());
}

class AttnHeadProbe extends drawsInFrame(PartAWidget) {
  static tag = 'attn-head-probe';
  static attrs = ['for', 'receiver', 'source'];

  #s = null;
  #ui = {};

  get state() {
    return { ...(this.#s ?? { receiver: Number(this.getAttribute('receiver') ?? 2), source: Number(this.getAttribute('source') ?? 0) }) };
  }

  set state(s) {
    const ok = (v) => Number.isInteger(v) && v >= 0 && v < 16;
    if (!ok(s?.receiver) || !ok(s?.source)) throw new Error('receiver, source: expected token indices');
    this.#s = { receiver: s.receiver, source: s.source };
    this.refresh();
  }

  make(root) {
    const ui = this.#ui;
    const pick = (key) => {
      const select = h('select', {});
      select.addEventListener('change', () => {
        this.#s = { ...this.state, [key]: Number(select.value) };
        this.refresh();
        this.emitChange();
      });
      return { select, text: h('span') };
    };
    ui.receiver = pick('receiver');
    ui.source = pick('source');
    ui.tables = tableSwitch(this, root);
    ui.m = matrixBlock({ label: 'M' });
    ui.qk = matrixBlock({ label: 'scores' });
    ui.viaM = matrixBlock({ label: 'x M xᵀ' });
    ui.formula = h('div', { class: 'formula' });
    ui.facts = h('div', { class: 'col' });
    ui.termsTitle = h('h3');
    ui.terms = h('div', { class: 'terms' });
    ui.msg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
    // Kinds by grid: the explanation is of exactly the head drawn (linkedHead).
    const kinds = new Map([[ui.m.matrix, 'M'], [ui.qk.matrix, 'scores'], [ui.viaM.matrix, 'x M xᵀ']]);
    ui.explain = explainGrids(this, {
      grids: () => [...kinds.keys()],
      explain: (grid, row, col) => this.core.explainProbe(linkedHead(this), kinds.get(grid), row, col),
      key: () => JSON.stringify([linkedHead(this), this.#tokens()]),
      panel: (grid, panel) => { panel.tokens = this.#tokens(); },
    });
    root.append(h('div', { class: 'controls' }, h('label', {}, ui.receiver.text, ui.receiver.select),
      h('label', {}, ui.source.text, ui.source.select), ui.tables.el), ui.msg, ui.formula,
    h('div', { class: 'grid' }, h('div', { class: 'panel' }, ui.m.el), h('div', { class: 'panel' }, h('div', { class: 'row' }, ui.qk.el, ui.viaM.el)),
      h('div', { class: 'panel' }, ui.facts)),
    h('div', { class: 'panel terms-panel' }, ui.termsTitle, ui.terms), ui.explain.panel);
  }

  #tokens() {
    return document.getElementById(this.getAttribute('for'))?.state?.tokens ?? ['h', 'o', 'u'];
  }

  draw(core) {
    const ui = this.#ui;
    const head = linkedHead(this);
    const tokens = this.#tokens();
    ui.explain.sync();
    const s = this.state;
    const receiver = Math.min(s.receiver, tokens.length - 1);
    const source = Math.min(s.source, tokens.length - 1);
    for (const [key, idx] of [['receiver', receiver], ['source', source]]) {
      const { select, text } = ui[key];
      setText(text, this.t(`a.probe.${key}`));
      if (select.options.length !== tokens.length || [...select.options].some((o, i) => o.textContent !== tokens[i])) {
        select.replaceChildren(...tokens.map((t, i) => h('option', { value: String(i) }, t)));
      }
      if (select.value !== String(idx)) select.value = String(idx);
    }
    ui.tables.label();
    let r;
    let o;
    try {
      r = core.scoreTwoWays(head, receiver, source);
      o = core.outputTerms(head, receiver);
    } catch (e) {
      ui.msg.textContent = message(e);
      ui.msg.hidden = false;
      return;
    }
    if (!ui.msg.hidden) ui.msg.hidden = true;
    const a = texEscape(tokens[receiver]); // tokens may come from a link: never LaTeX commands
    const b = texEscape(tokens[source]);
    // Typeset again only for other tokens (typesetting is the slow part of a redraw).
    const latex = probeLatex(a, b);
    fill(ui.formula, latex, () => [tex(latex, true)]);
    const cs = sub('c', r.m.cols);
    ui.m.set(r.m, cs, cs);
    setText(ui.m.caption, this.t('a.probe.m'));
    ui.qk.set(r.scores_qk, tokens, tokens);
    setText(ui.qk.caption, 'q kᵀ');
    ui.viaM.set(r.scores_m, tokens, tokens);
    setText(ui.viaM.caption, 'x M xᵀ');
    // Facts and terms are made again only when their text changes (an edit of W_v
    // changes the terms, not the scores).
    const facts = [
      [this.t('a.probe.viaQK', { a, b }), num(r.score)],
      [this.t('a.probe.viaM', { a, b }), num(r.score_via_m)],
      [this.t('a.probe.reversed', { a, b }), num(r.score_reversed)],
      [this.t('a.probe.maxErr'), err(r.max_err)],
    ];
    const verdict = this.t(r.m_symmetric ? 'a.probe.symmetric' : 'a.probe.asymmetric', { a, b });
    const fact = ([text, value]) => h('p', { class: 'fact' }, text, ' ', h('b', { class: 'value ' }, value));
    fill(ui.facts, JSON.stringify([facts, verdict]), () => [...facts.map(fact), h('p', { class: 'msg info' }, verdict)]);
    setText(ui.termsTitle, this.t('a.probe.terms', { a }));
    const terms = Array.from(o.terms, (t) => [num(t.weight), vec(t.value), ` (${tokens[t.source]})`]);
    const out = vec(o.out);
    if (ui.termTexts?.length !== terms.length) {
      // as many terms as tokens: made when their number changes, else updated in place
      ui.termTexts = terms.map(() => [h('b', { class: 'value' }), h('span', { class: 'value' }), h('span', { class: 'muted' })]);
      ui.outText = h('b', { class: 'value result' });
      const spans = ui.termTexts.map(([w, v, from]) => h('span', { class: 'term' }, w, '·', v, from));
      const joined = spans.flatMap((t, i) => (i ? [h('span', { class: 'op' }, '+'), t] : [t]));
      ui.terms.replaceChildren(...joined, h('span', { class: 'op' }, '='), ui.outText);
    }
    terms.forEach((texts, i) => texts.forEach((text, j) => setText(ui.termTexts[i][j], text)));
    setText(ui.outText, out);
  }
}

AttnHeadProbe.css = `${PartAWidget.css}${FOLLOWER_CSS}
.terms-panel { margin-top: 12px; }
.terms { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: baseline; font-size: 1rem; }
.op { color: var(--_muted); font-weight: 700; }
.result { background: #fde68a; color: #1b1e27; border-radius: 4px; padding: 0 5px; }
.formula { margin: 4px 0 8px; }
`;

define(AttnHeadProbe);
