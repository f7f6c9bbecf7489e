// What GptInspect's two views (gpt.js: our GPT on the page's thread; gpt2.js: GPT-2 in a
// worker) send Python of a model: every head's weights of a prompt as one array, and the
// head scores. Arrays travel as { shape, data: float64 bytes }, NumPy's on the other side.

/** Every head's weights of an `attention` result as one (n_layer, n_head, T, T) array. */
export function weightsOf(a) {
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

/** headScores() (GptLab's or Gpt2Lab's) as Python takes it: each score (layer-major,
 *  NL·NH float32) an (n_layer, n_head) float64 array. */
export function headsOf(s) {
  const grid = (v) => ({ shape: [s.n_layer, s.n_head], data: new DataView(Float64Array.from(v).buffer) });
  return {
    previous_token: grid(s.previous_token), induction: grid(s.induction), first_token: grid(s.first_token),
    probe: Array.from(s.probe, String), probe_len: s.probe_len, loss_first: s.loss_first, loss_second: s.loss_second,
    best: { layer: s.best.layer, head: s.best.head, score: s.best.score },
  };
}
