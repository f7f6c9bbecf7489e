// Two trainers never write one run: a run is owned by one trainer at a time, the one
// holding its Web Lock ("attention-playground.gpt.run.<id>"), across the tabs of this
// browser and the trainers of one tab alike. A trainer holds the lock while the run
// trains and lets it go once its Pause has saved; another trainer may ask it to pause
// (a BroadcastChannel message) and take the run over from that save.
//
//   const lock = await claim(id)    → { release() } or null (another trainer has it)
//   const lock = await waitFor(id)  → { release() } once the holder lets it go
//   await heldElsewhere(id)         → whether another trainer holds it now
//   askToPause(id)                  the holder (if any) pauses and lets it go
//   onAskToPause(fn)                fn(id) for every such request; returns an unsubscribe
//
// Without Web Locks (an old browser) every claim succeeds: one tab works as before.

const PREFIX = 'attention-playground.gpt.run.';
const CHANNEL = 'attention-playground.gpt.runs';
const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;

function request(id, options) {
  if (!locks) return Promise.resolve({ release() {} });
  return new Promise((resolve, reject) => {
    locks.request(PREFIX + id, options, (lock) => {
      if (!lock) {
        resolve(null);
        return undefined;
      }
      return new Promise((done) => resolve({ release: done }));
    }).catch(reject);
  });
}

export const claim = (id) => request(id, { ifAvailable: true });
export const waitFor = (id) => request(id, {});

export async function heldElsewhere(id) {
  if (!locks) return false;
  const { held = [] } = await locks.query();
  return held.some((l) => l.name === PREFIX + id);
}

const listeners = new Set();
let channel = null;
function openChannel() {
  if (channel || typeof BroadcastChannel !== 'function') return channel;
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = ({ data }) => {
    if (data?.type === 'pause' && typeof data.id === 'string') for (const fn of listeners) fn(data.id);
  };
  return channel;
}

export function askToPause(id) {
  openChannel()?.postMessage({ type: 'pause', id });
  for (const fn of listeners) fn(id); // a trainer of this tab (a channel does not echo)
}

export function onAskToPause(fn) {
  openChannel();
  listeners.add(fn);
  return () => listeners.delete(fn);
}
