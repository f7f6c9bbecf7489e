// The requests <attn-gpt-inspect> sends its client (`client.call(cmd, args)`), answered from
// a GptLab: the GPT's worker (worker-commands.js) answers them so, and the notebook's GptInspect
// (pages/notebook/gpt.js), which runs its lab on the page's thread, the same way.
//
//   attention { prompt }                         → { tokens, layers, scores, masked, probs, causal }
//                                                  (each map's data one Float32Array)
//   explain   { prompt, layer, head, kind, row, col, maxTerms? } → one cell's explanation
//   generate  { prompt, n, temperature, topK, seed } → text
//   heads     {}                                → every head's previous-token, induction and
//                                                  first-token score on the probe (GptLab.headScores)
//   ablation  {}                                → each head's loss change when it is off

/** The requests, on the lab `lab()` returns (it may throw: no model yet). */
export function inspectCommands(lab) {
  return {
    attention: ({ prompt }) => lab().attention(String(prompt)),
    explain: ({ prompt, layer, head, kind, row, col, maxTerms }) => lab().explainAttention(String(prompt),
      layer >>> 0, head >>> 0, String(kind ?? 'weights'), row >>> 0, col >>> 0, maxTerms == null ? undefined : maxTerms >>> 0),
    generate: ({ prompt, n, temperature, topK, seed }) =>
      lab().generate(String(prompt), n >>> 0, Number(temperature), topK >>> 0, seed >>> 0),
    heads: () => lab().headScores(),
    ablation: () => lab().ablation(),
  };
}
