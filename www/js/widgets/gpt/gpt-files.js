// Checkpoint files of <attn-gpt-train>, in and out: Save (the checkpoint or the training
// state) offered as a download, a picked file or the pretrained small model opened as the
// model on screen, and a saved run's state or weights downloaded from the list of runs.
// The flows work on the element's host (gpt-train.js: its model, saves, screen and
// messages). A picked file is first told apart (a checkpoint, a training state, or not one
// at all) by the core (checkpointInfo, src/wasm/gpt/files.rs): the page never parses the
// safetensors layout itself.

import { h, message } from '../../ui/widget-base.js';
import { formatGrouped } from '../../ui/format.js';
import { loadCore } from '../../core/wasm.js';
import { promptFor } from './gpt-train-view.js';
import { runText } from './gpt-train-resume.js';

const PRETRAINED_URL = new URL('../../../models/small.safetensors', import.meta.url);
const PRETRAINED_NAME = 'small.safetensors';

/** The pretrained small model's bytes; rejects with its path and the HTTP status. */
async function fetchPretrained() {
  const r = await fetch(PRETRAINED_URL);
  if (!r.ok) throw new Error(`${PRETRAINED_URL.pathname}: HTTP ${r.status}`);
  return r.arrayBuffer();
}

/** What a picked file is: 'state' (a training state, from "Download training state"),
 *  'checkpoint' (it begins as a safetensors file; the loader judges the rest), or a
 *  rejection with `notCheckpoint(n)` (the message for a file of n bytes) for anything
 *  else (an image, a text): such a file is named as what it is, not as a corrupt one. */
async function fileKind(buffer, notCheckpoint) {
  const core = await loadCore();
  const info = core.checkpointInfo(new Uint8Array(buffer));
  if (info.state) return 'state';
  if (!info.safetensors) throw new Error(notCheckpoint(info.bytes));
  return 'checkpoint';
}

/** Offers `bytes` as a download called `name` (a link clicked inside `root`). */
function download(root, bytes, name) {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = h('a', { href: url, download: name });
  root.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// What each Save downloads (the worker's command of that name, worker.js): the checkpoint
// (weights and vocab), which the page and `gpt` load back; the training state (weights,
// AdamW moments and step), which tools/export_nanogpt.py turns into a nanoGPT checkpoint
// that continues this run.
const SAVES = {
  save: { bytesOf: (bytes) => bytes, ext: 'safetensors', said: 'gpt.saved' },
  state: { bytesOf: (r) => r.bytes, ext: 'state', said: 'gpt.savedState' },
};

/** Downloads the model on screen as `what` ('save' | 'state', SAVES) and says so. */
export async function saveModel(host, what) {
  const { session: s, widget } = host;
  if (!s.info) return;
  const { bytesOf, ext, said } = SAVES[what];
  try {
    const bytes = bytesOf(await s.client.call(what));
    download(widget.shadowRoot, bytes, `gpt-${s.info.n_layer}x${s.info.n_embd}-step${s.last.step}.${ext}`);
    host.sayFile(() => widget.t(said, { kb: formatGrouped(bytes.length / 1024) }), true);
  } catch (err) {
    host.sayFile(() => message(err, widget.language));
  }
}

/** Opens the file picked in the file input, on the text the settings hold. */
export async function openPicked(host) {
  const file = host.ui.file.files?.[0];
  if (!file) return;
  await openFile(host, await file.arrayBuffer(), file.name, host.ui.settings.value.text);
  host.ui.file.value = '';
}

/** Opens the pretrained small model that ships with the page, on the default corpus. */
export async function openPretrained(host) {
  try {
    await openFile(host, await fetchPretrained(), PRETRAINED_NAME, host.ui.settings.defaultText, 'default');
  } catch (err) {
    host.sayFile(() => message(err, host.widget.language));
  }
}

/** Opens file `buffer` (called `name`) as the model on screen, on `text` from `source`:
 *  a run of its own from now. */
async function openFile(host, buffer, name, text, source = host.ui.settings.value.source) {
  const { session: s, ui, widget } = host;
  const t = (key, vars) => widget.t(key, vars);
  const gen = host.begin();
  try {
    const kind = await fileKind(buffer, (bytes) => t('gpt.notSafetensors', { bytes: formatGrouped(bytes) }));
    // A training state comes back with its AdamW moments, paused at its step (its curves
    // stayed in the tab that trained it); a checkpoint is a model, at step 0.
    const { batch_size, lr } = ui.settings.value.config; // a checkpoint has the shape, not these
    const info = kind === 'state'
      ? await s.client.call('restore', { bytes: buffer, text }, [buffer])
      : await s.client.call('load', { bytes: buffer, text, config: { batch_size, lr, causal: !ui.causal.checked }, seed: 1337 }, [buffer]);
    if (!s.current(gen)) return;
    host.saves.newRun(); // a file's model trains on as a run of its own
    host.adopt(info, kind === 'state' ? 'paused' : 'loaded', source, text);
    ui.causal.checked = !info.causal;
    ui.settings.locked = true;
    ui.settings.showModel(info);
    host.clearRun();
    if (kind === 'state') {
      s.last.step = info.steps;
      host.sayFile(() => t('gpt.loadedState', { name, params: formatGrouped(info.params), step: formatGrouped(info.steps) }), true);
    } else {
      const note = () => (info.trainable ? ''
        : ` ${t('gpt.notTrainable', { why: message(info.untrainable ?? info.untrainable_reason, widget.language) })}`);
      host.sayFile(() => t('gpt.loaded', { name, params: formatGrouped(info.params) }) + note(), true);
    }
    ui.inspect.open(info, promptFor(info));
  } catch (err) {
    host.sayFile(() => t('gpt.loadFailed', { name, msg: message(err, widget.language) }));
  }
  host.paint();
}

/** Downloads saved run `rec` from the list: its training state as stored (`what` =
 *  'state'), or its weights as .safetensors ('model'), which the worker makes from the
 *  state on the run's corpus, the model it holds untouched. */
export async function downloadSaved(host, rec, what) {
  const { session: s, widget } = host;
  const text = await runText(host, rec);
  const c = rec.config ?? {};
  const base = `gpt-${c.n_layer ?? 'x'}x${c.n_embd ?? 'x'}-step${rec.step}`;
  try {
    if (what === 'state') {
      download(widget.shadowRoot, rec.state, `${base}.state`);
      host.sayFile(() => widget.t('gpt.savedState', { kb: formatGrouped(rec.state.length / 1024) }), true);
      return;
    }
    const bytes = rec.state.slice().buffer;
    const model = await s.client.call('checkpointOf', { bytes, text }, [bytes]);
    download(widget.shadowRoot, model, `${base}.safetensors`);
    host.sayFile(() => widget.t('gpt.saved', { kb: formatGrouped(model.length / 1024) }), true);
  } catch (err) {
    host.sayFile(() => message(err, widget.language));
  }
}
