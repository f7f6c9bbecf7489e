// Counts the default corpus's bigram once, when the site is built, so that the lesson's
// bigram widgets read a 17 KB table (5 KB gzipped) instead of fetching the 1 MB corpus
// (400 KB gzipped) and counting it in the page: the core writes the table
// (BigramLab.table(), format in src/lesson/bigram.rs) and reads it back (fromTable).
// Only the GPT trainer still fetches the corpus.
//
//   node tools/bigram-table.mjs [CORPUS] [OUT]   (default www/data/corpus.txt → www/data/bigram.bin)

import { readFileSync, writeFileSync } from 'node:fs';
import { nodeCore } from './node-core.mjs';

const [src = 'www/data/corpus.txt', out = 'www/data/bigram.bin'] = process.argv.slice(2);
const core = await nodeCore();
const lab = new core.BigramLab(readFileSync(src, 'utf8'));
const table = lab.table();
// The table must read back to the same model: the same vocabulary and comparisons.
const back = core.BigramLab.fromTable(table);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
if (!same(back.vocab(), lab.vocab()) || !same(back.compare(['hou', 'you', 'thou'], 5), lab.compare(['hou', 'you', 'thou'], 5))) {
  throw new Error('the bigram table does not read back to the counted model');
}
writeFileSync(out, table);
console.log(`bigram table of ${src}: ${lab.vocab().vocab_size} characters, ${table.length} bytes → ${out}`);
