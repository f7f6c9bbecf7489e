// The lesson page's texts, filled in before the widgets are defined (pages/lesson.js imports
// this module first): the widgets then measure where they sit on the page as it will be
// painted, and the first paint (render-blocking) shows every text in place.

import { applyI18n } from '../i18n/i18n.js';
import '../i18n/lesson-strings.js'; // the prose of sections 1–4 and 5–8 is in their tables
import '../i18n/notes-strings.js';

applyI18n();
