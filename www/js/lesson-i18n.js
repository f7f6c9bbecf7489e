// The lesson page's texts, filled in before the widgets are defined (lesson-page.js imports
// this module first): the widgets then measure where they sit on the page as it will be
// painted, and the first paint (render-blocking) shows every text in place.

import { applyI18n } from './i18n.js';

applyI18n();
