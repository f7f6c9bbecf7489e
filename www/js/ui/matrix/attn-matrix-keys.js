// The keyboard of <attn-matrix>, the same in its heatmap and its table view: which key
// explains a cell, and which cell a key moves the focus to. Pure functions of the key,
// the cell and its input (if any): attn-matrix-events.js applies them to the view on screen.

/** Whether `e` asks for the focused cell's explanation: Enter or Space on a cell,
 *  Shift+Enter in a cell's input (Enter commits there). */
export function isExplainKey(e, input) {
  return input ? e.key === 'Enter' && e.shiftKey : e.key === 'Enter' || e.key === ' ';
}

/**
 * The index of the cell that key `e` moves to from cell `i` of a rows×cols grid
 * (clamped to the grid), or -1 when the key is no move and is left to the browser.
 * Arrows move; in a cell's `input` Left and Right do so only from the text's start or
 * end, and Home and End move its caret instead of the focus; Enter (Shift+Enter) in an
 * input moves down (up).
 */
export function keyTarget(e, i, rows, cols, input = null) {
  let r = Math.floor(i / cols);
  let c = i % cols;
  const len = input ? input.value.length : 0;
  const atStart = !input || (input.selectionStart === 0 && (input.selectionEnd === 0 || input.selectionEnd === len));
  const atEnd = !input || (input.selectionEnd === len && (input.selectionStart === len || input.selectionStart === 0));
  switch (e.key) {
    case 'ArrowUp': r -= 1; break;
    case 'ArrowDown': r += 1; break;
    case 'ArrowLeft': if (!atStart) return -1; c -= 1; break;
    case 'ArrowRight': if (!atEnd) return -1; c += 1; break;
    case 'Home': if (input) return -1; c = 0; break;
    case 'End': if (input) return -1; c = cols - 1; break;
    case 'Enter': if (!input) return -1; r += e.shiftKey ? -1 : 1; break;
    default: return -1;
  }
  r = Math.min(rows - 1, Math.max(0, r));
  c = Math.min(cols - 1, Math.max(0, c));
  return r * cols + c;
}
