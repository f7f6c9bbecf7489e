// Every widget module; each registers its element on import (see widget-base.js).
// Part A (sections 1–4):
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
import './attn-bias.js';
// Part B (sections 5–8):
// Explain panel and formula stepper (issue 6):
import './attn-explain.js';
import './attn-formula-steps.js';
// GPT (issue 4):
