// Every string table of the page, one topic per file; each file holds both languages side
// by side as `export default { en: {...}, zh: {...} }` (or `export const en = {...};
// export const zh = {...};`). i18n.js merges every topic listed here, so a new topic is
// one line below. The key prefix names the topic: none for the shell and the h/o/u head,
// a./b./c./gpt. for sections 1–4 / 5–8 / the explanations / section 9, err. for errors.
// Listed here: what every widget reads (the shell and the head, the explanations, the
// errors). Each section's own table comes with its widgets, so a page that shows only
// <attn-head> loads none of them: sections 1–4's (lesson.js) through lesson-strings.js,
// 5–8's (notes.js, practice.js) through notes-strings.js (and pages/lesson-i18n.js for the
// page's prose), section 9's (gpt.js) with the trainer's code.

export * as shell from './shell.js';
export * as explain from './explain.js';
// The errors' English is the core's own, generated when the site is built (errors.gen.js,
// by tools/error-tables.mjs; the GPT's comes with gpt.js); their Chinese is by code in
// errors-number.js, errors-lesson.js and errors-explain.js.
export * as errors from './errors.gen.js';
export * as errorsNumber from './errors-number.js';
export * as errorsLesson from './errors-lesson.js';
export * as errorsExplain from './errors-explain.js';
