// Checkpoint files of <attn-gpt-train>: the pretrained model's bytes, a Save (or a saved
// run's state or weights) offered as a download, and whether a picked file is a
// checkpoint or a training state at all before the worker loads it.
// The core reads the bytes (checkpointInfo, src/wasm/gpt_files.rs): the page never parses
// the safetensors layout itself.

import { h, message } from '../../ui/widget-base.js';
import { formatGrouped } from '../../ui/format.js';
import { loadCore } from '../../core/wasm.js';

const PRETRAINED_URL = new URL('../../../models/small.safetensors', import.meta.url);
export const PRETRAINED_NAME = 'small.safetensors';

/** The pretrained small model's bytes; rejects with its path and the HTTP status. */
export async function fetchPretrained() {
  const r = await fetch(PRETRAINED_URL);
  if (!r.ok) throw new Error(`${PRETRAINED_URL.pathname}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

/** What a picked file is: 'state' (a training state, from "Download training state"),
 *  'checkpoint' (it begins as a safetensors file; the loader judges the rest), or a
 *  rejection with `notCheckpoint(n)` (the message for a file of n bytes) for anything
 *  else (an image, a text): such a file is named as what it is, not as a corrupt one. */
export async function fileKind(buffer, notCheckpoint) {
  const core = await loadCore();
  const info = core.checkpointInfo(new Uint8Array(buffer));
  if (info.state) return 'state';
  if (!info.safetensors) throw new Error(notCheckpoint(info.bytes));
  return 'checkpoint';
}

/** Offers `bytes` as a download called `name` (a link clicked inside `root`). */
export function download(root, bytes, name) {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = h('a', { href: url, download: name });
  root.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Offers saved run `rec` (gpt-store.js) as a download: its training state as stored
 *  (`what` = 'state'), or its weights as .safetensors ('model'), which the worker behind
 *  `client` makes from the state on `text` (the run's corpus), the model it holds
 *  untouched. `t` and `lang()` say it in the page's language. Resolves to what the file
 *  message shows: [say, ok]. */
export async function downloadRun(root, client, rec, what, text, t, lang) {
  const c = rec.config ?? {};
  const base = `gpt-${c.n_layer ?? 'x'}x${c.n_embd ?? 'x'}-step${rec.step}`;
  try {
    if (what === 'state') {
      download(root, rec.state, `${base}.state`);
      return [() => t('gpt.savedState', { kb: formatGrouped(rec.state.length / 1024) }), true];
    }
    const bytes = rec.state.slice().buffer;
    const model = await client.call('checkpointOf', { bytes, text }, [bytes]);
    download(root, model, `${base}.safetensors`);
    return [() => t('gpt.saved', { kb: formatGrouped(model.length / 1024) }), true];
  } catch (err) {
    return [() => message(err, lang()), false];
  }
}
