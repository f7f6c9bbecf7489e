// GPT-2's worker in a notebook: the site's (gpt/gpt2-worker.js) serves the same requests
// (gpt/gpt2-commands.js), but a notebook's module has no URL to start a worker or fetch a
// wasm by. tools/notebook-bundle.mjs bundles this file into a string inside gpt.js, which
// starts it from a blob: URL and posts it the GPT's wasm (the bytes gpt.js carries) first:
//
//   worker.postMessage({ wasm: Uint8Array })   then GptClient's requests, answered once
//                                              the wasm has started

import init, * as glue from '../../../pkg/attention_playground.js';
import { gpt2Commands } from '../../gpt/gpt2-commands.js';
import { serveTable } from '../../gpt/worker-serve.js';

// Listened for before serveTable's handler is set: the wasm message stops here.
const ready = new Promise((resolve, reject) => {
  const first = (e) => {
    if (!(e.data?.wasm instanceof Uint8Array)) return;
    e.stopImmediatePropagation();
    self.removeEventListener('message', first);
    init({ module_or_path: e.data.wasm }).then(resolve, reject);
  };
  self.addEventListener('message', first);
});

serveTable(gpt2Commands(() => glue), { ready });
