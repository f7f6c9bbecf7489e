// The count bigram of the lesson's default corpus, shared by the bigram widgets.

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
