// Every head of a large model at a glance, for <attn-gpt2>: a layer × head grid of small
// pictures, one pixel per attention weight (row = the token that reads, column = the token
// read), darker = more weight; masked cells (the future) stay blank. Each picture is a
// button that opens its head's numbers. Drawing only: the weights are the core's.

import { h } from '../../ui/widget-base.js';

/** The accent colour as [r, g, b] from the widget's CSS (a light fallback). */
function accentOf(el) {
  const probe = document.createElement('span');
  probe.style.color = getComputedStyle(el).getPropertyValue('--_accent').trim() || '#1f5fbf';
  el.shadowRoot.append(probe);
  const m = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g) ?? [31, 95, 191];
  probe.remove();
  return m.slice(0, 3).map(Number);
}

/** Paints `grid` ({ rows, cols, data }) into `canvas`, one pixel per weight. */
export function paintMap(canvas, grid, rgb, masked) {
  const { rows, cols, data } = grid;
  canvas.width = cols;
  canvas.height = rows;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(cols, rows);
  for (let i = 0; i < rows * cols; i++) {
    if (masked?.[i]) continue; // transparent: the page shows through
    const w = Math.max(0, Math.min(1, data[i]));
    // sqrt: a weight of 0.1 spread over ten tokens still shows
    const a = Math.round(255 * Math.sqrt(w));
    img.data.set([rgb[0], rgb[1], rgb[2], Math.max(a, 12)], 4 * i);
  }
  ctx.putImageData(img, 0, 0);
}

/** The grid of buttons: `onPick(layer, head)` when one is chosen. Returns { el, paint(a, off),
 *  select(layer, head) }; a = an `attention` result, off = NL·NH flags of heads switched off. */
export function headMaps(host, { label, onPick }) {
  const el = h('div', { class: 'maps', role: 'group' });
  let buttons = [];
  let shape = '';
  let selected = null;
  const select = (l, hd) => {
    selected = { l, hd };
    for (const b of buttons) b.setAttribute('aria-pressed', String(Number(b.dataset.l) === l && Number(b.dataset.h) === hd));
  };
  const paint = (a, off = []) => {
    const nl = a.layers.length;
    const nh = a.layers[0]?.length ?? 0;
    if (shape !== `${nl}x${nh}`) {
      shape = `${nl}x${nh}`;
      el.style.setProperty('--heads', nh);
      buttons = [];
      el.replaceChildren(h('span', { class: 'corner' }),
        ...Array.from({ length: nh }, (_, hd) => h('span', { class: 'col' }, String(hd + 1))),
        ...a.layers.flatMap((heads, l) => [h('span', { class: 'row' }, String(l + 1)), ...heads.map((_, hd) => {
          const b = h('button', { type: 'button', class: 'map', 'data-l': l, 'data-h': hd, 'aria-pressed': 'false',
            onclick: () => { select(l, hd); onPick(l, hd); } }, h('canvas', { 'aria-hidden': 'true' }));
          buttons.push(b);
          return b;
        })]));
    }
    const rgb = accentOf(host);
    for (const b of buttons) {
      const l = Number(b.dataset.l);
      const hd = Number(b.dataset.h);
      const isOff = Boolean(off[l * nh + hd]);
      b.classList.toggle('off', isOff);
      b.setAttribute('aria-label', label(l, hd, isOff));
      paintMap(b.firstChild, a.layers[l][hd], rgb, a.masked);
    }
    if (selected) select(selected.l, selected.hd);
  };
  return { el, paint, select };
}
