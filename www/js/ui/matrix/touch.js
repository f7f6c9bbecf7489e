// Whether the reader's screen has no hover: a phone or a tablet, where a finger taps
// and nothing rests over a cell, and no Tab or Esc key is at hand. The hints that
// name keys or hovering say what a tap does there instead, or nothing.
//
//   touchScreen()          true under (hover: none)
//   onTouchChange(fn)      fn() when that changes (a mouse plugged into a tablet);
//                          returns the function that stops it

const query = typeof matchMedia === 'function' ? matchMedia('(hover: none)') : null;

export const touchScreen = () => Boolean(query?.matches);

export function onTouchChange(fn) {
  query?.addEventListener?.('change', fn);
  return () => query?.removeEventListener?.('change', fn);
}
