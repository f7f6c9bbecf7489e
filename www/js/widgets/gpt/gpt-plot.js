// <attn-loss-plot>: the live loss curves of "Train a GPT" as an SVG line plot with axes.
//
//   el.add('batch' | 'train' | 'val', step, loss)   one point (non-finite values dropped)
//   el.clear()
//   el.labels = { x: 'step', y: 'loss', batch: …, train: …, val: … }   (translated by the host)
//   el.data   → { batch: [[step, loss]…], train: […], val: […] }        (what is drawn)
//   kinds="first second induction"   other curves (the heads grid's: the probe's loss on its
//                                    first and second copy, the best induction score)
//
// A run of any length keeps at most MAX_POINTS points per curve: past that, every other
// point is dropped (the first and the newest stay), so a curve's resolution halves while
// the run doubles, and the tab's memory and the saved run's size stay bounded.
//
// Redraws at most once per animation frame, at the element's own pixel width, so the
// text stays legible from 380 px up. It draws numbers it is given; it computes no loss.

import { sheet } from '../../ui/widget-css.js';

const KINDS = ['batch', 'train', 'val'];
const NS = 'http://www.w3.org/2000/svg';
const HEIGHT = 230;
const PAD = { left: 46, right: 12, top: 12, bottom: 40 };
export const MAX_POINTS = 4000;

const CSS = `
:host { display: block; font: 12px/1.3 var(--attn-font, system-ui, sans-serif); color: var(--attn-fg, #1b1e27); }
svg { display: block; width: 100%; height: ${HEIGHT}px; overflow: visible; }
.axis { stroke: var(--attn-muted, #5a6072); stroke-width: 1; }
.grid { stroke: var(--attn-line, #e1e4eb); stroke-width: 1; }
text { fill: var(--attn-muted, #5a6072); font-size: 11px; font-variant-numeric: tabular-nums; }
text.title { fill: var(--attn-fg, #1b1e27); font-size: 12px; font-weight: 600; }
.batch { stroke: #b9b1e6; stroke-width: 1.2; fill: none; }
.train { stroke: #4b3a9c; stroke-width: 2.2; fill: none; }
.val { stroke: #d9480f; stroke-width: 2.2; fill: none; stroke-dasharray: 6 3; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 4px 0 0 ${PAD.left}px; font-size: 12px; }
.legend span::before { content: ''; display: inline-block; width: 18px; height: 0; margin-right: 6px;
  vertical-align: middle; border-top: 3px solid; }
.legend .k-batch::before { border-color: #b9b1e6; }
.legend .k-train::before { border-color: #4b3a9c; }
.legend .k-val::before { border-top-style: dashed; border-color: #d9480f; }
.first { stroke: #4b3a9c; stroke-width: 2.2; fill: none; }
.second { stroke: #d9480f; stroke-width: 2.2; fill: none; stroke-dasharray: 6 3; }
.induction { stroke: #2b8a3e; stroke-width: 2.6; fill: none; }
.legend .k-first::before { border-color: #4b3a9c; }
.legend .k-second::before { border-top-style: dashed; border-color: #d9480f; }
.legend .k-induction::before { border-color: #2b8a3e; }
.empty { fill: var(--attn-muted, #5a6072); font-size: 13px; }
`;

/** About `count` round tick values covering [lo, hi]. */
function ticks(lo, hi, count) {
  const span = Math.max(hi - lo, 1e-9);
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-6; v += step) out.push(Number(v.toFixed(10)));
  return out;
}

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

/** Every k-th point (and the last) so a long run draws in constant time. */
function thin(points, max) {
  if (points.length <= max) return points;
  const k = Math.ceil(points.length / max);
  const out = points.filter((_, i) => i % k === 0);
  if (out[out.length - 1] !== points[points.length - 1]) out.push(points[points.length - 1]);
  return out;
}

/** Every other point of `points`, and the newest. */
function halve(points) {
  const out = points.filter((_, i) => i % 2 === 0);
  if (out[out.length - 1] !== points[points.length - 1]) out.push(points[points.length - 1]);
  return out;
}

class AttnLossPlot extends HTMLElement {
  #kinds = KINDS;
  #series = { batch: [], train: [], val: [] };
  #labels = { x: 'step', y: 'loss', batch: 'batch loss', train: 'train loss', val: 'val loss', empty: '' };
  #svg;
  #legend;
  #frame = 0;
  #resize = null;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet(CSS)];
    this.#svg = el('svg', { role: 'img' });
    this.#legend = document.createElement('div');
    this.#legend.className = 'legend';
    this.#legend.setAttribute('aria-hidden', 'true');
    root.append(this.#svg, this.#legend);
  }

  /** The curves of the `kinds` attribute (read once, before the first point). */
  #readKinds() {
    const kinds = this.getAttribute('kinds')?.split(/\s+/).filter(Boolean);
    if (kinds?.length && kinds.join() !== this.#kinds.join()) {
      this.#kinds = kinds;
      this.#series = Object.fromEntries(kinds.map((k) => [k, []]));
    }
  }

  connectedCallback() {
    if (!this.#series[this.#kinds[0]]?.length) this.#readKinds();
    this.#resize ??= new ResizeObserver(() => this.#schedule());
    this.#resize.observe(this);
    this.#schedule();
  }

  disconnectedCallback() {
    this.#resize?.disconnect();
  }

  set labels(l) {
    Object.assign(this.#labels, l);
    this.#schedule();
  }

  get data() {
    return Object.fromEntries(this.#kinds.map((k) => [k, this.#series[k].map((p) => p.slice())]));
  }

  add(kind, step, value) {
    if (!(kind in this.#series)) this.#readKinds();
    const s = this.#series[kind];
    if (!s || !Number.isFinite(step) || !Number.isFinite(value)) return;
    if (s.length && s[s.length - 1][0] >= step) s.pop(); // a repeated step replaces its point
    s.push([step, value]);
    if (s.length > MAX_POINTS) this.#series[kind] = halve(s);
    this.#schedule();
  }

  clear() {
    for (const k of this.#kinds) this.#series[k] = [];
    this.#schedule();
  }

  #schedule() {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw();
    });
  }

  #draw() {
    const width = Math.max(240, this.clientWidth || 600);
    const svg = this.#svg;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    const L = this.#labels;
    svg.setAttribute('aria-label', `${L.y} / ${L.x}`);
    this.#legend.replaceChildren(...this.#kinds.map((k) => {
      const span = document.createElement('span');
      span.className = `k-${k}`;
      span.textContent = L[k];
      return span;
    }));
    const all = this.#kinds.flatMap((k) => this.#series[k]);
    const x0 = PAD.left;
    const x1 = width - PAD.right;
    const y0 = HEIGHT - PAD.bottom;
    const y1 = PAD.top;
    svg.append(el('line', { class: 'axis', x1: x0, y1: y0, x2: x1, y2: y0 }),
      el('line', { class: 'axis', x1: x0, y1: y0, x2: x0, y2: y1 }),
      el('text', { class: 'title', x: (x0 + x1) / 2, y: HEIGHT - 6, 'text-anchor': 'middle' }, L.x),
      el('text', { class: 'title', x: 12, y: (y0 + y1) / 2, 'text-anchor': 'middle',
        transform: `rotate(-90 12 ${(y0 + y1) / 2})` }, L.y));
    if (!all.length) {
      svg.append(el('text', { class: 'empty', x: (x0 + x1) / 2, y: (y0 + y1) / 2, 'text-anchor': 'middle' }, L.empty));
      return;
    }
    const maxStep = Math.max(10, ...all.map((p) => p[0]));
    let lo = Math.min(...all.map((p) => p[1]));
    let hi = Math.max(...all.map((p) => p[1]));
    lo = Math.max(0, Math.floor(lo * 2) / 2 - 0.25);
    hi = Math.ceil(hi * 2) / 2;
    if (hi - lo < 0.5) hi = lo + 0.5;
    const sx = (s) => x0 + ((x1 - x0) * s) / maxStep;
    const sy = (v) => y0 - ((y0 - y1) * (Math.min(hi, Math.max(lo, v)) - lo)) / (hi - lo);
    const yt = ticks(lo, hi, 5);
    const stepY = yt.length > 1 ? yt[1] - yt[0] : 1;
    const digits = [1, 2, 3].find((d) => Math.abs(stepY * 10 ** d - Math.round(stepY * 10 ** d)) < 1e-6) ?? 3;
    for (const v of yt) {
      svg.append(el('line', { class: 'grid', x1: x0, y1: sy(v), x2: x1, y2: sy(v) }),
        el('text', { x: x0 - 6, y: sy(v) + 4, 'text-anchor': 'end' }, v.toFixed(digits)));
    }
    for (const s of ticks(0, maxStep, Math.max(2, Math.floor((x1 - x0) / 90)))) {
      svg.append(el('line', { class: 'axis', x1: sx(s), y1: y0, x2: sx(s), y2: y0 + 4 }),
        el('text', { x: sx(s), y: y0 + 16, 'text-anchor': 'middle' }, s.toLocaleString('en-US')));
    }
    for (const k of this.#kinds) {
      const pts = thin(this.#series[k], 1500);
      if (!pts.length) continue;
      const d = pts.map(([s, v], i) => `${i ? 'L' : 'M'}${sx(s).toFixed(1)},${sy(v).toFixed(1)}`).join('');
      svg.append(el('path', { class: k, d: pts.length > 1 ? d : `${d}h0.1` }));
    }
    this.dataset.points = String(all.length);
  }
}

if (!customElements.get('attn-loss-plot')) customElements.define('attn-loss-plot', AttnLossPlot);

export { AttnLossPlot };
