// One element alone: this page's script holds <attn-softmax-steps> and what it draws with.
import 'attention-playground/attn-softmax-steps.js';
