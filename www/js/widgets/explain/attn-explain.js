// <attn-explain>: the panel that writes out how one drawn number was computed.
//
//   panel.tokens = ['h', 'o', 'u'];                       // row labels of x, q, k, v, …
//   panel.labels = { W_q: { rows: ['d₀', 'd₁'], cols: […] } };   // optional overrides
//   (a grid an explanation names in `grid` may also have a `title`, said after the cell)
//   (Without them, labels come from the <attn-matrix> grids next to the explained cell:
//   the grid whose id, `matrix` or `label` attribute names a source matrix. "Next to" is
//   the same document or shadow root, or the closest [data-explain-scope] ancestor.)
//   panel.explanation = lab.explain('weights', 2, 0);     // opens the panel
//
//   properties:  explanation (HeadLab.explain / explainScheme result; null closes),
//                tokens, labels, open (read-only)
//   attributes:  lang (en | zh; default: the page's language), nofocus (opening leaves
//                keyboard focus where it is instead of moving it into the panel),
//                floating (the panel is positioned absolutely beside the grid of the
//                explained cell, or under it when there is no room on its right)
//   methods:     close()  hides the panel and returns focus to the cell that opened it
//                (as its grid shows it now: after a switch to the table view, the table's
//                cell; see <attn-matrix> cellAt)
//   Marks: opening outlines the explanation's source cells in the <attn-matrix> grids
//   beside the explained cell (highlight) and marks that cell (markSelected); closing
//   clears both. Hosts may call highlight() themselves as well: the result is the same.
//   events:      'explain-close' (bubbles, composed) when the close button or Escape closes it
//
// A non-modal dialog: opening moves focus to it (so screen readers read the whole
// text), Escape or the × button closes it and focus goes back to the explained cell.
// Every number shown comes from the explanation object; this element only formats.

import { BASE_CSS, sheet } from '../../ui/widget-css.js';
import { followScheme, unfollowScheme } from '../../ui/color-scheme.js';
import { langOf, onLangChange, t } from '../../i18n/i18n.js';
import { subscript } from '../../ui/format.js';
import { onTouchChange, touchScreen } from '../../ui/matrix/touch.js';
import { explainLines } from './explain-lines.js';
import { revealBeside } from './in-view.js';

const CSS = `
:host { display: block; max-width: 36rem; }
:host([hidden]) { display: none !important; }
:host([floating]) { position: absolute; z-index: 40; width: min(27rem, calc(100vw - 16px)); }
.panel { position: relative; border: 1px solid var(--_line); border-left: 4px solid var(--_accent);
  border-radius: 10px; background: var(--_bg); padding: 10px 14px 12px;
  box-shadow: 0 6px 22px rgb(20 22 40 / .14); }
.panel:focus { outline: none; }
.panel:focus-visible { outline: 2.5px solid var(--_focus); outline-offset: 2px; }
header { display: flex; gap: 10px; align-items: flex-start; justify-content: space-between; }
h3 { font-size: 1rem; margin: 2px 0 6px; font-family: var(--_mono); font-weight: 700; overflow-wrap: anywhere; }
button.close { flex: none; padding: 0 8px; font-size: 1.05rem; line-height: 1.6rem; border-radius: 6px; }
.eq { margin: 2px 0; font-family: var(--_mono); font-size: .88rem; line-height: 1.7;
  font-variant-numeric: tabular-nums; overflow-wrap: break-word; }
.eq.cont { padding-left: 1.2em; }
.nowrap { white-space: nowrap; }
sup { font-size: .72em; vertical-align: .55em; line-height: 0; }
.eq sub, h3 sub { font-size: .72em; vertical-align: -.25em; line-height: 0; }
.sym i { font-style: italic; }
.value { color: var(--_accent); }
.frac { color: var(--_ok); font-weight: 700; }
.rest, .aside { color: var(--_muted); }
.say { margin: 0 0 6px; font-size: .9rem; }
.note { margin: 8px 0 2px; font-size: .84rem; color: var(--_muted); }
`;

const styles = () => [sheet(BASE_CSS), sheet(CSS)];

/** The element that really has focus, through open shadow roots. */
function deepActive() {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/** Default labels: tokens for positions, d₀… for head dimensions, c₀… for channels. */
function defaultLabel(tokens, matrix, axis, i) {
  const tok = tokens[i] ?? String(i);
  if (/^W_/.test(matrix)) return subscript(axis === 'rows' ? 'd' : 'c', i);
  if (axis === 'rows') return tok;
  if (['q', 'k', 'v', 'out'].includes(matrix)) return subscript('d', i);
  if (/^x/.test(matrix)) return subscript('c', i);
  return tok;
}

class AttnExplain extends HTMLElement {
  static observedAttributes = ['lang'];

  #explanation = null;
  #tokens = [];
  #labels = {};
  #opener = null;
  #at = null; // { grid, row, col } of the explained cell, to find it again in another view
  #gridLabels = {};
  #grids = [];
  #open = false;
  #frame = 0;
  #follow = () => {
    if (!this.#frame) this.#frame = requestAnimationFrame(() => { this.#frame = 0; this.#place(); });
  };
  // A floating panel also follows its grid when that grid changes size (heatmap ↔ table).
  #resize = typeof ResizeObserver === 'function' ? new ResizeObserver(this.#follow) : null;
  #offLang = null;
  #offTouch = null;
  #panel;
  #title;
  #body;
  #close;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = styles();
    root.innerHTML = '<section class="panel" role="dialog" aria-labelledby="title" aria-describedby="body" tabindex="-1">'
      + '<header><h3 id="title"></h3><button type="button" class="close">×</button></header>'
      + '<div id="body"></div></section>';
    this.#panel = root.querySelector('.panel');
    this.#title = root.querySelector('#title');
    this.#body = root.querySelector('#body');
    this.#close = root.querySelector('.close');
    this.#close.addEventListener('click', () => this.close());
    this.#panel.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      this.close();
    });
  }

  connectedCallback() {
    followScheme(this); // its palette: its own theme, or that of the widget it sits in
    this.hidden = !this.#open; // not in the constructor: createElement forbids attributes there
    this.#offLang ??= onLangChange(() => {
      if (!this.hasAttribute('lang')) this.#render();
    }, this);
    this.#offTouch ??= onTouchChange(() => this.#render()); // no "Esc" or "hover" on a touch screen
    this.#listen(this.#open && this.hasAttribute('floating')); // moved while open: it follows again
  }

  disconnectedCallback() {
    unfollowScheme(this);
    this.#offLang?.();
    this.#offLang = null;
    this.#offTouch?.();
    this.#offTouch = null;
    this.#listen(false);
  }

  attributeChangedCallback() {
    this.#render();
  }

  get language() {
    return langOf(this);
  }

  get explanation() { return this.#explanation; }
  set explanation(ex) {
    if (!ex || typeof ex !== 'object' || !ex.op) {
      this.#explanation = null;
      this.#show(false);
      this.#clearMarks();
      return;
    }
    const wasOpen = this.#open;
    const active = deepActive();
    if (!wasOpen || !this.shadowRoot.contains(active)) {
      this.#opener = active;
      const grid = active?.getRootNode?.()?.host;
      this.#at = grid && active.dataset?.row != null
        ? { grid, row: Number(active.dataset.row), col: Number(active.dataset.col) } : null;
    }
    this.#clearMarks();
    this.#gridLabels = this.#discover();
    this.#explanation = ex;
    this.#mark(ex);
    this.#render();
    this.#show(true);
    this.#place();
    if (!this.hasAttribute('nofocus')) this.#panel.focus({ preventScroll: true });
    // In view (its host may have moved it beside the new cell), with the cell it explains
    // still on screen: on a phone both may not fit.
    revealBeside(this, this.#cell());
  }

  get open() { return this.#open; }

  #show(on) {
    this.#open = on;
    this.hidden = !on;
    this.#listen(on && this.hasAttribute('floating'));
  }

  #listen(on) {
    const method = on ? 'addEventListener' : 'removeEventListener';
    window[method]('resize', this.#follow, { passive: true });
    this.#resize?.disconnect();
    const grid = this.#at?.grid ?? this.#opener?.getRootNode?.()?.host;
    if (on && grid) this.#resize?.observe(grid);
  }

  /** The explained cell as its grid shows it now (a view switch swaps heatmap and table). */
  #cell() {
    const cell = this.#opener;
    if (cell?.isConnected && cell.checkVisibility?.() !== false) return cell;
    const at = this.#at;
    const now = at?.grid.isConnected && typeof at.grid.cellAt === 'function' ? at.grid.cellAt(at.row, at.col) : null;
    return now ?? (cell?.isConnected ? cell : null);
  }

  /** Floating: right of the explained cell's grid when there is room, else under it. */
  #place() {
    if (!this.#open || !this.hasAttribute('floating')) return;
    const cell = this.#cell();
    const grid = cell?.getRootNode()?.host ?? cell;
    if (!grid) return;
    const vw = document.documentElement.clientWidth;
    const { width } = this.getBoundingClientRect();
    const g = grid.getBoundingClientRect();
    const gap = 12;
    // Viewport coordinates first; the sources of a number sit to its left or above it.
    let [x, y] = [g.right + gap, cell.getBoundingClientRect().top - 24];
    if (x + width > vw - 8) [x, y] = [Math.max(8, Math.min(g.left, vw - width - 8)), g.bottom + gap];
    // Then relative to the containing block of this absolutely positioned element.
    const parent = this.offsetParent;
    const page = !parent || (parent === document.body && getComputedStyle(parent).position === 'static');
    const origin = page ? { left: -window.scrollX, top: -window.scrollY } : parent.getBoundingClientRect();
    this.style.left = `${Math.round(x - origin.left - (page ? 0 : parent.clientLeft))}px`;
    this.style.top = `${Math.round(y - origin.top - (page ? 0 : parent.clientTop))}px`;
  }

  get tokens() { return this.#tokens.slice(); }
  set tokens(list) {
    this.#tokens = Array.from(list ?? [], String);
    this.#render();
  }

  get labels() { return this.#labels; }
  set labels(map) {
    this.#labels = map && typeof map === 'object' ? map : {};
    this.#render();
  }

  /** Hides the panel, returns focus to the cell that opened it, fires explain-close. */
  close() {
    if (!this.#open) return;
    this.#show(false);
    this.#clearMarks();
    const back = this.#cell();
    this.#opener = null;
    this.#at = null;
    back?.focus({ preventScroll: true });
    this.dispatchEvent(new CustomEvent('explain-close', { bubbles: true, composed: true }));
  }

  #label(matrix, axis, i) {
    const own = this.#labels[matrix]?.[axis]?.[i] ?? this.#gridLabels[matrix]?.[axis]?.[i];
    return own != null && own !== '' ? String(own) : defaultLabel(this.#tokens, matrix, axis, i);
  }

  #mark(ex) {
    const cell = this.#opener;
    const grid = cell?.getRootNode?.()?.host;
    for (const g of this.#grids) g.highlight?.(ex.sources ?? []);
    if (grid && this.#grids.includes(grid)) grid.markSelected?.(Number(cell.dataset.row), Number(cell.dataset.col));
  }

  #clearMarks() {
    for (const g of this.#grids) {
      g.highlight?.(null);
      g.markSelected?.(null);
    }
    this.#grids = [];
  }

  /** Row and column labels of the grids beside the explained cell, by matrix name. */
  #discover() {
    const grid = this.#opener?.getRootNode?.()?.host;
    const root = grid?.localName === 'attn-matrix' ? grid.getRootNode() : null;
    if (!root?.querySelectorAll) return {};
    const map = {};
    const scope = grid.closest('[data-explain-scope]') ?? root;
    this.#grids = [...new Set([grid, ...scope.querySelectorAll('attn-matrix')])];
    for (const m of this.#grids) {
      for (const name of [m.getAttribute('matrix'), m.id, m.getAttribute('label')]) {
        if (name && !map[name]) map[name] = { rows: m.rowLabels, cols: m.colLabels };
      }
    }
    return map;
  }

  #render() {
    const lang = this.language;
    this.#panel.lang = lang === 'zh' ? 'zh-Hans' : 'en';
    const close = t(touchScreen() ? 'c.closeTouch' : 'c.close', {}, lang);
    this.#close.setAttribute('aria-label', close);
    this.#close.title = close;
    const ex = this.#explanation;
    if (!ex) return;
    const { title, body } = explainLines(ex, {
      t: (key, vars) => t(key, vars, lang),
      label: (matrix, axis, i) => this.#label(matrix, axis, i),
      gridTitle: (grid) => this.#labels[grid]?.title ?? null,
      touch: touchScreen(),
    });
    this.#title.replaceChildren(...title.flat(Infinity).filter((n) => n != null));
    this.#body.replaceChildren(...body);
  }
}

if (!customElements.get('attn-explain')) customElements.define('attn-explain', AttnExplain);

export { AttnExplain };
