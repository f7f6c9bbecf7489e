// The one table of URL keys: the key under which each lesson widget keeps its `state` in
// the lesson page's hash (index.html#head={…}&dk={…}, url-state.js). The lesson page
// binds every widget named here (lesson-page.js) and the widget catalogue writes its
// "open full-size" links and link forms from it (embed-page.js). Renaming a key breaks
// links already shared, so keys only get added.

export const URL_KEYS = Object.freeze({
  'attn-bigram': 'bigram',
  'attn-examples': 'chunk',
  'attn-bigram-split': 'split',
  'attn-schemes': 'schemes',
  'attn-sum-norm': 'sumnorm',
  'attn-softmax-steps': 'softmax',
  'attn-normalize': 'norm',
  'attn-position': 'position',
  'attn-pos-table': 'postable',
  'attn-head': 'head',
  'attn-head-probe': 'probe',
  'attn-compare-words': 'words',
  'attn-value-change': 'value',
  'attn-bias': 'bias',
  'attn-note-graph': 'graph',
  'attn-note-space': 'space',
  'attn-note-batch': 'batch',
  'attn-note-encoder': 'encoder',
  'attn-note-cross': 'cross',
  'attn-note-scale': 'dk',
  'attn-exercise': 'exercise',
  'attn-proofs': 'proofs',
  'attn-practice': 'practice',
  'attn-quiz': 'quiz',
});

/** The URL key of a widget tag, or null when its state is not kept in the URL. */
export const urlKeyOf = (tag) => (Object.hasOwn(URL_KEYS, tag) ? URL_KEYS[tag] : null);
