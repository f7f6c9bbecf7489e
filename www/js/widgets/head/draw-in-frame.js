// The widgets that follow an <attn-head> (`for="head"`: its probe, the word comparison,
// the value change, the bias) redraw, once drawn, in the next animation frame: the
// frame that shows the head's own redraw after an edit. Each of them in a task of its
// own (widget-base.js's refresh) would often land after that frame, and the page would
// do its style, layout and paint twice per keystroke. All followers' callbacks run in
// that one frame, before its layout, and several edits within a frame draw once.
// A follower more than half a screen from the viewport (the lesson's four sit one to
// three screens below the head's W_v) redraws just after that frame, in a task of its
// own: nothing of it can be seen in that frame, and its redraw (script, style, layout)
// would make the frame that shows the head's new numbers miss its deadline.
//
//   class AttnBias extends drawsInFrame(LessonWidget) { … }
//
// What widget-base.js's refresh() does around render() is kept: the inline error
// (cleared, or the thrown error's message), and the `attn-rendered` event. The first
// draw, a readonly widget (its lock disables the controls after each render), the
// lock's undoing, and a hidden page (no frames) go through widget-base.js's refresh().

import { message } from '../../ui/widget-base.js';

/** Their panels are laid out and painted on their own: a redraw inside one leaves the
 *  page's recorded paint around it alone (add after the widget's other CSS). */
export const FOLLOWER_CSS = `
.panel { contain: layout style; }
`;

const LOCK_MARKS = '[data-readonly-locked], [data-readonly-editable], [data-readonly-nested]';

// Which followers are within half a screen of the viewport (one observer for all; a
// follower not heard of yet counts as near).
const far = new WeakSet();
let watcher = null;
function watch(el) {
  if (typeof IntersectionObserver !== 'function') return;
  watcher ??= new IntersectionObserver((entries) => {
    for (const { target, isIntersecting } of entries) {
      if (isIntersecting) far.delete(target);
      else far.add(target);
    }
  }, { rootMargin: '50% 0px' });
  watcher.observe(el);
}

export const drawsInFrame = (Base) => class extends Base {
  #frame = 0;
  #drawn = false;

  connectedCallback() {
    super.connectedCallback();
    watch(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    watcher?.unobserve(this);
    far.delete(this);
  }

  refresh() {
    if (!this.core) return; // not loaded yet: the load draws it (widget-base.js)
    if (!this.#drawn || this.readonly || document.visibilityState === 'hidden'
      || this.shadowRoot.querySelector(LOCK_MARKS)) {
      super.refresh();
      return;
    }
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      if (far.has(this)) {
        setTimeout(() => this.#drawNow(), 0); // after this frame (see the top)
        return;
      }
      this.#drawNow();
    });
  }

  #drawNow() {
    this.#frame = 0;
    if (this.readonly) {
      super.refresh();
      return;
    }
    try {
      this.clearError(); // a corrected input takes its old message away
      this.render(this.core);
    } catch (err) {
      this.showError(message(err));
    }
    this.dispatchEvent(new CustomEvent('attn-rendered', { bubbles: true, composed: true }));
  }

  render(core) {
    super.render(core);
    this.#drawn = true;
  }
};
