// Page tests for data-parallel training (www/js/gpt/pool.js, grad-worker.js): k web workers share
// each batch, the GPT worker sums their gradients and takes the AdamW step. Driven through
// the page's own GptClient (on the tests' worker, gpt-test-worker.mjs, for steps on demand,
// the weights and a dying gradient worker), in both wasm builds (relaxed SIMD and simd128).
// Run from the repo root: node --test --test-concurrency=1 tests/page/gpt-parallel.test.mjs
// Needs ./build.sh (www/pkg, www/pkg-fma, www/data/corpus.txt).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHOTS, pageSuite } from './browser.mjs';
import { TOL, button, gptOn, maxDiff, state, trainIn, waitStatus } from './gpt-harness.mjs';

const site = pageSuite();
const withGpt = gptOn(site);


for (const build of ['fma', 'simd128']) {
  test(`${build}: 2 and 3 workers match 1 over 20 steps; the same k twice is the same run, bit for bit`, () =>
    site.withPage(async (page) => {
      const one = await trainIn(page, { k: 1, n: 20, build });
      const two = await trainIn(page, { k: 2, n: 20, build });
      const again = await trainIn(page, { k: 2, n: 20, build });
      const three = await trainIn(page, { k: 3, n: 20, build }); // slices of 2, 2 and 1 rows
      assert.deepEqual(one.engine, { build, workers: 1, lost: 0, shared: false });
      assert.deepEqual(two.engine, { build, workers: 2, lost: 0, shared: false }, 'not isolated: buffers are transferred');
      assert.equal(three.engine.workers, 3);
      assert.equal(two.step, 20);
      assert.ok(one.losses[0] > 3.9 && one.losses[19] < one.losses[0], `tiny learns: ${one.losses[0]} → ${one.losses[19]}`);
      for (const run of [two, three]) {
        assert.equal(run.params.length, one.params.length);
        const d = maxDiff(run.params, one.params);
        assert.ok(d < TOL, `${run.engine.workers} workers: max |Δ weight| ${d} after 20 steps`);
        assert.ok(maxDiff(run.losses, one.losses) < 1e-4, `losses ${run.losses.slice(-3)} vs ${one.losses.slice(-3)}`);
      }
      assert.ok(maxDiff(two.params, one.params) > 0, 'two workers add in another order: not the same bits');
      assert.deepEqual(again.params, two.params, 'same seed and k: the same weights, bit for bit');
      assert.deepEqual(again.losses, two.losses);
    }));
}

test('a gradient worker that dies mid-run is replaced; its step is done again, none is lost', () =>
  site.withPage(async (page) => {
    const one = await trainIn(page, { k: 1, n: 10 });
    const hit = await trainIn(page, { k: 2, n: 10, crashAfter: 5 });
    assert.equal(hit.step, 10, 'ten steps, the one the crash hit included');
    assert.equal(hit.engine.lost, 1);
    assert.equal(hit.engine.workers, 2, 'a new worker took its place');
    assert.ok(maxDiff(hit.params, one.params) < TOL, `max |Δ weight| ${maxDiff(hit.params, one.params)}`);
  }, { aside: (text) => /a test asked it to/.test(text) }));

test('the trainer says which path runs: the build and the workers, beside tokens/s', () => withGpt(async (page, gpt) => {
  const workers = gpt.getByLabel('CPU cores used');
  assert.equal(await workers.inputValue(), '1', 'one core for the page, one worker, on this 2-core machine');
  await workers.fill('2');
  await workers.dispatchEvent('change');
  await button(gpt, 'Start').click();
  await waitStatus(page, 'running');
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').state.engine?.workers === 2,
    null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').state.step > 50, null, { timeout: 60000 });
  assert.match(await gpt.locator('.stats').innerText(), /tokens\/s [\d,]+/);
  // how it runs is for developers: inside the trainer's closed "How it runs"
  assert.match(await gpt.locator('details.how').textContent(), /This trainer runs on wasm relaxed SIMD \(FMA\), 2 workers\./);
  await gpt.locator('.panel').first().screenshot({ path: `${SHOTS}gpt-workers.png` });
  await button(gpt, 'Pause').click();
  await waitStatus(page, 'paused');
  const s = await state(page);
  assert.equal(s.info.steps, s.step);
  assert.equal(s.engine.workers, 2);
  // the choice is kept for the next visit
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.locator('attn-gpt-train').getByLabel('CPU cores used').inputValue(), '2');
}));

test('zh: the path is said in Chinese', () => withGpt(async (page, gpt) => {
  await page.locator('button[data-lang="zh"]').click();
  await button(gpt, '开始').click();
  await page.waitForFunction(() => document.querySelector('attn-gpt-train').state.step > 5, null, { timeout: 30000 });
  assert.match(await gpt.locator('details.how').textContent(), /本训练器运行于 wasm 宽松 SIMD（FMA），1 个工作线程/);
  await button(gpt, '暂停').click();
  await waitStatus(page, 'paused');
}));
