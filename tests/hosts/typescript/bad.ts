// Must not compile: the declarations know the state is an object, not a number.
import 'attention-playground/widgets.js';

const head = document.createElement('attn-head');
const n: number = head.state;
export { n };
