// Cuts three of KaTeX's fonts down to the glyphs the site's formulas can draw with them, for
// the folder build.sh dist ships: a page with one formula would otherwise fetch each font
// whole.
// - KaTeX_AMS (28 KB) draws only blackboard-bold letters here (ℝ, as `\mathbb{R}`): it keeps
//   the characters under an AMS-font class (.mathbb, .amsrm, .textbb, as KaTeX's CSS maps
//   them) in the formulas typeset at build time (formulas.gen.js).
// - KaTeX_Main-Regular (26 KB) and KaTeX_Math-Italic (16 KB), which every formula draws
//   with, keep every character of those formulas, plus printable ASCII
//   and Greek: a formula typeset at run time is one of the site's with a learner's token in
//   it (a name from a link, say), and a token may be any text. A glyph outside the subset is
//   drawn from the next font of KaTeX's stack (a serif), not lost.
// The other fonts stay whole.
//
//   node tools/subset-fonts.mjs DIST      (build.sh dist: dist/attention-playground)
//
// subset-font (npm): HarfBuzz's subsetter compiled to wasm, and woff2 by wawoff2; no binary
// to download, the same glyph outlines, only fewer of them.

import subsetFont from 'subset-font';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.argv[2];
if (!dist) {
  console.error('usage: node tools/subset-fonts.mjs DIST');
  process.exit(2);
}
// eslint-disable-next-line no-unused-vars -- KATEX_FONTS: URLs, not formulas
const { KATEX_CSS, KATEX_FONTS, ...groups } = await import(pathToFileURL(path.resolve('www/js/ui/formulas.gen.js')));

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
const AMS_CLASS = /(^|\s)(mathbb|amsrm|textbb)(\s|$)/;
const ams = new Set();
const every = new Set([...range(0x20, 0x7e), ...range(0x391, 0x3c9)]);
// A typeset node is [tag, namespace, class, attributes, style, children]; a text is a string.
const walk = (node, inAms) => {
  if (typeof node === 'string') {
    for (const c of node) {
      every.add(c);
      if (inAms) ams.add(c);
    }
    return;
  }
  const inside = inAms || AMS_CLASS.test(node[2]);
  for (const child of node[5]) walk(child, inside);
};
for (const group of Object.values(groups)) for (const tree of Object.values(group)) walk(JSON.parse(tree), false);
if (!ams.size) throw new Error('no formula draws with the AMS font: is formulas.gen.js empty?');

for (const [font, chars] of [['KaTeX_AMS-Regular', ams], ['KaTeX_Main-Regular', every], ['KaTeX_Math-Italic', every]]) {
  const file = path.join(dist, `vendor/katex/fonts/${font}.woff2`);
  const whole = await readFile(file);
  const cut = await subsetFont(whole, [...chars].join(''), { targetFormat: 'woff2' });
  await writeFile(file, cut);
  console.log(`${font}.woff2: ${whole.length} → ${cut.length} bytes (${chars.size} characters kept)`);
}
