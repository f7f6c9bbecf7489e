// Localised labels that refill themselves: an element names its string key once
// (data-k, data-k-aria, data-k-title) and fillStrings writes the text in the widget's
// language on every render, so a language switch needs no rebuilt DOM.

import { h } from '../../ui/widget-base.js';

/** An element whose text is the string `key`, refilled by fillStrings on each render. */
export function k(tag, key, attrs = {}) {
  return h(tag, { ...attrs, 'data-k': key });
}

/** Fills every [data-k] (text), [data-k-aria] (aria-label) and [data-k-title] under `root`. */
export function fillStrings(root, t) {
  for (const el of root.querySelectorAll('[data-k]')) {
    const s = t(el.dataset.k);
    if (el.textContent !== s) el.textContent = s;
  }
  for (const el of root.querySelectorAll('[data-k-aria]')) el.setAttribute('aria-label', t(el.dataset.kAria));
  for (const el of root.querySelectorAll('[data-k-title]')) el.title = t(el.dataset.kTitle);
}

/** A labelled checkbox; `onChange(checked)`. */
export function checkbox(key, onChange) {
  const input = h('input', { type: 'checkbox', onchange: (e) => onChange(e.target.checked) });
  return { input, label: h('label', {}, input, k('span', key)) };
}
