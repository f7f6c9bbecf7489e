// The count bigram of the lesson's default corpus, shared by the bigram widgets.
// Only those read the corpus (400 KB gzipped), and only once one of them is near the
// viewport (whenNear): a page that never shows them never fetches it.

let corpusLab = null;

/** The count bigram of the default corpus (data/corpus.txt next to js/), built once per page. */
export function bigramLab(core) {
  corpusLab ??= fetch(new URL('../../data/corpus.txt', import.meta.url))
    .then((r) => {
      if (!r.ok) throw new Error(`data/corpus.txt: HTTP ${r.status}`);
      return r.text();
    })
    .then((text) => new core.BigramLab(text));
  return corpusLab;
}

/** Resolves once `el` is within a screen of the viewport (at once without IntersectionObserver). */
export function whenNear(el) {
  if (typeof IntersectionObserver !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const io = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      io.disconnect();
      resolve();
    }, { rootMargin: '100% 0px' });
    io.observe(el);
  });
}
