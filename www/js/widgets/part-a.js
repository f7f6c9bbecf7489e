// Part A of the lesson (sections 1–4) and the explain panel and formula stepper every
// explainable grid opens: everything widgets.js defines at once. The notebook ESM
// (notebook.js) imports this and part-b.js, and none of the GPT's code.
import './attn-bigram.js';
import './attn-examples.js';
import './attn-bigram-split.js';
import './attn-schemes.js';
import './attn-sum-norm.js';
import './attn-softmax-steps.js';
import './attn-normalize.js';
import './attn-position.js';
import './attn-pos-table.js';
import './attn-head.js';
import './attn-head-probe.js';
import './attn-compare-words.js';
import './attn-value-change.js';
import './attn-bias.js';
import './attn-explain.js';
import './attn-formula-steps.js';
