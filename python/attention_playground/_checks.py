"""What reaches a widget from Python, checked before it is set.

Each check returns a clean value or raises :class:`InputError` (a ``ValueError``) whose
message names the input and says what it expects; the widget and its state are then left
as they were. The limits are the page's (``www/js/ui/cell-checks.js``): at most 16 rows and
columns, finite numbers within ±1e300, tokens of at most 8 characters (as JavaScript counts
them: UTF-16 units).
"""

from __future__ import annotations

import numbers

import numpy as np
import traitlets

MAX_SIDE = 16
MAX_ABS = 1e300
MAX_TOKEN = 8


class InputError(traitlets.TraitError, ValueError):
    """A value a widget cannot take: a ``ValueError`` (and traitlets' ``TraitError``)."""


def matrix(name: str, value, shape: str) -> np.ndarray:
    """``value`` as a new C-contiguous, read-only float64 array of 2 dimensions, or InputError.

    Lists (nested), NumPy arrays and anything NumPy reads (``__array__``: a torch tensor on
    the CPU, a pandas frame) are taken. ``shape`` names the expected shape in the messages
    (``"T×C"``, ``"d×C"``).
    """
    what = f"{name}: expected a {shape} matrix of numbers"
    if value is None:
        raise InputError(f"{what}, got None")
    if isinstance(value, (str, bytes)):
        raise InputError(f"{what}, got a string ({_short(value)})")
    if isinstance(value, np.ma.MaskedArray):
        raise InputError(f"{what}, got a masked array (fill it first: .filled(0))")
    if isinstance(value, np.ndarray) or hasattr(value, "__array__"):
        try:
            array = np.asarray(value)
        except Exception as err:  # noqa: BLE001 - whatever the object's __array__ raises
            raise InputError(f"{what}, got {type(value).__name__} that NumPy cannot read ({err})") from None
        if array.dtype == object:
            _leaves_are_numbers(what, array.ravel().tolist())
    elif isinstance(value, (list, tuple)):
        _leaves_are_numbers(what, list(_leaves(value)))
        try:
            array = np.array(value, dtype=np.float64)
        except OverflowError:
            raise InputError(f"{name}: a number is too large (use values between -1e300 and 1e300)") from None
        except (TypeError, ValueError):
            raise InputError(f"{what}, got a ragged list (rows of different lengths)") from None
    else:
        raise InputError(f"{what}, got {type(value).__name__} {_short(value)}")
    kind = array.dtype.kind
    if kind in "USV":
        raise InputError(f"{what}, got strings")
    if kind == "b":
        raise InputError(f"{what}, got booleans")
    if kind == "c":
        raise InputError(f"{what}, got complex numbers")
    if kind in "Mm":
        raise InputError(f"{what}, got dates or times")
    if array.ndim != 2:
        raise InputError(f"{what}, got {array.ndim} dimension{'s' if array.ndim != 1 else ''} (shape {array.shape})")
    rows, cols = array.shape
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InputError(f"{what} with 1 to {MAX_SIDE} rows and columns, got shape {rows}×{cols}")
    try:
        out = np.array(array, dtype=np.float64, order="C", copy=True)  # never the caller's array
    except OverflowError:
        raise InputError(f"{name}: a number is too large (use values between -1e300 and 1e300)") from None
    except (TypeError, ValueError):
        raise InputError(f"{what}, got values that are not numbers") from None
    if np.isnan(out).any():
        r, c = np.argwhere(np.isnan(out))[0]
        raise InputError(f"{name}[{r}, {c}] is NaN: every number must be finite")
    if np.isinf(out).any():
        r, c = np.argwhere(np.isinf(out))[0]
        raise InputError(f"{name}[{r}, {c}] is {out[r, c]}: every number must be finite")
    if (np.abs(out) > MAX_ABS).any():
        r, c = np.argwhere(np.abs(out) > MAX_ABS)[0]
        raise InputError(f"{name}[{r}, {c}] = {out[r, c]:g} is too large (use values between -1e300 and 1e300)")
    out.setflags(write=False)  # the widget's numbers change only by assignment
    return out


def _leaves_are_numbers(what: str, leaves: list) -> None:
    for v in leaves:
        if isinstance(v, (str, bytes)):
            raise InputError(f"{what}, got a string in it ({_short(v)})")
        if isinstance(v, (bool, np.bool_)):
            raise InputError(f"{what}, got a boolean in it ({v})")
        if not isinstance(v, numbers.Real):
            raise InputError(f"{what}, got {type(v).__name__} {_short(v)} in it")


def tokens(value) -> list[str]:
    """``value`` as a list of short strings, or InputError."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise InputError(f"tokens: expected a list of strings (one per row of x), got {_short(value)}")
    for t in value:
        if not isinstance(t, str):
            raise InputError(f"tokens: expected strings, got {type(t).__name__} {_short(t)}")
        if not 1 <= len(t.encode("utf-16-le")) // 2 <= MAX_TOKEN:
            raise InputError(f"tokens: each token has 1 to {MAX_TOKEN} characters (UTF-16 units), got {t!r}")
    return list(value)


def flag(name: str, value) -> bool:
    """``value`` if it is a bool (NumPy's too), or InputError."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InputError(f"{name}: expected True or False, got {_short(value)}")


def lang(value) -> str:
    if value in ("en", "zh"):
        return value
    raise InputError(f'lang: expected "en" or "zh", got {_short(value)}')


def attributes(value) -> dict:
    """An element's attributes: names with ``_`` spelt ``-``; a str, a number (as text), or
    True / False (set empty / removed)."""
    if not isinstance(value, dict):
        raise InputError(f"attributes: expected a dict, got {type(value).__name__}")
    out = {}
    for name, v in value.items():
        if not isinstance(name, str) or not name:
            raise InputError(f"attributes: a name must be a non-empty string, got {_short(name)}")
        if isinstance(v, (bool, np.bool_)):
            v = bool(v)
        elif isinstance(v, numbers.Real):
            v = str(v)
        elif not isinstance(v, str):
            raise InputError(f"attribute {name}: expected a string, a number or True/False, got {type(v).__name__}")
        out[name.replace("_", "-")] = v
    return out


def _leaves(value):
    if isinstance(value, np.ndarray):
        yield from value.ravel().tolist()
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
