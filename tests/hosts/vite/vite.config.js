// Served under /course/; three pages (the third imports one element alone).
import { resolve } from 'node:path';

const here = import.meta.dirname;
export default {
  base: '/course/',
  build: { rollupOptions: { input: { head: resolve(here, 'index.html'), gpt: resolve(here, 'gpt.html'), steps: resolve(here, 'steps.html') } } },
};
