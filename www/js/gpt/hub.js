// GPT-2's files from the Hugging Face hub (or any server in its layout:
// <hub>/<repo>/resolve/main/<file>), kept in the browser's Cache API so that the next visit
// opens the model offline. A file is kept only once it has come in whole: a cancelled or
// broken download leaves nothing behind (Cache.put of a stream that errors stores nothing).
//
//   openFile(hub, repo, name, { signal, onProgress }) → { body: ReadableStream, size, cached }
//                                                        or null (the server has no such file)
//   keptModels()                          → [{ hub, repo, files: [name], bytes, complete }]
//                                           (complete: config.json and model.safetensors kept)
//   forget(hub, repo)                     deletes a kept model's files
//   canKeep()                             false where the Cache API is missing (plain http)

export const HUB = 'https://huggingface.co';
const CACHE = 'attention-playground-gpt2';
const PATH = '/resolve/main/';

/** The URL of `name` in `repo` on `hub`. */
export function fileUrl(hub, repo, name) {
  return `${hub.replace(/\/+$/, '')}/${repo}${PATH}${name}`;
}

export function canKeep() {
  return typeof caches !== 'undefined';
}

/** A response's size in bytes: the hub says it in Content-Length, or X-Linked-Size for a
 *  file it redirects to its storage. null when neither is given. */
function sizeOf(res) {
  const n = Number(res.headers.get('content-length') ?? res.headers.get('x-linked-size'));
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** `name` of `repo`: kept, or downloaded (`onProgress(bytes)` as it comes) into the cache
 *  and then read from it, so the page never holds a download and the model's weights at
 *  once. Without the Cache API the download is the stream. null when the server has no
 *  such file. */
export async function openFile(hub, repo, name, { signal, onProgress } = {}) {
  const url = fileUrl(hub, repo, name);
  const cache = canKeep() ? await caches.open(CACHE) : null;
  const kept = await cache?.match(url);
  if (kept) return { body: kept.body, size: sizeOf(kept), cached: true };
  const res = await fetch(url, { signal });
  if (res.status === 404) return null;
  if (!res.ok || !res.body) throw Object.assign(new Error(`${url}: HTTP ${res.status}`), { key: 'gpt2.httpError', params: { status: res.status, file: name } });
  const size = sizeOf(res);
  if (!cache) return { body: res.body, size, cached: false };
  let got = 0;
  const counted = res.body.pipeThrough(new TransformStream({
    transform(chunk, out) {
      got += chunk.byteLength;
      onProgress?.(got, size);
      out.enqueue(chunk);
    },
  }), { signal });
  const headers = { 'content-type': res.headers.get('content-type') ?? 'application/octet-stream',
    'content-length': String(size ?? '') };
  // stored only once the whole body has come: a cancel errors the stream and stores nothing
  await cache.put(url, new Response(counted, { headers }));
  if (size && got !== size) { // a server that lied about the length: keep nothing
    await cache.delete(url);
    throw Object.assign(new Error(`${url}: ${got} of ${size} bytes`), { key: 'gpt2.network', params: { msg: `${got} of ${size} bytes` } });
  }
  const stored = await cache.match(url);
  return { body: stored.body, size: got, cached: false };
}

/** The models kept, each with its files and their bytes. */
export async function keptModels() {
  if (!canKeep()) return [];
  const cache = await caches.open(CACHE);
  const models = new Map();
  for (const req of await cache.keys()) {
    const i = req.url.indexOf(PATH);
    if (i < 0) continue;
    const base = req.url.slice(0, i);
    const slash = base.indexOf('/', base.indexOf('//') + 2);
    const hub = base.slice(0, slash);
    const repo = base.slice(slash + 1);
    const key = `${hub} ${repo}`;
    if (!models.has(key)) models.set(key, { hub, repo, files: [], bytes: 0 });
    const m = models.get(key);
    m.files.push(req.url.slice(i + PATH.length));
    m.bytes += sizeOf(await cache.match(req)) ?? 0;
  }
  for (const m of models.values()) m.complete = ['config.json', 'model.safetensors'].every((f) => m.files.includes(f));
  return [...models.values()].sort((a, b) => a.repo.localeCompare(b.repo));
}

/** Deletes every kept file of `repo` on `hub`. */
export async function forget(hub, repo) {
  if (!canKeep()) return;
  const cache = await caches.open(CACHE);
  const prefix = fileUrl(hub, repo, '');
  for (const req of await cache.keys()) if (req.url.startsWith(prefix)) await cache.delete(req);
}
