// A tiny static file server for the page tests: serves www/ on 127.0.0.1 at a
// random port with the MIME types browsers insist on (application/wasm,
// text/javascript). start() resolves to the base URL; stop() closes it.
//
//   start()                                   serve www/
//   start(root)                               serve another folder
//   start(root, { headers: { 'Content-Security-Policy': CSP } })
//                                             add response headers (to every response,
//                                             or only to HTML pages with htmlHeaders)

import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../www/', import.meta.url));

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.safetensors': 'application/octet-stream',
};

let server = null;

async function resolveFile(root, urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  const file = path.normalize(path.join(root, rel));
  if (file !== root.replace(/\/$/, '') && !file.startsWith(root)) return null; // no ../ escapes
  try {
    const info = await stat(file);
    if (info.isDirectory()) return resolveFile(root, path.posix.join(rel, 'index.html'));
    return file;
  } catch {
    return null;
  }
}

async function handle(root, req, res, extra) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const file = await resolveFile(root, req.url ?? '/');
  if (!file) {
    res.writeHead(404, { ...extra.headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found');
    return;
  }
  const body = await readFile(file);
  const ext = path.extname(file).toLowerCase();
  res.writeHead(200, {
    ...extra.headers,
    ...(ext === '.html' ? extra.htmlHeaders : {}),
    'Content-Type': MIME[ext] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Serves `root` on a port of its own; resolves to { base, close } (base ends in "/").
 * `headers` are added to every 200 and 404 response (a CORS header, as the Hugging Face
 * hub's), `htmlHeaders` to .html ones only.
 */
export async function serve(root, { headers = {}, htmlHeaders = {} } = {}) {
  const dir = root.endsWith(path.sep) ? root : root + path.sep;
  const s = http.createServer((req, res) => {
    handle(dir, req, res, { headers, htmlHeaders }).catch((err) => {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(String(err));
    });
  });
  await new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(0, '127.0.0.1', resolve);
  });
  const close = () => {
    s.closeAllConnections?.();
    return new Promise((resolve) => s.close(() => resolve()));
  };
  return { base: `http://127.0.0.1:${s.address().port}/`, close, server: s };
}

/** Starts serving `root` (default www/) as the suite's one server; resolves to its base URL. */
export async function start(root = ROOT, options = {}) {
  if (server) throw new Error('server already started');
  const served = await serve(root, options);
  server = served;
  return served.base;
}

export async function stop() {
  if (!server) return;
  const s = server;
  server = null;
  await s.close();
}
