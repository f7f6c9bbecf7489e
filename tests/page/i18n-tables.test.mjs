// The page's error tables against the core's (no browser): the English of every code is
// generated from the core's MESSAGES tables (tools/error-tables.mjs, run by build.sh), and
// the Chinese, written by hand in www/js/i18n/, must say every code, in Chinese, with the
// English's {params}, and no table may name a code the core lacks or write English of its
// own. The core's tables come from the compiled core (cargo run --example error_tables);
// the page's from the real modules, as i18n.js merges them.
// Run from the repo root after ./build.sh: node --test tests/page/i18n-tables.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTables, coreTables, GENERATED, loadTables, moduleText } from '../../tools/error-tables.mjs';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../../www/js/i18n/', import.meta.url));
const core = coreTables();
const tables = await loadTables(DIR);

test('the generated English tables are the core\'s, code for code', () => {
  const codes = Object.values(core).flat().map(([code]) => code);
  assert.ok(codes.length > 100, `the core has ${codes.length} codes`);
  assert.equal(new Set(codes).size, codes.length, 'each once');
  let generated = 0;
  for (const [file, { tables: names }] of Object.entries(GENERATED)) {
    assert.equal(readFileSync(DIR + file, 'utf8'), moduleText(core, names), `${file} is up to date (./build.sh)`);
    const en = tables.files[file].en;
    assert.deepEqual(Object.keys(en), names.flatMap((t) => core[t].map(([code]) => `err.${code}`)), file);
    generated += Object.keys(en).length;
  }
  assert.equal(generated, codes.length, 'every code is in one generated module');
});

test('every code has the core\'s English and a Chinese text with its params where a page reads them', () => {
  assert.deepEqual(checkTables(core, tables), []);
  const lesson = tables.pages['index.js'];
  for (const [code, en] of core.lesson.concat(core.shape, core.number, core.explain)) {
    assert.equal(lesson.en[`err.${code}`], en, code);
    assert.ok(lesson.zh[`err.${code}`], code);
  }
  const gpt = tables.pages['gpt.js'];
  for (const [code, en] of core.gpt) assert.equal(gpt.en[`err.${code}`], en, code);
  // The GPT's errors come with the trainer's code, not with every widget.
  assert.ok(!Object.keys(lesson.en).some((k) => k.startsWith('err.gpt.')), 'no GPT error in index.js');
});

test('the check reads every string table of www/js/i18n/ (not the modules that merge them)', () => {
  const tableFiles = readdirSync(DIR).filter((f) => /^(shell|lesson|notes|practice|explain|gpt|errors.*)\.js$/.test(f));
  assert.ok(tableFiles.length >= 10, tableFiles.join(' '));
  assert.deepEqual(tableFiles.filter((f) => !(f in tables.files)), []);
  for (const glue of ['index.js', 'i18n.js']) assert.ok(!(glue in tables.files), glue);
});

/** The page's tables with one change made by `edit(tables)`. */
function changed(edit) {
  const copy = structuredClone(tables);
  edit(copy);
  return checkTables(core, copy);
}

test('the check finds a missing, non-Chinese, re-parametrised, unknown or hand-written entry', () => {
  const one = (problems, pattern) => {
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], pattern);
  };
  one(changed((t) => {
    delete t.pages['index.js'].zh['err.lesson.size'];
  }), /err\.lesson\.size has no Chinese text: add it to errors-lesson\.js/);
  one(changed((t) => {
    delete t.pages['gpt.js'].zh['err.gpt.state.truncated'];
  }), /err\.gpt\.state\.truncated has no Chinese text: add it to gpt\.js/);
  one(changed((t) => {
    t.pages['index.js'].zh['err.number.empty'] = 'empty cell';
  }), /errors-number\.js: the Chinese of err\.number\.empty is not Chinese/);
  one(changed((t) => {
    t.pages['index.js'].zh['err.explain.out_of_range'] = '{matrix} 是 {rows}×{cols}：没有格子 ({row}, {column})';
  }), /errors-explain\.js: the Chinese of err\.explain\.out_of_range has params \{cols, column, matrix, row, rows\}, the English \{col, cols, matrix, row, rows\}/);
  one(changed((t) => {
    t.files['errors-lesson.js'].zh['err.lesson.gone'] = '已删除';
  }), /errors-lesson\.js: err\.lesson\.gone \(zh\) is not a code of the core/);
  one(changed((t) => {
    t.files['shell.js'].en['err.a.typo'] = 'typo';
  }), /shell\.js: err\.a\.typo \(en\) is not a code of the core/);
  // English written by hand again, beside the generated one.
  one(changed((t) => {
    const f = t.files['errors-explain.js'];
    f.en['err.explain.zero_sum.all'] = 'A sums to 0: this matrix is not drawn';
    f.source += "export const en = { 'err.explain.zero_sum.all': 'A sums to 0: this matrix is not drawn' };\n";
  }), /errors-explain\.js: the English of err\.explain\.zero_sum\.all is written there/);
  // ... or overriding it, where a page merges it.
  one(changed((t) => {
    t.pages['index.js'].en['err.shape.head.mask'] = 'the mask does not fit';
  }), /index\.js: the English of err\.shape\.head\.mask is "the mask does not fit", not the core's/);
  // The exemption: an explanation's English passes through as its detail.
  assert.deepEqual(changed((t) => {
    t.pages['index.js'].zh['err.lesson.explain'] = '{detail}';
  }), []);
});
