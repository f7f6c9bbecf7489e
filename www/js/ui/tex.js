// Formulas typeset by KaTeX (MIT; copied from npm into www/vendor/katex/ by build.sh).
//
//   import { tex, adoptTex } from './tex.js';
//   el.append(tex('\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})V'));
//   adoptTex(shadowRoot);                 // KaTeX's classes, inside a widget's shadow root
//   usePrebuilt(head);                    // a group of formulas.gen.js, at a module's top
//
// A formula that never changes (www/js/ui/formulas.js, the core's formula and its steps) was
// typeset when the site was built (tools/typeset.mjs → formulas.gen.js, one constant per
// group) and the widget that draws it registers its group (usePrebuilt): tex() rebuilds its
// DOM tree with createElement and element.style, so KaTeX's script is never loaded for it
// and no HTML string is parsed (a strict CSP, style-src 'self', allows CSSOM styles). Any
// other formula loads KaTeX's script the first time one is typeset; until then its span
// holds the LaTeX source. KaTeX's stylesheet comes with the prebuilt formulas (its text,
// not a request): its @font-face rules go to the document (fonts cannot be declared inside
// a shadow root), the rest to every shadow root that adopts it, at once, so a widget's
// first layout has its formulas styled. Its fonts are found by URLs relative to this module
// (KATEX_FONTS, literals a bundler rewrites): any sub-path of any server works, and so does
// a site a bundler built around the npm package.

import { KATEX_CSS, KATEX_FONTS } from './formulas.gen.js';
// The options tools/typeset.mjs typesets with (both must agree).
const OPTIONS = { throwOnError: true, output: 'htmlAndMathml' };
const NS = [null, 'http://www.w3.org/2000/svg', 'http://www.w3.org/1998/Math/MathML'];

let sheet = null;
let katexPromise = null;
let cssText = KATEX_CSS;

/** KaTeX's stylesheet as text, its fonts as data: URLs, for a host where this module has no
 *  URL to fetch them by (the notebook ESM); called before the first formula. */
export function provideTexCss(css) {
  cssText = css;
}

// KaTeX writes each formula twice: as HTML that is seen, and as MathML for screen readers,
// clipped to a pixel but laid out all the same. Laid out as the browser's defaults have it,
// that MathML asks the system for a math font (none is installed on many machines) and,
// for each letter of an <mi>, for the italic letter of Unicode's math alphabet
// (x → 𝑥, U+1D465), which most text fonts lack: a cold load of a one-head page made 68
// such fallback lookups and 147 font lookups, each a synchronous call to the browser
// process (traced; 41 fewer fallbacks and 49 fewer lookups with this rule). The MathML
// keeps its elements and letters; the accessibility tree now names a letter as the letter
// ("QK⊤", not "𝑄𝐾"), and an <mi> that sets its own mathvariant keeps it.
const QUIET_MATHML = '.katex .katex-mathml math { font-family: inherit; } .katex .katex-mathml mi:not([mathvariant]) { text-transform: none; }'
  + ' .katex .katex-mathml math * { font-size: inherit; }'; // no sizes of its own for scripts: each size of a font is one more call

/** KaTeX's stylesheet, less its fonts, as a constructed sheet (its fonts go to the document). */
function texSheet() {
  if (sheet) return sheet;
  const fonts = cssText.match(/@font-face\s*{[^}]*}/g) ?? [];
  const faces = new CSSStyleSheet();
  // A constructed sheet resolves url() against the document: each woff2 font by its own URL
  // (KATEX_FONTS: what a bundler emitted, or the file beside this site), and the woff and
  // ttf fallbacks, never fetched where woff2 loads and not shipped, left out.
  const src = (face) => face.replace(/,?url\(([^)]+)\)\s*format\([^)]*\)/g, (all, u) => {
    const url = KATEX_FONTS[u.replace(/["']/g, '')];
    return url ? `url(${url}) format("woff2")` : u.startsWith('data:') ? all : '';
  }).replace(/src:,/, 'src:');
  faces.replaceSync(fonts.map(src).join('\n'));
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, faces];
  sheet = new CSSStyleSheet();
  sheet.replaceSync(`${cssText.replace(/@font-face\s*{[^}]*}/g, '')}\n${QUIET_MATHML}`);
  return sheet;
}

/** Adopts KaTeX's styles into a shadow root (once), at once: nothing here awaits, so the
 *  sheet is in place when this returns (a failure is the promise's). */
export async function adoptTex(root) {
  const s = texSheet();
  if (!root.adoptedStyleSheets.includes(s)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, s];
}

/** KaTeX itself, loaded on first use (its UMD build sets self.katex; a bundle hands it as default). */
function loadKatex() {
  katexPromise ??= import('../../vendor/katex/katex.min.js').then((m) => self.katex ?? m.default);
  return katexPromise;
}

// The registered groups' formulas: key ("D" or "I", then the LaTeX) → the tree as JSON.
const PREBUILT = new Map();
/** Registers a group of formulas.gen.js: its formulas are drawn without KaTeX's script.
 *  Each module registers the group it draws at its top, so a bundle that holds the
 *  module holds it, and one that does not leaves it out. */
export function usePrebuilt(group) {
  for (const key in group) PREBUILT.set(key, group[key]);
}

const trees = new Map();
/** The prebuilt tree of a registered key (parsed once), or undefined. */
function prebuiltTree(key) {
  if (!trees.has(key)) trees.set(key, PREBUILT.has(key) ? JSON.parse(PREBUILT.get(key)) : undefined);
  return trees.get(key);
}

/** Rebuilds a tree of tools/typeset.mjs: [tag, ns, class, attributes, style, children] or text. */
function build(node) {
  if (typeof node === 'string') return document.createTextNode(node);
  const [tag, ns, cls, attrs, style, kids] = node;
  const el = ns ? document.createElementNS(NS[ns], tag) : document.createElement(tag);
  if (cls) el.setAttribute('class', cls);
  for (const name in attrs) el.setAttribute(name, attrs[name]);
  for (const prop in style) el.style[prop] = style[prop];
  for (const kid of kids) el.append(build(kid));
  return el;
}

/** Stretchy delimiters and roots are 400em-wide SVGs that KaTeX's CSS clips. Until that CSS
 *  reaches a shadow root (fetched once, asynchronously) they would widen the whole page;
 *  capping them at their container is harmless afterwards. */
function capSvgs(span) {
  for (const svg of span.querySelectorAll('svg')) svg.style.maxWidth = '100%';
}

/** Typesets `latex` into `span`; LaTeX KaTeX cannot parse is shown as plain text (class
 *  tex-error, the parser's message as its title): KaTeX's own error span carries a style=""
 *  attribute, which a strict Content-Security-Policy (style-src 'self') refuses. */
function typeset(katex, span, latex, display) {
  try {
    katex.render(latex, span, { ...OPTIONS, displayMode: display });
    capSvgs(span);
  } catch (err) {
    span.classList.add('tex-error');
    span.title = String(err?.message ?? err);
    span.textContent = latex;
  }
}

/** A <span> with `latex` typeset (inline, or display when `display` is true). */
export function tex(latex, display = false) {
  const span = document.createElement('span');
  span.className = display ? 'tex tex-display' : 'tex';
  const prebuilt = prebuiltTree(`${display ? 'D' : 'I'}${latex}`);
  if (prebuilt) {
    span.append(build(prebuilt));
    capSvgs(span);
  } else if (self.katex) {
    typeset(self.katex, span, latex, display);
  } else {
    span.textContent = latex;
    span.classList.add('tex-pending');
    loadKatex().then((katex) => {
      span.classList.remove('tex-pending');
      typeset(katex, span, latex, display);
    }, () => {});
  }
  return span;
}

const TEX_SPECIAL = {
  '\\': '\\backslash ', '{': '\\{', '}': '\\}', '$': '\\$', '&': '\\&', '#': '\\#',
  '%': '\\%', '_': '\\_', '^': '\\wedge ', '~': '\\sim ',
};

/** `text` (a token, a learner's word) made safe to splice into math-mode LaTeX. */
export function texEscape(text) {
  return String(text).replace(/[\\{}$&#%_^~]/g, (c) => TEX_SPECIAL[c]);
}
