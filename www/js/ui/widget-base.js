// AttnWidget: what every embeddable demonstration shares.
//
//   <attn-xyz lang="zh" readonly theme="dark"> … </attn-xyz>
//
// - Shadow DOM: the host page's CSS cannot break the widget, nor the widget the page.
//   Theming goes through the documented custom properties of widget-css.js.
// - The wasm core is loaded lazily, once for all widgets of a page (wasm.js), on the
//   first widget that connects; relative to the module's own URL (no absolute paths).
// - Attributes in (observed; changes re-render live), a bubbling, composed
//   `attn-change` CustomEvent out whose detail is the new `state`.
// - Bad attributes or inputs render a clear inline message inside the widget
//   (`showError`), never an exception in the host page.
// - Language: the `lang` attribute if set, else the page's (i18n.js), live-switched.
// - `readonly`: the numbers are shown, not changed (readonly.js locks the controls and
//   grids after every render, and lifts its own lock before the next one, so render()
//   always sees and sets the widget's own `disabled` states; a widget that sets
//   `editable` itself does so from `this.readonly`, as attn-head does). Mark controls that
//   only change how numbers are shown `data-view`. `static readonlyLock = false` opts a
//   widget out; by default the GPT trainer's widgets (attn-gpt-*) do, not being lessons.
//
// A subclass implements:
//   static tag, static attrs (its own observed attributes), static css (extra CSS)
//   build(root)       create its DOM once (root = the .body element), on the first
//                     connect: the subclass's fields (#x too) exist by then, and a widget
//                     moved or re-attached keeps its DOM and state (no second build).
//                     Attributes set before the connect are read by render().
//   render(core)      draw from attributes/state using the wasm exports in `core`
//   get state() / set state(s)   its serialisable state (for events and URL state)
//
// Loading without jumps or long tasks: build() should lay out the widget's final shape
// (placeholder cells of the final size) so the first render fills it in place instead of
// growing it. While a page loads, the widgets near the viewport are built at once (a page
// whose script is render-blocking paints them already at their size) and render first;
// the others are built, and then rendered, one per task (laterJob, schedule.js), so neither the
// upgrade nor the first drawing of a long page is one long main-thread task. Every
// widget still renders its first result by itself, scrolled to or not. A widget inside
// another one's shadow root, one connected after the page loaded and the GPT trainer's
// widgets (`static deferBuild = false`) are built at once. Reading or setting `state`
// builds a widget that has not been built yet.

import { loadCore } from '../core/wasm.js';
import { errorText, getLang, langChangedUnder, langOf, onLangChange, t } from '../i18n/i18n.js';
import { BASE_CSS, sheet } from './widget-css.js';
import { followScheme, unfollowScheme, updateSchemes } from './color-scheme.js';
import { ReadonlyLock } from './readonly.js';
import { laterJob, mayWait } from './schedule.js';

/** Keys typed into a field of a widget, or used by the widget, stay inside it. A host
 *  that reads keys from `document` sees the widget, not its field, as the active element
 *  (Shadow DOM), and would act on them: reveal.js turns the slide on an arrow, space or
 *  "f"; MkDocs Material opens its search on "s" or "/". */
function keepKeys(e) {
  const target = e.composedPath()[0];
  if (e.defaultPrevented || target.matches?.('input, textarea, select, [contenteditable]')) e.stopPropagation();
}

export class AttnWidget extends HTMLElement {
  static tag = '';
  static attrs = [];
  static css = '';
  /** Whether `readonly` locks the widget's controls and grids. The GPT trainer's
   *  widgets (attn-gpt-*) are not lessons and keep their own controls; any widget can
   *  opt out with `static readonlyLock = false`. */
  static get readonlyLock() {
    return !String(this.tag).startsWith('attn-gpt-');
  }
  /** Whether a widget far from the viewport may be built (and first rendered) in a later
   *  task while the page loads (see the top of this file). Not the GPT trainer's widgets:
   *  they start workers and read their DOM as they connect. */
  static get deferBuild() {
    return !String(this.tag).startsWith('attn-gpt-');
  }
  static get observedAttributes() {
    return ['lang', 'readonly', 'theme', ...this.attrs];
  }

  core = null;
  #body;
  #error;
  #pending = false;
  #offLang = null;
  #lock = null;
  #built = false;
  #later = false; // far from the viewport at load: its first build and render wait their turn

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet(BASE_CSS), sheet(this.constructor.css || '')];
    const frame = document.createElement('div');
    frame.className = 'frame';
    frame.setAttribute('part', 'frame');
    this.#error = document.createElement('p');
    this.#error.className = 'widget-error';
    this.#error.setAttribute('role', 'alert');
    this.#error.hidden = true;
    this.#body = document.createElement('div');
    this.#body.className = 'body';
    frame.append(this.#error, this.#body);
    root.append(frame);
    root.addEventListener('keydown', keepKeys);
    root.addEventListener('keypress', keepKeys);
  }

  connectedCallback() {
    followScheme(this); // its palette: its own theme, or that of the widget it sits in
    // Not in the constructor: a subclass's fields do not exist while the base
    // constructor runs.
    if (!this.#built && !this.#later) {
      if (this.constructor.deferBuild && mayWait(this)) {
        this.#later = true;
        laterJob(() => this.ensureBuilt());
      } else {
        this.ensureBuilt();
      }
    }
    // `state` set on the element before its class was defined (a page's script ahead of a
    // widget whose code loads later) sits on the element and hides the class's accessor:
    // set again through it.
    if (Object.hasOwn(this, 'state')) {
      const early = this.state;
      delete this.state;
      try {
        this.state = early;
      } catch (err) {
        this.showError(message(err));
      }
    }
    this.#offLang ??= onLangChange(() => {
      if (!this.hasAttribute('lang')) this.refresh();
    }, this);
    loadCore()
      .then((core) => {
        this.core = core;
        this.refresh();
      })
      .catch((err) => this.showError(this.t('w.loadFailed', { msg: message(err) })));
  }

  /** Builds the widget's DOM if it has not been built yet (once per widget). */
  ensureBuilt() {
    if (this.#built) return;
    this.#built = true;
    this.build(this.#body);
  }

  disconnectedCallback() {
    unfollowScheme(this);
    this.#offLang?.();
    this.#offLang = null;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (name === 'theme') updateSchemes(); // its own palette and that of the widgets inside it
    this.refresh();
    if (name === 'lang') langChangedUnder(this); // its grids, panels and nested widgets
  }

  /** The widget's language: its own `lang` attribute or that of a widget holding it,
   *  else the page's. */
  get language() {
    return langOf(this);
  }

  get readonly() {
    return this.hasAttribute('readonly');
  }

  /** A string from the tables in this widget's language. */
  t(key, vars) {
    return t(key, vars, this.language);
  }

  /** Re-renders soon, once for any number of calls; errors become the inline message.
   *  A task of its own (not a microtask): widgets that follow another widget render in
   *  separate tasks, so one edit never becomes one long main-thread task. */
  refresh() {
    if (!this.core || this.#pending) return;
    this.#pending = true;
    if (this.#later) {
      // The first render of a widget far from the viewport: in its turn, one per task.
      this.#later = false;
      laterJob(() => this.#draw());
    } else {
      setTimeout(() => this.#draw(), 0);
    }
  }

  #draw() {
    this.#pending = false;
    this.ensureBuilt();
    this.#lock?.unlock(); // render() sees (and sets) the widget's own disabled states
    try {
      this.clearError(); // a corrected attribute takes its old message away
      this.render(this.core);
    } catch (err) {
      this.showError(message(err));
    }
    if (this.readonly && this.constructor.readonlyLock) {
      this.#lock ??= new ReadonlyLock(this.shadowRoot, (el) => el instanceof AttnWidget);
      this.#lock.apply();
    } else {
      this.#lock?.release();
    }
    this.dispatchEvent(new CustomEvent('attn-rendered', { bubbles: true, composed: true }));
  }

  /** Tells the host the learner changed something: detail = the new state. */
  emitChange() {
    this.dispatchEvent(
      new CustomEvent('attn-change', { bubbles: true, composed: true, detail: this.state }),
    );
  }

  showError(text) {
    this.#error.textContent = text;
    this.#error.hidden = false;
  }

  clearError() {
    this.#error.textContent = '';
    this.#error.hidden = true;
  }

  /** Runs `fn`; on a thrown error shows it inline and returns undefined. */
  attempt(fn) {
    try {
      const value = fn();
      return value;
    } catch (err) {
      this.showError(message(err));
      return undefined;
    }
  }

  build() {}
  render() {}
  get state() {
    return {};
  }
  set state(_) {}
}

/** The text of an error thrown by wasm (JsError), JS or anything else; errors with a
 *  `code` (the core's number and GPT errors) are said in `lang` (default: the page's). */
export function message(err, lang) {
  return errorText(err, lang ?? getLang());
}

/** Registers a widget class; loading the module twice is harmless. */
export function define(cls) {
  if (customElements.get(cls.tag)) return;
  buildOnState(cls);
  customElements.define(cls.tag, cls);
}

/** Makes `state` (read or set) build a widget whose build is still waiting its turn. */
function buildOnState(cls) {
  for (let proto = cls.prototype; proto && proto !== HTMLElement.prototype; proto = Object.getPrototypeOf(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, 'state');
    if (!d) continue;
    Object.defineProperty(cls.prototype, 'state', {
      configurable: true,
      enumerable: d.enumerable,
      get() {
        this.ensureBuilt();
        return d.get?.call(this);
      },
      set(v) {
        this.ensureBuilt();
        d.set?.call(this, v);
      },
    });
    return;
  }
}

/**
 * Creates an element with attributes and children (strings become text nodes).
 * `style` is written through the CSSOM (el.style.cssText), never as an attribute: a
 * strict Content-Security-Policy (style-src 'self') blocks style="" attributes but
 * not CSSOM writes.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k === 'class') el.className = v;
    else if (k === 'style') el.style.cssText = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...children.flat().filter((c) => c != null));
  return el;
}
