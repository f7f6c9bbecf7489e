// <attn-gpt2>: GPT-2 (124 M parameters, or any GPT-2-family checkpoint) opened in the page.
// Open it from the Hugging Face hub (kept in the browser afterwards) or from its files; type a
// prompt and see its tokens, the next token's top 10, every head's attention at a glance;
// open a head to click its numbers (each explained from the forward pass's own values);
// switch heads off and see the next token change; measure what every head does; generate.
//
//   <attn-gpt2 repo="openai-community/gpt2" hub="https://huggingface.co" prompt="…">
//   attributes: repo (the hub's model id), hub (a server in the hub's layout: tests, mirrors),
//               src (a folder URL holding the files: opens it at once), prompt,
//               fixed (the host gives the model: no hub, file or kept-model choice shown)
//   el.startClient = (onEvent) => client   a host that starts GPT-2's worker itself (the
//               notebook's GptInspect: a client of GptClient's shape, { call, terminate })
//   el.state → { status, info, prompt, tokens, probs, selected, off, heads }   (tests)
//   data-status: closed | opening | open | failed (the model); data-attempt: open | failed
//   (the last open, done: a failed one leaves the model opened before open)
//
// The weights live in GPT-2's worker (gpt/gpt2-worker.js); every number is the core's.

import { AttnWidget, define, h, message } from '../../ui/widget-base.js';
import { addStrings } from '../../i18n/i18n.js';
import GPT_STRINGS from '../../i18n/gpt.js';
import GPT2_STRINGS from '../../i18n/gpt2.js';
import { formatGrouped, showChar } from '../../ui/format.js';
import { GptClient } from '../../gpt/client.js';
import { HUB, canKeep, forget, keptModels } from '../../gpt/hub.js';
import { droppedFiles, openModel } from './gpt2-load.js';
import { headMaps } from './gpt2-maps.js';
import '../../ui/matrix/attn-matrix.js';
import '../explain/attn-explain.js';
import './gpt-heads.js';

addStrings(GPT_STRINGS);
addStrings(GPT2_STRINGS);

const DEFAULT_REPO = 'openai-community/gpt2';
const DEFAULT_PROMPT = 'The cat sat on the mat. The dog sat on the log. The cat sat on the';
/** Tokens of one head drawn with their numbers at once (a window over a longer prompt). */
const WINDOW = 24;

const mb = (bytes) => (bytes == null ? '?' : `${formatGrouped(bytes / 2 ** 20, 1)} MB`);

class AttnGpt2 extends AttnWidget {
  static tag = 'attn-gpt2';
  static attrs = ['repo', 'hub', 'src', 'prompt'];
  static readonlyLock = false;
  static deferBuild = false;
  static css = `
    [hidden] { display: none !important; }
    :host([fixed]) .open > :not(.progress, .msg) { display: none !important; }
    label.col { display: flex; flex-direction: column; align-items: stretch; gap: 4px; text-align: start; }
    .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
    .row input[type="text"] { flex: 1 1 14rem; min-width: 0; font-family: var(--_mono); }
    textarea { width: 100%; box-sizing: border-box; font-family: var(--_mono); min-height: 3.2rem; }
    .drop { border: 2px dashed var(--_line); border-radius: 10px; padding: 10px 12px; margin: 10px 0; }
    .drop.over { border-color: var(--_accent); background: var(--_accent-soft); }
    .progress { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; margin: 8px 0; }
    .progress progress { flex: 1 1 12rem; }
    .kept ul { list-style: none; padding: 0; margin: 4px 0; display: grid; gap: 4px; }
    .kept li { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; }
    .pieces { display: flex; flex-wrap: wrap; gap: 3px; margin: 6px 0; font-family: var(--_mono); font-size: .85rem; }
    .pieces span { background: var(--_accent-soft); border-radius: 4px; padding: 1px 4px; white-space: pre; }
    .probs { list-style: none; padding: 0; margin: 4px 0 0; display: grid; gap: 2px; max-width: 34rem; }
    .probs li { display: grid; grid-template-columns: 7rem 1fr 3.6rem 3.6rem; gap: 8px; align-items: center; font-size: .85rem; }
    .probs .tok { font-family: var(--_mono); white-space: pre; overflow: hidden; text-overflow: ellipsis;
      background: var(--_accent-soft); border-radius: 4px; padding: 0 4px; }
    .probs .bar { height: .8rem; background: var(--_accent); border-radius: 3px; min-width: 1px; }
    .probs .p { font-family: var(--_mono); text-align: right; font-variant-numeric: tabular-nums; }
    .maps { display: grid; grid-template-columns: 1.4rem repeat(var(--heads, 12), minmax(0, 3rem)); gap: 3px;
      max-width: 100%; overflow-x: auto; margin: 6px 0; }
    .maps .col, .maps .row { font-size: .7rem; color: var(--_muted); text-align: center; align-self: center; }
    .maps button.map { padding: 0; border: 1px solid var(--_line); border-radius: 3px; background: var(--_bg);
      aspect-ratio: 1; min-width: 0; min-height: 0; }
    .maps button.map canvas { width: 100%; height: 100%; display: block; image-rendering: pixelated; }
    .maps button.map[aria-pressed="true"] { outline: 3px solid var(--_fg); outline-offset: 1px; }
    .maps button.map.off { opacity: .35; border-style: dashed; }
    .detail { margin: 8px 0; padding: 8px 10px; border-radius: 8px; background: var(--_accent-soft); }
    .detail attn-matrix { --attn-cell-w: 1.75rem; --attn-cell-h: 1.45rem; max-width: 100%; overflow-x: auto; }
    .detail attn-matrix::part(cell) { font-size: .6rem; }
    .gen { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin-top: 8px; }
    .gen input[type="number"] { width: 5.2rem; }
    pre.out { white-space: pre-wrap; overflow-wrap: anywhere; min-height: 2.5rem; margin: 8px 0 0; padding: 8px 10px;
      border-radius: 8px; background: var(--_accent-soft); font-size: .85rem; }
    .click-hint { font-weight: 600; }
    .view { border: 0; padding: 0; margin: 6px 0; gap: 4px 16px; }
    .view legend { float: left; margin-right: 8px; font-size: .9rem; font-weight: 600; }
    h4 { margin: 14px 0 4px; }
  `;

  #client = null;
  #status = 'closed'; // closed | opening | open | failed
  #info = null;
  #abort = null;
  #err = null;
  #phase = null; // the loading step to say
  #run = null; // the last attention result
  #prompt = '';
  #baseline = null; // { prompt, probs } with every head on
  #selected = null; // { layer, head }
  #start = 0; // the first token of the head's window
  #view = 'weights'; // what the head's window draws: weights | scores
  #asked = null; // the last cell explained: { row, col, kind }
  #heads = null;
  #opened = 0; // ms from choosing the files to the first drawn head
  #seed = 1;

  build(root) {
    const u = (this.ui = {});
    const t = (key) => ({ 'data-t': key });
    u.repo = h('input', { type: 'text', value: DEFAULT_REPO, spellcheck: false, autocomplete: 'off',
      onkeydown: (e) => { if (e.key === 'Enter') this.openHub(); } });
    u.openHub = h('button', { type: 'button', class: 'primary', ...t('gpt2.openHub'), onclick: () => this.openHub() });
    u.hubNote = h('p', { class: 'muted' });
    u.files = h('input', { type: 'file', multiple: true, onchange: () => this.openFiles([...u.files.files]) });
    u.drop = h('div', { class: 'drop' }, h('label', { class: 'col' },
      h('span', {}, h('strong', t('gpt2.pick')), ' ', h('span', t('gpt2.pickWhat'))), u.files));
    u.drop.addEventListener('dragover', (e) => { e.preventDefault(); u.drop.classList.add('over'); });
    u.drop.addEventListener('dragleave', () => u.drop.classList.remove('over'));
    u.drop.addEventListener('drop', async (e) => {
      e.preventDefault();
      u.drop.classList.remove('over');
      this.openFiles(await droppedFiles(e.dataTransfer));
    });
    u.bar = h('progress', { max: 1, value: 0 });
    u.phase = h('span', { role: 'status' });
    u.cancel = h('button', { type: 'button', ...t('gpt2.cancel'), onclick: () => this.#abort?.abort() });
    u.progress = h('div', { class: 'progress', hidden: true }, u.bar, u.phase, u.cancel);
    u.msg = h('p', { class: 'msg bad', role: 'alert', hidden: true });
    u.keptList = h('ul');
    u.kept = h('div', { class: 'kept' }, h('h4', t('gpt2.kept')), u.keptList);
    u.open = h('section', { class: 'open' }, h('p', t('gpt2.intro')),
      h('label', { class: 'col' }, h('span', t('gpt2.repo')), h('div', { class: 'row' }, u.repo, u.openHub)),
      u.hubNote, u.drop, u.progress, u.msg, u.kept);

    u.summary = h('p', { class: 'summary', role: 'status' });
    u.prompt = h('textarea', { spellcheck: false, rows: 2 });
    u.prompt.value = DEFAULT_PROMPT;
    u.run = h('button', { type: 'button', class: 'primary', ...t('gpt2.run'), onclick: () => this.run() });
    u.promptLabel = h('span');
    u.busy = h('p', { class: 'muted', role: 'status' });
    u.piecesTitle = h('p', { class: 'muted' });
    u.pieces = h('div', { class: 'pieces' });
    u.nextNote = h('p', { class: 'muted', hidden: true });
    u.probs = h('ol', { class: 'probs' });
    u.maps = headMaps(this, {
      label: (l, hd, off) => this.t(off ? 'gpt2.headOff' : 'gpt2.head', { l: l + 1, h: hd + 1 }),
      onPick: (l, hd) => this.#openHead(l, hd),
    });
    u.headTitle = h('p', { class: 'title' });
    u.switch = h('input', { type: 'checkbox', onchange: () => this.#switchHead(u.switch.checked) });
    u.windowNote = h('span', { class: 'muted' });
    u.window = h('input', { type: 'range', min: 0, max: 0, value: 0,
      oninput: () => { this.#start = Number(u.window.value); this.#drawHead(); } });
    u.windowRow = h('div', { class: 'row', hidden: true }, u.window, u.windowNote);
    u.matrix = h('attn-matrix', { palette: 'weights', explainable: '', matrix: 'weights' });
    u.views = ['weights', 'scores'].map((v) => h('input', { type: 'radio', name: 'gpt2-view', value: v,
      checked: v === 'weights', onchange: () => { this.#view = v; u.explain.explanation = null; this.#drawHead(); } }));
    u.view = h('fieldset', { class: 'row view' }, h('legend', t('gpt.view')),
      ...u.views.map((input) => h('label', {}, input, h('span', t(`gpt.view.${input.value}`)))));
    u.explain = h('attn-explain');
    u.allTerms = h('button', { type: 'button', hidden: true, onclick: () => this.#explain(this.#asked, true) });
    u.clickHint = h('p', { class: 'click-hint' });
    u.detail = h('div', { class: 'detail', hidden: true }, u.headTitle,
      h('label', {}, u.switch, h('span', t('gpt2.switchOff'))), u.view, u.windowRow, u.clickHint, u.matrix, u.explain, u.allTerms);
    u.offList = h('p', { role: 'status' });
    u.allOn = h('button', { type: 'button', ...t('gpt2.allOn'), onclick: () => this.#allOn() });
    u.offRow = h('div', { class: 'row', hidden: true }, u.offList, u.allOn);
    root.addEventListener('cell-explain', (e) => this.#explain(e.detail));
    u.measure = h('button', { type: 'button', ...t('gpt2.measure'), onclick: () => this.measureHeads() });
    u.heads = h('attn-gpt-heads', { variant: 'gpt2', hidden: true });
    root.addEventListener('gpt-head-open', (e) => {
      e.stopPropagation();
      u.prompt.value = e.detail.prompt;
      this.run().then(() => this.#openHead(e.detail.layer, e.detail.head));
    });
    u.n = h('input', { type: 'number', min: 1, max: 200, value: 20 });
    u.temp = h('input', { type: 'number', min: 0.05, max: 5, step: 0.05, value: 0.8 });
    u.greedy = h('input', { type: 'checkbox', onchange: () => { u.temp.disabled = u.greedy.checked; } });
    u.gen = h('button', { type: 'button', ...t('gpt.generate'), onclick: () => this.generate() });
    u.out = h('pre', { class: 'out', 'aria-live': 'polite' });
    const lab = (key, input) => h('label', {}, h('span', t(key)), input);
    u.model = h('section', { class: 'model', hidden: true }, u.summary,
      h('label', { class: 'col' }, u.promptLabel, u.prompt), h('div', { class: 'row' }, u.run, h('span', { class: 'muted' }, h('span', t('gpt2.repeatExample')))),
      u.busy, u.piecesTitle, u.pieces,
      h('h4', t('gpt2.next')), u.nextNote, u.probs,
      h('h4', t('gpt2.maps')), h('p', { class: 'muted', ...t('gpt2.mapsNote') }), u.maps.el, u.offRow, u.detail,
      h('h4', t('gpt2.headsTitle')), h('p', { class: 'muted', ...t('gpt2.headsNote') }), u.measure, u.heads,
      h('h4', t('gpt2.genTitle')),
      h('div', { class: 'gen' }, lab('gpt2.genN', u.n), lab('gpt.temperature', u.temp), lab('gpt.greedy', u.greedy), u.gen),
      u.out);
    root.append(u.open, u.model);
    this.#listKept();
  }

  render() {
    const u = this.ui;
    if (this.hasAttribute('repo') && !u.repo.dataset.typed) u.repo.value = this.getAttribute('repo');
    u.repo.oninput = () => { u.repo.dataset.typed = '1'; };
    if (this.hasAttribute('prompt') && !this.#run) u.prompt.value = this.getAttribute('prompt');
    for (const node of this.shadowRoot.querySelectorAll('[data-t]')) node.textContent = this.t(node.dataset.t);
    u.clickHint.textContent = this.t(matchMedia('(hover: none)').matches ? 'gpt.tapHint' : 'gpt.clickHint');
    u.hubNote.textContent = canKeep() ? this.t('gpt2.hubNote', { files: 'config.json, tokenizer.json, model.safetensors' })
      : this.t('gpt2.hubNoteNoKeep');
    u.promptLabel.textContent = this.t('gpt2.prompt', { max: this.#info?.max_tokens ?? 256 });
    this.#paintPhase();
    this.#paintError();
    this.#paintSummary();
    if (this.#run) this.#paintRun();
    this.#listKept();
    const src = this.getAttribute('src');
    if (src && this.#status === 'closed') this.openUrl(src);
  }

  get state() {
    const r = this.#run;
    return { status: this.#status, info: this.#info, prompt: this.#prompt, tokens: r?.tokens ?? [], ids: r?.ids ?? [],
      probs: r?.probs ?? [], baseline: this.#baseline?.probs ?? null, selected: this.#selected,
      off: this.#offHeads(), heads: this.#heads, openedMs: this.#opened, error: this.#errorText() };
  }

  /** The client of GPT-2's worker, started on first use (and again after a crash). */
  #worker() {
    const onEvent = (e) => {
      if (e.event === 'stopped' && e.reason === 'crashed') this.#crashed();
    };
    this.#client ??= this.startClient?.(onEvent) ?? new GptClient(onEvent, { gpt2: true });
    return this.#client;
  }

  #crashed() {
    this.#client?.terminate();
    this.#client = null;
    this.#info = null;
    this.#status = 'failed';
    this.#err = { key: 'gpt2.crashed' };
    this.ui.model.hidden = true;
    this.#paintError();
  }

  openHub() {
    const repo = this.ui.repo.value.trim() || DEFAULT_REPO;
    return this.#open({ hub: this.getAttribute('hub') || HUB, repo });
  }

  openFiles(files) {
    if (files.length) return this.#open({ files });
  }

  /** A folder URL (`src`): its files streamed from there, not kept. */
  openUrl(src) {
    const url = new URL(src, document.baseURI);
    const base = url.href.replace(/\/?$/, '/');
    return this.#open({ folder: base });
  }

  async #open(source) {
    if (this.#status === 'opening') return;
    const t0 = performance.now();
    this.#status = 'opening';
    delete this.dataset.attempt;
    this.#err = null;
    this.#abort = new AbortController();
    this.ui.progress.hidden = false;
    this.#setPhase({ phase: 'config' });
    this.#paintError();
    try {
      this.#info = await openModel(this.#worker(), source, { signal: this.#abort.signal, onStep: (s) => this.#setPhase(s) });
      this.#status = 'open';
      this.#info.name = source.repo ?? source.folder ?? 'GPT-2';
      this.ui.model.hidden = false;
      this.#baseline = null;
      this.#heads = null;
      this.ui.heads.hidden = true;
      await this.run();
      this.#opened = performance.now() - t0;
      this.#paintSummary();
      this.ui.promptLabel.textContent = this.t('gpt2.prompt', { max: this.#info.max_tokens });
      this.dataset.status = 'open';
      this.dataset.attempt = 'open';
    } catch (err) {
      this.#status = this.#info ? 'open' : 'failed';
      // a cancel surfaces as whatever the read in progress threw (an AbortError, Cache.put's error)
      this.#err = this.#abort.signal.aborted ? { key: 'gpt2.cancelled' }
        : err instanceof TypeError ? { key: 'gpt2.network', params: { msg: err.message } } : err;
      if (err?.crashed) this.#crashed();
      // nothing kept of a download that did not finish, nor of files the core refused
      // (a model that did not fit in memory stays kept: it opens in another tab)
      if (source.hub) {
        const kept = (await keptModels().catch(() => [])).find((m) => m.hub === source.hub && m.repo === source.repo);
        const refused = typeof err?.code === 'string' && err.code !== 'gpt.hf.out_of_memory';
        if (kept && (!kept.complete || refused)) await forget(source.hub, source.repo).catch(() => {});
      }
      this.dataset.status = this.#status;
      this.dataset.attempt = 'failed'; // a model opened before stays open
    } finally {
      this.#abort = null;
      this.ui.progress.hidden = true;
      this.#phase = null;
      this.#paintError();
      this.#listKept();
    }
  }

  #setPhase(step) {
    if (step.phase === 'config' && step.plan) this.#phase = { ...step, plan: step.plan };
    else this.#phase = { ...this.#phase, ...step };
    this.#paintPhase();
  }

  #paintPhase() {
    const p = this.#phase;
    const u = this.ui;
    if (!p) return;
    const parts = [];
    if (p.plan) {
      parts.push(this.t('gpt2.phase.plan', { name: this.ui.repo.value, layers: p.plan.n_layer, heads: p.plan.n_head,
        params: formatGrouped(p.plan.params), mb: formatGrouped(p.plan.memory_mb) }));
    }
    if (p.phase === 'download' || p.phase === 'weights') {
      parts.push(this.t(`gpt2.phase.${p.phase}`, { file: p.file, loaded: mb(p.loaded), total: mb(p.total) }));
      u.bar.max = p.total || 1;
      u.bar.value = p.total ? p.loaded : 0;
      if (!p.total) u.bar.removeAttribute('value');
    } else {
      parts.push(this.t(`gpt2.phase.${p.phase}`));
    }
    u.phase.textContent = parts.join(' ');
    this.dataset.phase = p.phase;
  }

  /** The error shown, in the widget's language: a key of the tables, or the core's. */
  #errorText() {
    const err = this.#err;
    return !err ? '' : err.key ? this.t(err.key, err.params ?? err) : message(err, this.language);
  }

  #paintError() {
    this.ui.msg.hidden = !this.#err;
    this.ui.msg.textContent = this.#errorText();
  }

  #paintSummary() {
    const i = this.#info;
    if (!i) return;
    this.ui.summary.textContent = this.t('gpt2.opened', { name: i.name, layers: i.n_layer, heads: i.n_head, width: i.n_embd,
      params: formatGrouped(i.params), gelu: i.gelu === 'tanh' ? 'tanh (gelu_new)' : 'erf', secs: formatGrouped(this.#opened / 1000, 1) });
  }

  async #listKept() {
    const models = (await keptModels().catch(() => [])).filter((m) => m.complete);
    const hub = this.getAttribute('hub') || HUB;
    this.ui.kept.hidden = !canKeep();
    this.ui.keptList.replaceChildren(...(models.length ? models.map((m) => h('li', { 'data-repo': m.repo },
      h('span', {}, this.t('gpt2.keptItem', { repo: m.hub === HUB ? m.repo : `${m.repo} (${m.hub})`, size: mb(m.bytes) })),
      h('button', { type: 'button', onclick: () => { this.ui.repo.value = m.repo; this.#open({ hub: m.hub, repo: m.repo }); } },
        this.t('gpt2.openKept')),
      h('button', { type: 'button', onclick: async () => { await forget(m.hub, m.repo); this.#listKept(); } }, this.t('gpt2.delete'))))
      : [h('li', { class: 'muted' }, this.t('gpt2.keptNone'))]));
    this.dataset.kept = String(models.filter((m) => m.hub === hub).length);
  }

  /** Runs the prompt: its tokens, the next token, every head. */
  async run() {
    if (this.#status !== 'open' || !this.#client) return;
    const prompt = this.ui.prompt.value;
    const off = this.#offHeads();
    this.ui.busy.textContent = this.t('gpt2.running', { n: '…', layers: this.#info.n_layer });
    try {
      if (off.length && this.#baseline?.prompt !== prompt) {
        // the next token with every head on, for the comparison: off, run, and back
        await this.#client.call('clearAblated');
        this.#baseline = { prompt, probs: (await this.#client.call('attention', { prompt })).probs };
        for (const [layer, head] of off) this.#info = await this.#client.call('ablate', { layer, head, off: true });
      }
      const a = await this.#client.call('attention', { prompt });
      if (!off.length) this.#baseline = { prompt, probs: a.probs };
      this.#run = a;
      this.#prompt = prompt;
      this.#err = null;
      this.#paintRun();
      this.dataset.tokens = String(a.tokens.length);
      this.dataset.runs = String(Number(this.dataset.runs ?? 0) + 1);
    } catch (err) {
      this.#err = err;
      if (err?.crashed) this.#crashed();
    } finally {
      this.ui.busy.textContent = '';
      this.#paintError();
    }
  }

  #paintRun() {
    const a = this.#run;
    const u = this.ui;
    const full = this.#info.max_tokens;
    u.piecesTitle.textContent = this.t('gpt2.pieces', { n: a.tokens.length }) + (a.tokens.length >= full ? ` ${this.t('gpt2.cut', { max: full, n: '…' })}` : '');
    u.pieces.replaceChildren(...a.tokens.map((p, i) => h('span', { title: `#${i} id ${a.ids[i]}` }, [...p].map(showChar).join(''))));
    const off = this.#offHeads();
    const base = off.length && this.#baseline?.prompt === this.#prompt ? this.#baseline.probs : null;
    u.nextNote.hidden = !base;
    u.nextNote.textContent = base ? this.t('gpt2.nextOff', { n: off.length }) : '';
    const pOf = (probs, id) => probs?.find((q) => q.id === id)?.p;
    u.probs.replaceChildren(...a.probs.map(({ char, id, p }) => {
      const pct = (x) => (x == null ? '–' : `${(x * 100).toFixed(1)} %`);
      return h('li', { 'data-id': id },
        h('span', { class: 'tok', title: JSON.stringify(char) }, [...char].map(showChar).join('')),
        h('span', { class: 'bar', style: `width: ${(p * 100).toFixed(1)}%` }),
        h('span', { class: 'p base' }, base ? pct(pOf(base, id)) : ''),
        h('span', { class: 'p' }, pct(p)));
    }));
    u.maps.paint(a, this.#info.ablated);
    const offText = off.map(([l, hd]) => `L${l + 1}H${hd + 1}`).join(', ');
    u.offRow.hidden = !off.length;
    u.offList.textContent = off.length ? this.t('gpt2.offList', { list: offText }) : '';
    if (this.#selected) this.#drawHead();
  }

  /** [layer, head] of every head switched off. */
  #offHeads() {
    const i = this.#info;
    if (!i) return [];
    return i.ablated.flatMap((o, k) => (o ? [[Math.floor(k / i.n_head), k % i.n_head]] : []));
  }

  #openHead(layer, head) {
    if (!this.#run) return;
    this.#selected = { layer, head };
    this.ui.maps.select(layer, head);
    const t = this.#run.tokens.length;
    this.#start = Math.max(0, t - WINDOW);
    this.ui.window.max = String(Math.max(0, t - WINDOW));
    this.ui.window.value = String(this.#start);
    this.ui.windowRow.hidden = t <= WINDOW;
    this.ui.detail.hidden = false;
    this.ui.explain.explanation = null;
    this.#drawHead();
  }

  /** The selected head's window of WINDOW tokens, its numbers drawn. */
  #drawHead() {
    const { layer, head } = this.#selected;
    const a = this.#run;
    const u = this.ui;
    const scores = this.#view === 'scores';
    const grid = (scores ? a.scores : a.layers)[layer][head];
    const t = grid.rows;
    const s = Math.min(this.#start, Math.max(0, t - WINDOW));
    const n = Math.min(WINDOW, t);
    const data = new Float32Array(n * n);
    const masked = a.masked ? [] : null;
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        data[r * n + c] = grid.data[(s + r) * t + (s + c)];
        masked?.push(a.masked[(s + r) * t + (s + c)]);
      }
    }
    const labels = a.tokens.slice(s, s + n).map((p) => [...p].map(showChar).join(''));
    const isOff = Boolean(this.#info.ablated[layer * this.#info.n_head + head]);
    u.headTitle.textContent = this.t(isOff ? 'gpt2.headOff' : 'gpt2.head', { l: layer + 1, h: head + 1 });
    u.switch.checked = isOff;
    u.windowNote.textContent = this.t('gpt2.window', { from: s + 1, to: s + n, n: t });
    u.window.setAttribute('aria-label', u.windowNote.textContent);
    u.matrix.setAttribute('label', `L${layer + 1} H${head + 1}${scores ? ' q·k/√hs' : ''}`);
    u.matrix.setAttribute('palette', scores ? 'signed' : 'weights');
    u.matrix.setAttribute('matrix', scores ? 'masked_scores' : 'weights');
    u.allTerms.hidden = true;
    u.matrix.rowLabels = labels;
    u.matrix.colLabels = labels;
    u.matrix.value = { rows: n, cols: n, data, masked };
    u.matrix.dataset.start = String(s);
    u.explain.tokens = a.tokens.map((p) => [...p].map(showChar).join(''));
  }

  /** Explains the cell (row, col) of the head's window: a weight (the softmax of its row's
   *  scores) or a score (q·k/√hs: its largest terms, or all of them with `all`). */
  async #explain({ row, col } = {}, all = false) {
    if (!this.#selected || !this.#run) return;
    const u = this.ui;
    const s = Number(u.matrix.dataset.start ?? 0);
    const { layer, head } = this.#selected;
    const scores = this.#view === 'scores';
    const masked = scores && u.matrix.value?.data[row * u.matrix.value.cols + col] === -Infinity;
    const kind = scores ? (masked ? 'masked_scores' : 'scores') : 'weights';
    const hs = this.#info.n_embd / this.#info.n_head;
    this.#asked = { row, col };
    try {
      const ex = await this.#client.call('explain', { prompt: this.#prompt, layer, head, kind, row: row + s, col: col + s,
        maxTerms: all ? hs : undefined });
      u.explain.explanation = ex;
      u.allTerms.hidden = kind !== 'scores' || all;
      u.allTerms.textContent = this.t('gpt2.allTerms', { n: hs });
      this.#err = null;
    } catch (err) {
      this.#err = err;
    }
    this.#paintError();
  }

  async #switchHead(off) {
    const { layer, head } = this.#selected;
    this.#info = { ...this.#info, ...(await this.#client.call('ablate', { layer, head, off })) };
    await this.run();
  }

  async #allOn() {
    this.#info = { ...this.#info, ...(await this.#client.call('clearAblated')) };
    await this.run();
  }

  async measureHeads() {
    if (this.#status !== 'open') return;
    const u = this.ui;
    u.measure.disabled = true;
    u.busy.textContent = this.t('gpt2.measuring', { heads: this.#info.n_layer * this.#info.n_head });
    try {
      this.#heads = await this.#client.call('heads');
      u.heads.clear();
      u.heads.hidden = false;
      u.heads.show(0, this.#heads);
      this.dataset.heads = 'measured';
    } catch (err) {
      this.#err = err;
      this.#paintError();
    } finally {
      u.measure.disabled = false;
      u.busy.textContent = '';
    }
  }

  async generate() {
    if (this.#status !== 'open') return;
    const u = this.ui;
    const greedy = u.greedy.checked;
    const temperature = greedy ? 0 : Number(u.temp.value);
    if (!greedy && !(temperature > 0)) {
      this.#err = { key: 'gpt.badTemperature' };
      this.#paintError();
      return;
    }
    const n = Math.max(1, Math.min(200, Math.trunc(Number(u.n.value)) || 20));
    u.gen.disabled = true;
    u.out.textContent = this.t('gpt2.generating');
    try {
      const text = await this.#client.call('generate', { prompt: u.prompt.value, n, temperature, topK: 0, seed: this.#seed++ });
      u.out.textContent = u.prompt.value + text;
      this.dataset.generated = String(text.length);
      this.#err = null;
    } catch (err) {
      u.out.textContent = '';
      this.#err = err;
    } finally {
      u.gen.disabled = false;
      this.#paintError();
    }
  }
}

define(AttnGpt2);
