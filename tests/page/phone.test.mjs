// Page tests of the lesson's part-A widgets (sections 1–3 and the six notes of §5) on a
// phone and on a laptop, in headless Chromium:
//  - at 390×844 with touch, no widget hides any of its content behind a sideways scroll
//    or past its own edge (the softmax demo's masked position included), in en and zh;
//  - on that touch screen none of their texts asks to hover or to press Tab;
//  - at 1280×800 none of their cards is mostly empty (stretched to a taller neighbour,
//    or wide around a small grid).
// Widgets are found by tag wherever index.html puts them; a <details> around one is
// opened before it is measured.
//   node --test --test-concurrency=1 tests/page/phone.test.mjs
//
// Exempt from the sideways-scroll check: none. (A grid the learner makes bigger than a
// phone, e.g. the sinusoidal table at C = 64, scrolls inside its own box; the test uses
// the page's defaults.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, inView, pageSuite, settled } from './browser.mjs';

const site = pageSuite();

/** The part-A widgets on index.html (lesson/ and notes/ folders), in page order. */
const WIDGETS = ['attn-bigram', 'attn-examples', 'attn-bigram-split', 'attn-schemes', 'attn-sum-norm',
  'attn-softmax-steps', 'attn-normalize', 'attn-position', 'attn-pos-table', 'attn-note-graph',
  'attn-note-space', 'attn-note-batch', 'attn-note-encoder', 'attn-note-cross', 'attn-note-scale'];
/** What shows a widget has its final numbers, beyond its first render (the bigram's
 *  counts arrive in a fetch of their own). */
const DRAWN = { 'attn-bigram': '.msg.ok' };

/** Remembers every widget that has rendered (attn-rendered, widget-base.js). */
function recordRenders() {
  window.rendered = new WeakSet();
  document.addEventListener('attn-rendered', (e) => window.rendered.add(e.composedPath()[0]), true);
}

/** Opens index.html in a fresh context of `width`×`height` in `lang` (with a touch screen
 *  when `touch`), runs fn(page) and asserts the page stayed clean. */
function withLesson(fn, { width, height, lang = 'en', touch = false }) {
  return site.withPage(fn, { width, height, lang, touch, init: recordRenders });
}

/** The first `tag` on the page, its <details> (if any) open, in view and drawn. */
async function shown(page, tag) {
  const el = page.locator(tag).first();
  await el.evaluate((e) => e.closest('details')?.setAttribute('open', ''));
  await inView(el);
  await page.waitForFunction((t) => window.rendered.has(document.querySelector(t)), tag, { timeout: 20000 });
  if (DRAWN[tag]) await el.locator(DRAWN[tag]).first().waitFor({ timeout: 20000 });
  await settled(page);
  return el;
}

/** In the page: what of `host` (through every shadow root inside it) lies out of sight
 *  sideways: a scroll box whose content is wider than the box, or an element past the
 *  widget's left or right edge. Visually hidden text (.sr-only, KaTeX's MathML) and the
 *  insides of SVG drawings (their boxes are not what is drawn) are left out. */
function sidewaysHidden(host) {
  const edge = host.getBoundingClientRect();
  const found = [];
  const name = (el) => `${el.localName}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
  const walk = (root, path) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.closest('.sr-only, .katex-mathml') || (el instanceof SVGElement && el.localName !== 'svg')) continue;
      const where = `${path}${name(el)}`;
      if (/auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${where} scrolls: ${el.scrollWidth} px of content in ${el.clientWidth}`);
      }
      const box = el.getBoundingClientRect();
      if (box.width > 0 && (box.right > edge.right + 1 || box.left < edge.left - 1)) {
        const span = (b) => `${Math.round(b.left)}–${Math.round(b.right)}`;
        found.push(`${where} spans ${span(box)}, the widget ${span(edge)}`);
      }
      if (el.shadowRoot) walk(el.shadowRoot, `${where} > `);
    }
  };
  walk(host.shadowRoot, '');
  return found;
}

/** In the page: the rendered text of `host` and of every shadow root inside it. */
function deepText(host) {
  const parts = [];
  const walk = (root) => {
    for (const child of root.children) if (child.localName !== 'style') parts.push(child.innerText ?? '');
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(host.shadowRoot);
  return parts.join('\n');
}

for (const lang of ['en', 'zh']) {
  test(`phone (390×844, touch, ${lang}): every widget of part A fits, nothing behind a sideways scroll`, () => withLesson(async (page) => {
    for (const tag of WIDGETS) {
      const el = await shown(page, tag);
      assert.deepEqual((await el.evaluate(sidewaysHidden)).slice(0, 6), [], `${tag} at 390 px (${lang})`);
      await el.screenshot({ path: `${SHOTS}phone-${lang}-${tag}.png` });
    }
    const page390 = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(page390 <= 0, `the page overflows sideways by ${page390} px`);
  }, { width: 390, height: 844, lang, touch: true }));
}

test('phone: the softmax-with-mask demo shows all four positions, the masked one too, on screen', () => withLesson(async (page) => {
  const steps = await shown(page, 'attn-softmax-steps');
  const seen = await steps.evaluate((host) => {
    const cells = [...host.shadowRoot.querySelectorAll('table.steps tr')].map((tr) => [...tr.children].slice(1, 5));
    return {
      width: innerWidth,
      heads: cells[0].map((c) => c.textContent),
      weights: cells.at(-1).map((c) => c.textContent),
      masked: cells.slice(1).map((row) => row[3].classList.contains('future')),
      boxes: cells.flat().map((c) => { const r = c.getBoundingClientRect(); return [r.left, r.right, r.width]; }),
    };
  });
  assert.deepEqual(seen.heads, ['0', '1', '2', '3']);
  assert.deepEqual(seen.weights, ['0.27', '0.01', '0.72', '0.00'], 'softmax of 2, −1, 3 with position 3 masked');
  assert.deepEqual(seen.masked, [true, true, true, true, true], 'position 3 is the masked one in every row');
  for (const [left, right, width] of seen.boxes) {
    assert.ok(width > 20 && left >= 0 && right <= seen.width, `a cell at ${left}–${right} of a ${seen.width} px screen`);
  }
}, { width: 390, height: 844, touch: true }));

test('touch screen: no hint of part A says hover or Tab, in en and zh', async () => {
  for (const lang of ['en', 'zh']) {
    await withLesson(async (page) => {
      assert.equal(await page.evaluate(() => matchMedia('(hover: none)').matches), true, 'a touch screen cannot hover');
      for (const tag of WIDGETS) {
        const text = await (await shown(page, tag)).evaluate(deepText);
        assert.ok(text.length > 40, `${tag} shows its text (${lang})`);
        assert.doesNotMatch(text, /hover|\btab\b|mouse|悬停|鼠标|指针/i, `${tag} (${lang})`);
      }
    }, { width: 390, height: 844, lang, touch: true });
  }
});

/** In the page: for each card (.panel) of `host`, how much of its content box its content
 *  covers (text, tables, grids, inputs, code, messages) and how far right it reaches. */
function cardFill(host) {
  const LEAF = 'input, select, button, textarea, pre, svg, table, img, canvas, .msg, .strip';
  return [...host.shadowRoot.querySelectorAll('.panel')].map((card) => {
    const s = getComputedStyle(card);
    const r = card.getBoundingClientRect();
    const px = (v) => parseFloat(v);
    const box = { l: r.left + px(s.borderLeftWidth) + px(s.paddingLeft), t: r.top + px(s.borderTopWidth) + px(s.paddingTop),
      r: r.right - px(s.borderRightWidth) - px(s.paddingRight), b: r.bottom - px(s.borderBottomWidth) - px(s.paddingBottom) };
    let covered = 0;
    let reach = box.l;
    const add = (q) => {
      const w = Math.min(q.right, box.r) - Math.max(q.left, box.l);
      const h = Math.min(q.bottom, box.b) - Math.max(q.top, box.t);
      if (w <= 0 || h <= 0) return;
      covered += w * h;
      reach = Math.max(reach, Math.min(q.right, box.r));
    };
    const walk = (node) => {
      for (const n of node.childNodes) {
        if (n.nodeType === Node.TEXT_NODE && n.textContent.trim()) {
          const range = document.createRange();
          range.selectNodeContents(n);
          for (const q of range.getClientRects()) add(q);
        } else if (n.nodeType === Node.ELEMENT_NODE) {
          if (n.localName === 'attn-matrix') {
            const grid = n.shadowRoot?.querySelector('table');
            if (grid) add(grid.getBoundingClientRect());
          } else if (n.matches(LEAF)) {
            add(n.getBoundingClientRect());
          } else {
            walk(n);
          }
        }
      }
    };
    walk(card);
    const width = box.r - box.l;
    return { card: card.className, size: `${Math.round(r.width)}×${Math.round(r.height)}`,
      fill: covered / (width * (box.b - box.t)), reach: (reach - box.l) / width };
  });
}

test('laptop (1280×800): no card of part A is mostly empty', () => withLesson(async (page) => {
  let cards = 0;
  for (const tag of WIDGETS) {
    const el = await shown(page, tag);
    await el.screenshot({ path: `${SHOTS}laptop-${tag}.png` });
    for (const c of await el.evaluate(cardFill)) {
      cards += 1;
      const pc = (f) => `${Math.round(f * 100)}%`;
      const what = `${tag} card .${c.card.replace(/ /g, '.')} (${c.size}): ${pc(c.fill)} covered, content reaching ${pc(c.reach)} across`;
      assert.ok(c.fill >= 0.3, `${what}: mostly empty`);
      assert.ok(c.reach >= 0.65, `${what}: wider than what it holds`);
    }
  }
  assert.ok(cards >= 30, `${cards} cards measured`);
}, { width: 1280, height: 800 }));
