// GptInspect on a GPT-2 folder (python: GptInspect("path/to/gpt2")): <attn-gpt2>, the
// site's element, in the notebook. Python sends no weights: the element reads the folder's
// files from the kernel chunk by chunk (kernel-files.js) as it reads files picked in a page,
// into GPT-2's worker, started here from a blob: (gpt2-worker.js, bundled into gpt.js as
// text, with the wasm gpt.js carries posted to it).
//
// Python → here: _gpt2 ({ files: { name: bytes }, stamp }), prompt. Here → Python: config
// (Gpt2Lab.config()'s shape), heads (headScores() once per model, the element's "measure"),
// error (a folder the core refuses); each prompt run (the element's own runs too) as custom
// messages, the weights cut into parts a few MB each (the server refuses a message of more
// than 10 MB from the page; GPT-2 small's 256 tokens are 75 MB of float64):
//
//   { drawn: { run, part: 0, parts, prompt, tokens, error, shape } } + bytes of part 0
//   { drawn: { run, part: i } } + bytes of part i
//
// Python sets prompt, tokens, weights and error together once every part of a run is in.

import WASM from 'ap-inline:wasm';
import WORKER from 'ap-inline:gpt2-worker';
import { GptClient } from '../../gpt/client.js';
import { message } from '../../ui/widget-base.js';
import { followAttributes } from './wire.js';
import { kernelFiles } from './kernel-files.js';
import { headsOf, weightsOf } from './gpt-wire.js';
import '../../widgets/gpt/gpt2.js';

/** Bytes of weights per message. */
const PART = 4 << 20;
/** Requests of a load: a failure there is the folder's (not GPT-2, a tokenizer that does not fit). */
const LOAD = new Set(['plan', 'begin', 'push', 'finish']);

let workerUrl = null;

/** A GPT-2 worker of this page, handed the wasm first. */
function startWorker() {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' }));
  const worker = new Worker(workerUrl, { type: 'module', name: 'attention-playground-gpt2' });
  worker.postMessage({ wasm: WASM }); // copied: the next worker needs it too
  return worker;
}

/** `client` whose every answer (or failure) is also shown to `seen(cmd, args, result, err)`. */
function overheard(client, seen) {
  return {
    async call(cmd, args = {}, transfer = []) {
      let result;
      try {
        result = await client.call(cmd, args, transfer);
      } catch (err) {
        seen(cmd, args, null, err);
        throw err;
      }
      seen(cmd, args, result, null);
      return result;
    },
    terminate: () => client.terminate(),
  };
}

/** Gpt2Lab.config() as GptInspect.config. */
const configOf = (i) => ({
  kind: 'gpt2', n_layer: i.n_layer, n_head: i.n_head, n_embd: i.n_embd, block_size: i.block_size,
  vocab_size: i.vocab_size, params: i.params, gelu: i.gelu, max_tokens: i.max_tokens,
  tokenizer_size: i.tokenizer_size, causal: true,
});

export function renderGpt2({ model, el }) {
  const node = document.createElement('attn-gpt2');
  node.setAttribute('fixed', ''); // the model is Python's: no hub or file choice
  if (model.get('prompt')) node.setAttribute('prompt', model.get('prompt'));
  const unfollow = followAttributes(model, node);
  const me = Math.random().toString(36).slice(2);
  const clients = new Set();
  let runs = 0;
  let last = null; // the prompt of the last run sent
  let files = null;
  let loading = Promise.resolve();
  let opened = false; // the load under way reached `finish`
  let loadErr = null;
  let gone = false;

  /** One run of the element (its maps, or why the core refused the prompt) to Python. */
  const drawn = (prompt, a, err) => {
    const run = `${me}-${runs++}`;
    const w = a ? weightsOf(a) : null;
    const bytes = w ? new Uint8Array(w.data.buffer) : new Uint8Array(0);
    const parts = Math.max(1, Math.ceil(bytes.byteLength / PART));
    for (let part = 0; part < parts; part++) {
      const slice = bytes.slice(part * PART, (part + 1) * PART); // its own buffer: the protocol sends a view's whole one
      const head = part ? { run, part } : {
        run, part, parts, prompt, tokens: a ? Array.from(a.tokens, String) : [], error: err ? message(err) : '', shape: w?.shape ?? null,
      };
      model.send({ drawn: head }, undefined, [slice.buffer]);
    }
    last = prompt;
    model.set('prompt', prompt); // after the parts (Python already holds it): the view's own prompt is this one
    model.save_changes();
  };
  const seen = (cmd, args, result, err) => {
    if (gone) return;
    if (cmd === 'attention') drawn(String(args.prompt), result, err);
    if (cmd === 'finish' && result) {
      opened = true;
      model.set('config', configOf(result));
      model.save_changes();
    }
    if (cmd === 'heads' && result) {
      model.set('heads', headsOf(result));
      model.save_changes();
    }
    if (err && LOAD.has(cmd)) loadErr = err;
  };
  node.startClient = (onEvent) => {
    const client = overheard(new GptClient(onEvent, { worker: startWorker() }), seen);
    clients.add(client);
    return client;
  };
  el.append(node);

  /** Opens the folder Python names; after it, measures the heads (Python's `heads`). */
  const open = async () => {
    const src = model.get('_gpt2');
    if (gone || !src) return;
    const these = kernelFiles(model, src.files);
    files = these;
    opened = false;
    loadErr = null;
    await node.openFiles(these.files);
    if (gone || files !== these) return; // closed, or another folder came meanwhile: its load says
    if (!opened) {
      model.set('error', loadErr ? message(loadErr) : node.state.error || 'GPT-2 could not be opened');
      model.save_changes();
      return;
    }
    await node.measureHeads();
  };
  const onSource = () => {
    files?.close(); // a load of the last folder fails at its next chunk, and says nothing
    files = null;
    loading = loading.then(open, open);
  };
  const onPrompt = () => {
    const prompt = model.get('prompt');
    if (prompt === last) return; // a run's own, or Python's equal to it
    node.setAttribute('prompt', prompt); // the prompt the first run takes, if none has been
    node.ui.prompt.value = prompt;
    if (node.state.status === 'open') node.run();
  };
  model.on('change:_gpt2', onSource);
  model.on('change:prompt', onPrompt);
  onSource();
  return () => {
    gone = true;
    model.off('change:_gpt2', onSource);
    model.off('change:prompt', onPrompt);
    files?.close();
    unfollow();
    for (const c of clients) c.terminate(); // the element keeps its worker while it lives; 500 MB go with the view
    node.remove();
  };
}
