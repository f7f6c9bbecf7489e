// attn-position: placeholder while it is written.
import { AttnWidget, define } from '../widget-base.js';

class W extends AttnWidget {
  static tag = 'attn-position';
}
define(W);
