// embed.html: the teachers' catalogue of embeddable widgets. Builds one card per element
// of the widget manifest (widgets/manifest.js: attributes, state, events, snippet, live
// example, and the "open full-size" link to index.html with the example's state in the URL
// hash), wires the Copy buttons and the live event log. Widgets draw themselves (widgets.js).

import '../../widgets.js';
import '../widgets/notes-set.gen.js'; // every section's widgets, defined before the first paint
import { WIDGETS } from '../widgets/manifest.js';
import { urlKeyOf } from './url-keys.js';

const COMMON = [
  ['lang', 'en | zh', 'the page’s language'],
  ['theme', 'light | dark | auto: dark where the host page declares color-scheme: dark (MkDocs Material’s slate, mdBook’s navy, coal and ayu), light where it declares light, else as the reader’s prefers-color-scheme; it follows the host’s palette switch live', 'light'],
  ['frameless', 'boolean: no border, padding or background', 'absent'],
  ['readonly', 'boolean, on every lesson widget (not the GPT trainer): the numbers are shown but cannot be changed. '
    + 'Inputs, switches, buttons and editable grids are locked; “Show as tables” and click-to-explain cells still work. '
    + 'Removing it unlocks them live.', 'absent'],
];

const h = (tag, attrs = {}, ...kids) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...kids.flat());
  return el;
};
const code = (text) => h('code', {}, text);

/** index.html with `state` under `key` in the hash, the lesson page's URL state. */
export function fullSizeLink(key, section, state) {
  if (!key) return `index.html#${section}`;
  return `index.html#${encodeURIComponent(key)}=${encodeURIComponent(JSON.stringify(state))}`;
}

/** The script as a course page next to the copied folder loads it (step 1 above the
 *  snippet): relative, so the snippet works on any host and under any path. Not this page's
 *  own URL: pasted into notes on another host, that drew nothing. */
const WIDGETS_SRC = 'attention-playground/widgets.js';

function attrTable(rows) {
  return h('div', { class: 'scroll-x' }, h('table', { class: 'ref' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'attribute'), h('th', { scope: 'col' }, 'values'), h('th', { scope: 'col' }, 'default'))),
    h('tbody', {}, rows.map(([n, v, d]) => h('tr', {}, h('td', {}, code(n)), h('td', {}, v), h('td', {}, /\s|^(absent|none)$/.test(d) ? h('span', { class: 'muted' }, d) : code(d)))))));
}

function snippetBlock(text) {
  return h('div', { class: 'snippet-wrap' },
    h('div', { class: 'snippet-bar' }, h('span', {}, 'HTML'), h('button', { type: 'button', class: 'copy' }, 'Copy')),
    h('pre', { class: 'snippet' }, text));
}

function card({ tag, section, summary, attributes: attrs, state, example }) {
  const key = urlKeyOf(tag);
  const ex = example ? ` ${example}` : '';
  const snippet = `<script type="module" src="${WIDGETS_SRC}"></script>\n<${tag}${ex}></${tag}>`;
  const live = h('div', { class: 'live' });
  live.innerHTML = `<${tag}${ex}></${tag}>`;
  const el = live.firstElementChild;
  const link = h('a', { class: 'full-size', href: fullSizeLink(key, section, {}) }, 'Open full-size ↗');
  const urlForm = h('code', { class: 'url-form' }, key ? `index.html#${key}=<JSON state>` : `index.html#${section}`);
  const article = h('article', { class: 'widget-card', id: tag },
    h('header', { class: 'card-head' },
      h('h3', {}, code(`<${tag}>`)),
      link),
    h('p', { class: 'summary' }, summary),
    h('div', { class: 'ref-grid' },
      h('div', {},
        attrs.length ? attrTable(attrs) : h('p', { class: 'muted' }, tag.startsWith('attn-gpt-')
          ? 'No attributes of its own; lang, theme and frameless apply (readonly does not: it is not a lesson widget).'
          : 'No attributes of its own; the common ones (lang, theme, frameless, readonly) apply.'),
        h('p', { class: 'facts' },
          h('span', {}, 'state / ', code('attn-change'), ' detail: ', code(state)), h('br'),
          h('span', {}, 'link form: ', urlForm))),
      snippetBlock(snippet)),
    h('p', { class: 'live-label' }, 'Live example'),
    live);
  if (key) {
    const update = () => { link.href = fullSizeLink(key, section, el.state); };
    el.addEventListener('attn-rendered', update);
    el.addEventListener('attn-change', update);
  }
  return article;
}

function buildCatalogue() {
  const toc = document.getElementById('widget-toc');
  // Built off the page and appended at once: the widgets then connect together, and
  // find out with one layout which of them are near the viewport (ui/schedule.js).
  const list = document.createDocumentFragment();
  let ol = null;
  let group = null;
  for (const entry of WIDGETS.filter((w) => w.group)) {
    if (entry.group !== group) {
      group = entry.group;
      list.append(h('h2', { class: 'group' }, group));
      ol = h('ul', {});
      toc.append(h('li', {}, h('span', { class: 'toc-group' }, group), ol));
    }
    list.append(card(entry));
    ol.append(h('li', {}, h('a', { href: `#${entry.tag}` }, code(`<${entry.tag}>`))));
  }
  document.getElementById('catalogue').append(list);
  document.getElementById('common-attrs').append(attrTable(COMMON));
}

async function copy(button) {
  const text = button.closest('.snippet-wrap').querySelector('pre').textContent;
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    // http pages on other hosts, file://: select the text and use the old command
    const range = document.createRange();
    range.selectNodeContents(button.closest('.snippet-wrap').querySelector('pre'));
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try { ok = document.execCommand('copy'); } catch { ok = false; }
  }
  button.textContent = ok ? 'Copied ✓' : 'Press Ctrl+C';
  setTimeout(() => { button.textContent = 'Copy'; }, 1600);
}

function eventLog() {
  const log = document.getElementById('event-log');
  document.addEventListener('attn-change', (e) => {
    const text = JSON.stringify(e.detail);
    log.textContent = `${e.target.localName} → attn-change, detail = ${text.length > 220 ? `${text.slice(0, 220)}…` : text}`;
  });
}

document.getElementById('main-snippet').textContent = `<script type="module" src="${WIDGETS_SRC}" blocking="render"></script>\n<attn-head weights="hou" scaled="false"></attn-head>`;
buildCatalogue();
eventLog();
document.addEventListener('click', (e) => {
  const b = e.target.closest?.('button.copy');
  if (b) copy(b);
});
document.documentElement.dataset.ready = 'true';
