"""What reaches a widget from Python, checked before it is set.

Each check returns a clean value or raises :class:`InputError` (a ``ValueError``) whose
message names the input and says what it expects; the widget and its state are then left
as they were. The limits are the page's (``www/js/cell-checks.js``): at most 16 rows and
columns, finite numbers within ±1e300, tokens of at most 8 characters.
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
    """``value`` as a C-contiguous float64 array of 2 dimensions, or InputError.

    ``shape`` names the expected shape in the message (``"T×C"``, ``"d×C"``).
    """
    what = f"{name}: expected a {shape} matrix of numbers"
    if value is None:
        raise InputError(f"{what}, got None")
    if isinstance(value, (str, bytes)):
        raise InputError(f"{what}, got a string ({_short(value)})")
    if isinstance(value, np.ndarray):
        array = value
    else:
        try:
            array = np.array(value, dtype=object)
        except ValueError:  # NumPy ≥ 1.24 refuses ragged nesting outright
            raise InputError(f"{what}, got a ragged list (rows of different lengths)") from None
    if array.dtype == object or array.dtype.kind in "USV":
        flat = list(_leaves(value))
        if any(isinstance(v, (str, bytes)) for v in flat):
            bad = next(v for v in flat if isinstance(v, (str, bytes)))
            raise InputError(f"{what}, got a string in it ({_short(bad)})")
        if array.dtype == object and array.ndim < 2 and any(isinstance(v, (list, tuple, np.ndarray)) for v in array.flat):
            raise InputError(f"{what}, got a ragged list (rows of different lengths)")
        if not all(isinstance(v, numbers.Real) for v in flat):
            bad = next(v for v in flat if not isinstance(v, numbers.Real))
            raise InputError(f"{what}, got {type(bad).__name__} {_short(bad)}")
    if array.dtype.kind == "c":
        raise InputError(f"{what}, got complex numbers")
    if array.dtype.kind == "b":
        raise InputError(f"{what}, got booleans")
    if array.ndim != 2:
        raise InputError(f"{what}, got {array.ndim} dimension{'s' if array.ndim != 1 else ''} (shape {array.shape})")
    rows, cols = array.shape
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InputError(f"{what} with 1 to {MAX_SIDE} rows and columns, got shape {rows}×{cols}")
    try:
        out = np.ascontiguousarray(array, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
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


def tokens(value) -> list[str]:
    """``value`` as a list of short strings, or InputError."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise InputError(f"tokens: expected a list of strings (one per row of x), got {_short(value)}")
    for t in value:
        if not isinstance(t, str):
            raise InputError(f"tokens: expected strings, got {type(t).__name__} {_short(t)}")
        if not 1 <= len(t) <= MAX_TOKEN:
            raise InputError(f"tokens: each token has 1 to {MAX_TOKEN} characters, got {t!r}")
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
