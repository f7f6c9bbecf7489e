// The lesson page: language switch, URL state of every widget that has a
// data-url-key, and the head of section 4. Widgets register themselves.

import '../widgets.js';
import './head-page.js';
import { applyI18n, setLang, t } from './i18n.js';
import { bindUrlState, setUrlNotice } from './url-state.js';

const notice = document.getElementById('url-notice');
setUrlNotice((key, msg) => {
  notice.textContent = t('urlNotice', { key, msg });
  notice.hidden = false;
});

for (const el of document.querySelectorAll('[data-url-key]')) {
  customElements.whenDefined(el.localName).then(() => bindUrlState(el, el.dataset.urlKey));
}

for (const button of document.querySelectorAll('[data-lang]')) {
  button.addEventListener('click', () => setLang(button.dataset.lang));
}
applyI18n();
