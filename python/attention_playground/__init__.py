"""The Attention Playground widgets in notebooks (anywidget).

    from attention_playground import Head
    head = Head()      # shown by the cell; edit it there
    head.weights       # in a later cell: the drawn attention weights, a NumPy array

Every number is computed by the site's WebAssembly core in the browser; the package
carries it, so nothing is fetched from the web.
"""

from ._checks import InputError
from ._version import __version__
from ._widgets import TAGS, Exercise, FormulaSteps, GptInspect, Head, NoteScale, Schemes, SoftmaxSteps, Widget

__all__ = ["Head", "Schemes", "SoftmaxSteps", "FormulaSteps", "NoteScale", "Exercise", "GptInspect", "Widget",
           "InputError", "TAGS", "__version__"]
