// The ESM of the Python GptInspect (anywidget): <attn-gpt-inspect> on a checkpoint Python
// sends as bytes, every layer's and head's attention for a prompt, and the drawn weights
// back to Python as one (n_layer, n_head, T, T) array.
//
// tools/notebook-bundle.mjs bundles it apart from notebook.js (a notebook of heads never
// carries the GPT), with the GPT's simd128 build inlined: its glue stands in for the
// lesson's (it exports all the lesson's functions too), so wasm.js loads one core for the
// element and for the GptLab here. The GPT runs on the page's thread: a forward pass of a
// prompt of at most 24 characters takes milliseconds, and a notebook module cannot start
// the site's workers (their scripts have no URL here).
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

/** Every head's weights of an `attention` result as one (n_layer, n_head, T, T) array. */
function weightsOf(a) {
  const layers = a.layers;
  const t = layers[0]?.[0]?.rows ?? 0;
  const data = new Float64Array(layers.length * (layers[0]?.length ?? 0) * t * t);
  let at = 0;
  for (const heads of layers) {
    for (const m of heads) {
      data.set(m.data, at);
      at += m.data.length;
    }
  }
  return { shape: [layers.length, layers[0]?.length ?? 0, t, t], data: new DataView(data.buffer) };
}

/** GptLab.headScores() as Python takes it: each score (layer-major, NL·NH float32) an
 *  (n_layer, n_head) float64 array; null for a context under 4 tokens, where no probe (two
 *  tokens at least, written twice) fits. */
function headsOf(lab, blockSize) {
  if (blockSize < 4) return null;
  const s = lab.headScores();
  const grid = (v) => ({ shape: [s.n_layer, s.n_head], data: new DataView(Float64Array.from(v).buffer) });
  return {
    previous_token: grid(s.previous_token), induction: grid(s.induction), first_token: grid(s.first_token),
    probe: Array.from(s.probe, String), probe_len: s.probe_len, loss_first: s.loss_first, loss_second: s.loss_second,
    best: { layer: s.best.layer, head: s.best.head, score: s.best.score },
  };
}

function render({ model, el }) {
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
    model.set('heads', headsOf(lab, info.block_size));
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
  const onCheckpoint = () => open().catch(fail);
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

export default { render };
