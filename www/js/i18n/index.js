// Every string table of the page, one topic per file; each file holds both languages side
// by side as `export default { en: {...}, zh: {...} }` (or `export const en = {...};
// export const zh = {...};`). i18n.js merges every topic listed here, so a new topic is
// one line below. The key prefix names the topic: none for the shell and the h/o/u head,
// a./b./c./gpt. for sections 1–4 / 5–8 / the explanations / section 9, err. for errors.
// Section 9's table (part-gpt.js) is not listed: the trainer's code adds it when it loads.

export * as shell from './shell.js';
export * as partA from './part-a.js';
export * as partB from './part-b.js';
export * as partBPractice from './part-b-practice.js';
export * as partC from './part-c.js';
export * as errorsNumber from './errors-number.js';
export * as errorsLesson from './errors-lesson.js';
export * as errorsExplain from './errors-explain.js';
