// Errors of the core's number parser (a typed cell, a URL value), by code: the core
// throws { code, params } and errorText (i18n.js) says "err.<code>" in the page's language.

export default {
  en: {
    'err.number.empty': 'empty cell: type a number such as 0, -1.5 or 1/3',
    'err.number.not_a_number': '“{text}” is not a number: type digits such as 2, -0.5, 1e-3 or 1/3',
    'err.number.not_finite': '“{text}” is too large (or not finite): use a value between -1e300 and 1e300',
    'err.number.division_by_zero': 'a fraction cannot have 0 below the line',
  },
  zh: {
    'err.number.empty': '空格子：请输入一个数，例如 0、-1.5 或 1/3',
    'err.number.not_a_number': '“{text}”不是数字：请输入 2、-0.5、1e-3 或 1/3 这样的数',
    'err.number.not_finite': '“{text}”太大（或不是有限数）：请使用 -1e300 到 1e300 之间的值',
    'err.number.division_by_zero': '分数的分母不能为 0',
  },
};
