// Kept for attn-head.js, which still imports these from here: each name now lives in
// the module of its concept, and new code imports from there.

export { boolAttr, checkBool, checkMatrix, plain } from '../cell-checks.js';
export { subscripted as sub } from '../format.js';
export { LESSON_WIDGET_CSS as PART_A_CSS } from './lesson-css.js';
export { matrixBlock, tableSwitch } from './matrix-block.js';
