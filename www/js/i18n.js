// Every user-visible string of the page, in one table. English is complete;
// a key missing in another language falls back to English.
// Elements opt in with data-i18n (text), data-i18n-html (trusted markup from
// this table only), data-i18n-title and data-i18n-aria (aria-label).

const STRINGS = {
  en: {
    pageTitle: 'Attention Playground — one attention head',
    title: 'Attention Playground',
    subtitle: 'One self-attention head on three tokens, h, o, u. Edit any number in step 1 and every matrix below is recomputed at once by Rust compiled to WebAssembly.',
    language: 'Language',
    controls: 'Options',
    causal: 'Causal mask',
    causalHint: 'a token may only read itself and earlier tokens',
    scaled: 'Scale by 1/√<i>d</i><sub>k</sub>',
    scaledHint: 'divide scores by √d_k before softmax',
    scaleOff: 'scale = 1',
    scaleOn: 'scale = 1/√{d} = {s}',
    reset: 'Reset',
    resetTitle: 'Back to the h/o/u example',
    legend: 'Colours',
    legendSigned: 'values',
    legendNeg: 'negative',
    legendPos: 'positive',
    legendWeights: 'weights',
    legendMasked: 'masked',
    keyboard: 'Keyboard: Tab into a grid · arrow keys move · Enter commits and moves down · Esc restores the last valid number.',
    loading: 'Loading the WebAssembly core…',
    loadFailed: 'Could not load the WebAssembly core ({msg}). Serve the www/ folder over HTTP after building it with ./build.sh.',
    computeFailed: '{msg}. The matrices below still show the last valid result.',
    fullyMasked: 'Rows {rows}: every key is masked, so these rows have no weights (shown as 0).',
    invalidPrefix: '',
    stage1: 'Inputs',
    stage1Note: 'Token vectors x and the three weight matrices of the head. W matrices use the nn.Linear layout (d, C): row i produces column i of q, k or v.',
    stage2: 'Queries, keys and values',
    stage2Note: 'Each token is projected three ways. Rows are tokens; columns are the d = 2 head dimensions.',
    stage3: 'Attention',
    stage3Note: 'Rows are queries (the receiving token), columns are keys (the token being read). Read “u → h” as row u, column h.',
    xName: 'token vectors',
    xExplain: 'One row per token, one column per channel (C = 3). One-hot here: each token owns a channel.',
    WqName: 'query weights',
    WqExplain: 'Turns a token into what it is looking for.',
    WkName: 'key weights',
    WkExplain: 'Turns a token into what it offers to be found by.',
    WvName: 'value weights',
    WvExplain: 'Turns a token into what it passes on when read.',
    qName: 'queries',
    qExplain: 'What each token is looking for.',
    kName: 'keys',
    kExplain: 'What each token can be found by.',
    vName: 'values',
    vExplain: 'What each token hands over when it is read.',
    scoresTitle: 'scores',
    scoresExplain: 'Dot product of each query with each key: how well they match, before any mask.',
    maskedTitle: 'masked scores',
    maskedExplainOn: 'Keys after the query are set to −∞: a token cannot read the future.',
    maskedExplainOff: 'Mask off: every token may read every token, so nothing changes.',
    weightsTitle: 'weights',
    weightsExplain: 'Softmax of each row: every row sums to 1, and −∞ becomes weight 0.',
    outTitle: 'out',
    outExplain: 'Each token’s output is its weighted mix of the value rows.',
    footer: 'Every number on this page is computed by Rust compiled to WebAssembly; the page only draws it. Hover or focus a cell to see its exact value.',
    editableBadge: 'editable',
  },
  zh: {
    pageTitle: '注意力游乐场 — 一个注意力头',
    title: '注意力游乐场',
    subtitle: '三个词元 h、o、u 上的一个自注意力头。编辑第 1 步中的任意数字，下方每个矩阵都会立即由编译为 WebAssembly 的 Rust 重新计算。',
    language: '语言',
    controls: '选项',
    causal: '因果掩码',
    causalHint: '每个词元只能读取自己和之前的词元',
    scaled: '按 1/√<i>d</i><sub>k</sub> 缩放',
    scaledHint: 'softmax 之前把分数除以 √d_k',
    reset: '重置',
    resetTitle: '恢复 h/o/u 示例',
    legend: '颜色',
    legendSigned: '数值',
    legendNeg: '负',
    legendPos: '正',
    legendWeights: '权重',
    legendMasked: '被掩码',
    keyboard: '键盘：Tab 进入表格 · 方向键移动 · Enter 确认并下移 · Esc 恢复上一个有效数字。',
    loading: '正在加载 WebAssembly 核心…',
    loadFailed: '无法加载 WebAssembly 核心（{msg}）。请先运行 ./build.sh，再通过 HTTP 提供 www/ 目录。',
    computeFailed: '{msg}。下方矩阵仍显示上一次有效的结果。',
    fullyMasked: '第 {rows} 行：所有键都被掩码，这些行没有权重（显示为 0）。',
    invalidPrefix: '无效输入：',
    stage1: '输入',
    stage1Note: '词元向量 x 和该注意力头的三个权重矩阵。W 采用 nn.Linear 布局 (d, C)：第 i 行产生 q、k 或 v 的第 i 列。',
    stage2: '查询、键和值',
    stage2Note: '每个词元被投影三次。行是词元；列是 d = 2 个头维度。',
    stage3: '注意力',
    stage3Note: '行是查询（接收信息的词元），列是键（被读取的词元）。“u → h” 指第 u 行、第 h 列。',
    xName: '词元向量',
    xExplain: '每个词元一行，每个通道一列（C = 3）。这里是独热编码：每个词元占一个通道。',
    WqName: '查询权重',
    WqExplain: '把词元变成它要寻找的内容。',
    WkName: '键权重',
    WkExplain: '把词元变成它可被找到的特征。',
    WvName: '值权重',
    WvExplain: '把词元变成被读取时传递的内容。',
    qName: '查询',
    qExplain: '每个词元在寻找什么。',
    kName: '键',
    kExplain: '每个词元可以凭什么被找到。',
    vName: '值',
    vExplain: '每个词元被读取时交出的内容。',
    scoresTitle: '分数',
    scoresExplain: '每个查询与每个键的点积：匹配程度（掩码之前）。',
    maskedTitle: '掩码后的分数',
    maskedExplainOn: '查询之后的键被设为 −∞：词元不能读取未来。',
    maskedExplainOff: '掩码关闭：每个词元都可以读取所有词元，分数不变。',
    weightsTitle: '权重',
    weightsExplain: '对每一行做 softmax：每行之和为 1，−∞ 变为权重 0。',
    outTitle: '输出',
    outExplain: '每个词元的输出是值向量各行的加权组合。',
    footer: '本页的每个数字都由编译为 WebAssembly 的 Rust 计算；页面只负责绘制。悬停或聚焦单元格可查看精确值。',
    editableBadge: '可编辑',
  },
};

// Formulas are the same in every language (markup from this table only).
const FORMULAS = {
  fx: '<i>x</i> ∈ ℝ<sup>T×C</sup>',
  fWq: '<i>W</i><sub>q</sub> ∈ ℝ<sup>d×C</sup>',
  fWk: '<i>W</i><sub>k</sub> ∈ ℝ<sup>d×C</sup>',
  fWv: '<i>W</i><sub>v</sub> ∈ ℝ<sup>d×C</sup>',
  fq: '<i>q</i> = <i>x</i> <i>W</i><sub>q</sub><sup>T</sup>',
  fk: '<i>k</i> = <i>x</i> <i>W</i><sub>k</sub><sup>T</sup>',
  fv: '<i>v</i> = <i>x</i> <i>W</i><sub>v</sub><sup>T</sup>',
  fScoresOff: '<i>scores</i> = <i>q</i> <i>k</i><sup>T</sup>',
  fScoresOn: '<i>scores</i> = <i>q</i> <i>k</i><sup>T</sup> / √<i>d</i><sub>k</sub>',
  fMasked: 'mask(<i>scores</i>)',
  fWeights: '<i>weights</i> = softmax(mask(<i>scores</i>))',
  fOut: '<i>out</i> = <i>weights</i> · <i>v</i>',
};

export const LANGUAGES = ['en', 'zh'];
const STORAGE_KEY = 'attention-playground.lang';
const listeners = new Set();

function stored() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function initial() {
  const saved = stored();
  if (LANGUAGES.includes(saved)) return saved;
  const browser = (navigator.languages?.[0] ?? navigator.language ?? 'en').toLowerCase();
  return browser.startsWith('zh') ? 'zh' : 'en';
}

let lang = initial();

export function getLang() {
  return lang;
}

/** The string for `key` in the current language, with {name} filled from `vars`. */
export function t(key, vars = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key] ?? FORMULAS[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** Fills every data-i18n* element under `root` and the document's lang/title. */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-html]')) el.innerHTML = t(el.dataset.i18nHtml);
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll('[data-lang]')) el.setAttribute('aria-pressed', String(el.dataset.lang === lang));
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = t('pageTitle');
}

export function setLang(next) {
  if (!LANGUAGES.includes(next)) return;
  lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // storage may be unavailable (private mode, file://): the choice lasts this visit
  }
  applyI18n();
  listeners.forEach((fn) => fn(lang));
}

/** Calls `fn(lang)` after every language switch. */
export function onLangChange(fn) {
  listeners.add(fn);
}
