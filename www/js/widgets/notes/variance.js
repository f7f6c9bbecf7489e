// <attn-variance>: the Var(q·k) ≈ d table, measured in the page on a click.
// q and k have d independent N(0, 1) entries; their dot product has variance d,
// and dividing by √d brings it back to 1. The experiment runs in a worker (see
// variance-worker.js), one d at a time, so the page stays responsive; without
// workers it runs one d per task on the main thread.
//
//   state: none (a measurement, not a setting); `running` is true while it measures

import '../../i18n/notes-strings.js';
import { AttnWidget, define, h } from '../../ui/widget-base.js';
import { formatFixed } from '../../ui/format.js';
import { fillStrings, k } from '../base/labels.js';
import { NOTE_WIDGET_CSS } from '../base/lesson-css.js';
import { fromOtherOrigin, viaBlob } from '../../core/cross-origin-worker.js';

const DIMS = [4, 16, 64, 256, 512];
const N = 20000;

class Variance extends AttnWidget {
  static tag = 'attn-variance';
  static css = `${NOTE_WIDGET_CSS}
    table.plain td { font-family: var(--_mono); font-variant-numeric: tabular-nums; }
    progress { width: 120px; accent-color: var(--_accent); }
    table.plain { table-layout: fixed; width: min(100%, 460px); }
    th { white-space: nowrap; }
    table.plain th, table.plain td { padding: 3px 8px; }
    .wrap { contain: layout paint; }`;

  #seed = 0;
  #rows = [];
  #running = false;
  #runId = 0;
  #worker = null;

  build(root) {
    this.button = h('button', { type: 'button', class: 'primary', onclick: () => this.run() });
    this.progress = h('progress', { max: DIMS.length, value: 0, hidden: true });
    this.status = h('span', { class: 'muted', role: 'status' });
    this.cells = DIMS.map(() => [h('td'), h('td'), h('td')]);
    this.body = h('tbody', {}, ...DIMS.map((d, i) => h('tr', { 'data-d': d }, h('td', {}, String(d)), ...this.cells[i])));
    this.table = h('table', { class: 'plain' },
      h('colgroup', {}, h('col', { style: 'width:56px' }), h('col'), h('col'), h('col')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'd'),
        k('th', 'b.var.unscaled', { scope: 'col' }), k('th', 'b.var.scaled', { scope: 'col' }),
        k('th', 'b.var.std', { scope: 'col' }))),
      this.body);
    root.append(
      k('h3', 'b.var.title'),
      h('div', { class: 'controls' }, this.button, this.progress, this.status),
      h('div', { class: 'scroll-x wrap' }, this.table),
      k('p', 'b.var.course', { class: 'muted', style: 'margin-top:6px' }),
    );
    this.render(); // it draws no number of the core: its final layout before the core arrives
  }

  get running() {
    return this.#running;
  }

  /** Measures every d (asynchronously); resolves when the table is complete. */
  run() {
    if (this.#running) return Promise.resolve();
    if (this.#rows.length) this.#seed += 1;
    this.#running = true;
    this.#rows = [];
    const id = ++this.#runId;
    this.refresh();
    return new Promise((resolve) => {
      const onRow = (msg) => {
        if (msg.id !== id) return;
        if (msg.row) this.#rows.push(msg.row);
        if (msg.error) this.showError(msg.error);
        if (msg.done || msg.error) {
          this.#running = false;
          resolve();
        }
        this.refresh();
      };
      this.#start(id, onRow);
    });
  }

  #start(id, onRow) {
    const job = { id, seed: this.#seed, dims: DIMS, n: N };
    try {
      this.#worker ??= fromOtherOrigin(import.meta.url)
        ? viaBlob(new URL('./variance-worker.js', import.meta.url).href) // the package from a CDN
        : new Worker(new URL('./variance-worker.js', import.meta.url), { type: 'module' });
      this.#worker.onmessage = (e) => onRow(e.data);
      this.#worker.postMessage(job);
    } catch {
      // No module workers: one d per task on the main thread.
      let i = 0;
      const step = () => {
        try {
          if (i < DIMS.length) {
            onRow({ id, row: this.core.varianceExperiment(this.#seed, new Uint32Array([DIMS[i++]]), N)[0] });
            setTimeout(step, 0);
          } else onRow({ id, done: true });
        } catch (e) {
          onRow({ id, error: String(e?.message ?? e) });
        }
      };
      setTimeout(step, 0);
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#worker?.terminate();
    this.#worker = null;
    this.#running = false;
  }

  render() {
    fillStrings(this.shadowRoot, (key) => this.t(key));
    const done = this.#rows.length;
    this.button.textContent = this.t(this.#running ? 'b.var.running' : done ? 'b.var.again' : 'b.var.run');
    this.button.disabled = this.#running;
    this.button.setAttribute('aria-busy', String(this.#running));
    this.progress.hidden = !this.#running;
    this.progress.value = done;
    this.status.textContent = this.#running
      ? this.t('b.var.progress', { done, total: DIMS.length, n: N.toLocaleString('en') })
      : done ? this.t('b.var.measured', { seed: this.#seed, n: N.toLocaleString('en') }) : this.t('b.var.idle');
    this.table.classList.toggle('busy', this.#running);
    // Only cell texts change (no new rows), in a fixed-layout table: each progress
    // message costs a few text nodes, not a relayout of the page.
    const blank = this.#running ? '…' : '–';
    DIMS.forEach((d, i) => {
      const r = this.#rows[i];
      const cells = this.cells[i];
      const values = r ? [formatFixed(r.var_unscaled, 2), formatFixed(r.var_scaled, 3), formatFixed(r.std_unscaled, 2)] : [blank, blank, blank];
      values.forEach((v, j) => { if (cells[j].textContent !== v) cells[j].textContent = v; });
    });
  }
}

define(Variance);
