// The base of the matrix-block lesson widgets, and their link to an <attn-head>: a widget
// with a `for` attribute reads that head's weights and redraws whenever it changes.
// No attention math here: numbers arrive from wasm and leave as text or colour.

import { AttnWidget } from '../../ui/widget-base.js';
import { adoptTex } from '../../ui/tex.js';
import { LESSON_WIDGET_CSS } from './lesson-css.js';

/** The state of the <attn-head> named by the widget's `for` attribute, or {} (the h/o/u head). */
export function linkedHead(widget) {
  const id = widget.getAttribute('for');
  const head = id ? document.getElementById(id) : null;
  if (!head || !head.core) return {};
  const s = head.state;
  return { x: s.x, W_q: s.W_q, W_k: s.W_k, W_v: s.W_v, causal: s.causal, scaled: s.scaled };
}

/** Re-renders `widget` whenever the head it is linked to (`for`) changes. */
export function followHead(widget) {
  const id = widget.getAttribute('for');
  if (!id) return () => {};
  const on = (e) => {
    if (e.target?.id === id) widget.refresh();
  };
  document.addEventListener('attn-change', on);
  document.addEventListener('attn-rendered', on);
  return () => {
    document.removeEventListener('attn-change', on);
    document.removeEventListener('attn-rendered', on);
  };
}

/**
 * Base of the matrix-block widgets: subclasses implement make(root), called once when
 * the widget is first connected, and draw(core) on every render.
 */
export class LessonWidget extends AttnWidget {
  static css = LESSON_WIDGET_CSS;

  // A widget with a `for` attribute follows that <attn-head> while connected:
  // it re-renders whenever the head changes (followHead; a no-op without `for`).
  connectedCallback() {
    super.connectedCallback();
    this._unfollow ??= followHead(this);
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._unfollow?.();
    this._unfollow = null;
  }

  build(root) {
    this.make(root);
    adoptTex(this.shadowRoot).catch(() => {});
  }

  render(core) {
    this.clearError();
    this.draw(core);
  }

  /** A change from the widget's own controls: `edit` changes a copy of the state, `keep`
   *  stores it; then the widget redraws and announces it (attn-change, the URL hash). */
  changeState(edit, keep) {
    const s = this.state;
    edit(s);
    keep(s);
    this.refresh();
    this.emitChange();
  }

  make() {}
  draw() {}
}
