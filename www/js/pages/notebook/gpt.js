// The ESM of the Python GptInspect (anywidget), two views by what Python opened:
// - a checkpoint of ours (Python sends its bytes): <attn-gpt-inspect>, every layer's and
//   head's attention for a prompt, the drawn weights back to Python as one (n_layer,
//   n_head, T, T) array (this file);
// - a GPT-2 folder (Python names its files, the page reads them chunk by chunk):
//   <attn-gpt2> with GPT-2 in a worker (gpt2.js).
//
// tools/notebook-bundle.mjs bundles it apart from notebook.js (a notebook of heads never
// carries the GPT), with the GPT's simd128 build inlined: its glue stands in for the
// lesson's (it exports all the lesson's functions too), so wasm.js loads one core for the
// element and for the GptLab here. Our GPT runs on the page's thread: a forward pass of a
// prompt of at most 24 characters takes milliseconds, and a notebook module cannot start
// the site's workers (their scripts have no URL here; GPT-2's is bundled in as text).
//
// Python → here: _checkpoint (bytes of a .safetensors), prompt. Here → Python: prompt (as
// drawn: the last 24 characters at most), tokens, weights { shape, data: float64 bytes },
// config (GptLab.config(): n_layer, n_head, …), heads (GptLab.headScores() once per
// checkpoint: previous_token, induction, first_token each { shape: [n_layer, n_head], data:
// float64 bytes }, probe, probe_len, loss_first, loss_second, best; null when the model's
// context is too short for the probe), error.

import WASM from 'ap-inline:wasm';
import KATEX_CSS from 'ap-inline:katex-css';
import { loadCore, provideCore } from '../../core/wasm.js';
import { provideTexCss } from '../../ui/tex.js';
import { message } from '../../ui/widget-base.js';
import { followAttributes } from './wire.js';
import { inspectCommands } from '../../gpt/inspect-commands.js';
import { headsOf, weightsOf } from './gpt-wire.js';
import { renderGpt2 } from './gpt2.js';
import '../../widgets/gpt/gpt-inspect.js';

provideCore(WASM);
provideTexCss(KATEX_CSS);

/** <attn-gpt-inspect>'s client on `lab`: what the GPT's worker answers, answered here; each
 *  prompt's attention, or why the core refused it, also to `drawn(prompt, a, err)`. */
function clientOf(lab, drawn) {
  const commands = inspectCommands(() => lab);
  const attention = commands.attention;
  commands.attention = (args) => {
    let a;
    try {
      a = attention(args);
    } catch (err) {
      drawn(String(args.prompt), null, err);
      throw err;
    }
    drawn(String(args.prompt), a);
    return a;
  };
  return { call: async (cmd, args = {}) => commands[cmd](args) };
}

/** <attn-gpt-inspect> on the checkpoint in `_checkpoint`. */
function renderOurs({ model, el }) {
  const node = document.createElement('attn-gpt-inspect');
  const unfollow = followAttributes(model, node);
  el.append(node);
  let lab = null;
  let gone = false;
  const fail = (err) => {
    model.set('error', message(err));
    model.save_changes();
    node.showError(message(err, node.language));
  };
  const drawn = (prompt, a, err) => {
    model.set('prompt', prompt);
    model.set('tokens', a ? Array.from(a.tokens, String) : []);
    model.set('weights', a ? weightsOf(a) : null);
    model.set('error', err ? message(err) : '');
    model.save_changes();
  };
  const open = async () => {
    const core = await loadCore();
    if (gone) return;
    const bytes = model.get('_checkpoint');
    let next;
    try {
      const b = bytes instanceof DataView ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
      next = core.GptLab.fromBytes(b.slice(), undefined, undefined, 1337);
    } catch (err) {
      // The last model stays freed only once nothing can ask it anything.
      node.close();
      lab?.free();
      lab = null;
      fail(err);
      return;
    }
    lab?.free();
    lab = next;
    const info = lab.config();
    model.set('config', {
      n_layer: info.n_layer, n_head: info.n_head, n_embd: info.n_embd, block_size: info.block_size,
      vocab_size: info.vocab_size, vocab: info.vocab, causal: info.causal,
    });
    // null for a context under 4 tokens, where no probe (two tokens at least, written twice) fits
    model.set('heads', info.block_size < 4 ? null : headsOf(lab.headScores()));
    model.save_changes();
    node.clearError();
    node.client = clientOf(lab, drawn);
    await show();
  };
  /** Draws the model's attention for the prompt Python holds (an empty one too). */
  const show = () => {
    node.ui.prompt.value = model.get('prompt');
    return node.open(lab.config());
  };
  const onPrompt = () => {
    if (lab) show().catch(fail);
  };
  const onCheckpoint = () => {
    if (!model.get('_gpt2')) open().catch(fail); // a GPT-2 folder instead: render() changes the view
  };
  model.on('change:_checkpoint', onCheckpoint);
  model.on('change:prompt', onPrompt);
  open().catch(fail);
  return () => {
    gone = true;
    model.off('change:_checkpoint', onCheckpoint);
    model.off('change:prompt', onPrompt);
    unfollow();
    lab?.free();
    node.remove();
  };
}

/** The view of what Python opened: a GPT-2 folder or our checkpoint, changed when that changes. */
function render({ model, el }) {
  let kind = null;
  let dispose = null;
  const pick = () => {
    const next = model.get('_gpt2') ? 'gpt2' : 'ours';
    if (next === kind) return;
    dispose?.();
    kind = next;
    dispose = (next === 'gpt2' ? renderGpt2 : renderOurs)({ model, el });
  };
  model.on('change:_gpt2', pick);
  pick();
  return () => {
    model.off('change:_gpt2', pick);
    dispose?.();
  };
}

export default { render };
