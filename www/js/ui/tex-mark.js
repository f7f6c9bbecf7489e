// The formula stepper's highlight: a step's term boxed where it sits in the core's formula
// (the step's span). Shared by <attn-formula-steps> and tools/typeset.mjs, which typesets
// every highlighted variant of the core's formula when the site is built.

export const MARK = (term) => `\\colorbox{#fde68a}{$\\color{#1b1e27}{${term}}$}`;

/** `latex` with `step.term` boxed at `step.span`, or `latex` unchanged when the span does
 *  not hold that term. */
export function highlighted(latex, step) {
  const [start, end] = step?.span ?? [];
  if (!latex || !Number.isInteger(start) || latex.slice(start, end) !== step.term) return latex;
  return latex.slice(0, start) + MARK(step.term) + latex.slice(end);
}
