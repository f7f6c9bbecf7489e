// The lesson page: language switch, and the URL state of every widget that has a key in
// URL_KEYS (url-keys.js). Widgets register themselves (widgets.js) and do their own drawing.
// html[data-ready] is set once every widget on the page has drawn its first result.

import './lesson-i18n.js'; // first: the texts are in place before the widgets are built
import '../../widgets.js';
import '../widgets/notes-set.gen.js'; // every section's widgets, defined before the first paint
import { setLang, t } from '../i18n/i18n.js';
import { urlKeyOf } from './url-keys.js';
import { bindUrlState, setUrlNotice } from './url-state.js';
import { loadCore } from '../core/wasm.js';
import { AttnWidget } from '../ui/widget-base.js';

// data-url-key marks each bound widget with its key (the first widget of a tag, when a
// page holds two), so scripts and tests can find the bound widgets.
for (const el of document.querySelectorAll('.lesson *')) {
  const key = urlKeyOf(el.localName);
  if (key && !document.querySelector(`[data-url-key="${key}"]`)) el.dataset.urlKey = key;
}

const notice = document.getElementById('url-notice');
setUrlNotice((key, msg) => {
  notice.textContent = t('urlNotice', { key, msg });
  notice.hidden = false;
});

for (const button of document.querySelectorAll('[data-lang]')) {
  button.addEventListener('click', () => setLang(button.dataset.lang));
}

/** Resolves when `el` has drawn once (its first attn-rendered), or after 10 s. */
function firstRender(el) {
  return new Promise((resolve) => {
    const done = () => resolve();
    el.addEventListener('attn-rendered', done, { once: true });
    setTimeout(done, 10000);
  });
}

/**
 * Sections far from the viewport (more than half a screen away) skip their layout and
 * paint: `.far` sets content-visibility: auto, with the height the section had when
 * it went far, so nothing moves. Without it every edit of the head lays out and paints the
 * page's 7,000 elements, most of them screens away. A section near the viewport has no
 * containment, so a floating explain panel may overflow it; the browser itself draws a far
 * section again as it comes into view, before this observer hears of it.
 */
function skipFarSections() {
  if (typeof IntersectionObserver !== 'function' || !CSS.supports('content-visibility', 'auto')) return;
  const io = new IntersectionObserver((entries) => {
    for (const { target: s, isIntersecting, boundingClientRect: r } of entries) {
      if (isIntersecting) {
        s.classList.remove('far');
        continue;
      }
      if (s.classList.contains('far')) continue;
      const cs = getComputedStyle(s);
      const edges = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth']
        .reduce((sum, k) => sum + parseFloat(cs[k]), 0);
      s.style.containIntrinsicBlockSize = `auto ${r.height - edges}px`;
      s.classList.add('far');
    }
  }, { rootMargin: '50% 0px' });
  for (const s of document.querySelectorAll('.lesson-section')) io.observe(s);
}

/**
 * Side roads (<details class="side-road" id="side-…">) fold away from the path. A link to
 * one, or to anything inside one (#side-normalize, an old link's element id), unfolds it
 * and brings it into view: on load and whenever the hash names an element.
 */
function openLinkedSideRoad() {
  let id;
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch {
    return false; // a malformed %-escape names no element
  }
  if (!id) return false;
  // on the page, or a widget's own side road (<attn-schemes>'s #side-scheme2)
  const target = document.getElementById(id) ?? [...document.querySelectorAll('.lesson *')]
    .map((el) => el.shadowRoot?.getElementById(id)).find((el) => el?.localName === 'details');
  const road = target?.closest('details');
  if (!road) return false;
  road.open = true;
  requestAnimationFrame(() => target.scrollIntoView({ block: 'start' }));
  return true;
}
addEventListener('hashchange', openLinkedSideRoad);
// A widget's own side road is there once the widget has built: tried again when all have.
const linkedRoadOpen = openLinkedSideRoad();

async function main() {
  // every widget of the lesson, and the first screen's head
  const widgets = [...document.querySelectorAll('.lesson *, #play *')]
    .filter((el) => customElements.get(el.localName)?.prototype instanceof AttnWidget);
  const rendered = widgets.map(firstRender);
  try {
    await loadCore(); // widgets validate URL state with the core, so bind after it loads
  } catch {
    return; // each widget shows the load failure inline
  }
  await Promise.all([...document.querySelectorAll('[data-url-key]')].map(async (el) => {
    await customElements.whenDefined(el.localName);
    bindUrlState(el, el.dataset.urlKey);
  }));
  await Promise.all(rendered);
  skipFarSections(); // once every widget has drawn at its full size
  if (!linkedRoadOpen) openLinkedSideRoad();
  document.documentElement.dataset.ready = 'true';
}

main();
