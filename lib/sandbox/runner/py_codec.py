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
import sys as _sys
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
            return {"$t": "frozenset", "v": [_encode(item, depth + 1, budget, seen) for item in frozenset.__iter__(value)], "m": _table_size(value)}
        if isinstance(value, set):
            return {"$t": "set", "v": [_encode(item, depth + 1, budget, seen) for item in set.__iter__(value)], "m": _table_size(value)}
        if isinstance(value, (types.GeneratorType, map, filter, zip, enumerate, reversed)) or type(value).__name__ in (
            "dict_keyiterator", "dict_valueiterator", "dict_itemiterator", "list_iterator", "tuple_iterator",
            "range_iterator", "str_ascii_iterator", "str_iterator", "set_iterator", "dict_keys", "dict_values",
            "dict_items", "count", "cycle", "repeat", "chain", "islice", "product", "permutations",
            "combinations", "combinations_with_replacement", "accumulate", "groupby", "starmap",
            "takewhile", "dropwhile", "filterfalse", "zip_longest", "pairwise", "batched", "compress", "tee",
        ):
            if _role[0] == "C":
                # The candidate's iterators stay lazy, as in CPython (an endless generator
                # is fine as long as the test stops): a reference, consumed on demand.
                return _fallback_encode(value, depth, budget, seen)
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
    if tag in ("set", "frozenset"):
        size = node.get("m")
        return _ordered_set([_decode(item) for item in v], size if type(size) is int and 8 <= size <= 2 ** 26 else 8, tag == "frozenset")
    if tag == "iter":
        return iter([_decode(item) for item in v])
    if tag == "deque":
        return _deque([_decode(item) for item in v], node.get("max"))
    if tag in ("ref", "type", "obj", "cb"):
        return _decode_special(tag, node)
    raise ValueError(f"unknown boundary tag {tag!r}")


def _dumps(node):
    return json.dumps(node, ensure_ascii=False, allow_nan=False, separators=(",", ":"))



# ---------------------------------------------------------------------------
# Set iteration order (decision 0019): both interpreters are one build and share the
# hash secret (one memory snapshot), so the receiver can rebuild the sender's table
# layout: the encoder sends the table size ("m"); _layout finds slots, in iteration
# order, on each item's probe path (CPython's set_add_entry: 9 linear probes, then
# perturbation) with every earlier path slot taken; the items are inserted so each
# comes after the items it had to skip, into a table presized to "m". The result is
# checked against the sender's order; when no layout is found (large or crowded
# tables) the plain rebuild is used.
# ---------------------------------------------------------------------------

_SET_BASE = _sys.getsizeof(set())
_SET_ENTRY = max(1, (_sys.getsizeof(set(range(5))) - _SET_BASE) // 32)
_HASH_BITS = (1 << _sys.hash_info.width) - 1


def _table_size(value):
    extra = _sys.getsizeof(value) - _SET_BASE
    return 8 if extra <= 0 else extra // _SET_ENTRY


def _probe(h, mask, limit):
    perturb = h & _HASH_BITS
    i = h & mask
    out = []
    while len(out) < limit:
        out.extend(range(i, i + (9 if i + 9 <= mask else 0) + 1))
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask
    return out


def _layout(items, size):
    """An insertion order that puts `items` in this iteration order in a `size` table, or None."""
    n = len(items)
    paths = [_probe(hash(x), size - 1, 2 * size + 10) for x in items]
    slot_of = [0] * n
    occupied = set()
    budget = [400 * n + 2000]

    def place(i, low, required):
        if i == n:
            return not required
        budget[0] -= 1
        if budget[0] < 0:
            return False
        need = set()
        for slot in paths[i]:
            if slot in occupied or slot in need:
                continue
            if slot <= low or any(r < slot for r in required) or any(p < slot for p in need):
                return False
            occupied.add(slot)
            slot_of[i] = slot
            if place(i + 1, slot, (required | need) - {slot}):
                return True
            occupied.discard(slot)
            need.add(slot)
        return False

    if not place(0, -1, frozenset()):
        return None
    owner = {slot_of[i]: i for i in range(n)}
    deps = [[owner[p] for p in paths[i][: paths[i].index(slot_of[i])]] for i in range(n)]
    order, state = [], [0] * n

    def visit(i):
        if state[i] == 1:
            return False
        if state[i] == 0:
            state[i] = 1
            if not all(visit(j) for j in deps[i]):
                return False
            state[i] = 2
            order.append(i)
        return True

    return [items[i] for i in order] if all(visit(i) for i in range(n)) else None


def _presized(order, size, frozen):
    if size <= 8:
        return frozenset(order) if frozen else set(order)
    fillers = [object() for _ in range(max(0, size // 4 - len(order)))]
    if frozen and fillers:
        return None
    if frozen:
        return frozenset(dict.fromkeys(order))
    result = set()
    result.update(dict.fromkeys(order + fillers))  # presized to `size`: no resize while filling
    for filler in fillers:
        result.discard(filler)
    return result


def _ordered_set(items, size=8, frozen=False):
    """A set (frozenset) of `items` iterating in their order when a layout is found."""
    plain = frozenset(items) if frozen else set(items)
    n = len(items)
    if len(plain) != n or n > 5000 or all(map(_is_same, plain, items)):
        return plain
    if 2 * n < size or (size == 8 and n <= 4):
        order = _layout(items, size)
        built = _presized(order, size, frozen) if order is not None else None
        if built is not None and _table_size(built) == size and all(map(_is_same, built, items)):
            return built
    return plain


def _is_same(a, b):
    return a is b
