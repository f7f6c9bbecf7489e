// Part B's strings (sections 5–8, keys b.*), added to the tables by every widget of part B
// before it is defined: a page that shows none of them never loads them.

import { addStrings } from './i18n.js';
import NOTES from './notes.js';
import PRACTICE from './practice.js';

addStrings(NOTES);
addStrings(PRACTICE);
