// embed.html: the teachers' catalogue of embeddable widgets. Builds one card per
// element from CATALOGUE (attributes, state, events, snippet, live example, and the
// "open full-size" link to index.html with the example's state in the URL hash),
// wires the Copy buttons and the live event log. Widgets draw themselves (widgets.js).

import '../widgets.js';
import './widgets/part-b.js'; // every section's widgets, defined before the first paint
import { urlKeyOf } from './url-keys.js';

const FOR = ['for', 'id of an <attn-head> on the same page to follow', 'the built-in h/o/u head'];

// tag, section of index.html, summary, own attributes [name, values, default],
// state fields, example attributes; the URL key on index.html comes from URL_KEYS
const CATALOGUE = [
  { group: 'Part A · the bigram and averaging the past (lesson sections 1–2)' },
  ['attn-bigram', 's1', 'What a count bigram predicts after each word: only the last character matters.',
    [['words', 'comma-separated words, 1–6 of 1–16 characters', 'hou,you,thou'], ['top', 'integer: rows of the next-character table', '3']],
    '{ words }', 'words="hou,you,thou"'],
  ['attn-examples', 's1', 'One chunk of text is block_size training examples at once.',
    [['chunk', 'text of 2–65 characters', "Let's hea"]], '{ chunk }', 'chunk="hello"'],
  ['attn-bigram-split', 's1', 'Split the bigram table into an embedding and a linear layer: parameter counts and initial losses.',
    [['vocab', 'integer 2–1000 (vocabulary size V)', '65'], ['n-embd', '8, 16, 32 or 64', '32']],
    '{ vocab_size, n_embd }', ''],
  ['attn-schemes', 's2', 'Four ways to average the past (loop, matrix, softmax over a mask, a head with q = k = v = x) side by side.',
    [], '{ x }', ''],
  ['attn-sum-norm', 's2', 'Why raw scores cannot be normalised by their sum.',
    [['scores', 'comma-separated numbers (1–8)', '2,-1,3']], '{ scores }', 'scores="2,-1,3"'],
  ['attn-softmax-steps', 's2', 'Softmax over a −∞ mask, one step at a time.', [], '{ scores, allowed }', ''],
  ['attn-normalize', 's2', 'Which direction to normalise, and the lost-keepdim trap.', [], '{ a }', ''],
  { group: 'Part A · position and one head by hand (sections 3–4)' },
  ['attn-position', 's3', 'Attention has no sense of order until positions are added.',
    [['a', 'word of the letters d, o, g, s (1–8)', 'dogs'], ['b', 'word of the letters d, o, g, s (1–8)', 'gods']],
    '{ toy, a, b, positions, causal }', 'a="dogs" b="gods"'],
  ['attn-pos-table', 's3', 'Where position vectors come from: the sinusoidal table, and why a learned table crops the context.',
    [], '{ t, c, len, block }', ''],
  ['attn-head', 's4', 'One self-attention head the learner edits: x, W_q, W_k, W_v in; q, k, v, scores, weights and out drawn as heatmaps. Click an output cell to see how it was computed.',
    [['weights', 'hou (the only built-in set)', 'hou'], ['scaled', 'true | false (divide scores by √d_k)', 'false'],
      ['causal', 'true | false (causal mask)', 'true'], ['sequence', 'words separated by | (buttons to switch x), letters h, o, u, y', 'none']],
    '{ x, W_q, W_k, W_v, causal, scaled, tokens }', 'weights="hou" scaled="false"'],
  ['attn-head-probe', 's4', 'One score computed two ways (x_i M x_jᵀ), and one output taken apart as weight × value rows.',
    [FOR, ['receiver', 'token index (query row)', '2'], ['source', 'token index (key column)', '0']],
    '{ receiver, source }', 'receiver="2" source="0"'],
  ['attn-compare-words', 's4', 'The same weights on two sequences give different attention weights.',
    [FOR, ['a', 'word of the letters h, o, u, y', 'hou'], ['b', 'word of the letters h, o, u, y', 'you']],
    '{ a, b }', 'a="hou" b="you"'],
  ['attn-value-change', 's4', 'A new W_v changes out, never the weights.', [FOR], '{ W_v }', ''],
  ['attn-bias', 's4', 'A key bias changes no weight; a query bias does.', [FOR], '{ k_bias, q_bias, b_k, b_q }', ''],
  { group: 'Part B · six notes (section 5)' },
  ['attn-note-graph', 's5', 'Attention as message passing on a graph; the causal mask removes the arrows from the future.',
    [['causal', 'true | false', 'true']], '{ causal }', ''],
  ['attn-note-space', 's5', 'Attention has no notion of space: shuffle the tokens and the outputs shuffle the same way.', [], '{ a, b, positions, causal }', ''],
  ['attn-note-batch', 's5', 'Sequences in a batch never talk to each other (and BatchNorm as the counterexample).', [], '{ seed }', ''],
  ['attn-note-encoder', 's5', 'Encoder and decoder attention differ by one line: the mask.', [], '{ decoder }', ''],
  ['attn-note-cross', 's5', 'Cross-attention: queries from one sequence, keys and values from another.', [], '{ x_q, x_kv, scaled }', ''],
  ['attn-note-scale', 's5', 'Why scores are divided by √d_k: a d_k slider, the Var(q·k) ≈ d table, sharper softmax.', [], '{ dk, scaled, causal }', ''],
  { group: 'Part B · exercises, proofs and practice (sections 6–8)' },
  ['attn-exercise', 's6', 'The lesson-1 NumPy exercise: fill three blanks and see what each choice does.', [], '{ score, mask, axis, seed, causal }', ''],
  ['attn-proofs', 's7', 'Three checks that the mask and the hand-written backward work, run on random inputs.', [], '{ seed, from }', ''],
  ['attn-practice', 's8', 'Exercises with answer checking (“1/4, 1/2, 1/4” works).', [], '{ answers }', ''],
  ['attn-quiz', 's8', 'A six-question recall quiz, reshuffled on every retake, with a spaced-review banner.',
    [['now', 'ISO date or milliseconds (the clock, for tests)', 'the real time']], '{ attempt, picks }', ''],
  ['attn-interview', 's8', 'Two interview questions: write an answer, then reveal a model answer.', [], 'none', ''],
  { group: 'Train a GPT (section 9)' },
  ['attn-gpt-train', 's9', 'Train a small GPT in a Web Worker, watch the loss curves, pause to open its heads, save and load checkpoints.', [], 'read-only: { status, step, loss, … }', ''],
];

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

const widgetsUrl = () => (/^https?:$/.test(location.protocol) ? new URL('widgets.js', location.href).href
  : 'https://your-site/attention-playground/widgets.js');

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

function card([tag, section, summary, attrs, state, example]) {
  const key = urlKeyOf(tag);
  const ex = example ? ` ${example}` : '';
  const snippet = `<script type="module" src="${widgetsUrl()}"></script>\n<${tag}${ex}></${tag}>`;
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
  // find out with one layout which of them are near the viewport (widget-base.js).
  const list = document.createDocumentFragment();
  let ol = null;
  for (const entry of CATALOGUE) {
    if (!Array.isArray(entry)) {
      list.append(h('h2', { class: 'group' }, entry.group));
      ol = h('ul', {});
      toc.append(h('li', {}, h('span', { class: 'toc-group' }, entry.group), ol));
      continue;
    }
    list.append(card(entry));
    ol.append(h('li', {}, h('a', { href: `#${entry[0]}` }, code(`<${entry[0]}>`))));
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

document.getElementById('main-snippet').textContent = `<script type="module" src="${widgetsUrl()}" blocking="render"></script>\n<attn-head weights="hou" scaled="false"></attn-head>`;
buildCatalogue();
eventLog();
document.addEventListener('click', (e) => {
  const b = e.target.closest?.('button.copy');
  if (b) copy(b);
});
document.documentElement.dataset.ready = 'true';
