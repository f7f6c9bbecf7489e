// Bringing what a learner just asked for into view without moving what they are
// touching: the cells a stepper's step makes (while its buttons stay under the pointer:
// followSteps) and an explanation panel (while the cell it explains stays on screen:
// revealBeside). The page scrolls smoothly, at once under prefers-reduced-motion, and
// not at all when the thing is on screen already.
//
//   const follow = followSteps(room, stepper, spacer);  // room: the stepper's box in the layout
//   follow.show(card, cells);                    // after a step: its card (or cells), near it
//   revealBeside(panel, cell);                   // the panel in view, the cell kept in view

const MARGIN = 8;
const reduced = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
const viewHeight = () => document.documentElement.clientHeight || innerHeight;

function scrollByY(dy, smooth = true) {
  if (Math.abs(dy) < 1) return;
  window.scrollBy({ top: dy, behavior: smooth && !reduced() ? 'smooth' : 'instant' });
}

/** The scroll (px, + down) of least size that puts [top, bottom] inside [lo, hi], or
 *  null when it is taller than that room. */
function fit(top, bottom, lo, hi) {
  if (bottom - top > hi - lo) return null;
  if (top >= lo && bottom <= hi) return 0;
  return top < lo ? top - lo : bottom - hi;
}

/**
 * Keeps `room` (the box of a stepper in its widget's layout) where it is on screen
 * while the page scrolls to a step's cells: on the first step it sticks (position:
 * sticky) at the height it has, over the content passing beneath it, and the cells
 * are brought into the room above or below it. It lets go, back to its place in the
 * page, as soon as the learner scrolls, taps, clicks or moves the focus elsewhere.
 * `stepper` gets the attribute `pinned` meanwhile (it draws itself raised).
 * `spacer`, an empty block at the end of the room's parent, is as tall as the room
 * while it sticks: a stuck box cannot pass its parent's end, and the last cards are to
 * come above it too. It shrinks back once off screen, so that nothing on screen moves.
 */
export function followSteps(room, stepper, spacer) {
  let pinned = null; // { scrollY } when it stuck
  const outside = (e) => !e.composedPath().includes(room);
  // A scroll by hand lets go wherever it starts; a press, a key or the focus outside it.
  const release = (e) => {
    if (e.type === 'wheel' || e.type === 'touchmove' || outside(e)) unpin();
  };
  const EVENTS = ['wheel', 'touchmove', 'pointerdown', 'keydown', 'focusin'];
  const shrink = typeof IntersectionObserver === 'function' ? new IntersectionObserver(([entry]) => {
    if (!pinned && !entry.isIntersecting) {
      spacer.style.height = '';
      shrink.disconnect();
    }
  }) : null;

  function pin() {
    if (pinned) return;
    const { top, height } = room.getBoundingClientRect();
    pinned = { scrollY: window.scrollY };
    room.style.position = 'sticky';
    room.style.top = `${top}px`;
    room.style.zIndex = '3';
    stepper.setAttribute('pinned', '');
    if (spacer) spacer.style.height = `${Math.ceil(height)}px`;
    shrink?.disconnect();
    for (const type of EVENTS) document.addEventListener(type, release, { capture: true, passive: true });
  }

  function unpin() {
    if (!pinned) return;
    pinned = null;
    room.style.position = '';
    room.style.top = '';
    room.style.zIndex = '';
    stepper.removeAttribute('pinned');
    for (const type of EVENTS) document.removeEventListener(type, release, { capture: true });
    if (spacer && shrink) shrink.observe(spacer);
    else if (spacer) spacer.style.height = '';
  }

  /** How far the page may scroll (px, + down) with the room stuck where it is: not back
   *  above where it stuck, not past the page's end, and not so far that the room would
   *  pass its parent's end. */
  function bounds() {
    const r = room.getBoundingClientRect();
    const end = room.parentElement.getBoundingClientRect().bottom;
    const maxDown = document.documentElement.scrollHeight - viewHeight() - window.scrollY;
    return { r, min: pinned.scrollY - window.scrollY, max: Math.min(maxDown, end - r.bottom) };
  }

  /** The least scroll that shows `el` whole beside the stuck room, above or below it,
   *  or null where none can. */
  function scrollFor(el) {
    const { r, min, max } = bounds();
    const t = el.getBoundingClientRect();
    const vh = viewHeight();
    const options = [fit(t.top, t.bottom, r.bottom + MARGIN, vh - MARGIN), fit(t.top, t.bottom, MARGIN, r.top - MARGIN)];
    const possible = options.filter((dy) => dy != null && dy >= min - 0.5 && dy <= max + 0.5);
    return possible.sort((a, b) => Math.abs(a) - Math.abs(b))[0] ?? null;
  }

  return {
    /** Brings the first of `targets` that fits (a card, else its grid) into view beside
     *  the stepper, which stays where it is; nothing moves if it is on screen. */
    show(...targets) {
      const list = targets.filter(Boolean);
      if (!list.length) return;
      pin();
      for (const el of list) {
        const dy = scrollFor(el);
        if (dy != null) {
          scrollByY(dy);
          return;
        }
      }
      // Nothing fits beside it: the top of the last (the cells) in the larger room.
      const { r, min, max } = bounds();
      const t = list.at(-1).getBoundingClientRect();
      const dy = viewHeight() - r.bottom >= r.top ? t.top - r.bottom - MARGIN : t.top - MARGIN;
      scrollByY(Math.min(max, Math.max(min, dy)));
    },
    unpin,
    get pinned() { return Boolean(pinned); },
  };
}

/** Scrolls (at once) so that `panel` is in view, but never so far that `cell`, the one
 *  it explains, leaves the screen: a tall panel shows its top beside the cell. */
export function revealBeside(panel, cell) {
  const p = panel.getBoundingClientRect();
  const vh = viewHeight();
  let dy = fit(p.top, p.bottom, MARGIN, vh - MARGIN) ?? p.top - MARGIN;
  const c = cell?.isConnected ? cell.getBoundingClientRect() : null;
  if (c && c.height) {
    // keep the cell on screen: at most its top to the top, its bottom to the bottom
    dy = Math.min(dy, c.top - MARGIN);
    dy = Math.max(dy, c.bottom - (vh - MARGIN));
  }
  scrollByY(dy, false);
}
