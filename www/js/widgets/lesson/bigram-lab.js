// The count bigram of the lesson's default corpus, shared by the bigram widgets: the table
// the core counted when the site was built (data/bigram.bin, 5 KB gzipped; build.sh), read
// by the core (BigramLab.fromTable), fetched once a bigram widget is near the viewport
// (schedule.js's whenNear). The corpus itself (400 KB gzipped) is the GPT trainer's
// default text (corpusText): only the trainer fetches it.

const CORPUS_URL = new URL('../../../data/corpus.txt', import.meta.url);
const TABLE_URL = new URL('../../../data/bigram.bin', import.meta.url);
let corpus = null;
let corpusLab = null;

/** The response for `url`; an HTTP error is thrown, naming the file. */
async function fetched(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url.pathname}: HTTP ${r.status}`);
  return r;
}

/** The default corpus (data/corpus.txt next to js/), fetched once per page. */
export function corpusText() {
  corpus ??= fetched(CORPUS_URL).then((r) => r.text());
  return corpus;
}

/** The count bigram of the default corpus, read once per page. */
export function bigramLab(core) {
  corpusLab ??= fetched(TABLE_URL).then((r) => r.arrayBuffer())
    .then((bytes) => core.BigramLab.fromTable(new Uint8Array(bytes)));
  return corpusLab;
}
