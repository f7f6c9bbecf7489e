// Served under /course/; two pages.
import { resolve } from 'node:path';

const here = import.meta.dirname;
export default {
  base: '/course/',
  build: { rollupOptions: { input: { head: resolve(here, 'index.html'), gpt: resolve(here, 'gpt.html') } } },
};
