// What the two notebook ESMs (widget.js, gpt.js) share: matrices over the
// widget protocol and an element's attributes from its Python widget.
//
// A matrix travels as { rows, cols, data } with `data` the float64 bytes (a binary buffer
// of the widget protocol: exact, and -Infinity survives); Python reads it as a NumPy array.

/** { rows, cols, data: bytes } from the kernel → { rows, cols, data: numbers } (a plain
 *  array: it becomes an element's `state`, which holds arrays); `data` may also be a list
 *  of numbers (a static book's JSON has no bytes). */
export function fromKernel(m) {
  const b = m.data;
  if (Array.isArray(b)) return { rows: m.rows, cols: m.cols, data: b.slice() };
  const bytes = b instanceof ArrayBuffer ? b : b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  return { rows: m.rows, cols: m.cols, data: Array.from(new Float64Array(bytes)) };
}

/** { rows, cols, data: numbers } → { rows, cols, data: float64 bytes } for the kernel. A
 *  Float64Array (a matrix as the core hands it out) that owns its whole buffer is sent as
 *  it is; any other data is copied at once into one (the protocol sends a view's whole
 *  buffer, so a view into a larger one must not go as it is). */
export function toKernel(m) {
  const d = m.data;
  const own = d instanceof Float64Array && d.byteOffset === 0 && d.byteLength === d.buffer.byteLength;
  return { rows: m.rows, cols: m.cols, data: new DataView((own ? d : new Float64Array(d)).buffer) };
}

/** Keeps `node`'s attributes and `lang` those of the Python widget (`attributes`: a dict,
 *  True sets an empty attribute, False removes it); returns what stops it. */
export function followAttributes(model, node) {
  let before = [];
  const apply = () => {
    const attrs = model.get('attributes') ?? {};
    for (const name of before) if (!(name in attrs)) node.removeAttribute(name);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === false || value == null) node.removeAttribute(name);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    node.setAttribute('lang', model.get('lang') ?? 'en');
    before = Object.keys(attrs);
  };
  apply();
  model.on('change:attributes', apply);
  model.on('change:lang', apply);
  return () => {
    model.off('change:attributes', apply);
    model.off('change:lang', apply);
  };
}
