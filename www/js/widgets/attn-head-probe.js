// attn-head-probe: placeholder while it is written.
import { AttnWidget, define } from '../widget-base.js';

class W extends AttnWidget {
  static tag = 'attn-head-probe';
}
define(W);
