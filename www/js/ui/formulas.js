// The formulas of the widgets that never change, typeset once when the site is built
// (tools/typeset.mjs writes formulas.gen.js; build.sh runs it): a page that shows only these
// never loads KaTeX's script. tex() typesets anything else at run time (a formula with a
// learner's token in it). The core's formula (formulaLatex) and its highlighted steps are
// added by tools/typeset.mjs from the core itself (the group `steps`).
//
// One group per widget that draws them; formulas.gen.js exports each group as its own
// constant, and the widget registers its group with tex.js (usePrebuilt): a bundle carries
// the typeset formulas of the widgets it holds, not every formula of the lesson.
// [latex, display] — exactly the string each widget passes to tex(latex, display).

/** attn-head-probe.js's formula for a receiver token `a` and a source token `b` (both
 *  already texEscape'd: tokens may come from a link, never as LaTeX commands). */
export function probeLatex(a, b) {
  return `\\text{score}(${a}\\to ${b}) = q_{${a}}\\cdot k_{${b}} = x_{${a}}\\,M\\,x_{${b}}^{\\top},\\qquad M = W_q^{\\top} W_k`;
}

// The h/o/u head's tokens, the probe's every pair: the lesson's probe needs no KaTeX.
const HOU = ['h', 'o', 'u'];

export const FORMULAS = {
  // attn-head.js: the cards' formulas
  head: [
    ['x \\in \\mathbb{R}^{T\\times C}', false],
    ['W_q \\in \\mathbb{R}^{d\\times C}', false],
    ['W_k \\in \\mathbb{R}^{d\\times C}', false],
    ['W_v \\in \\mathbb{R}^{d\\times C}', false],
    ['q = x\\,W_q^{\\top}', false],
    ['k = x\\,W_k^{\\top}', false],
    ['v = x\\,W_v^{\\top}', false],
    ['q\\,k^{\\top}', false],
    ['q\\,k^{\\top} / \\sqrt{d_k}', false],
    ['\\mathrm{mask}(\\text{scores})', false],
    ['\\mathrm{softmax}(\\mathrm{mask}(\\text{scores}))', false],
    ['\\text{weights}\\cdot v', false],
  ],
  probe: HOU.flatMap((a) => HOU.map((b) => [probeLatex(a, b), true])), // attn-head-probe.js
  exercise: [
    ['\\text{out}=\\operatorname{softmax}\\!\\Big(\\frac{QK^{\\top}}{\\sqrt{d_k}}+M\\Big)\\,V', true],
    ['M_{ts}=\\begin{cases}0 & s\\le t\\\\ -\\infty & s>t\\end{cases}', true],
  ],
  interview: [
    ['\\operatorname{Attention}(Q,K,V)=\\underbrace{\\operatorname{softmax}\\!\\Big(\\underbrace{\\tfrac{QK^{\\top}}{\\sqrt{d_k}}}_{(T,\\,T)}+M\\Big)}_{(T,\\,T)}\\;\\underbrace{V}_{(T,\\,d_v)}', true],
  ],
  noteCross: [
    ['\\underbrace{\\operatorname{softmax}\\!\\big(\\underbrace{x_q W_q^{\\top}}_{T_\\text{out}\\times d}'
      + '\\,\\underbrace{(x_{kv} W_k^{\\top})^{\\top}}_{d\\times T_\\text{in}}\\big)}_{T_\\text{out}\\times T_\\text{in}}'
      + '\\;\\underbrace{x_{kv} W_v^{\\top}}_{T_\\text{in}\\times d}', true],
  ],
  noteScale: [
    ['\\operatorname{Var}(q\\cdot k)=\\sum_{i=1}^{d_k}\\operatorname{Var}(q_i k_i)=d_k', true],
    ['\\operatorname{Var}\\!\\left(\\frac{q\\cdot k}{\\sqrt{d_k}}\\right)=1', true],
    ['d_k', false],
  ],
  proofs: [
    ['\\frac{\\partial L}{\\partial x_i}\\approx\\frac{L(x_i+h)-L(x_i-h)}{2h}', true],
  ],
};
