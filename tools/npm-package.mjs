// Writes the npm package of the widgets from the built site (build.sh dist), for
// `./build.sh npm`: a folder `npm pack` turns into dist/npm/attention-playground-<version>.tgz.
//
//   node tools/npm-package.mjs DIST OUT VERSION
//      DIST     dist/attention-playground (the bundled site)
//      OUT      the package folder to write (emptied first)
//      VERSION  the crate's version (Cargo.toml)
//
// The package holds the two teachers' scripts (widgets.js, attn-head.js), each element's
// module alone (<tag>.js, bundled by tools/bundle.mjs --elements into a copy of DIST) and
// every file they reach, found by following the bundle: each `import`, `from "…"` and
// `new URL("…", import.meta.url)` of a file it holds (the chunks, the workers, the wasm and
// its glue, KaTeX's stylesheet and the fonts it names, the corpus and the pretrained model),
// at the paths the site has, so each module finds the others as it does there. The site's
// pages are left out. Beside them: package.json (exports, sideEffects, customElements,
// types), custom-elements.json (the Custom Elements Manifest, schema 2.1.0) and
// widgets.d.ts (HTMLElementTagNameMap), both written from the widget manifest
// (www/js/widgets/manifest.js), and a README.

import { execFileSync } from 'node:child_process';
import { access, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WIDGETS } from '../www/js/widgets/manifest.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const TEACHERS = ['widgets.js', 'attn-head.js'];
/** The file that defines `tag` alone (tools/bundle.mjs --elements): the first tag of its
 *  module names it; <attn-head>'s module is attn-head.js, the teacher's script. */
const elementFile = (tag) => {
  const { module } = WIDGETS.find((w) => w.tag === tag);
  return module === 'head/attn-head.js' ? 'attn-head.js' : `${WIDGETS.find((w) => w.module === module).tag}.js`;
};
const ELEMENT_FILES = [...new Set(WIDGETS.map((w) => elementFile(w.tag)))];
// import("./x.js"), from"./x.js", new URL("x", import.meta.url) (either quote: the
// wasm-bindgen glue writes single ones); url(x) in a stylesheet
const JS_REFS = [
  /(?:\bfrom|\bimport\(|\bimport)\s*["'](\.{1,2}\/[^"']+)["']/g,
  /new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g,
];
const CSS_REFS = /url\(\s*["']?([^"')]+)["']?\s*\)/g;

const exists = (p) => access(p).then(() => true, () => false);

/** Every file `entries` reach inside `root`, as paths relative to it. */
async function closure(root, entries) {
  const seen = new Set();
  const todo = [...entries];
  while (todo.length) {
    const rel = todo.pop();
    if (seen.has(rel)) continue;
    seen.add(rel);
    const ext = path.extname(rel);
    if (ext !== '.js' && ext !== '.css') continue;
    const text = await readFile(path.join(root, rel), 'utf8');
    const refs = ext === '.css' ? [CSS_REFS] : JS_REFS;
    for (const re of refs) {
      for (const m of text.matchAll(re)) {
        const ref = m[1];
        if (/^[a-z]+:/i.test(ref) || ref.startsWith('/') || ref.startsWith('#')) continue;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), ref));
        if (target.startsWith('..')) throw new Error(`${rel}: ${ref} leaves the package`);
        // a stylesheet's fallback fonts (.woff, .ttf) are not shipped: browsers take the woff2
        if (ext === '.css' && !(await exists(path.join(root, target)))) continue;
        todo.push(target);
      }
    }
  }
  return [...seen].sort();
}

const COMMON_ATTRIBUTES = [
  { name: 'lang', description: 'en or zh; without it, the page\'s language (the html element\'s lang)', type: { text: "'en' | 'zh'" } },
  { name: 'readonly', description: 'nothing can be edited (the numbers can still be explained)', type: { text: 'boolean' } },
  { name: 'theme', description: 'light, dark or auto (the host\'s color-scheme)', type: { text: "'light' | 'dark' | 'auto'" } },
];
const EVENTS = [
  { name: 'attn-change', description: 'the learner changed something; detail = the element\'s state', type: { text: 'CustomEvent' } },
  { name: 'attn-rendered', description: 'the element has drawn its numbers', type: { text: 'CustomEvent' } },
];
const CSS_PROPERTIES = [
  ['--attn-bg', 'background'], ['--attn-fg', 'text colour'], ['--attn-muted', 'secondary text'],
  ['--attn-line', 'borders and rules'], ['--attn-accent', 'accent (buttons, weights)'],
  ['--attn-accent-soft', 'soft accent (panels)'], ['--attn-focus', 'focus ring'], ['--attn-font', 'text font'],
  ['--attn-mono', 'numbers\' font'], ['--attn-ok', 'a right answer'], ['--attn-ok-bg', 'its background'],
  ['--attn-error', 'a mistake'], ['--attn-error-bg', 'its background'], ['--attn-selected', 'the explained cell'],
  ['--attn-source', 'the cells it was computed from'], ['--attn-cell-w', 'a matrix cell\'s width'],
  ['--attn-cell-h', 'a matrix cell\'s height'],
].map(([name, description]) => ({ name, description }));

/** The element's class name: attn-head → AttnHead. */
const className = (tag) => tag.split('-').map((p) => p[0].toUpperCase() + p.slice(1)).join('');

/** custom-elements.json: one module (widgets.js) declaring and defining every element. */
function manifest() {
  const declarations = WIDGETS.map((w) => ({
    kind: 'class', name: className(w.tag), customElement: true, tagName: w.tag,
    description: w.summary ?? '',
    attributes: [...(w.attributes ?? []).map(([name, values, dflt]) => ({ name, description: values, default: dflt })),
      ...COMMON_ATTRIBUTES],
    members: [{ kind: 'field', name: 'state', description: `the element's state${w.state ? `: ${w.state}` : ''}; setting it redraws` }],
    events: EVENTS,
    cssProperties: CSS_PROPERTIES,
  }));
  const definition = (w) => ({ kind: 'custom-element-definition', name: w.tag,
    declaration: { name: className(w.tag), module: 'widgets.js' } });
  const alone = ELEMENT_FILES.map((file) => ({ kind: 'javascript-module', path: file, declarations: [],
    exports: WIDGETS.filter((w) => elementFile(w.tag) === file).map(definition) }));
  return {
    schemaVersion: '2.1.0',
    readme: 'README.md',
    modules: [{ kind: 'javascript-module', path: 'widgets.js', declarations, exports: WIDGETS.map(definition) }, ...alone],
  };
}

/** widgets.d.ts: each tag's element type, for TypeScript and editors. */
function types() {
  const lines = [
    '// The elements attention-playground defines (written by tools/npm-package.mjs).',
    '',
    '/** What every element of the package has: the page\'s state as one value. */',
    'export interface AttnElement extends HTMLElement {',
    '  /** The element\'s state (the fields custom-elements.json lists); setting it redraws. */',
    '  state: Record<string, unknown>;',
    '  lang: string;',
    '}',
    '',
    'declare global {',
    '  interface HTMLElementTagNameMap {',
    ...WIDGETS.map((w) => `    '${w.tag}': AttnElement;`),
    '  }',
    '  interface HTMLElementEventMap {',
    '    \'attn-change\': CustomEvent<Record<string, unknown>>;',
    '    \'attn-rendered\': CustomEvent<null>;',
    '  }',
    '}',
    '',
  ];
  return lines.join('\n');
}

const README = (version) => `# attention-playground ${version}

The widgets of Attention Playground as custom elements: scaled dot-product self-attention you
can run, edit and click in course notes. Every number is computed by a Rust core compiled to
WebAssembly, shipped in this package; nothing is fetched from elsewhere.

\`\`\`sh
npm install attention-playground
\`\`\`

\`\`\`js
import 'attention-playground/widgets.js'; // every element
import 'attention-playground/attn-softmax-steps.js'; // or one element alone (attention-playground/<tag>.js)
\`\`\`

\`\`\`html
<attn-head weights="hou" scaled="false"></attn-head>
\`\`\`

From a CDN that serves npm packages, with no build step:

\`\`\`html
<script type="module" src="https://cdn.jsdelivr.net/npm/attention-playground@${version}/widgets.js"></script>
\`\`\`

Every element, its attributes, events and CSS custom properties: custom-elements.json (the
Custom Elements Manifest). Recipes for Vite, VitePress, Docusaurus and plain pages:
docs/embedding.md in the repository. License: MIT.
`;

async function main() {
  const [dist, out, version] = process.argv.slice(2);
  if (!dist || !out || !version) {
    console.error('usage: node tools/npm-package.mjs DIST OUT VERSION');
    process.exit(2);
  }
  // the site, plus each element's module alone, bundled beside it (the same chunks' folder)
  const stage = await mkdtemp(path.join(tmpdir(), 'attn-npm-stage-'));
  await cp(dist, stage, { recursive: true });
  execFileSync('node', [path.join(REPO, 'tools/bundle.mjs'), path.join(REPO, 'www'), stage, '--elements'],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  const files = await closure(stage, [...new Set([...TEACHERS, ...ELEMENT_FILES])]);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  for (const f of files) {
    await mkdir(path.dirname(path.join(out, f)), { recursive: true });
    await cp(path.join(stage, f), path.join(out, f));
  }
  await cp(path.join(stage, 'vendor/katex/LICENSE'), path.join(out, 'vendor/katex/LICENSE'));
  await rm(stage, { recursive: true, force: true });
  await writeFile(path.join(out, 'custom-elements.json'), `${JSON.stringify(manifest(), null, 2)}\n`);
  await writeFile(path.join(out, 'widgets.d.ts'), types());

  await writeFile(path.join(out, 'README.md'), README(version));
  const pkg = {
    name: 'attention-playground',
    version,
    description: 'Scaled dot-product self-attention you can run, edit and click: custom elements with a Rust/WebAssembly core',
    license: 'MIT',
    type: 'module',
    main: './widgets.js',
    types: './widgets.d.ts',
    exports: {
      '.': { types: './widgets.d.ts', default: './widgets.js' },
      './widgets.js': { types: './widgets.d.ts', default: './widgets.js' },
      // each element alone: attention-playground/<tag>.js
      ...Object.fromEntries(WIDGETS.map((w) => [`./${w.tag}.js`, { types: './widgets.d.ts', default: `./${elementFile(w.tag)}` }])),
      './custom-elements.json': './custom-elements.json',
      './package.json': './package.json',
    },
    // importing a script registers its elements: a bundler must keep it
    sideEffects: true,
    customElements: 'custom-elements.json',
    files: ['*.js', '*.d.ts', 'custom-elements.json', 'js/', 'pkg/', 'pkg-gpt/', 'pkg-gpt-fma/', 'vendor/',
      'data/', 'models/'],
    keywords: ['attention', 'transformer', 'web-components', 'custom-elements', 'webassembly', 'education'],
  };
  await writeFile(path.join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  console.log(`${files.length} files reached from ${TEACHERS.join(', ')} and ${ELEMENT_FILES.length - 1} elements' own modules`);
}

await main();
