// When a widget is built and first drawn while a page loads (widget-base.js): the widgets
// near the viewport at once, the others one per task (laterJob), so neither the upgrade nor
// the first drawing of a long page is one long main-thread task. Also when an element comes
// near the viewport (whenNear), for code that loads only then (widgets/index.js).

// Jobs of the widgets far from the viewport: the first build, then the first render, one
// per task in the order they came (document order), after the near widgets' renders.
const later = [];
let pumping = false;
const nextTask = (fn) => (globalThis.scheduler?.postTask ? globalThis.scheduler.postTask(fn) : setTimeout(fn, 0));

export function laterJob(job) {
  later.push(job);
  if (pumping) return;
  pumping = true;
  nextTask(pump);
}

function pump() {
  try {
    later.shift()?.();
  } finally {
    if (later.length) nextTask(pump);
    else pumping = false;
  }
}

/** Whether `el` is in the viewport, near it or above it while the page loads. Every widget of the
 *  document not measured yet (the ones not defined yet, or a page's catalogue appended at
 *  once) is measured with it in one layout, before any of them is built: an unbuilt
 *  widget is empty, so none sits lower than it will once built, and a widget measured in
 *  the viewport now is every widget the first paint can show. */
const near = new WeakMap();
function nearViewport(el) {
  if (!near.has(el)) {
    const h = window.innerHeight || 800;
    const top = viewTop();
    for (const x of [el, ...document.getElementsByTagName('*')]) {
      if (near.has(x) || !x.localName.startsWith('attn-')) continue;
      const r = x.getBoundingClientRect();
      // Above the viewport counts as near: a page opened at a #fragment (or a reload that
      // keeps its scroll) would otherwise grow above what the reader sees as those widgets
      // are built, and scroll anchoring misses some of that growth (0.7 of the view shifted).
      near.set(x, r.top <= top + h);
    }
  }
  return near.get(el);
}

/** Where the viewport's top will be, relative to where it is: a page opened at a
 *  #fragment is scrolled to its target only after the scripts have run. */
function viewTop() {
  if (window.scrollY > 0) return 0;
  const target = fragmentTarget();
  return target ? target.getBoundingClientRect().top : 0;
}

/** The element the page's #fragment names, or null (none, or a malformed %-escape). */
export function fragmentTarget() {
  if (location.hash.length < 2) return null;
  try {
    return document.getElementById(decodeURIComponent(location.hash.slice(1)));
  } catch {
    return null;
  }
}

/** Resolves once `el` is within a screen of the viewport (at once without IntersectionObserver). */
export function whenNear(el) {
  if (typeof IntersectionObserver !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const io = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      io.disconnect();
      resolve();
    }, { rootMargin: '100% 0px' });
    io.observe(el);
  });
}

let pageLoaded = document.readyState === 'complete';
if (!pageLoaded) window.addEventListener('load', () => { pageLoaded = true; }, { once: true });

/** Whether a widget connecting now may wait its turn: the page is still loading and the
 *  widget is far from the viewport (and in the document itself, not in another's shadow root). */
export function mayWait(el) {
  return !pageLoaded && el.getRootNode() === document && !nearViewport(el);
}
