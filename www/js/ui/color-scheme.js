// Which palette a widget draws in, from its `theme` attribute:
//   light (the default) · dark · auto: the host page's own scheme where the page declares
//   one in CSS (`color-scheme: dark`, as MkDocs Material's slate and mdBook's navy, coal
//   and ayu do; `light` for their light themes), else the reader's prefers-color-scheme.
// A widget without the attribute inside another widget's shadow root (the trainer's
// settings and inspector) follows that widget. The outcome is the custom state `dark`
// (`:host(:state(dark))` in widget-css.js), kept current as the host switches palettes
// (attributes of <html> and <body>, stylesheets in <head>) or the reader's system does.

const widgets = new Set(); // connected widgets, each with its ElementInternals
const internals = new WeakMap();
let watching = false;

/** "dark" or "light": the palette `el` (a connected widget) draws in now. */
export function schemeOf(el) {
  const theme = el.getAttribute('theme');
  if (theme === 'dark') return 'dark';
  if (theme === 'auto') return hostScheme(el);
  const host = el.getRootNode().host;
  if (theme === null && host && internals.has(host)) return schemeOf(host);
  return 'light';
}

/** The scheme the page declares around `el` (its parent's used color-scheme): one of
 *  light or dark alone decides; none ("normal") or both leave it to the reader's system. */
function hostScheme(el) {
  const parent = el.parentElement ?? el.getRootNode().host;
  const words = (parent ? getComputedStyle(parent).colorScheme : 'normal').split(/\s+/);
  const light = words.includes('light');
  const dark = words.includes('dark');
  if (light !== dark) return dark ? 'dark' : 'light';
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function apply(el) {
  const states = internals.get(el)?.states;
  if (!states) return; // no CustomStateSet: widget-css.js falls back to the media query
  try {
    if (schemeOf(el) === 'dark') states.add('dark');
    else states.delete('dark');
  } catch {
    // Chromium 90–124 took only "--dark" (and the selector :--dark): there the media
    // query of widget-css.js applies, as :state() is not supported either.
    internals.delete(el);
    widgets.delete(el);
  }
}

/** Re-reads every connected widget's scheme (a host or system switch, a theme attribute). */
export function updateSchemes() {
  for (const el of widgets) apply(el);
}

/** Starts following `el`'s scheme (on connect; its ElementInternals are taken here, once). */
export function followScheme(el) {
  if (!internals.has(el)) {
    let inner = null;
    try {
      inner = el.attachInternals?.() ?? null;
    } catch {
      // internals taken already, or none for this element: the media-query fallback
    }
    if (!inner?.states) return;
    internals.set(el, inner);
  }
  widgets.add(el);
  watch();
  apply(el);
}

/** Stops following `el` (on disconnect). */
export function unfollowScheme(el) {
  widgets.delete(el);
}

function watch() {
  if (watching) return;
  watching = true;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', updateSchemes);
  window.addEventListener('load', updateSchemes, { once: true }); // late host stylesheets
  // Not the whole tree: a widget's own attributes change on every edit.
  const observer = new MutationObserver(() => {
    if (document.body && document.body !== observedBody) observeBody();
    updateSchemes();
  });
  let observedBody = null;
  const observeBody = () => {
    observedBody = document.body;
    if (observedBody) observer.observe(observedBody, { attributes: true });
  };
  observer.observe(document.documentElement, { attributes: true, childList: true });
  if (document.head) observer.observe(document.head, { attributes: true, childList: true, subtree: true });
  observeBody();
}
