# Plain-data codec of the Python sandbox (part 1 of 4 loaded into each Pyodide
# interpreter by python-engine.cjs, in this order: py_codec.py, py_refs.py,
# py_harness.py, py_guard.py, all into one private namespace dict).
#
# Values cross between the candidate interpreter (C) and the test interpreter (T)
# as JSON. Lists are JSON arrays; str, int, float, bool and None are JSON values;
# every JSON object is a tag {"$t": kind, "v": ...} (tuple, dict, set, frozenset,
# bytes, bytearray, complex, decimal, fraction, range, big int, nan/inf, iter, deque,
# type). Values that are not plain data stay where they live (py_refs.py: "ref",
# "obj", "cb"). Sets and dicts keep their iteration order (_ordered_set).
# Encoding uses the base-class methods (int.__int__, list.__iter__, dict.items...),
# so subclasses lose their behaviour: an object whose __eq__ is always True, or a
# list subclass with a patched __eq__, cannot reach the test. Anything else raises
# a reference (py_refs.py) or, where that is not allowed, TypeError ("cannot cross the
# sandbox boundary").

import builtins as _builtins_module

# A private copy of the builtins for every harness function defined below (all three
# files share this namespace): a candidate that patches the `builtins` module
# (`builtins.len = ...`) does not change how the harness itself behaves.
__builtins__ = dict(_builtins_module.__dict__)

import binascii
import json
import math
import types
import decimal as _decimal
import fractions as _fractions
from collections import deque as _deque

MAX_DEPTH = 400
MAX_ITEMS = 2_000_000
MAX_CHARS = 16 * 1024 * 1024
MAX_ITER = 100_000


class _Budget:
    __slots__ = ("items", "chars")

    def __init__(self):
        self.items = 0
        self.chars = 0


def _boundary_error(message):
    return TypeError(message)


def _encode(value, depth, budget, seen):
    if depth > MAX_DEPTH:
        raise _boundary_error("value is nested too deeply to cross the sandbox boundary")
    budget.items += 1
    if budget.items > MAX_ITEMS:
        raise _boundary_error("value is too large to cross the sandbox boundary")
    t = type(value)
    if value is None or t is bool:
        return value
    if isinstance(value, int):
        v = int.__int__(value)
        if -(2 ** 1000) < v < 2 ** 1000:
            return v
        return {"$t": "int", "v": format(v, "x")}
    if isinstance(value, float):
        v = float.__float__(value)
        if math.isfinite(v):
            return v
        return {"$t": "float", "v": repr(v)}
    if isinstance(value, str):
        v = str.__str__(value)
        budget.chars += len(v)
        if budget.chars > MAX_CHARS:
            raise _boundary_error("value is too large to cross the sandbox boundary")
        return v
    if isinstance(value, complex):
        v = complex.__complex__(value)
        return {"$t": "complex", "v": [_encode(v.real, depth + 1, budget, seen), _encode(v.imag, depth + 1, budget, seen)]}
    if isinstance(value, (bytes, bytearray)):
        raw = bytes(value)
        budget.chars += len(raw) * 2
        if budget.chars > MAX_CHARS:
            raise _boundary_error("value is too large to cross the sandbox boundary")
        return {"$t": "bytearray" if isinstance(value, bytearray) else "bytes", "v": binascii.b2a_base64(raw, newline=False).decode("ascii")}
    if t is _decimal.Decimal:
        return {"$t": "decimal", "v": str(value)}
    if t is _fractions.Fraction:
        return {"$t": "fraction", "v": [_encode(value.numerator, depth + 1, budget, seen), _encode(value.denominator, depth + 1, budget, seen)]}
    if isinstance(value, range):
        return {"$t": "range", "v": [value.start, value.stop, value.step]}
    if isinstance(value, type):
        node = _type_node(value)
        if node is not None:
            return node
    key = id(value)
    if key in seen:
        # A value that contains itself: it stays where it lives (py_refs.py) or is refused.
        node = _fallback_encode(value, depth, budget, seen)
        if node is not None:
            return node
        raise _boundary_error("a value that contains itself cannot cross the sandbox boundary")
    seen.add(key)
    try:
        if isinstance(value, list):
            return [_encode(item, depth + 1, budget, seen) for item in list.__iter__(value)]
        if isinstance(value, tuple):
            return {"$t": "tuple", "v": [_encode(item, depth + 1, budget, seen) for item in tuple.__iter__(value)]}
        if isinstance(value, dict):
            return {"$t": "dict", "v": [[_encode(k, depth + 1, budget, seen), _encode(v, depth + 1, budget, seen)] for k, v in dict.items(value)]}
        if isinstance(value, frozenset):
            return {"$t": "frozenset", "v": [_encode(item, depth + 1, budget, seen) for item in frozenset.__iter__(value)]}
        if isinstance(value, set):
            return {"$t": "set", "v": [_encode(item, depth + 1, budget, seen) for item in set.__iter__(value)]}
        if isinstance(value, (types.GeneratorType, map, filter, zip, enumerate, reversed)) or type(value).__name__ in (
            "dict_keyiterator", "dict_valueiterator", "dict_itemiterator", "list_iterator", "tuple_iterator",
            "range_iterator", "str_ascii_iterator", "str_iterator", "set_iterator", "dict_keys", "dict_values",
            "dict_items", "count", "cycle", "repeat", "chain", "islice", "product", "permutations",
            "combinations", "combinations_with_replacement", "accumulate", "groupby", "starmap",
            "takewhile", "dropwhile", "filterfalse", "zip_longest", "pairwise", "batched", "compress", "tee",
        ):
            items = []
            for item in value:
                if len(items) >= MAX_ITER:
                    raise _boundary_error(f"an iterator with more than {MAX_ITER} items cannot cross the sandbox boundary")
                items.append(_encode(item, depth + 1, budget, seen))
            return {"$t": "iter", "v": items}
        if t is _deque:
            return {"$t": "deque", "v": [_encode(item, depth + 1, budget, seen) for item in _deque.__iter__(value)], "max": value.maxlen}
        node = _fallback_encode(value, depth, budget, seen)
        if node is not None:
            return node
    finally:
        seen.discard(key)
    raise _boundary_error(
        f"a value of type {t.__qualname__} cannot cross the sandbox boundary "
        "(use plain data: int, float, str, bool, None, list, tuple, dict, set, bytes)"
    )


def _decode(node):
    if isinstance(node, list):
        return [_decode(item) for item in node]
    if not isinstance(node, dict):
        return node
    tag = node.get("$t")
    v = node.get("v")
    if tag == "int":
        return int(v, 16)
    if tag == "float":
        return float(v)
    if tag == "complex":
        return complex(_decode(v[0]), _decode(v[1]))
    if tag == "bytes":
        return binascii.a2b_base64(v)
    if tag == "bytearray":
        return bytearray(binascii.a2b_base64(v))
    if tag == "decimal":
        return _decimal.Decimal(v)
    if tag == "fraction":
        return _fractions.Fraction(_decode(v[0]), _decode(v[1]))
    if tag == "range":
        return range(v[0], v[1], v[2])
    if tag == "tuple":
        return tuple(_decode(item) for item in v)
    if tag == "dict":
        return {_decode(k): _decode(val) for k, val in v}
    if tag == "set":
        return _ordered_set([_decode(item) for item in v])
    if tag == "frozenset":
        return frozenset(_ordered_set([_decode(item) for item in v]))
    if tag == "iter":
        return iter([_decode(item) for item in v])
    if tag == "deque":
        return _deque([_decode(item) for item in v], node.get("max"))
    if tag in ("ref", "type", "obj", "cb"):
        return _decode_special(tag, node)
    raise ValueError(f"unknown boundary tag {tag!r}")


def _dumps(node):
    return json.dumps(node, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _ordered_set(items):
    """A set whose iteration order is `items`' (the order the sender's set had).

    Both interpreters hash alike (same build, same snapshot), so adding the items in
    the sender's iteration order reproduces it unless collisions placed them
    differently; then the insertion order is repaired (an item iterated too late is
    inserted earlier) until the orders agree, at most len(items) rounds.
    """
    order = list(items)
    result = set(order)
    if len(result) != len(order):
        return result
    for _ in range(len(order)):
        got = list(result)
        at = next((i for i, (a, b) in enumerate(zip(got, items)) if a is not b), -1)
        if at < 0:
            return result
        wanted = items[at]
        order.remove(wanted)
        order.insert(max(0, order.index(got[at])), wanted)
        result = set(order)
    return result
