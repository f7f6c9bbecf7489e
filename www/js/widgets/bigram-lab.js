// The count bigram of the lesson's default corpus, shared by the bigram widgets.
// Only those and the GPT trainer read the corpus (400 KB gzipped), and only once one of them is near the
// viewport (widget-base.js's whenNear): a page that never shows them never fetches it.

// The GPT trainer's default corpus is the same text, fetched once for both (corpusText).

const CORPUS_URL = new URL('../../data/corpus.txt', import.meta.url);
let corpus = null;
let corpusLab = null;

/** The default corpus (data/corpus.txt next to js/), fetched once per page. */
export function corpusText() {
  corpus ??= fetch(CORPUS_URL).then((r) => {
    if (!r.ok) throw new Error(`${CORPUS_URL.pathname}: HTTP ${r.status}`);
    return r.text();
  });
  return corpus;
}

/** The count bigram of the default corpus, built once per page. */
export function bigramLab(core) {
  corpusLab ??= corpusText().then((text) => new core.BigramLab(text));
  return corpusLab;
}
