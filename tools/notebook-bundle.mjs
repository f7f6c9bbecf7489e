// The package data of the Python package (python/attention_playground/static/), made from
// the built site by ./build.sh wheel:
//
//   widget.js      www/js/pages/notebook/widget.js bundled by esbuild into one module that needs no other
//                  file: the lesson core's wasm, KaTeX (for the formulas not typeset at build
//                  time), its stylesheet with its (cut) fonts and the bigram table are inside it (anywidget imports it from a blob: URL,
//                  where nothing can be found relative to it: anywidget issue 921)
//   head.json      the built-in h/o/u head, as the core's HeadLab starts (Head()'s defaults)
//   gpt.js         the same for GptInspect (www/js/pages/notebook/gpt.js): <attn-gpt-inspect> and the
//                  GPT's simd128 build inside it; <attn-gpt2> and its worker
//                  (www/js/pages/notebook/gpt2-worker.js, bundled apart and carried as text: gpt.js
//                  starts it from a blob: and posts it the wasm)
//   tags.json      the elements widget.js defines (Widget(tag) accepts these)
//   ../_manifest.py the manifest's Python classes the package writes no code for
//
//   node tools/notebook-bundle.mjs SITE OUT   (build.sh: dist/attention-playground → python/…/static)
//
// SITE is the dist folder: its KaTeX fonts are the ones cut to the formulas' glyphs.

import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeCore } from './node-core.mjs';

const [site, out] = process.argv.slice(2).map((p) => p && path.resolve(p));
if (!site || !out) {
  console.error('usage: node tools/notebook-bundle.mjs SITE OUT');
  process.exit(2);
}
const www = path.resolve('www');
const dataUrl = (type, bytes) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

// The faces the lesson's formulas are set in (tools/subset-fonts.mjs cut the first three to
// their glyphs); a formula in another face (\mathcal, \mathfrak, …) falls back to a system font.
const FACES = /^KaTeX_(AMS-Regular|Main-(Regular|Bold|Italic)|Math-Italic|Size[1-4]-Regular)\.woff2$/;

/** KaTeX's stylesheet with the fonts of FACES as data: URLs (woff2 only, as dist ships). */
function katexCss() {
  const dir = path.join(site, 'vendor/katex');
  const css = readFileSync(path.join(dir, 'katex.min.css'), 'utf8');
  const fonts = new Set(readdirSync(path.join(dir, 'fonts')).filter((f) => FACES.test(f)));
  // Each @font-face lists woff2, woff and ttf sources; dist keeps the woff2 files only. A face
  // not carried goes (a relative url() would resolve against nothing).
  return css.replace(/@font-face\s*{[^}]*}/g, (face) => {
    const woff2 = face.match(/url\(fonts\/([^)]+\.woff2)\)/);
    if (!woff2 || !fonts.has(woff2[1])) return '';
    const src = `src:url(${dataUrl('font/woff2', readFileSync(path.join(dir, 'fonts', woff2[1])))}) format("woff2")`;
    return face.replace(/src:[^;}]*/, src);
  });
}

// Files the widgets fetch by new URL('…', import.meta.url) that are small enough to carry.
// Any other such URL (the corpus, a worker's script) becomes unavailable:<path>, a URL
// that parses (a blob: base would throw as the module loads) and that nothing can load:
// a fetch of it fails into the widget's own message, a worker falls back to the page.
const INLINE = { 'data/bigram.bin': 'application/octet-stream' };
const URL_LITERAL = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/** The plugin of one ESM: `pkg` is the wasm build it carries (pkg, or pkg-gpt for the GPT's,
 *  whose glue then stands in for the lesson's: it exports the lesson's functions too). */
const inline = (pkg) => ({
  name: 'inline',
  setup(build) {
    build.onResolve({ filter: /^ap-inline:/ }, (args) => ({ path: args.path, namespace: 'ap-inline' }));
    build.onLoad({ filter: /.*/, namespace: 'ap-inline' }, (args) => {
      if (args.path === 'ap-inline:wasm') {
        return { contents: readFileSync(path.join(www, pkg, 'attention_playground_bg.wasm')), loader: 'binary' };
      }
      if (args.path === 'ap-inline:katex-css') return { contents: katexCss(), loader: 'text' };
      if (args.path === 'ap-inline:gpt2-worker') return { contents: gpt2Worker, loader: 'text' };
      throw new Error(`unknown ${args.path}`);
    });
    if (pkg !== 'pkg') {
      build.onResolve({ filter: /\/pkg\/attention_playground\.js$/ }, () => ({
        path: path.join(www, pkg, 'attention_playground.js'),
      }));
    }
    build.onLoad({ filter: /\.js$/ }, (args) => {
      let code = readFileSync(args.path, 'utf8');
      // The ESM hands tex.js KaTeX's stylesheet with its fonts inside (provideTexCss, before
      // any formula): the site's copy, fonts by URL, would be 23 KB carried for nothing.
      if (path.basename(args.path) === 'formulas.gen.js') {
        const siteCss = /^export const KATEX_CSS = .*;$/m;
        if (!siteCss.test(code)) throw new Error('formulas.gen.js: no KATEX_CSS line to leave out');
        code = code.replace(siteCss, 'export const KATEX_CSS = "";');
      }
      const contents = code.replace(URL_LITERAL, (all, q, rel) => {
        if (/^[a-z]+:/i.test(rel)) return all;
        const target = path.relative(www, path.resolve(path.dirname(args.path), rel)).split(path.sep).join('/');
        const type = INLINE[target];
        const url = type ? dataUrl(type, readFileSync(path.join(site, target))) : `unavailable:${target}`;
        return `new URL(${JSON.stringify(url)})`;
      });
      return { contents, loader: 'js' };
    });
  },
});

/** esbuild's options for one minified ES module of www/js/`entry` with `pkg`'s glue inlined. */
const moduleOf = (entry, pkg) => ({
  entryPoints: [path.join(www, 'js', entry)],
  bundle: true,
  format: 'esm',
  minify: true,
  target: ['es2022'],
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
  plugins: [inline(pkg)],
});

/** Bundles www/js/`entry` into OUT/`file` with `pkg`'s wasm; returns the modules it holds. */
async function esm(entry, file, pkg, banned) {
  const result = await esbuild.build({
    ...moduleOf(entry, pkg),
    outfile: path.join(out, file),
    logOverride: { 'commonjs-variable-in-esm': 'silent' }, // KaTeX's UMD build: it sets self.katex
  });
  const inputs = Object.keys(result.metafile.inputs);
  for (const name of banned) {
    if (inputs.some((i) => i.endsWith(name))) throw new Error(`${file} must not bundle ${name}`);
  }
  console.log(`notebook ESM: ${path.relative(process.cwd(), path.join(out, file))} ${readFileSync(path.join(out, file)).length} bytes`);
  return inputs;
}

/** GPT-2's notebook worker as one module's text, `pkg`'s glue inside and no wasm (its
 *  starter posts it the bytes it carries). */
async function workerText(entry, pkg) {
  const result = await esbuild.build({ ...moduleOf(entry, pkg), write: false });
  const inputs = Object.keys(result.metafile.inputs);
  for (const name of ['ap-inline:wasm', 'widgets/', 'ui/']) {
    if (inputs.some((i) => i.includes(name))) throw new Error(`${entry} must not bundle ${name}`);
  }
  return result.outputFiles[0].text;
}

mkdirSync(out, { recursive: true });
const gpt2Worker = await workerText('pages/notebook/gpt2-worker.js', 'pkg-gpt');
console.log(`notebook GPT-2 worker: ${gpt2Worker.length} bytes, inside gpt.js`);
const inputs = await esm('pages/notebook/widget.js', 'widget.js', 'pkg', ['gpt-train.js', 'gpt/worker.js', 'gpt/worker-commands.js', 'gpt/client.js', 'pkg-gpt/attention_playground.js']);
// gpt.js takes client.js for GPT-2's worker, which it starts itself (client.js's own URLs are unavailable:).
await esm('pages/notebook/gpt.js', 'gpt.js', 'pkg-gpt', ['gpt-train.js', 'gpt/worker.js', 'gpt/worker-commands.js', 'gpt/gpt2-worker.js', 'pkg/attention_playground.js']);

// Head()'s defaults: the core's own built-in head.
const core = await nodeCore();
const lab = new core.HeadLab();
const s = lab.state();
const rows = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.slice(i * m.cols, (i + 1) * m.cols)));
const head = {
  tokens: Array.from(s.tokens), x: rows(s.x), w_q: rows(s.W_q), w_k: rows(s.W_k), w_v: rows(s.W_v),
  causal: s.causal, scaled: s.scaled,
};
lab.free();
writeFileSync(path.join(out, 'head.json'), `${JSON.stringify(head)}\n`);

// The elements widget.js defines: every define(...) of the modules it bundles.
const tags = new Set();
for (const input of inputs) {
  if (!input.endsWith('.js') || input.startsWith('ap-inline')) continue;
  const code = readFileSync(path.resolve(input), 'utf8');
  for (const m of code.matchAll(/static tag = '([a-z0-9-]+)'|customElements\.define\('([a-z0-9-]+)'/g)) tags.add(m[1] ?? m[2]);
}
writeFileSync(path.join(out, 'tags.json'), `${JSON.stringify([...tags].sort())}\n`);
// The Python classes of the widget manifest: those the package writes no code for are made
// here (../_manifest.py, gitignored, in the wheel), real classes that editors and type
// checkers see; one the package writes (Head, FormulaSteps) must draw the manifest's tag.
const { WIDGETS } = await import(pathToFileURL(path.join(www, 'js/widgets/manifest.js')).href);
const written = readFileSync(path.join(out, '..', '_widgets.py'), 'utf8');
const py = (s) => JSON.stringify(s); // a JSON string is a Python string literal here (no \u escapes needed)
const classes = WIDGETS.filter((w) => w.python).map(({ tag, python, summary = '' }) => {
  if (!tags.has(tag)) throw new Error(`manifest: ${python}'s <${tag}> is not in widget.js`);
  if (new RegExp(`^class ${python}\\(`, 'm').test(written)) {
    return `if _widgets.${python}.TAG != ${py(tag)}:\n    raise ImportError(${py(`attention_playground: ${python} must draw <${tag}> (www/js/widgets/manifest.js)`)})\n`;
  }
  const doc = `${summary.replace(/\.$/, '')} (\`\`<${tag}>\`\`).`;
  return `\n\nclass ${python}(Widget):\n    ${py(doc).replace(/^"|"$/g, '"""')}\n\n    TAG = ${py(tag)}\n`;
});
const names = WIDGETS.filter((w) => w.python && !new RegExp(`^class ${w.python}\\(`, 'm').test(written)).map((w) => w.python);
writeFileSync(path.join(out, '..', '_manifest.py'), `"""The widget manifest's classes (www/js/widgets/manifest.js), written by tools/notebook-bundle.mjs."""

from . import _widgets
from ._widgets import Widget

__all__ = ${JSON.stringify(names)}

${classes.filter((c) => c.startsWith('if')).join('')}${classes.filter((c) => !c.startsWith('if')).join('')}`);
console.log(`_manifest.py: ${names.length} classes (${names.join(', ')})`);
console.log(`tags.json: ${tags.size} elements`);
