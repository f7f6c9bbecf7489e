// The key under which each lesson widget keeps its `state` in the lesson page's hash
// (index.html#head={…}&dk={…}, url-state.js): the manifest's `url` (widgets/manifest.js),
// listed when the site is built. The lesson page binds every widget that has one
// (lesson.js) and the catalogue writes its "open full-size" links and link forms from it
// (embed.js).

import { URL_KEYS } from '../widgets/url-keys.gen.js';

export { URL_KEYS };

/** The URL key of a widget tag, or null when its state is not kept in the URL. */
export const urlKeyOf = (tag) => (Object.hasOwn(URL_KEYS, tag) ? URL_KEYS[tag] : null);
