// Module workers for scripts served from another origin than the page (the npm package from
// a CDN such as jsDelivr): a browser refuses `new Worker(url)` for a URL of another origin,
// but a same-origin blob: module whose one line imports that URL starts it (its
// import.meta.url is then the CDN's, so what it loads by relative URL comes from there too).
//
//   fromOtherOrigin(import.meta.url)   true when the calling module came from another origin
//   viaBlob(href, options)             a module worker whose script is `import href;`
//
// Each caller keeps `new Worker(new URL('./x.js', import.meta.url), …)` for the same-origin
// case, written out: that literal is what Vite and webpack recognise and build as a worker.

/** True when a module at `moduleUrl` runs in a page (or worker) of another origin. */
export function fromOtherOrigin(moduleUrl) {
  return /^https?:/.test(moduleUrl) && typeof location !== 'undefined' && new URL(moduleUrl).origin !== location.origin;
}

/** A module worker running `href` (an absolute URL of another origin) through a blob: URL. */
export function viaBlob(href, options = {}) {
  const blob = new Blob([`import ${JSON.stringify(href)};\n`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(blob), { ...options, type: 'module' });
}
