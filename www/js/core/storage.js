// localStorage that never throws: storage can be off (private mode, file://, a sandboxed
// frame) or full, and then a choice simply lasts until the page closes.

/** localStorage[key], or null where storage is unavailable. */
export function readKey(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Sets localStorage[key] = value; false (and nothing kept) where storage is unavailable. */
export function writeKey(key, value) {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}
