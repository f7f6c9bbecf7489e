// attn-bias: placeholder while it is written.
import { AttnWidget, define } from '../widget-base.js';

class W extends AttnWidget {
  static tag = 'attn-bias';
}
define(W);
