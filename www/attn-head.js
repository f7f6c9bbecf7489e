// Attention Playground's <attn-head> alone: for a page that shows one head (and nothing
// else of the lesson), a smaller script than widgets.js.
//
//   <script type="module" src="…/attention-playground/attn-head.js" blocking="render"></script>
//   <attn-head></attn-head>
//
// It registers <attn-head> and what the head draws with (the explain panel and the formula
// stepper); widgets.js registers every element, these included. A page may load both.

import './js/widgets/attn-head.js';
