// Part A's strings (sections 1–4, keys a.*), added to the tables by every widget of part A
// before it is defined: a page that shows none of them (only <attn-head>) never loads them.

import { addStrings } from './i18n.js';
import LESSON from './lesson.js';

addStrings(LESSON);
