// attn-sum-norm: placeholder while it is written.
import { AttnWidget, define } from '../widget-base.js';

class W extends AttnWidget {
  static tag = 'attn-sum-norm';
}
define(W);
