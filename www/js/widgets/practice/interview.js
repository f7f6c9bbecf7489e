// <attn-interview>: §8's two interview questions. The learner writes an answer
// (kept only in the page), then reveals a model answer in a <details>.
// Formulas are typeset with KaTeX; there are no numbers to compute here.
//
//   state: none

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { adoptTex, tex, usePrebuilt } from '../../ui/tex.js';
import { interview as TYPESET } from '../../ui/formulas.gen.js';
import { fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS } from '../base/lesson-css.js';

usePrebuilt(TYPESET);

class Interview extends AttnWidget {
  static tag = 'attn-interview';
  static css = `${NOTE_WIDGET_CSS}
    .iq { border: 1px solid var(--_line); border-radius: 10px; padding: 10px 12px; margin-top: 10px; }
    textarea { width: 100%; min-height: 4.5em; font: inherit; font-size: .9rem; color: var(--_fg); background: var(--_bg);
      border: 1px solid var(--_line); border-radius: 8px; padding: 6px 8px; resize: vertical; }
    details { margin-top: 8px; }
    summary { cursor: pointer; font-weight: 600; color: var(--_accent); }
    details ul { margin: 6px 0 0; padding-left: 1.2em; }
    details li { margin: 4px 0; }`;

  build(root) {
    adoptTex(this.shadowRoot);
    const q = (n, ...answer) => h('div', { class: 'iq', 'data-interview': n },
      k('h3', `b.iv.${n}.q`),
      h('textarea', { 'data-k-aria': 'b.iv.yours', 'data-k-placeholder': 'b.iv.yours' }),
      h('details', {}, k('summary', 'b.iv.reveal'), ...answer));
    root.append(
      k('p', 'b.iv.lead', { class: 'lead' }),
      q(1,
        tex('\\operatorname{Attention}(Q,K,V)=\\underbrace{\\operatorname{softmax}\\!\\Big(\\underbrace{\\tfrac{QK^{\\top}}{\\sqrt{d_k}}}_{(T,\\,T)}+M\\Big)}_{(T,\\,T)}\\;\\underbrace{V}_{(T,\\,d_v)}', true),
        k('p', 'b.iv.1.shapes'),
        h('ul', {}, k('li', 'b.iv.1.a'), k('li', 'b.iv.1.b'), k('li', 'b.iv.1.c'))),
      q(2, h('ul', {}, k('li', 'b.iv.2.a'), k('li', 'b.iv.2.b'), k('li', 'b.iv.2.c'))),
    );
    this.render(); // its text needs no core: the final layout before the core arrives
  }

  render() {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    for (const el of this.shadowRoot.querySelectorAll('[data-k-placeholder]')) el.placeholder = this.t(el.dataset.kPlaceholder);
  }
}

define(Interview);
