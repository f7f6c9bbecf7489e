// Every widget module; each registers its element on import (see widget-base.js).
// Part A (sections 1–4):
// Part B (sections 5–8):
// Explain panel and formula stepper (issue 6):
import './attn-explain.js';
import './attn-formula-steps.js';
// GPT (issue 4):
