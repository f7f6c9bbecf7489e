// The page's modules sit in floors (README, Layout), and arrows go down only: a module
// imports from its own floor or the floors below it, never above. So `ui/` never imports a
// widget, a widget never imports a page, and the GPT's worker code never imports the page's
// drawing code. No browser: this reads www/js/ as files.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));
const JS = path.join(WWW, 'js');
// Lowest first. `gpt/` (the worker and what it runs) and `ui/` stand side by side: neither
// imports the other.
const FLOORS = { core: 0, i18n: 1, ui: 2, gpt: 2, widgets: 3, pages: 4 };
// Made by build.sh (gitignored), so absent on a clean checkout until it has run.
const BUILT = [/^pkg(-gpt(-fma)?)?\//, /^vendor\//, /^data\//, /\.gen\.js$/];
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

const walk = (dir) => readdirSync(dir).flatMap((f) => {
  const p = path.join(dir, f);
  return statSync(p).isDirectory() ? walk(p) : p.endsWith('.js') ? [p] : [];
});
const floorOf = (file) => path.relative(JS, file).split(path.sep)[0];
const MODULES = walk(JS).filter((f) => !f.endsWith('.gen.js'));

/** The relative specifiers of a module, as files below www/, comments left out. */
function imports(file) {
  const code = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
  return [...code.matchAll(SPEC)].map((m) => path.resolve(path.dirname(file), m[2]));
}

test('every module of www/js/ sits in a floor', () => {
  const loose = MODULES.filter((f) => !(floorOf(f) in FLOORS)).map((f) => path.relative(JS, f));
  assert.deepEqual(loose, [], `modules outside ${Object.keys(FLOORS).join('/, ')}/`);
  assert.ok(MODULES.length > 80, `${MODULES.length} modules found`);
});

/** The edges (module → imported module, both below www/js/) that go up or across a floor. */
function upward(edges) {
  return edges.filter(([file, target]) => {
    const [from, to] = [floorOf(file), floorOf(target)];
    return FLOORS[to] > FLOORS[from] || (FLOORS[to] === FLOORS[from] && from !== to);
  }).map(([file, target]) => `${path.relative(JS, file)} → ${path.relative(JS, target)}`);
}

test('imports go down the floors only, and each names a file that exists', () => {
  const edges = [];
  const missing = [];
  for (const file of MODULES) {
    for (const target of imports(file)) {
      const rel = path.relative(WWW, target).split(path.sep).join('/');
      if (!existsSync(target) && !BUILT.some((re) => re.test(rel))) missing.push(`${path.relative(WWW, file)} → ${rel}`);
      if (target.startsWith(JS + path.sep)) edges.push([file, target]);
    }
  }
  assert.ok(edges.length > 300, `${edges.length} imports found`);
  assert.deepEqual(missing, [], 'imports of files that are not there');
  assert.deepEqual(upward(edges), [], 'imports that go up a floor, or across to a side floor');
});

test('the floor check catches an import that goes up or across', () => {
  const at = (rel) => path.join(JS, ...rel.split('/'));
  const edges = [
    ['ui/format.js', 'widgets/head/attn-head.js'], // up
    ['gpt/client.js', 'ui/format.js'], // across
    ['widgets/head/attn-head.js', 'pages/lesson.js'], // up
    ['widgets/head/attn-head.js', 'ui/format.js'], // down: fine
    ['widgets/gpt/gpt-settings.js', 'widgets/lesson/bigram-lab.js'], // one floor: fine
  ].map(([a, b]) => [at(a), at(b)]);
  assert.deepEqual(upward(edges), [
    'ui/format.js → widgets/head/attn-head.js',
    'gpt/client.js → ui/format.js',
    'widgets/head/attn-head.js → pages/lesson.js',
  ]);
});

test('each entry of the widget manifest names a module that defines its tag', async () => {
  const { WIDGETS } = await import(new URL('../../www/js/widgets/manifest.js', import.meta.url));
  const wrong = WIDGETS.filter(({ tag, module }) => {
    const file = path.join(JS, 'widgets', module);
    if (!existsSync(file)) return true;
    const code = readFileSync(file, 'utf8');
    return !code.includes(`static tag = '${tag}'`) && !code.includes(`customElements.define('${tag}'`);
  }).map((w) => `${w.tag} → widgets/${w.module}`);
  assert.deepEqual(wrong, []);
  assert.ok(WIDGETS.length >= 28, `${WIDGETS.length} widgets`);
});
