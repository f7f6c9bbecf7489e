// A course page's script in TypeScript: the package's declarations type each element.
import 'attention-playground/widgets.js';

const head = document.createElement('attn-head'); // AttnElement, from HTMLElementTagNameMap
head.setAttribute('weights', 'hou');
const state: Record<string, unknown> = head.state;
head.addEventListener('attn-change', (e) => console.log(e.detail, state));
const found: HTMLElement | null = document.querySelector('attn-gpt-train');
export { found };
