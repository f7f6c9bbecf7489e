// Loads the widgets once the page runs in a browser (a Docusaurus client module).
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

if (ExecutionEnvironment.canUseDOM) import('attention-playground/widgets.js');
