// A Docusaurus course site with the widgets from npm (docs/embedding.md, "Docusaurus").
export default {
  title: 'Attention, week by week',
  url: 'http://127.0.0.1',
  baseUrl: '/site/',
  favicon: 'data:,',
  onBrokenLinks: 'throw',
  presets: [['classic', { docs: { routeBasePath: '/', sidebarPath: './sidebars.js' }, blog: false, pages: false }]],
  // the widgets, in the browser only (src/attn-widgets.js): the static pages are rendered in
  // Node, where there is no HTMLElement to define them on
  clientModules: ['./src/attn-widgets.js'],
  // Docusaurus's own rule for fonts (url-loader) would turn the KaTeX fonts the package
  // names by new URL(…, import.meta.url) into JavaScript: leave those to webpack's assets
  plugins: [() => ({
    name: 'attention-playground-assets',
    configureWebpack(config) {
      for (const rule of config.module.rules) {
        if (String(rule.test).includes('woff')) rule.exclude = /node_modules[\\/]attention-playground[\\/]/;
      }
      return {};
    },
  })],
};
