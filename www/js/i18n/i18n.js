// Every user-visible string of the page: the topic tables of i18n/ (index.js lists
// them) merged into one table per language. English is complete; a key missing in
// another language falls back to English.
// Elements opt in with data-i18n (text), data-i18n-html (trusted markup from
// this table only), data-i18n-title and data-i18n-aria (aria-label).

import * as TOPICS from './index.js';
import { readKey, writeKey } from '../core/storage.js';

const STRINGS = { en: {}, zh: {} };

/** Adds a part of the tables (one object per language); later keys win. */
export function addStrings(part) {
  for (const lang of Object.keys(STRINGS)) Object.assign(STRINGS[lang], part[lang] ?? {});
}

// A topic file exports its { en, zh } as the default or as named `en` and `zh`.
for (const topic of Object.values(TOPICS)) addStrings(topic.default ?? topic);

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
const listeners = new Map(); // fn -> the element it re-renders (or null)

function initial() {
  const saved = readKey(STORAGE_KEY);
  if (LANGUAGES.includes(saved)) return saved;
  const browser = (navigator.languages?.[0] ?? navigator.language ?? 'en').toLowerCase();
  return browser.startsWith('zh') ? 'zh' : 'en';
}

let lang = initial();

export function getLang() {
  return lang;
}

/** The string for `key` in `language` (default: the page's), with {name} filled from `vars`. */
export function t(key, vars = {}, language = lang) {
  const table = STRINGS[language] ?? STRINGS.en;
  const s = table[key] ?? STRINGS.en[key] ?? FORMULAS[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/**
 * The text of an error in `language`: errors from the core that carry a `code`
 * (e.g. "number.not_a_number", with `params` such as { text }) are said from the
 * string table `err.<code>`; a param that is itself such an error ({ code, params,
 * message }: the reason a sentence wraps) is said the same way. Any other error is
 * its own message (English).
 */
export function errorText(err, language = lang) {
  const key = typeof err?.code === 'string' ? `err.${err.code}` : null;
  const table = STRINGS[language] ?? STRINGS.en;
  if (key && (table[key] ?? STRINGS.en[key])) {
    const params = Object.fromEntries(Object.entries(err.params ?? {})
      .map(([k, v]) => [k, v && typeof v === 'object' ? errorText(v, language) : v]));
    return t(key, params, language);
  }
  return String(err?.message ?? err).replace(/\.$/, '');
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
  writeKey(STORAGE_KEY, next); // without storage the choice lasts this visit
  applyI18n();
  listeners.forEach((_, fn) => fn(lang));
}

/**
 * Calls `fn(lang)` after every language switch, and after a `lang` attribute changes
 * on a widget holding `el` (langChangedUnder); returns a function that stops it.
 */
export function onLangChange(fn, el = null) {
  listeners.set(fn, el);
  return () => listeners.delete(fn);
}

/** The element itself or a host above it (across shadow roots), short of <html>. */
function* hosts(el) {
  for (let n = el; n && n !== document.documentElement; n = n.parentNode ?? n.host) {
    if (n.nodeType === Node.ELEMENT_NODE) yield n;
  }
}

/**
 * An element's language: the `lang` attribute (en… or zh…) of the element or of the
 * nearest widget holding it, so the grids inside <attn-head lang="zh"> speak Chinese
 * on an English page; else the page's.
 */
export function langOf(el) {
  for (const n of hosts(el)) {
    const own = (n.getAttribute('lang') || '').toLowerCase();
    if (own.startsWith('zh')) return 'zh';
    if (own.startsWith('en')) return 'en';
  }
  return lang;
}

/** After `host`'s `lang` attribute changed: re-renders what was registered inside it. */
export function langChangedUnder(host) {
  listeners.forEach((el, fn) => {
    if (el && el !== host && [...hosts(el)].includes(host)) fn(langOf(el));
  });
}
