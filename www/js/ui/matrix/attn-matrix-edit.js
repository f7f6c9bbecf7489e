// The typed side of <attn-matrix>: the text in each cell's input, the text last sent for
// it in a 'cell-edit' event, and the cells marked as not holding a number, whose newest
// message is the error line under the grid. Kept here, apart from the drawing, because
// a redraw must neither overwrite text being typed or marked wrong, nor send it again.

import { formatInput } from '../format.js';
import { setText } from './attn-matrix-table.js';

export class CellEdits {
  #cells = [];
  #inputs = [];
  #sent = [];
  #errors = new Map();
  #line;
  #lang;
  #send;

  /** `line`: the error line; `lang()`: the grid's language now; `send(i, text)`: tells
   *  the page that cell i now holds `text`. */
  constructor(line, lang, send) {
    this.#line = line;
    this.#lang = lang;
    this.#send = send;
  }

  /** A new heatmap (its cells, and their inputs if editable): no marks, nothing sent. */
  reset(cells, inputs) {
    this.#errors.clear();
    this.#cells = cells;
    this.#inputs = inputs;
    this.#sent = new Array(cells.length).fill(null);
    this.#line.textContent = '';
  }

  get marked() { return this.#errors.size > 0; }

  /** Puts `data`'s numbers into the inputs whose number changed from `old` (all of them
   *  without `old`), except the focused one (`active`) and the cells marked wrong: their
   *  text is the reader's. */
  refresh(data, old, active) {
    this.#inputs.forEach((input, i) => {
      const changed = !old || !Object.is(old[i], data[i]);
      if (changed && input !== active && !this.#errors.has(i)) this.#put(i, formatInput(data[i]));
    });
  }

  /** Every input shows its number of `data` again, whatever was typed there. */
  revert(data) {
    this.#inputs.forEach((input, i) => {
      const text = formatInput(data[i]);
      if (input.value !== text) this.#put(i, text);
    });
  }

  /** Text put in by the grid counts as sent: the page has its number already. */
  #put(i, text) {
    this.#inputs[i].value = text;
    this.#sent[i] = this.#inputs[i].value;
  }

  send(i) {
    const input = this.#inputs[i];
    this.#sent[i] = input.value;
    this.#send(i, input.value);
  }

  /** Sends cell i's text if it is not what was last sent (a commit by key). */
  sendChanged(i) {
    if (this.#inputs[i].value !== this.#sent[i]) this.send(i);
  }

  /** Escape: the input gets its number of `data` back (sent, as if typed) and selected. */
  restore(i, data) {
    const input = this.#inputs[i];
    input.value = formatInput(data[i]);
    this.send(i);
    input.select();
  }

  /** Marks cell i as not holding a number; `say(lang)` is the message. */
  mark(i, say) {
    this.#errors.delete(i);
    this.#errors.set(i, say);
    this.#paint(i);
  }

  unmark(i) {
    if (this.#errors.delete(i)) this.#paint(i);
  }

  /** Drops every mark; those cells' inputs get their number of `data` back. */
  unmarkAll(data) {
    const marked = [...this.#errors.keys()];
    this.#errors.clear();
    for (const i of marked) {
      this.#paint(i);
      if (this.#inputs[i]) this.#put(i, formatInput(data[i]));
    }
  }

  #paint(i) {
    const td = this.#cells[i];
    const bad = this.#errors.has(i);
    td.classList.toggle('invalid', bad);
    const target = this.#inputs[i] ?? td;
    if (bad) target.setAttribute('aria-invalid', 'true'); else target.removeAttribute('aria-invalid');
    this.showError();
  }

  /** The newest mark's message, in the grid's language, under the grid. */
  showError() {
    const say = [...this.#errors.values()].at(-1);
    setText(this.#line, say ? say(this.#lang()) : '');
  }
}
