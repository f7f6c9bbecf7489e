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
import './attn-value-change.js';
import './attn-bias.js';
// Part B (sections 5–8):
import './note-graph.js';
import './note-space.js';
import './note-batch.js';
import './note-encoder.js';
import './note-cross.js';
import './note-scale.js';
import './exercise.js';
import './proofs.js';
import './practice.js';
import './quiz.js';
import './interview.js';
// The explain panel and formula stepper every explainable grid opens:
import './attn-explain.js';
import './attn-formula-steps.js';
// Train a GPT (section 9):
import './gpt-train.js';
