// A VitePress course site with the widgets from npm (docs/embedding.md, "VitePress").
export default {
  title: 'Attention, week by week',
  base: '/notes/',
  head: [['link', { rel: 'icon', href: 'data:,' }]],
  themeConfig: { sidebar: [{ text: 'Weeks', items: [{ text: 'One head', link: '/head' }, { text: 'Softmax with a mask', link: '/softmax' }] }] },
  // Vue must leave the attn-* tags to the browser: they are custom elements
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('attn-') } } },
  // `vitepress dev` (Vite 5): the package's wasm and workers are found by new URL(…, import.meta.url)
  vite: { optimizeDeps: { exclude: ['attention-playground'] } },
};
