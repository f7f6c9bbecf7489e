// "Nothing lost" for "Train a GPT": every training run is its own record in this
// browser's IndexedDB (database "attention-playground-gpt", store "runs", key = the run's
// id), so a reload, a crashed worker or another tab can offer it again.
//
//   listRuns()          → { runs: [record…] newest first, damaged: [{ id, why }] }
//                       (why: notRun | noState | badStep, said by gpt.runs.why.*)
//   loadSave(id?)       → run `id` (or the newest resumable run), or undefined
//   putRun(record)      one transaction: the run's previous save stays whole until the new
//                       one is written (IndexedDB drops a transaction that fails half-way)
//   renameRun(id, name) dropRun(id)      usage() → { usage, quota } bytes, or null
//
// record = { version: 2, id, name, startedAt, state: Uint8Array (GptLab.stateBytes:
// weights + AdamW m, v, t + step, seed, sampler), step, savedAt (ms since 1970),
// source: 'default' | 'own' | 'repeat', text (own text, else null), preset, config, causal,
// plot: { batch, train, val, first, second, induction (the heads grid's curves) }, sample,
// sampleStep, eval }. A listed record also has
// `kind`: 'run' (it resumes here) or 'other' (another version of the page saved it: its
// bytes download, it does not resume). Version 1 (one record, store "saves", key "last")
// is moved into "runs" when the database is upgraded and read as a run.
// Every call rejects (never throws) when storage is off, with an error whose `fault`
// names what went wrong (see fault()).

const DB = 'attention-playground-gpt';
const DB_VERSION = 2;
const RUNS = 'runs';
const OLD_STORE = 'saves'; // version 1
export const SAVE_VERSION = 2;

/** A storage fault, which the page says in its language (gpt.store.<fault> in
 *  i18n/gpt.js; the core's error codes are another table): none (no IndexedDB here,
 *  as in some private windows), denied, blocked (another tab holds an older version
 *  open), quota (the site's storage is full), failed (anything else). */
function fault(err) {
  if (err?.fault) return err;
  const kind = err?.name === 'QuotaExceededError' ? 'quota' : err?.name === 'SecurityError' ? 'denied' : 'failed';
  return Object.assign(new Error(err?.message ?? String(err)), { fault: kind, detail: err?.message ?? String(err) });
}
const named = (kind) => Object.assign(new Error(`IndexedDB: ${kind}`), { fault: kind });

/** Version 1 kept one record under "last": it moves, as it is, to "runs" under an id of
 *  its own (listRuns reads it as a run; a save of it writes version 2). */
function upgrade(req, oldVersion) {
  const db = req.result;
  const runs = db.createObjectStore(RUNS);
  if (oldVersion < 1 || !db.objectStoreNames.contains(OLD_STORE)) return;
  const old = req.transaction.objectStore(OLD_STORE);
  old.openCursor().onsuccess = (e) => {
    const cursor = e.target.result;
    if (!cursor) {
      db.deleteObjectStore(OLD_STORE);
      return;
    }
    runs.put(cursor.value, `v1-${cursor.key}`);
    cursor.continue();
  };
}

function openDb() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined' || !indexedDB) {
      reject(named('none'));
      return;
    }
    const req = indexedDB.open(DB, DB_VERSION);
    req.onupgradeneeded = (e) => upgrade(req, e.oldVersion);
    req.onsuccess = () => {
      const db = req.result;
      db.onversionchange = () => db.close(); // a newer page upgrading: let it
      resolve(db);
    };
    req.onerror = () => reject(req.error ?? new Error('IndexedDB would not open')); // named by run()
    req.onblocked = () => reject(named('blocked'));
  });
}

async function run(mode, fn) {
  let db;
  try {
    db = await openDb();
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(RUNS, mode);
      const out = fn(tx.objectStore(RUNS)); // a request, or a function giving the result
      tx.oncomplete = () => resolve(typeof out === 'function' ? out() : out?.result);
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

/** `value` as a listed run, or why it is damaged (a code, see listRuns). */
function readRecord(id, value) {
  if (!value || typeof value !== 'object') return 'notRun';
  if (!(value.state instanceof Uint8Array) || value.state.length === 0) return 'noState';
  const step = Number(value.step);
  if (!Number.isInteger(step) || step < 0) return 'badStep';
  const rec = { ...value, id, step, savedAt: Number(value.savedAt) || 0 };
  rec.kind = value.version === 1 || value.version === SAVE_VERSION ? 'run' : 'other';
  rec.name = typeof value.name === 'string' && value.name ? value.name : null;
  rec.startedAt = Number(value.startedAt) || rec.savedAt;
  const plot = value.plot && typeof value.plot === 'object' ? value.plot : {};
  rec.plot = Object.fromEntries(['batch', 'train', 'val', 'first', 'second', 'induction']
    .map((k) => [k, Array.isArray(plot[k]) ? plot[k] : []]));
  return rec;
}

export async function listRuns() {
  const entries = await run('readonly', (s) => {
    const out = [];
    s.openCursor().onsuccess = (e) => {
      const c = e.target.result;
      if (!c) return;
      out.push([String(c.key), c.value]);
      c.continue();
    };
    return () => out;
  });
  const runs = [];
  const damaged = [];
  for (const [id, value] of entries) {
    const rec = readRecord(id, value);
    if (typeof rec === 'string') damaged.push({ id, why: rec });
    else runs.push(rec);
  }
  runs.sort((a, b) => b.savedAt - a.savedAt);
  return { runs, damaged };
}

export async function loadSave(id) {
  if (id == null) return (await listRuns()).runs.find((r) => r.kind === 'run');
  const rec = readRecord(id, await run('readonly', (s) => s.get(id)));
  return typeof rec === 'object' && rec.kind === 'run' ? rec : undefined;
}

export const putRun = ({ kind, ...record }) =>
  run('readwrite', (s) => s.put({ ...record, version: SAVE_VERSION }, record.id));
export const dropRun = (id) => run('readwrite', (s) => s.delete(id));

export const renameRun = (id, name) => run('readwrite', (s) => {
  const req = s.get(id);
  req.onsuccess = () => {
    if (req.result && typeof req.result === 'object') s.put({ ...req.result, name }, id);
  };
  return req;
});

/** How much this site stores and may store (navigator.storage.estimate), or null. */
export async function usage() {
  try {
    const { usage: used, quota } = await navigator.storage.estimate();
    return Number.isFinite(used) ? { usage: used, quota } : null;
  } catch {
    return null;
  }
}
