// Every element a page or a notebook writes, once: its tag, its module (below widgets/), the
// set that loads it, the key its state keeps in the lesson page's URL, its Python class, and
// its entry in the teachers' catalogue (embed.html). What must be a static list is written
// from this table when the site is built (tools/widget-lists.mjs → *.gen.js; the Python
// classes through tools/notebook-bundle.mjs), so adding a widget is one entry here.
//
// set: 'lesson' (sections 1–4, the explain panel and the formula stepper: widgets.js defines
// them at once), 'notes' (sections 5–8: loaded once a page holds one of them), 'gpt' (loaded
// once it comes near the viewport).
// url: the key of the element's `state` in index.html's hash (index.html#head={…}). Renaming a
// key breaks links already shared, so keys only get added.
// Catalogue: group and section of index.html, a summary, own attributes [name, values,
// default], the state's fields, and the attributes of the live example.

export const GROUPS = Object.freeze({
  AVERAGING: 'Part A · the bigram and averaging the past (lesson sections 1–2)',
  HEAD: 'Part A · position and one head by hand (sections 3–4)',
  NOTES: 'Part B · six notes (section 5)',
  PRACTICE: 'Part B · exercises, proofs and practice (sections 6–8)',
  GPT: 'Train a GPT (section 9)',
});

const FOR = ['for', 'id of an <attn-head> on the same page to follow', 'the built-in h/o/u head'];

export const WIDGETS = Object.freeze([
  {
    tag: 'attn-bigram', module: 'lesson/attn-bigram.js', set: 'lesson', url: 'bigram',
    group: GROUPS.AVERAGING, section: 's1',
    summary: 'What a count bigram predicts after each word: only the last character matters.',
    attributes: [['words', 'comma-separated words, 1–6 of 1–16 characters', 'hou,you,thou'], ['top', 'integer: rows of the next-character table', '3']],
    state: '{ words }', example: 'words="hou,you,thou"',
  },
  {
    tag: 'attn-examples', module: 'lesson/attn-examples.js', set: 'lesson', url: 'chunk',
    group: GROUPS.AVERAGING, section: 's1',
    summary: 'One chunk of text is block_size training examples at once.',
    attributes: [['chunk', 'text of 2–65 characters', "Let's hea"]],
    state: '{ chunk }', example: 'chunk="hello"',
  },
  {
    tag: 'attn-bigram-split', module: 'lesson/attn-bigram-split.js', set: 'lesson', url: 'split',
    group: GROUPS.AVERAGING, section: 's1',
    summary: 'Split the bigram table into an embedding and a linear layer: parameter counts and initial losses.',
    attributes: [['vocab', 'integer 2–1000 (vocabulary size V)', '65'], ['n-embd', '8, 16, 32 or 64', '32']],
    state: '{ vocab_size, n_embd }',
  },
  {
    tag: 'attn-schemes', module: 'lesson/attn-schemes.js', set: 'lesson', url: 'schemes', python: 'Schemes',
    group: GROUPS.AVERAGING, section: 's2',
    summary: 'Four ways to average the past (loop, matrix, softmax over a mask, a head with q = k = v = x) side by side.',
    attributes: [],
    state: '{ x }',
  },
  {
    tag: 'attn-sum-norm', module: 'lesson/attn-sum-norm.js', set: 'lesson', url: 'sumnorm',
    group: GROUPS.AVERAGING, section: 's2',
    summary: 'Why raw scores cannot be normalised by their sum.',
    attributes: [['scores', 'comma-separated numbers (1–8)', '2,-1,3']],
    state: '{ scores }', example: 'scores="2,-1,3"',
  },
  {
    tag: 'attn-softmax-steps', module: 'lesson/attn-softmax-steps.js', set: 'lesson', url: 'softmax', python: 'SoftmaxSteps',
    group: GROUPS.AVERAGING, section: 's2',
    summary: 'Softmax over a −∞ mask, one step at a time.',
    attributes: [],
    state: '{ scores, allowed }',
  },
  {
    tag: 'attn-normalize', module: 'lesson/attn-normalize.js', set: 'lesson', url: 'norm',
    group: GROUPS.AVERAGING, section: 's2',
    summary: 'Which direction to normalise, and the lost-keepdim trap.',
    attributes: [],
    state: '{ a }',
  },
  {
    tag: 'attn-position', module: 'lesson/attn-position.js', set: 'lesson', url: 'position',
    group: GROUPS.HEAD, section: 's3',
    summary: 'Attention has no sense of order until positions are added.',
    attributes: [['a', 'word of the letters d, o, g, s (1–8)', 'dogs'], ['b', 'word of the letters d, o, g, s (1–8)', 'gods']],
    state: '{ toy, a, b, positions, causal }', example: 'a="dogs" b="gods"',
  },
  {
    tag: 'attn-pos-table', module: 'lesson/attn-pos-table.js', set: 'lesson', url: 'postable',
    group: GROUPS.HEAD, section: 's3',
    summary: 'Where position vectors come from: the sinusoidal table, and why a learned table crops the context.',
    attributes: [],
    state: '{ t, c, len, block }',
  },
  {
    tag: 'attn-head', module: 'head/attn-head.js', set: 'lesson', url: 'head', python: 'Head',
    group: GROUPS.HEAD, section: 's4',
    summary: 'One self-attention head the learner edits: x, W_q, W_k, W_v in; q, k, v, scores, weights and out drawn as heatmaps. Click an output cell to see how it was computed.',
    attributes: [['weights', 'hou (the only built-in set)', 'hou'], ['scaled', 'true | false (divide scores by √d_k)', 'false'], ['causal', 'true | false (causal mask)', 'true'], ['sequence', 'words separated by | (buttons to switch x), letters h, o, u, y', 'none']],
    state: '{ x, W_q, W_k, W_v, causal, scaled, tokens }', example: 'weights="hou" scaled="false"',
  },
  {
    tag: 'attn-play', module: 'head/attn-head.js', set: 'lesson', group: GROUPS.HEAD, section: 'play',
    summary: 'The head of the first screen: the same head as <attn-head>, compact (x and the weights, with W_q, W_k, W_v and out where there is room). Edit a cell; click a number to see how it was made.',
    attributes: [['sequence', 'words separated by | (buttons to switch x), letters h, o, u, y', 'none']],
    state: '{ x, W_q, W_k, W_v, causal, scaled, tokens }', example: 'sequence="hou|you"',
  },
  {
    tag: 'attn-head-probe', module: 'head/attn-head-probe.js', set: 'lesson', url: 'probe',
    group: GROUPS.HEAD, section: 's4',
    summary: 'One score computed two ways (x_i M x_jᵀ), and one output taken apart as weight × value rows.',
    attributes: [FOR, ['receiver', 'token index (query row)', '2'], ['source', 'token index (key column)', '0']],
    state: '{ receiver, source }', example: 'receiver="2" source="0"',
  },
  {
    tag: 'attn-compare-words', module: 'head/attn-compare-words.js', set: 'lesson', url: 'words',
    group: GROUPS.HEAD, section: 's4',
    summary: 'The same weights on two sequences give different attention weights.',
    attributes: [FOR, ['a', 'word of the letters h, o, u, y', 'hou'], ['b', 'word of the letters h, o, u, y', 'you']],
    state: '{ a, b }', example: 'a="hou" b="you"',
  },
  {
    tag: 'attn-value-change', module: 'head/attn-value-change.js', set: 'lesson', url: 'value',
    group: GROUPS.HEAD, section: 's4',
    summary: 'A new W_v changes out, never the weights.',
    attributes: [FOR],
    state: '{ W_v }',
  },
  {
    tag: 'attn-bias', module: 'head/attn-bias.js', set: 'lesson', url: 'bias',
    group: GROUPS.HEAD, section: 's4',
    summary: 'A key bias changes no weight; a query bias does.',
    attributes: [FOR],
    state: '{ k_bias, q_bias, b_k, b_q }',
  },
  {
    tag: 'attn-note-graph', module: 'notes/note-graph.js', set: 'notes', url: 'graph',
    group: GROUPS.NOTES, section: 's5',
    summary: 'Attention as message passing on a graph; the causal mask removes the arrows from the future.',
    attributes: [['causal', 'true | false', 'true']],
    state: '{ causal }',
  },
  {
    tag: 'attn-note-space', module: 'notes/note-space.js', set: 'notes', url: 'space',
    group: GROUPS.NOTES, section: 's5',
    summary: 'Attention has no notion of space: shuffle the tokens and the outputs shuffle the same way.',
    attributes: [],
    state: '{ a, b, positions, causal }',
  },
  {
    tag: 'attn-note-batch', module: 'notes/note-batch.js', set: 'notes', url: 'batch',
    group: GROUPS.NOTES, section: 's5',
    summary: 'Sequences in a batch never talk to each other (and BatchNorm as the counterexample).',
    attributes: [],
    state: '{ seed }',
  },
  {
    tag: 'attn-note-encoder', module: 'notes/note-encoder.js', set: 'notes', url: 'encoder',
    group: GROUPS.NOTES, section: 's5',
    summary: 'Encoder and decoder attention differ by one line: the mask.',
    attributes: [],
    state: '{ decoder }',
  },
  {
    tag: 'attn-note-cross', module: 'notes/note-cross.js', set: 'notes', url: 'cross',
    group: GROUPS.NOTES, section: 's5',
    summary: 'Cross-attention: queries from one sequence, keys and values from another.',
    attributes: [],
    state: '{ x_q, x_kv, scaled }',
  },
  {
    tag: 'attn-note-scale', module: 'notes/note-scale.js', set: 'notes', url: 'dk', python: 'NoteScale',
    group: GROUPS.NOTES, section: 's5',
    summary: 'Why scores are divided by √d_k: a d_k slider, the Var(q·k) ≈ d table, sharper softmax.',
    attributes: [],
    state: '{ dk, scaled, causal }',
  },
  {
    tag: 'attn-exercise', module: 'practice/exercise.js', set: 'notes', url: 'exercise', python: 'Exercise',
    group: GROUPS.PRACTICE, section: 's6',
    summary: 'The lesson-1 NumPy exercise: fill three blanks and see what each choice does.',
    attributes: [],
    state: '{ score, mask, axis, seed, causal }',
  },
  {
    tag: 'attn-proofs', module: 'practice/proofs.js', set: 'notes', url: 'proofs',
    group: GROUPS.PRACTICE, section: 's7',
    summary: 'Three checks that the mask and the hand-written backward work, run on random inputs.',
    attributes: [],
    state: '{ seed, from }',
  },
  {
    tag: 'attn-practice', module: 'practice/practice.js', set: 'notes', url: 'practice',
    group: GROUPS.PRACTICE, section: 's8',
    summary: 'Exercises with answer checking (“1/4, 1/2, 1/4” works).',
    attributes: [],
    state: '{ answers }',
  },
  {
    tag: 'attn-quiz', module: 'practice/quiz.js', set: 'notes', url: 'quiz',
    group: GROUPS.PRACTICE, section: 's8',
    summary: 'A six-question recall quiz, reshuffled on every retake, with a spaced-review banner.',
    attributes: [['now', 'ISO date or milliseconds (the clock, for tests)', 'the real time']],
    state: '{ attempt, picks }',
  },
  {
    tag: 'attn-interview', module: 'practice/interview.js', set: 'notes',
    group: GROUPS.PRACTICE, section: 's8',
    summary: 'Two interview questions: write an answer, then reveal a model answer.',
    attributes: [],
    state: 'none',
  },
  {
    tag: 'attn-gpt-train', module: 'gpt/gpt-train.js', set: 'gpt',
    group: GROUPS.GPT, section: 's9',
    summary: 'Train a small GPT in a Web Worker, watch the loss curves, pause to open its heads, save and load checkpoints.',
    attributes: [],
    state: 'read-only: { status, step, loss, … }',
  },
  {
    tag: 'attn-gpt2', module: 'gpt/gpt2.js', set: 'gpt',
    group: GROUPS.GPT, section: 's9',
    summary: 'Open GPT-2 (124 M parameters) from Hugging Face or its files: every head’s attention, each weight explained from the forward pass, heads switched off, what each head does, generation.',
    attributes: [['repo', 'a GPT-2-family model on the Hugging Face hub', 'openai-community/gpt2'],
      ['hub', 'URL of a server in the hub’s layout (<hub>/<repo>/resolve/main/<file>)', 'https://huggingface.co'],
      ['src', 'URL of a folder with config.json, model.safetensors and tokenizer.json (or vocab.json + merges.txt): opened at once', 'none'],
      ['prompt', 'text of the first prompt', 'The cat sat on the mat. …'],
      ['fixed', 'present: the host gives the model (a notebook’s GptInspect), no hub, file or kept-model choice is shown', 'absent']],
    state: 'read-only: { status, info, tokens, probs, selected, off, heads }',
  },
  // Not in the catalogue: the explain panel and the formula stepper every explainable grid opens
  { tag: 'attn-explain', module: 'explain/attn-explain.js', set: 'lesson' },
  { tag: 'attn-formula-steps', module: 'explain/attn-formula-steps.js', set: 'lesson', python: 'FormulaSteps' },
]);
