// Formulas typeset offline by KaTeX (vendored by build.sh into www/vendor/katex/).
//
//   import { tex, texSheet } from './tex.js';
//   el.append(tex('\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})V'));
//   shadowRoot.adoptedStyleSheets = [...shadowRoot.adoptedStyleSheets, await texSheet()];
//
// KaTeX's fonts are declared once in the document (a <link> to katex.min.css, so
// @font-face applies everywhere); shadow roots adopt the same CSS for KaTeX's classes.
// Paths resolve relative to this module, so any sub-path of any server works.

import '../vendor/katex/katex.min.js';

const CSS_URL = new URL('../vendor/katex/katex.min.css', import.meta.url).href;
let sheetPromise = null;

function linkDocumentCss() {
  if (document.querySelector(`link[data-katex]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = CSS_URL;
  link.dataset.katex = '';
  document.head.append(link);
}

/** KaTeX's stylesheet as a constructed sheet, for a shadow root's adoptedStyleSheets. */
export function texSheet() {
  linkDocumentCss();
  sheetPromise ??= fetch(CSS_URL)
    .then((r) => (r.ok ? r.text() : ''))
    .then((css) => {
      const sheet = new CSSStyleSheet();
      // @font-face is ignored inside shadow roots; the document-level link provides it.
      sheet.replaceSync(css.replace(/@font-face\s*{[^}]*}/g, ''));
      return sheet;
    });
  return sheetPromise;
}

/** Adopts KaTeX's styles into a shadow root (once). */
export async function adoptTex(root) {
  const sheet = await texSheet();
  if (!root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
}

/**
 * A <span> with `latex` typeset (inline, or display when `display` is true).
 * LaTeX KaTeX cannot parse is shown as plain text (class tex-error, the parser's message
 * as its title): KaTeX's own error span carries a style="" attribute, which a strict
 * Content-Security-Policy (style-src 'self') refuses.
 */
export function tex(latex, display = false) {
  const span = document.createElement('span');
  span.className = display ? 'tex tex-display' : 'tex';
  try {
    self.katex.render(latex, span, { displayMode: display, throwOnError: true, output: 'htmlAndMathml' });
    // Stretchy delimiters and roots are 400em-wide SVGs that KaTeX's CSS clips. Until
    // that CSS reaches a shadow root (it is fetched once, asynchronously) they would
    // widen the whole page; capping them at their container is harmless afterwards.
    for (const svg of span.querySelectorAll('svg')) svg.style.maxWidth = '100%';
  } catch (err) {
    span.classList.add('tex-error');
    span.title = String(err?.message ?? err);
    span.textContent = latex;
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
