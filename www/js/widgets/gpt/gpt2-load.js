// Opening a GPT-2 for <attn-gpt2>: its files, from the hub (gpt/hub.js) or picked or dropped
// by the learner, streamed into GPT-2's worker (gpt/gpt2-worker.js) chunk by chunk. The page
// never holds the weights: each chunk goes to the worker (transferred) and into the model.
// The core says what is wrong with a file (not GPT-2, truncated, no tokenizer…); this only
// finds the files by name and moves their bytes.
//
//   openModel(client, source, { signal, onStep }) → info (Gpt2Lab.config())
//     source = { hub, repo } | { files: [File] } | { folder: URL ending in / }
//     onStep({ phase: 'config' | 'download' | 'weights' | 'tokenizer', file?, loaded?, total?,
//              plan?, cached? })

import { openFile } from '../../gpt/hub.js';

const TOKENIZER = ['tokenizer.json', 'vocab.json', 'merges.txt'];
/** Chunks on their way to the worker at once: enough to keep it busy, few enough that a
 *  fast disk does not pile the file up in messages. */
const IN_FLIGHT = 4;
/** Bytes per chunk posted (a stream's own chunks are cut or joined to about this). */
const CHUNK = 4 << 20;

/** An Error the core's tables say (errorText), with `code` and `params`. */
function coded(code, params = {}) {
  return Object.assign(new Error(code), { code, params });
}

/** The files of a picked or dropped set, by their names (a folder's path dropped). */
function byName(files) {
  const map = new Map();
  for (const f of files) map.set(f.name, f);
  return map;
}

/** A source's file `name` as { body, size, text() } or null: a picked File, or the hub's
 *  (kept in the cache; `onProgress` while it downloads). */
async function fileOf(source, name, opts) {
  if (source.folder) { // a folder on a server (the `src` attribute), streamed, not kept
    const res = await fetch(new URL(name, source.folder), { signal: opts.signal });
    if (res.status === 404) return null;
    if (!res.ok) throw Object.assign(new Error(`${name}: HTTP ${res.status}`), { key: 'gpt2.httpError', params: { status: res.status, file: name } });
    const size = Number(res.headers.get('content-length')) || null;
    return { body: res.body, size, cached: false };
  }
  if (source.files) {
    const f = byName(source.files).get(name);
    return f ? { body: f.stream(), size: f.size, cached: false } : null;
  }
  return openFile(source.hub, source.repo, name, opts);
}

async function textOf(file) {
  return file ? new Response(file.body).text() : undefined;
}

/** Streams `body` (of `total` bytes, or unknown) to the worker in chunks of about CHUNK. */
async function streamWeights(client, body, total, { signal, onStep }) {
  const reader = body.getReader();
  const inFlight = [];
  let loaded = 0;
  let pending = [];
  let pendingBytes = 0;
  const post = async () => {
    const chunk = new Uint8Array(pendingBytes);
    let at = 0;
    for (const part of pending) {
      chunk.set(part, at);
      at += part.byteLength;
    }
    pending = [];
    pendingBytes = 0;
    inFlight.push(client.call('push', { chunk: chunk.buffer }, [chunk.buffer]));
    if (inFlight.length >= IN_FLIGHT) await inFlight.shift();
  };
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason ?? new DOMException('cancelled', 'AbortError');
      const { done, value } = await reader.read();
      if (done) break;
      pending.push(value);
      pendingBytes += value.byteLength;
      loaded += value.byteLength;
      if (pendingBytes >= CHUNK) await post();
      onStep?.({ phase: 'weights', loaded, total });
    }
    if (pendingBytes) await post();
    await Promise.all(inFlight);
  } catch (err) {
    reader.cancel().catch(() => {});
    await Promise.allSettled(inFlight);
    throw err;
  }
}

/** Opens `source`'s GPT-2 in the worker behind `client`; resolves to the model's info. */
export async function openModel(client, source, { signal, onStep } = {}) {
  const progress = (file) => (loaded, total) => onStep?.({ phase: 'download', file, loaded, total });
  const get = (name) => fileOf(source, name, { signal, onProgress: progress(name) });
  onStep?.({ phase: 'config' });
  const configFile = await get('config.json');
  if (!configFile) throw coded('gpt.hf.missing_file', { file: 'config.json' });
  const config = await textOf(configFile);
  const plan = await client.call('plan', { config }); // not GPT-2, too big: said before any download
  onStep?.({ phase: 'config', plan });
  // the tokenizer before the weights: a folder without one is refused before 500 MB come
  onStep?.({ phase: 'tokenizer' });
  const tokenizer = await textOf(await get(TOKENIZER[0]));
  let vocab;
  let merges;
  if (tokenizer === undefined) {
    vocab = await textOf(await get(TOKENIZER[1]));
    merges = await textOf(await get(TOKENIZER[2]));
    if (vocab === undefined || merges === undefined) throw coded('gpt.tokenizer.missing');
  }
  const weights = await get('model.safetensors');
  if (!weights) throw coded('gpt.hf.missing_file', { file: 'model.safetensors' });
  await client.call('begin', { config });
  try {
    await streamWeights(client, weights.body, weights.size, { signal, onStep });
    return await client.call('finish', { tokenizer, vocab, merges });
  } catch (err) {
    await client.call('abort').catch(() => {});
    throw err;
  }
}

/** The files of a drop: every file, and the files inside a dropped folder (one level). */
export async function droppedFiles(dataTransfer) {
  const entries = [...(dataTransfer.items ?? [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.some((e) => e.isDirectory)) return [...dataTransfer.files];
  const files = [];
  const fileOfEntry = (e) => new Promise((resolve, reject) => e.file(resolve, reject));
  for (const e of entries) {
    if (e.isFile) files.push(await fileOfEntry(e));
    else if (e.isDirectory) {
      const inner = await new Promise((resolve, reject) => e.createReader().readEntries(resolve, reject));
      for (const f of inner) if (f.isFile) files.push(await fileOfEntry(f));
    }
  }
  return files;
}
