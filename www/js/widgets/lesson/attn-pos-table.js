// <attn-pos-table>: where position vectors come from (LESSON §4).
//
//   <attn-pos-table t="16" c="8">
//
// T = positions, C = channels. Rust builds the original Transformer's fixed sinusoidal
// table (T, C); a learned table (GPT-2's wpe) instead has exactly block_size rows, so
// generation crops its context to the last block_size tokens (idx[:, -block_size:]).
// state = { t, c, len, block }.
// Every PE cell explains itself (core.explainPosition with the same T and C):
// sin or cos of pos / 10000^(2i/C), written out with the numbers.

import '../../i18n/lesson-strings.js';
import { define, h, message } from '../../ui/widget-base.js';
import { subscripted } from '../../ui/format.js';
import { LessonWidget } from '../base/lesson-widget.js';
import { compactGrids } from '../base/lesson-css.js';
import { matrixBlock, tableSwitch } from '../base/matrix-block.js';
import { explainGrids } from '../explain/explain-grids.js';

const DEFAULT = { t: 12, c: 8, len: 10, block: 8 };
const LIMITS = { t: [1, 64], c: [1, 64], len: [1, 4096], block: [1, 1024] };

class AttnPosTable extends LessonWidget {
  static tag = 'attn-pos-table';

  #s = null;
  #ui = {};

  get state() {
    return { ...(this.#s ?? DEFAULT) };
  }

  set state(s) {
    for (const [k, [lo, hi]] of Object.entries(LIMITS)) {
      if (!Number.isInteger(s?.[k]) || s[k] < lo || s[k] > hi) throw new Error(`${k}: expected an integer ${lo}..${hi}`);
    }
    this.#s = { t: s.t, c: s.c, len: s.len, block: s.block };
    this.refresh();
  }

  make(root) {
    const ui = this.#ui;
    ui.fields = {};
    for (const k of Object.keys(LIMITS)) {
      const [lo, hi] = LIMITS[k];
      const input = h('input', { type: 'number', min: String(lo), max: String(hi), step: '1', class: 'n' });
      input.addEventListener('input', () => {
        const v = Number(input.value);
        if (!Number.isInteger(v) || v < lo || v > hi) return;
        this.#s = { ...this.state, [k]: v };
        this.refresh();
        this.emitChange();
      });
      ui.fields[k] = { input, text: h('span') };
    }
    const field = (k) => h('label', {}, ui.fields[k].text, ui.fields[k].input);
    ui.tables = tableSwitch(this, root);
    ui.sinTitle = h('h3');
    ui.sin = matrixBlock({ label: 'PE' });
    ui.explain = explainGrids(this, {
      grids: () => [ui.sin.matrix],
      explain: (grid, row, col) => this.core.explainPosition(this.state.t, this.state.c, 'PE', row, col),
      key: () => JSON.stringify([this.state.t, this.state.c]),
    });
    ui.cropTitle = h('h3');
    ui.crop = h('p', { class: 'fact' });
    ui.strip = h('div', { class: 'strip', 'aria-hidden': 'true' });
    ui.cropNote = h('p', { class: 'muted' });
    root.append(h('div', { class: 'grid content-height' },
      h('div', { class: 'panel pe' }, ui.sinTitle, h('div', { class: 'controls' }, field('t'), field('c'), ui.tables.el), ui.sin.el),
      h('div', { class: 'panel' }, ui.cropTitle, h('div', { class: 'controls' }, field('len'), field('block')), ui.strip, ui.crop, ui.cropNote)),
    ui.explain.panel);
    this.draw(null); // the final layout before the core arrives: placeholder numbers
  }

  /** Everything; without the core (before it arrives) the table has its (T, C) shape with
   *  empty cells, the crop line placeholders and the strip its boxes, not yet coloured. */
  draw(core) {
    const ui = this.#ui;
    const s = this.state;
    if (core) ui.explain.sync();
    for (const [k, f] of Object.entries(ui.fields)) {
      f.text.textContent = this.t(`a.pt.${k}`);
      if (this.shadowRoot.activeElement !== f.input) f.input.value = String(s[k]);
    }
    ui.tables.label();
    ui.sinTitle.textContent = this.t('a.pt.sinTitle');
    ui.cropTitle.textContent = this.t('a.pt.cropTitle');
    ui.cropNote.textContent = this.t('a.pt.cropNote');
    if (!core) {
      ui.sin.set({ rows: s.t, cols: s.c, data: new Array(s.t * s.c).fill(NaN) }, subscripted('p', s.t), subscripted('c', s.c));
      // en dashes: about as wide as the digits they stand for, so the line wraps as it will
      ui.crop.textContent = this.t('a.pt.crop', { start: '–', kept: '–', dropped: '–' });
      ui.strip.replaceChildren(...Array.from({ length: Math.min(s.len, 48) }, () => h('span', { class: 'pending' })));
      return;
    }
    try {
      ui.sin.set(core.sinusoidalTable(s.t, s.c), subscripted('p', s.t), subscripted('c', s.c));
      const r = core.cropContext(s.len, s.block);
      ui.crop.textContent = this.t('a.pt.crop', { start: r.start, kept: r.kept, dropped: r.dropped });
      const shown = Math.min(s.len, 48);
      ui.strip.replaceChildren(...Array.from({ length: shown }, (_, i) => {
        const index = s.len - shown + i; // which token this box stands for, for drawing only
        return h('span', { class: index >= r.start ? 'kept' : 'dropped' });
      }));
    } catch (e) {
      this.showError(message(e));
    }
  }
}

AttnPosTable.css = `${LessonWidget.css}
input.n { width: 5em; }
/* A panel narrower than the default 12 × 8 table (a phone) fits it whole: smaller cells,
   and on a phone a narrower margin around them. */
.panel.pe { container-type: inline-size; }
${compactGrids(510, '2rem', '.66rem')}
@media (max-width: 520px) { .panel.pe { padding-inline: 8px; } }
.strip { display: flex; flex-wrap: wrap; gap: 2px; margin: 4px 0 8px; }
.strip span { width: 12px; height: 16px; border-radius: 3px; }
.strip .kept { background: var(--_accent); }
.strip .pending { background: var(--_line); }
.strip .dropped { background: repeating-linear-gradient(135deg, #dfe1e7 0 3px, #f4f5f8 3px 7px); box-shadow: inset 0 0 0 1px rgb(0 0 0 / .1); }
`;

define(AttnPosTable);
