// The built folder a teacher copies, dist/attention-playground/ (`./build.sh dist`), for
// the page tests that put it inside someone else's site (embed, hosts). Built again when
// it is missing or older than www/; one builder at a time, as files run side by side.

import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = path.join(REPO, 'dist/attention-playground');

/** For a file or folder removed since it was listed: `none` (any other error stands). */
const ifGone = (none) => (err) => (err.code === 'ENOENT' ? none : Promise.reject(err));

/** Every file under `dir`, recursively (a folder gone meanwhile has none). */
async function* files(dir) {
  for (const e of await readdir(dir, { withFileTypes: true }).catch(ifGone([]))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else yield p;
  }
}

/** True when dist/ is missing, or older than any file of www/ it is copied from. */
async function distStale() {
  const built = await stat(path.join(DIST, 'CONTENTS.txt')).catch(() => null);
  if (!built) return true;
  // A file listed, then removed before its stat (another test file's page written under
  // www/ and removed after it, as tests run side by side) is no longer copied: not newer.
  for await (const f of files(path.join(REPO, 'www'))) {
    if ((await stat(f).catch(ifGone(null)))?.mtimeMs > built.mtimeMs) return true;
  }
  // A copy taken while another build rewrote www/pkg is not a wasm module: build again.
  const wasm = await readFile(path.join(DIST, 'pkg/attention_playground_bg.wasm')).catch(() => Buffer.alloc(0));
  return !wasm.subarray(0, 4).equals(Buffer.from([0, 0x61, 0x73, 0x6d]));
}

/** Resolves once dist/ is current, building it if not (under a lock: target/dist.lock). */
export async function freshDist() {
  const lock = path.join(REPO, 'target/dist.lock');
  await mkdir(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // a lock left by a killed run: a build never takes 20 minutes
      const since = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (since > 20 * 60_000) await rmdir(lock).catch(() => {});
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (await distStale()) {
      execFileSync('bash', ['build.sh', 'dist'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], timeout: 15 * 60_000 });
    }
  } finally {
    await rmdir(lock);
  }
}
