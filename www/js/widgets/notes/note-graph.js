// <attn-note-graph>: note 1 of §5. The weights of the h/o/u head drawn as a directed
// graph: tokens are nodes, an arrow runs from each source (key) to each receiver
// (query) with a width proportional to its weight. The causal mask removes the
// arrows that point back from the future.
//
//   attributes: causal (boolean; default on)        state: { causal }
//   the edges come from encoderDecoder(): decoder_edges / encoder_edges.

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { checkBool, checkObject } from '../../ui/cell-checks.js';
import { formatFixed } from '../../ui/format.js';
import { checkbox, fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS } from '../base/lesson-css.js';

const SVG = 'http://www.w3.org/2000/svg';
const TOKENS = ['h', 'o', 'u'];
// Node centres on a triangle: each pair gets two separate curves, one per direction.
const P = [[90, 240], [310, 240], [200, 100]];
const CENTRE = [200, 193];
const R = 22;
const ARROW = 13; // arrow-head length: paths stop short so the head ends on the circle

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [a, v] of Object.entries(attrs)) el.setAttribute(a, v);
  el.append(...children);
  return el;
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1]];
const mul = (a, f) => [a[0] * f, a[1] * f];
const unit = (a) => mul(a, 1 / Math.hypot(a[0], a[1]));
const pt = (a) => `${a[0].toFixed(1)} ${a[1].toFixed(1)}`;

/** The path of one edge (pixels only): a curve bending to its right, or a loop pointing outwards. */
function edgePath(from, to) {
  if (from === to) {
    const c = P[from];
    const out = unit(sub(c, CENTRE));
    const side = [-out[1], out[0]];
    const a = add(c, mul(add(out, mul(side, 0.55)), R));
    const b = add(c, mul(add(out, mul(side, -0.55)), R + ARROW));
    const ca = add(c, add(mul(out, 70), mul(side, 38)));
    const cb = add(c, add(mul(out, 70), mul(side, -38)));
    const label = add(c, mul(out, 74));
    return { d: `M ${pt(a)} C ${pt(ca)}, ${pt(cb)}, ${pt(b)}`, label };
  }
  const p0 = P[from];
  const p1 = P[to];
  const dir = unit(sub(p1, p0));
  const right = [-dir[1], dir[0]];
  const mid = add(mul(add(p0, p1), 0.5), mul(right, 34));
  const a = add(p0, mul(unit(sub(mid, p0)), R + 2));
  const b = add(p1, mul(unit(sub(mid, p1)), R + ARROW));
  const label = add(mul(add(p0, p1), 0.5), mul(right, 31));
  return { d: `M ${pt(a)} Q ${pt(mid)} ${pt(b)}`, label };
}

class NoteGraph extends AttnWidget {
  static tag = 'attn-note-graph';
  static attrs = ['causal'];
  static css = `${NOTE_WIDGET_CSS}
    svg { width: 100%; max-width: 420px; height: auto; display: block; margin: 0 auto; }
    .node circle { fill: var(--_bg); stroke: var(--_fg); stroke-width: 2; }
    .node text { font: 600 18px var(--_mono); fill: var(--_fg); text-anchor: middle; dominant-baseline: central; }
    .edge path { fill: none; stroke: var(--_accent); stroke-linecap: round; }
    .edge text { font: 12px var(--_mono); fill: var(--_fg); text-anchor: middle; dominant-baseline: central;
      paint-order: stroke; stroke: var(--_bg); stroke-width: 4px; }
    marker path { fill: var(--_accent); }
    .legend { font-size: .85rem; color: var(--_muted); }`;

  #causal = true;

  build(root) {
    const { input, label } = checkbox('b.causalMask', (on) => {
      this.#causal = on;
      this.refresh();
      this.emitChange();
    });
    this.toggle = input;
    this.edges = svg('g');
    const defs = svg('defs', {}, svg('marker', {
      id: 'arrow', viewBox: '0 0 10 10', refX: 1, refY: 5, markerWidth: 13, markerHeight: 13,
      markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse',
    }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' })));
    const nodes = TOKENS.map((tok, i) => svg('g', { class: 'node' },
      svg('circle', { cx: P[i][0], cy: P[i][1], r: R }), svg('text', { x: P[i][0], y: P[i][1] }, tok)));
    this.svg = svg('svg', { viewBox: '0 0 400 310', role: 'img' }, defs, this.edges, ...nodes);
    this.summary = h('p', { class: 'muted' });
    this.list = h('ul', { class: 'sr-only' }); // the arrows as text, for screen readers
    root.append(
      h('div', { class: 'head' }, k('span', 'b.tag1', { class: 'tag' }), k('h3', 'b.graph.title')),
      k('p', 'b.graph.lead', { class: 'lead' }),
      h('div', { class: 'controls' }, label),
      this.svg,
      k('p', 'b.graph.legend', { class: 'legend' }),
      this.summary,
      this.list,
    );
    // The final layout before the core arrives (it gives the arrows): every text.
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.toggle.checked = this.#causal;
    this.summary.textContent = this.t(this.#causal ? 'b.graph.countCausal' : 'b.graph.countFull', { n: '…' });
  }

  attributeChangedCallback(name, old, value) {
    if (name === 'causal') this.#causal = value !== 'false';
    super.attributeChangedCallback(name, old, value);
  }

  render(core) {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    this.clearError();
    this.toggle.checked = this.#causal;
    // The default h/o/u head never changes: one call serves every redraw.
    const r = (this.run ??= core.encoderDecoder({}));
    const edges = this.#causal ? r.decoder_edges : r.encoder_edges;
    this.edges.replaceChildren(...edges.map((e) => {
      const p = edgePath(e.from, e.to);
      const desc = this.t('b.graph.edge', { from: TOKENS[e.from], to: TOKENS[e.to], w: formatFixed(e.weight) });
      return svg('g', { class: 'edge', 'data-from': e.from, 'data-to': e.to },
        svg('title', {}, desc),
        svg('path', { d: p.d, 'stroke-width': (1.5 + 6.5 * e.weight).toFixed(2), 'marker-end': 'url(#arrow)' }),
        svg('text', { x: p.label[0].toFixed(1), y: p.label[1].toFixed(1) }, formatFixed(e.weight)));
    }));
    this.list.replaceChildren(...edges.map((e) =>
      h('li', {}, this.t('b.graph.edge', { from: TOKENS[e.from], to: TOKENS[e.to], w: formatFixed(e.weight) }))));
    this.svg.setAttribute('aria-label', this.t('b.graph.aria', { n: edges.length }));
    this.summary.textContent = this.t(this.#causal ? 'b.graph.countCausal' : 'b.graph.countFull', { n: edges.length });
  }

  get state() {
    return { causal: this.#causal };
  }

  set state(s) {
    checkObject(s);
    this.#causal = checkBool(s.causal ?? true, 'causal');
    this.refresh();
  }
}

define(NoteGraph);
