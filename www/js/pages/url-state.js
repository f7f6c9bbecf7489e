// Page state in the URL hash, so every lesson step is a link:
//   index.html#head={"causal":false,...}&scale={"dk":16}
// Each bound widget owns one key; its value is the widget's `state` as JSON.
// A value that does not parse, or that the widget refuses, is dropped with a notice
// and the widget keeps its defaults: a bad link never breaks the page.
// The hash is data, never markup or code: it reaches widgets only through JSON.parse
// and their `state` setters (which validate it), and notices are set as textContent.
// Opening such a link scrolls to the first widget it restored, as an #anchor would.
// A lone change is written once the frame that shows it has been drawn (history.replaceState
// and the widgets' JSON are not what the learner waits for); changes in a row (typing,
// a slider) are written once they pause for QUIET_MS: a write between two keystrokes
// (its replaceState, and the favicon Chromium fetches again after it) made the next
// keystroke's frame late. Leaving the page writes a pending change at once.

const MAX_VALUE = 8000; // characters per widget: a lesson state, not a payload
const MALFORMED = Symbol('malformed %-escape');
const bound = new Map(); // key -> element
let onNotice = () => {};
let writing = false;
let revealed = false; // the page load's link has been scrolled to
let queued = false; // a write waits (for the frame to be drawn, or for a pause)
const QUIET_MS = 300; // changes closer than this are a row
let lastChange = -Infinity;
let timer = 0;
let frame = 0;

function readHash() {
  const out = new Map();
  const hash = location.hash.replace(/^#/, '');
  if (!hash) return out;
  for (const part of hash.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    let key;
    try {
      key = decodeURIComponent(part.slice(0, eq));
    } catch {
      continue; // a key with a malformed %-escape names no widget
    }
    try {
      out.set(key, decodeURIComponent(part.slice(eq + 1)));
    } catch {
      out.set(key, MALFORMED); // the widget's value is broken: say so, keep its defaults
    }
  }
  return out;
}

function writeHash() {
  const parts = [];
  for (const [key, el] of bound) {
    if (!el.dataset.urlDirty) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(JSON.stringify(el.state))}`);
  }
  const hash = parts.length ? `#${parts.join('&')}` : '';
  if (hash === location.hash || (!hash && !location.hash)) return;
  writing = true;
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  writing = false;
}

/** Writes the hash after the coming frame, or once a row of changes pauses (at once-ish
 *  on a hidden page: no frames). */
function queueWrite() {
  const now = performance.now();
  const inRow = now - lastChange < QUIET_MS;
  lastChange = now;
  queued = true;
  clearTimeout(timer);
  cancelAnimationFrame(frame);
  const run = () => {
    if (!queued) return;
    queued = false;
    writeHash();
  };
  if (document.visibilityState === 'hidden') timer = setTimeout(run, 0);
  else if (inRow) timer = setTimeout(run, QUIET_MS);
  else frame = requestAnimationFrame(() => { timer = setTimeout(run, 0); });
}

function flush() {
  if (!queued) return;
  queued = false;
  writeHash();
}
addEventListener('pagehide', flush);
document.addEventListener('visibilitychange', flush);

/** Where notices about a URL that could not be used go: fn(key, message). */
export function setUrlNotice(fn) {
  onNotice = fn;
}

/** Restores `el.state` from the hash key `key` (if present) and keeps the hash in step. */
export function bindUrlState(el, key) {
  bound.set(key, el);
  const raw = readHash().get(key);
  if (raw != null && restore(el, key, raw) && !revealed) {
    revealed = true;
    reveal(el);
  }
  el.addEventListener('attn-change', () => {
    el.dataset.urlDirty = '1';
    queueWrite();
  });
}

function restore(el, key, raw) {
  try {
    if (raw === MALFORMED) throw new Error('a malformed %-escape');
    if (raw.length > MAX_VALUE) throw new Error(`longer than ${MAX_VALUE} characters`);
    let value;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new Error('not valid JSON');
    }
    el.state = value;
    el.dataset.urlDirty = '1';
    return true;
  } catch (err) {
    onNotice(key, String(err?.message ?? err));
    return false;
  }
}

/** Scrolls `el` to the top once it has drawn, and again when the whole page is ready
 *  (widgets above it may change height while they draw), unless the reader scrolled. */
function reveal(el) {
  el.closest('details')?.setAttribute('open', ''); // a side road holding it unfolds
  let moved = false;
  const stop = () => { moved = true; };
  for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown']) addEventListener(type, stop, { once: true, passive: true });
  const go = () => requestAnimationFrame(() => { if (!moved) el.scrollIntoView({ block: 'start' }); });
  el.addEventListener('attn-rendered', go, { once: true });
  const html = document.documentElement;
  if (html.dataset.ready === 'true') return;
  const watch = new MutationObserver(() => {
    if (html.dataset.ready !== 'true') return;
    watch.disconnect();
    go();
  });
  watch.observe(html, { attributes: true, attributeFilter: ['data-ready'] });
  setTimeout(() => watch.disconnect(), 15000);
}

// Following a link to another state of the same page re-applies it.
window.addEventListener('hashchange', () => {
  if (writing) return;
  queued = false; // the link followed wins over a change not yet written
  const values = readHash();
  let first = null;
  for (const [key, el] of bound) {
    if (values.has(key) && restore(el, key, values.get(key))) first ??= el;
  }
  first?.scrollIntoView({ block: 'start' });
});
