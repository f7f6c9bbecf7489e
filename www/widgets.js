// Attention Playground widgets: one module registers every element.
//
//   <script type="module" src="…/attention-playground/widgets.js"></script>
//   <attn-head></attn-head>
//
// Loading this module twice is harmless; the wasm core loads once, lazily, relative to
// this file's URL, so the folder works from any path of any static server, offline.
// Each widget lives in js/widgets/ and registers itself on import.

export * from './js/widgets/index.js';
