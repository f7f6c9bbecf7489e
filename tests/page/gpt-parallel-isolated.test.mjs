// Data-parallel training on a cross-origin-isolated page (COOP/COEP, as `./build.sh serve`
// sends them): the workers share weights and gradients in SharedArrayBuffers instead of
// transferring them, and the run is the same.
// Run from the repo root: node --test --test-concurrency=1 tests/page/gpt-parallel-isolated.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSuite } from './browser.mjs';
import { TOL, maxDiff, trainIn } from './gpt-harness.mjs';

const site = pageSuite({
  headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
});

test('isolated: 2 workers share memory and match 1 over 20 steps; twice is the same run', () =>
  site.withPage(async (page) => {
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    const one = await trainIn(page, { k: 1, n: 20 });
    const two = await trainIn(page, { k: 2, n: 20 });
    const again = await trainIn(page, { k: 2, n: 20 });
    assert.deepEqual(two.engine, { build: 'fma', workers: 2, lost: 0, shared: true });
    assert.ok(maxDiff(two.params, one.params) < TOL, `max |Δ weight| ${maxDiff(two.params, one.params)}`);
    assert.deepEqual(again.params, two.params, 'bit for bit');
  }));
