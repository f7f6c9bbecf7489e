// The default theme, plus the widgets, in the browser only: the static pages are rendered in
// Node, where there is no HTMLElement to define them on.
import DefaultTheme from 'vitepress/theme';

export default {
  extends: DefaultTheme,
  async enhanceApp() {
    if (!import.meta.env.SSR) await import('attention-playground/widgets.js');
  },
};
