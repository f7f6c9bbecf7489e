// How a GPT worker answers the page (worker.js documents the protocol; client.js is the
// page's side): each request { id, cmd, ...args } gets exactly one reply { id, ok: true,
// result } or { id, ok: false, error, code?, params? }. Shared by the GPT's worker
// (worker-commands.js) and GPT-2's (gpt2-worker.js).

/** What postMessage can carry of an error: { message, code?, params? }. An Error is
 *  cloned without the core's `code` and `params`, so they travel beside it. */
export function errorOf(err) {
  const out = { message: String(err?.message ?? err).replace(/\.$/, '') };
  if (typeof err?.code === 'string') Object.assign(out, { code: err.code, params: err.params ?? {} });
  return out;
}

/** The buffers of an `attention` result's maps (each Float32Array owns its own, copied out
 *  of the wasm's memory): handed over to the page, not copied again. */
function mapBuffers(result) {
  const maps = [result?.layers, result?.scores].flat(2).filter((m) => m?.data instanceof Float32Array);
  return maps.map((m) => m.data.buffer);
}

/** Answers this worker's requests from `table` (name → fn(args), which may be async),
 *  once `ready` has resolved and never while `idle()` (a promise, or null) is pending. */
export function serveTable(table, { ready, idle = () => null }) {
  self.onmessage = async ({ data }) => {
    const { id, cmd, ...args } = data ?? {};
    try {
      await ready;
      await idle(); // a command never lands between two halves of a step
      const fn = table[cmd];
      if (!fn) throw new Error(`unknown command ${JSON.stringify(cmd)}`);
      const result = await fn(args);
      const bytes = result instanceof Uint8Array ? result : result?.bytes;
      const transfer = bytes instanceof Uint8Array ? [bytes.buffer] : mapBuffers(result);
      postMessage({ id, ok: true, result }, transfer);
    } catch (err) {
      const { message, ...coded } = errorOf(err);
      postMessage({ id, ok: false, error: message, ...coded });
    }
  };
}
