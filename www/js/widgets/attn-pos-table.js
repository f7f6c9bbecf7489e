// attn-pos-table: placeholder while it is written.
import { AttnWidget, define } from '../widget-base.js';

class W extends AttnWidget {
  static tag = 'attn-pos-table';
}
define(W);
