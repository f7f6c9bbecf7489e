// The course's script: every element of the package (its wasm, workers and fonts are
// emitted by Vite from the package's new URL(…, import.meta.url) references).
import 'attention-playground/widgets.js';
