// Files on the kernel's machine, read by the notebook's page chunk by chunk over the
// widget's custom messages: GptInspect's GPT-2 folder (python/attention_playground/_gpt2.py
// answers). A file is { name, size, stream() }, what <attn-gpt2> reads of a picked File, so
// the element opens them as it opens files picked in the page.
//
//   page → kernel   { read: { id, file, offset, length } }
//   kernel → page   { chunk: { id, file, offset } } + the bytes as the one buffer, or
//                   { chunk: { id, error } }
//
// Nothing travels that the page has not asked for: a stream asks for the next chunk once
// the one before is in (AHEAD asked at once), so a model of 500 MB never sits in a message,
// in the kernel's outbox or in the page's memory as a whole. The kernel answers between
// cells: a cell that runs a long time pauses the load.

/** Bytes asked for at once: few messages, and each far under the server's 10 MB limit. */
export const CHUNK = 4 << 20;
/** Chunks asked for before the first has come (the round trip hidden behind the next). */
const AHEAD = 2;

/** The files `sizes` ({ name: bytes }) of the kernel behind `model`; `close()` stops
 *  listening and fails every read still waiting. */
export function kernelFiles(model, sizes) {
  const me = Math.random().toString(36).slice(2); // this page's requests among the views'
  let next = 0;
  const waiting = new Map();
  const onMessage = (msg, buffers) => {
    const c = msg?.chunk;
    const w = c && waiting.get(c.id);
    if (!w) return; // another view's, or one given up
    waiting.delete(c.id);
    if (c.error) {
      w.reject(new Error(String(c.error)));
      return;
    }
    const b = buffers?.[0];
    w.resolve(b ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(0));
  };
  model.on('msg:custom', onMessage);
  const read = (file, offset, length) => new Promise((resolve, reject) => {
    const id = `${me}-${next++}`;
    waiting.set(id, { resolve, reject });
    model.send({ read: { id, file, offset, length } });
  });
  const files = Object.entries(sizes).map(([name, size]) => ({ name, size, stream: () => streamOf(read, name, size) }));
  return {
    files,
    close() {
      model.off('msg:custom', onMessage);
      for (const w of waiting.values()) w.reject(new Error('the widget was closed'));
      waiting.clear();
    },
  };
}

/** A ReadableStream of file `name`'s `size` bytes, AHEAD chunks asked for at a time. */
function streamOf(read, name, size) {
  const asked = [];
  let offset = 0; // the next byte to ask for
  let got = 0; // bytes handed on
  return new ReadableStream({
    async pull(ctrl) {
      while (asked.length < AHEAD && offset < size) {
        const length = Math.min(CHUNK, size - offset);
        const chunk = read(name, offset, length).then((bytes) => {
          if (bytes.byteLength !== length) throw new Error(`${name}: ${bytes.byteLength} bytes came for ${length} (did the file change?)`);
          return bytes;
        });
        chunk.catch(() => {}); // one asked ahead and never awaited (an earlier one failed) fails quietly
        asked.push(chunk);
        offset += length;
      }
      if (!asked.length) {
        ctrl.close();
        return;
      }
      const bytes = await asked.shift();
      got += bytes.byteLength;
      ctrl.enqueue(bytes);
      if (got >= size) ctrl.close();
    },
    cancel() {
      asked.length = 0; // their answers land in nothing
    },
  }, { highWaterMark: 0 });
}
