// A node:test reporter that names each test file and test as it starts, with the
// seconds since the run began. The TAP reporter prints a test only when it ends, so
// without this a test that hangs leaves no trace of where it is.
// build.sh sends it to stderr beside TAP on stdout.

import { isAbsolute } from 'node:path';

const t0 = Date.now();

export default async function* progress(source) {
  for await (const event of source) {
    if (event.type !== 'test:dequeue') continue;
    const { name, nesting } = event.data;
    const s = ((Date.now() - t0) / 1000).toFixed(0).padStart(4);
    yield `# [${s}s] ${nesting === 0 && isAbsolute(name) ? 'file' : 'start'}: ${name}\n`;
  }
}
