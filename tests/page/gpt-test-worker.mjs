// The GPT worker of the page tests: the page's own (www/js/gpt/worker-commands.js) plus
// commands that only tests send, which the page's worker (www/js/gpt/worker.js) does not
// carry. gpt-harness.mjs (useTestWorker) serves this file in place of www/js/gpt/worker.js,
// at that URL: its imports are relative to www/js/gpt/ (not to tests/page/), and `?build=`
// picks the wasm build as on the page's worker. Node never runs it.
//
//   steps  { n }               → { losses, step, engine }: n training steps now, on the
//                                workers set (trainIn compares runs step by step)
//   params {}                  → Float32Array of the weights
//   crashGradWorkerForTest {}  → whether there was one: the first gradient worker throws an
//                                uncaught error in its next step instead of answering,
//                                as a dying one would (pool.js replaces it)
//   crashForTest {}            → null, then an uncaught error in this worker (GptClient
//                                reports it as reason 'crashed')
//
// A trainer's own worker is not the test's to call (its GptClient is the element's), so
// { cmd: 'crash' } on the BroadcastChannel CRASH_CHANNEL crashes it the same way
// (crashGptWorker in gpt-harness.mjs).

import { commands, engine, need, serve, stepOnce } from './worker-commands.js';

const CRASH_CHANNEL = 'attention-playground.test.gpt-worker';

/** An uncaught error in this worker, after the reply to the command that asked for it. */
function crash() {
  setTimeout(() => {
    throw new Error('the worker crashed (a test asked it to)');
  });
  return null;
}

// The gradient workers pool.js starts, each wrapped in one that can be told to die; in the
// order they started, so the first one alive holds the pool's first slice.
const GRAD_WORKER = new URL('./grad-worker.js', import.meta.url).href;
const gradWorkers = [];

// grad-worker.js as it is, plus one message of the test's: { cmd: 'crashForTest' } (no id,
// no reply) makes its next `grads` throw instead of answering. A message to a worker comes
// after the ones sent before it, so that `grads` is the next step's.
const CRASHABLE_GRAD_WORKER = URL.createObjectURL(new Blob([`import ${JSON.stringify(GRAD_WORKER)};
const serveGrads = self.onmessage;
let crashNext = false;
self.onmessage = (e) => {
  if (e.data?.cmd === 'crashForTest') crashNext = true;
  else if (crashNext && e.data?.cmd === 'grads') {
    setTimeout(() => {
      throw new Error('a gradient worker crashed (a test asked it to)');
    });
  } else serveGrads(e);
};
`], { type: 'text/javascript' }));

// pool.js makes its workers with `new Worker(grad-worker.js URL)` when they are needed,
// after this module has run: this global is the one it finds.
self.Worker = class extends Worker {
  ended = false;

  constructor(url, options) {
    const grad = String(url) === GRAD_WORKER;
    super(grad ? CRASHABLE_GRAD_WORKER : url, options);
    if (grad) gradWorkers.push(this);
  }

  terminate() {
    this.ended = true;
    super.terminate();
  }
};

const TEST_COMMANDS = {
  steps: async ({ n }) => {
    const losses = [];
    for (let i = 0; i < (n >>> 0); i++) losses.push(await stepOnce());
    return { losses, step: need().steps(), engine: engine() };
  },
  params: () => need().params(),
  crashGradWorkerForTest: () => {
    const first = gradWorkers.find((w) => !w.ended);
    first?.postMessage({ cmd: 'crashForTest' });
    return Boolean(first);
  },
  crashForTest: crash,
};

new BroadcastChannel(CRASH_CHANNEL).onmessage = ({ data }) => {
  if (data?.cmd === 'crash') crash();
};

serve({ ...commands, ...TEST_COMMANDS });
