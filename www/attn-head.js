// Attention Playground's <attn-head> alone: for a page that shows one head (and nothing
// else of the lesson), a smaller script than widgets.js.
//
//   <script type="module" src="…/attention-playground/attn-head.js" blocking="render"></script>
//   <attn-head></attn-head>
//
// It registers <attn-head> and what the head draws with (the explain panel and the formula
// stepper); widgets.js registers every element, these included, so a page loads one of the
// two. The site ships this one as a single file (but for KaTeX's script, loaded only for a
// formula typeset at run time): the page fetches it and then the core. A page that loads
// both still works, each element defined by whichever came first, but fetches the head's
// code and core twice.

import './js/widgets/head/attn-head.js';
