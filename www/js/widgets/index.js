// Every widget module; each registers its element on import (see widget-base.js).
import { fragmentTarget, whenNear } from '../ui/schedule.js';

// The lesson set (sections 1–4) and the explain panel and formula stepper every explainable
// grid opens; the other sets load on demand. The lists come from manifest.js.
import './lesson-set.gen.js';
import { loadNotes, NEAR, NOTES_TAGS } from './lazy.gen.js';

// The notes set (sections 5–8): its code and strings load once a page holds one of its
// elements (the lesson page and the catalogue import notes-set.gen.js themselves).
definedWhenPresent(NOTES_TAGS, loadNotes);
// Train a GPT (section 9): its code (and, through it, the GPT's wasm, the corpus and the
// pretrained model) loads only once an <attn-gpt-train> comes near the viewport.
for (const [tag, load] of NEAR) lazyDefine(tag, load);

/**
 * Runs `load` (which defines `tags`) as soon as the document holds one of them, now or
 * when a page adds one later: a page without any never fetches their code.
 */
function definedWhenPresent(tags, load) {
  if (tags.every((t) => customElements.get(t))) return;
  const selector = tags.join(',');
  const present = () => {
    if (!document.querySelector(selector)) return;
    added.disconnect();
    load();
  };
  const added = new MutationObserver(present);
  added.observe(document.documentElement, { childList: true, subtree: true });
  present();
}

/**
 * Runs `load` (which defines `tag`) once an element `tag` is in the document and within a
 * screen of the viewport: a page that never shows one never fetches its code. Until then
 * the element is an undefined, empty element (pages reserve its space with CSS).
 */
function lazyDefine(tag, load) {
  if (customElements.get(tag)) return;
  let started = false;
  const seen = new WeakSet();
  const start = () => {
    if (started) return;
    started = true;
    added.disconnect();
    load();
  };
  // A page opened at (or sent to) a fragment holding one: at once, whatever the scroll.
  const targeted = () => {
    const target = fragmentTarget();
    return Boolean(target && (target.localName === tag || target.querySelector(tag)));
  };
  addEventListener('hashchange', () => { if (targeted()) start(); });
  const watch = () => {
    if (targeted() && document.querySelector(tag)) return start();
    for (const el of document.querySelectorAll(tag)) {
      if (seen.has(el)) continue;
      seen.add(el);
      whenNear(el).then(start);
    }
  };
  // Elements a page adds later (a teacher's script, a slide shown): watched the same way.
  const added = new MutationObserver(watch);
  added.observe(document.documentElement, { childList: true, subtree: true });
  watch();
}
