// The `readonly` lock of a widget (widget-base.js): the numbers are shown, not changed.
// After every render every input, select, textarea and button of the shadow root is
// disabled and every <attn-matrix editable> loses `editable`, except controls that only
// change how numbers are shown (marked `data-view`, or inside such a wrapper). Explainable
// cells keep working: explaining a number is viewing it. The lock marks what it changed and
// undoes exactly that: a control the widget disabled itself stays disabled.

const CONTROLS = 'input, select, textarea, button';
const LOCKED = 'data-readonly-locked'; // a control the lock disabled
const GRID = 'data-readonly-editable'; // an <attn-matrix> the lock took `editable` from
const NESTED = 'data-readonly-nested'; // a widget inside this one that the lock made readonly

export class ReadonlyLock {
  #root;
  #isWidget;
  #used = false; // the lock has marked something: there may be marks to undo

  /** `root`: the widget's shadow root; `isWidget(el)`: whether `el` is a widget with a lock
   *  of its own (made readonly, not locked from outside). */
  constructor(root, isWidget) {
    this.#root = root;
    this.#isWidget = isWidget;
  }

  /** Enables again the controls the lock disabled (and only those): before each render, so
   *  render() sees (and sets) the widget's own disabled states. */
  unlock() {
    if (!this.#used) return;
    for (const el of this.#root.querySelectorAll(`[${LOCKED}]`)) {
      el.removeAttribute(LOCKED);
      el.disabled = false;
    }
  }

  /** Disables every control but the [data-view] ones and makes every grid read-only,
   *  marking what it changed. */
  apply() {
    this.#used = true;
    for (const el of this.#root.querySelectorAll(CONTROLS)) {
      if (el.disabled || el.closest('[data-view]')) continue;
      el.setAttribute(LOCKED, '');
      el.disabled = true;
    }
    for (const grid of this.#root.querySelectorAll('attn-matrix[editable]')) {
      if (grid.closest('[data-view]')) continue;
      grid.setAttribute(GRID, '');
      grid.removeAttribute('editable');
    }
    // A widget inside this one (note 6's <attn-variance>) is locked by its own lock.
    for (const inner of this.#root.querySelectorAll('*')) {
      if (!this.#isWidget(inner) || inner.hasAttribute('readonly')) continue;
      inner.setAttribute(NESTED, '');
      inner.setAttribute('readonly', '');
    }
  }

  /** Undoes every mark: the controls, the grids and the nested widgets get back what they had. */
  release() {
    if (!this.#used) return;
    this.unlock();
    for (const grid of this.#root.querySelectorAll(`attn-matrix[${GRID}]`)) {
      grid.removeAttribute(GRID);
      grid.setAttribute('editable', '');
    }
    for (const inner of this.#root.querySelectorAll(`[${NESTED}]`)) {
      inner.removeAttribute(NESTED);
      inner.removeAttribute('readonly');
    }
    this.#used = false;
  }
}
