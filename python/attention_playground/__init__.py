"""The Attention Playground widgets in notebooks (anywidget).

    from attention_playground import Head
    head = Head()      # shown by the cell; edit it there
    head.weights       # in a later cell: the drawn attention weights, a NumPy array

Every number is computed by the site's WebAssembly core in the browser; the package
carries it, so nothing is fetched from the web.
"""

from ._checks import InputError
from ._version import __version__
from ._widgets import CLASSES, TAGS, FormulaSteps, GptInspect, Head, Widget

# Schemes, SoftmaxSteps, NoteScale, Exercise, …: one class per entry of the widget manifest
# that has a Python name (www/js/widgets/manifest.js), made from it.
globals().update(CLASSES)

__all__ = ["Head", "FormulaSteps", *sorted(CLASSES), "GptInspect", "Widget", "InputError", "TAGS", "__version__"]
