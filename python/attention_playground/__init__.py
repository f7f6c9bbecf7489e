"""The Attention Playground widgets in notebooks (anywidget).

    from attention_playground import Head
    head = Head()      # shown by the cell; edit it there
    head.weights       # in a later cell: the drawn attention weights, a NumPy array

Every number is computed by the site's WebAssembly core in the browser; the package
carries it, so nothing is fetched from the web.
"""

from ._checks import InputError
from ._version import __version__
from ._widgets import TAGS, FormulaSteps, GptInspect, Head, Widget

# One class per entry of the widget manifest (www/js/widgets/manifest.js) with a Python name
# and no code of its own here: written from it when the package is built (_manifest.py).
from ._manifest import *  # noqa: F403 (Schemes, SoftmaxSteps, NoteScale, Exercise, …)
from ._manifest import __all__ as _MANIFEST

__all__ = ["Head", "FormulaSteps", *_MANIFEST, "GptInspect", "Widget", "InputError", "TAGS", "__version__"]
