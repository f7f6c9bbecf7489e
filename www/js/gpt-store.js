// "Nothing lost" for "Train a GPT": the last training save lives in this browser's
// IndexedDB (database "attention-playground-gpt", store "saves", key "last"), so a reload
// or a crashed worker can offer "Resume training from step N".
//
//   loadSave()      → the record or undefined        putSave(record)      dropSave()
//
// record = { version: 1, state: Uint8Array (GptLab.stateBytes: weights + AdamW m, v, t +
// step, seed, sampler), step, savedAt (ms since 1970), source: 'default' | 'own',
// text (own text, else null), preset, config, causal, plot: { batch, train, val },
// sample, sampleStep, eval }. Every call rejects (never throws) when storage is off, with
// an error whose `fault` names what went wrong (see fault()).

const DB = 'attention-playground-gpt';
const STORE = 'saves';
const KEY = 'last';
export const SAVE_VERSION = 1;

/** A storage fault, which the page says in its language (gpt.store.<fault> in
 *  i18n/part-gpt.js; the core's error codes are another table): none (no IndexedDB here,
 *  as in some private windows), denied, blocked (another tab holds an older version
 *  open), quota (the site's storage is full), failed (anything else). */
function fault(err) {
  if (err?.fault) return err;
  const kind = err?.name === 'QuotaExceededError' ? 'quota' : err?.name === 'SecurityError' ? 'denied' : 'failed';
  return Object.assign(new Error(err?.message ?? String(err)), { fault: kind, detail: err?.message ?? String(err) });
}
const named = (kind) => Object.assign(new Error(`IndexedDB: ${kind}`), { fault: kind });

function openDb() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined' || !indexedDB) {
      reject(named('none'));
      return;
    }
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB would not open')); // named by run()
    req.onblocked = () => reject(named('blocked'));
  });
}

async function run(mode, fn) {
  let db;
  try {
    db = await openDb();
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = (e) => {
        e.preventDefault();
        reject(tx.error ?? new Error('IndexedDB failed'));
      };
      // over quota, the transaction aborts with a QuotaExceededError
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB aborted the save'));
    });
  } catch (err) {
    throw fault(err);
  } finally {
    db?.close();
  }
}

export async function loadSave() {
  const rec = await run('readonly', (s) => s.get(KEY));
  return rec?.version === SAVE_VERSION && rec.state instanceof Uint8Array ? rec : undefined;
}

export const putSave = (record) => run('readwrite', (s) => s.put({ ...record, version: SAVE_VERSION }, KEY));
export const dropSave = () => run('readwrite', (s) => s.delete(KEY));
