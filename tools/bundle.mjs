// Bundles the page's ES modules with esbuild (npm) into a few minified files, for the
// folder build.sh dist ships: a page then fetches a handful of scripts instead of dozens.
//
//   node tools/bundle.mjs SRC OUT      (build.sh: www → dist/attention-playground)
//
// Entry points keep their paths (widgets.js, js/pages/lesson.js, the workers, …), so the HTML
// and a teacher's <script src=".../widgets.js"> stay as they are; code that several entries
// share, and what is imported on demand (the GPT trainer, KaTeX's script), goes into
// js/chunk-*.js. Modules find their files with new URL('rel', import.meta.url); once a module
// sits inside another file, import.meta.url is that file's URL, so each such literal is
// rewritten to a path from the site's root, and each output file then gets its own way
// there (a placeholder replaced after the build, per file). An import() of a computed URL
// gets back the comments that tell a bundler to leave it to the browser. Nothing else is
// changed.

import * as esbuild from 'esbuild';
import { WIDGETS } from '../www/js/widgets/manifest.js';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const args = process.argv.slice(2);
const elementsOnly = args.includes('--elements');
const [src, out] = args.filter((a) => !a.startsWith('--')).map((p) => path.resolve(p));
if (!src || !out) {
  console.error('usage: node tools/bundle.mjs SRC OUT [--elements]');
  process.exit(2);
}

// Families of entries, each split into chunks of its own: each teacher's script (widgets.js,
// whose chunks are what it loads on demand, sections 5–8, the GPT trainer, KaTeX's script,
// and the code those share with it; attn-head.js, one file but for KaTeX's script, so a page
// with a head alone fetches the script and then the core, one round trip fewer than through
// a chunk), and the two pages built on widgets.js (the lesson, the catalogue). A page loads
// one family, so neither's chunks are cut to fit the other's imports. Every other entry (the
// demo and bench pages, each worker) is one self-contained file, so a page fetches its
// script and a chunk or two, and a worker none of the page's chunks.
const TEACHERS = [['widgets.js'], ['attn-head.js']];
const PAGES = ['js/pages/lesson.js', 'js/pages/embed.js'];
const ALONE = ['js/pages/explain-demo.js', 'js/pages/bench.js', 'js/gpt/worker.js', 'js/gpt/gpt2-worker.js', 'js/gpt/grad-worker.js',
  'js/pages/bench-worker.js', 'js/widgets/notes/variance-worker.js'];
// --elements (the npm package, tools/npm-package.mjs): instead of all those, each element's
// module alone as OUT/<tag>.js, one family split into chunks of its own, for a site that
// imports one element (attention-playground/attn-softmax-steps.js). <attn-head>'s is
// attn-head.js, the teacher's script.
const ELEMENTS = [...new Map(WIDGETS.filter((w) => w.module !== 'head/attn-head.js')
  .map((w) => [w.module, { in: `js/widgets/${w.module}`, out: w.tag }])).values()];
const ROOT = '__AP_ROOT__/';
const URL_LITERAL = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

/** new URL('rel', import.meta.url) → new URL('__AP_ROOT__/path/from/src', import.meta.url). */
const rootUrls = {
  name: 'root-urls',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      const code = await readFile(args.path, 'utf8');
      const contents = code.replace(URL_LITERAL, (all, q, rel) => {
        if (/^[a-z]+:/i.test(rel) || rel.startsWith('/')) return all;
        const target = path.relative(src, path.resolve(path.dirname(args.path), rel)).split(path.sep).join('/');
        if (target.startsWith('..')) throw new Error(`${args.path}: ${rel} is outside ${src}`);
        return `new URL(${q}${ROOT}${target}${q}, import.meta.url)`;
      });
      return { contents, loader: 'js' };
    });
  },
};

const bundle = (entries, splitting) => esbuild.build({
  entryPoints: entries.map((e) => (typeof e === 'string' ? path.join(src, e) : { in: path.join(src, e.in), out: e.out })),
  outbase: src,
  outdir: out,
  entryNames: '[dir]/[name]',
  chunkNames: 'js/chunk-[hash]',
  bundle: true,
  splitting,
  format: 'esm',
  minify: true,
  target: ['es2022'],
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
  logOverride: { 'commonjs-variable-in-esm': 'silent' }, // KaTeX's UMD build: it sets self.katex
  plugins: [rootUrls],
});

const runs = elementsOnly ? [await bundle(ELEMENTS, true)]
  : [...await Promise.all(TEACHERS.map((family) => bundle(family, true))), await bundle(PAGES, true), ...await Promise.all(ALONE.map((e) => bundle([e], false)))];
const result = { metafile: { outputs: Object.assign({}, ...runs.map((r) => r.metafile.outputs)) } };
let bytes = 0;
for (const file of Object.keys(result.metafile.outputs)) {
  const abs = path.resolve(file);
  if (!abs.endsWith('.js')) continue;
  const up = path.relative(path.dirname(abs), out).split(path.sep).join('/');
  const text = (await readFile(abs, 'utf8')).replaceAll(ROOT, up ? `${up}/` : './')
    // an import of a computed URL (a GPT build's glue) is the browser's, not a bundler's that
    // takes these files (the npm package): the comments esbuild dropped, put back
    .replace(/\bimport\((?=[A-Za-z_$])/g, 'import(/*webpackIgnore:true*//*@vite-ignore*/');
  await writeFile(abs, text);
  bytes += text.length;
}
if (process.env.BUNDLE_META) await writeFile(process.env.BUNDLE_META, JSON.stringify(result.metafile));
console.log(`bundled ${elementsOnly ? ELEMENTS.length : TEACHERS.flat().length + PAGES.length + ALONE.length} entry points into ${Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length} files (${bytes} bytes)`);
