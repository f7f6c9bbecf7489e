// The sign key of an editable <attn-matrix> on a touch screen. A number cell asks for the
// decimal keypad (inputmode="decimal"), and iOS's has no minus sign: while one of the
// grid's cells has the focus, a "±" key beside the read-out flips the sign of its text,
// as a calculator's does. Pressing it leaves the focus (and the keypad) where it was, and
// the flipped text goes out as typing does (an 'input' event on the cell).

import { touchScreen } from './touch.js';

/** "-1.5" ⇄ "1.5" (a typed minus "−" too); an empty cell starts a negative number. */
export const flipSign = (text) => (/^\s*[-−]/.test(text) ? text.replace(/^\s*[-−]/, '') : `-${text.trimStart()}`);

/**
 * Wires `key` (the grid's ± button) to the cells of `views` (its MatrixViews): shown while
 * one of them has the focus on a touch screen, it flips that cell's sign.
 */
export function signKey(key, heatmap, views) {
  const focused = () => views.inputs.find((input) => input === input.getRootNode().activeElement);
  const show = () => { key.hidden = !(touchScreen() && focused()); };
  heatmap.addEventListener('focusin', show);
  heatmap.addEventListener('focusout', () => queueMicrotask(show));
  // the cell keeps the focus: the keypad stays up and the next digit lands in it
  key.addEventListener('pointerdown', (e) => e.preventDefault());
  key.addEventListener('click', () => {
    const input = focused();
    if (!input) return;
    input.value = flipSign(input.value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
