// Errors of the core's number parser (a typed cell, a URL value) in Chinese, by code: the
// core throws { code, params } and errorText (i18n.js) says "err.<code>" in the page's
// language. The English is the core's NUMBER_MESSAGES, generated when the site is built
// (errors.gen.js, tools/error-tables.mjs, which checks this table against it).

export default {
  zh: {
    'err.number.empty': '空格子：请输入一个数，例如 0、-1.5 或 1/3',
    'err.number.not_a_number': '“{text}”不是数字：请输入 2、-0.5、1e-3 或 1/3 这样的数',
    'err.number.not_finite': '“{text}”太大（或不是有限数）：请使用 -1e300 到 1e300 之间的值',
    'err.number.division_by_zero': '分数的分母不能为 0',
  },
};
