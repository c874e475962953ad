# Values that are not plain data (part 2 of 4; see py_codec.py): they stay in the
# interpreter where they live and the other side gets a reference.
#
#   C -> T  "ref"   an object of the candidate (an instance of a class it defines, a
#                   re.Match, a function, a cyclic list...). T holds a _Ref; every
#                   operation on it runs in C on the real object and only its result
#                   crosses back (plain data, or another reference).
#   T -> C  "ref"   a _Ref passed back to the candidate: C gets its own object again.
#           "type"  a builtin / stdlib class (both interpreters have it) or a class
#                   the trusted set-up code defines (looked up by name in C).
#           "obj"   an instance of a set-up class (MBPP `test_setup_code` trees),
#                   copied by value: C builds one of its own class with the same fields.
#           "cb"    a test-side callable (a key function, a lambda): C calls back into
#                   T with plain arguments.
#
# The test's own operators stay the sandbox's (decision 0019): a reference compares
# equal to test data only when its type keeps object identity as equality, or is an
# allowlisted stdlib value type; a truth value, `==` or ordering defined by the
# program's own classes against test data is refused with "cannot cross the sandbox
# boundary", so an object whose __eq__ is always True still cannot pass an assert.

import builtins as _refs_builtins
import sys as _refs_sys
from itertools import islice as _islice

_role = [""]  # "C" or "T", set once by c_load / t_init
_handles = {}  # C: handle id -> object, for the current test
_callbacks = {}  # T: callback id -> callable, for the current test
_setup_classes = {}  # T: id(class) -> name, for classes bound by the set-up code
_c_bridge = [None]  # C: JavaScript function calling t_callback in T
_VALUE_MODULES = frozenset({"datetime", "re", "decimal", "fractions", "ipaddress", "uuid", "pathlib"})


def _system_type(t):
    """A class that existed before user code ran: a static (C) type or one in the guard's baseline."""
    return id(t) in _baseline_types or not (type.__getattribute__(t, "__flags__") & (1 << 9))  # Py_TPFLAGS_HEAPTYPE


def _type_node(t):
    """A plain description of a class both interpreters can resolve, or None."""
    name = getattr(t, "__qualname__", None)
    module = getattr(t, "__module__", None)
    if not isinstance(name, str) or not isinstance(module, str):
        return None
    if module == "builtins" and getattr(_refs_builtins, name, None) is t:
        return {"$t": "type", "m": module, "n": name}
    if module == "__main__":
        if _role[0] == "T" and _setup_classes.get(id(t)) == name:
            return {"$t": "type", "m": module, "n": name}
        return None
    target = _refs_sys.modules.get(module)
    for part in name.split("."):
        target = getattr(target, part, None) if target is not None else None
    if target is t and _system_type(t):
        return {"$t": "type", "m": module, "n": name}
    return None


def _lookup_type(node):
    module, name = str(node.get("m")), str(node.get("n"))
    if module == "__main__":
        ns = _candidate_ns[0] if _role[0] == "C" else None
        found = ns.get(name) if ns is not None else None
    elif module == "builtins":
        found = getattr(_refs_builtins, name, None)
    else:
        found = _refs_sys.modules.get(module)
        for part in name.split("."):
            found = getattr(found, part, None) if found is not None else None
    if not isinstance(found, type):
        raise _boundary_error(f"the class {module}.{name} does not exist on the other side of the sandbox boundary")
    return found


def _fallback_encode(value, depth, budget, seen):
    """Encodes what plain data cannot: see the table at the top. None: refuse."""
    if _role[0] == "C":
        handle = len(_handles) + 1
        _handles[handle] = value
        return {"$t": "ref", "id": handle, "type": type(value).__qualname__}
    if _role[0] == "T":
        if type(value) is _Ref:
            return {"$t": "ref", "id": object.__getattribute__(value, "_rid")}
        if id(type(value)) in _setup_classes and isinstance(getattr(value, "__dict__", None), dict):
            fields = [[k, _encode(v, depth + 1, budget, seen)] for k, v in dict.items(value.__dict__) if type(k) is str]
            return {"$t": "obj", "n": _setup_classes[id(type(value))], "v": fields}
        if callable(value) and not isinstance(value, type):
            handle = len(_callbacks) + 1
            _callbacks[handle] = value
            return {"$t": "cb", "id": handle}
    return None


def _decode_special(tag, node):
    if tag == "type":
        return _lookup_type(node)
    if tag == "ref":
        if _role[0] == "C":
            if node.get("id") not in _handles:
                raise _boundary_error("a reference from an earlier test cannot cross the sandbox boundary")
            return _handles[node["id"]]
        ref = object.__new__(_Ref)
        object.__setattr__(ref, "_rid", node.get("id"))
        object.__setattr__(ref, "_rtype", str(node.get("type")))
        return ref
    if tag == "obj" and _role[0] == "C":
        cls = _lookup_type({"m": "__main__", "n": node.get("n")})
        obj = object.__new__(cls)
        for key, item in node.get("v"):
            object.__setattr__(obj, key, _decode(item))
        return obj
    if tag == "cb" and _role[0] == "C":
        return _make_callback(node.get("id"))
    raise ValueError(f"unexpected boundary tag {tag!r}")


# ---------------------------------------------------------------------------
# C side: operations on handles, callbacks into T
# ---------------------------------------------------------------------------

def _defined_by_program(t, names):
    """True when a class outside the baseline (defined by user code) defines one of `names`."""
    for klass in type.__getattribute__(t, "__mro__"):
        if _system_type(klass):
            continue
        if any(name in type.__getattribute__(klass, "__dict__") for name in names):
            return True
    return False


def _compare_plain(obj, op, other):
    t = type(obj)
    if op == "eq" and not _defined_by_program(t, ("__eq__",)) and getattr(t, "__eq__", None) is object.__eq__:
        return obj is other
    if _system_type(t) and t.__module__ in _VALUE_MODULES:
        return _COMPARE[op](obj, other)
    raise _boundary_error(
        f"comparing a {t.__qualname__} object with test data cannot cross the sandbox boundary "
        "(its comparison is defined by the program; compare its fields or plain data instead)"
    )


def _truth(obj):
    t = type(obj)
    if _system_type(t) or not _defined_by_program(t, ("__bool__", "__len__")):
        return bool(obj)
    raise _boundary_error(f"the truth value of a {t.__qualname__} object is defined by the program and cannot cross the sandbox boundary")


_COMPARE = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
}


def _apply(op, obj, args, kwargs):
    if op == "call":
        return obj(*args, **kwargs)
    if op == "getattr":
        return getattr(obj, args[0])
    if op == "bool":
        return _truth(obj)
    if op in ("repr", "str"):
        return repr(obj) if op == "repr" else str(obj)
    if op == "len":
        return len(obj)
    if op == "getitem":
        return obj[args[0]]
    if op == "contains":
        return args[0] in obj
    if op == "iter":
        return iter(obj)
    if op == "take":
        items = list(_islice(obj, args[0]))
        return [items, len(items) < args[0]]
    if op == "next":
        return next(obj)
    if op == "hash":
        return hash(obj)
    if op in _COMPARE:
        other = args[0]
        if args[1]:  # the other operand is a reference too: both are the program's
            return _COMPARE[op](obj, other)
        return _compare_plain(obj, op, other)
    raise ValueError(f"unknown operation {op!r}")


def c_op(payload):
    """Runs one operation of a T-side _Ref on the real object. Returns JSON like c_call."""
    try:
        op, handle, args, kwargs = _decode(json.loads(payload))
        if handle not in _handles:
            raise _boundary_error("a reference from an earlier test cannot cross the sandbox boundary")
        return _dumps({"ok": _encode(_apply(op, _handles[handle], args, kwargs), 0, _Budget(), set())})
    except BaseException as exc:  # noqa: BLE001 - reported to T
        return _error_reply(exc)


def c_init(bridge):
    _c_bridge[0] = bridge


def _make_callback(handle):
    bridge = _c_bridge[0]

    def callback(*args, **kwargs):
        payload = _dumps(_encode([handle, list(args), kwargs], 0, _Budget(), set()))
        return _reply_value(json.loads(str(bridge(payload))))

    return callback


# ---------------------------------------------------------------------------
# T side: the reference object, callbacks run for C
# ---------------------------------------------------------------------------

def _ref_op(ref, op, *args, **kwargs):
    payload = _dumps(_encode([op, object.__getattribute__(ref, "_rid"), list(args), kwargs], 0, _Budget(), set()))
    return _reply_value(json.loads(str(_bridge[0]("$op", payload))))


def _cmp(op):
    def method(self, other):
        return _ref_op(self, op, other, type(other) is _Ref)

    return method


class _Ref:
    """A candidate object that stays in C; every use runs there (see top of file)."""

    __slots__ = ("_rid", "_rtype")

    def __getattr__(self, name):
        return _ref_op(self, "getattr", name)

    def __setattr__(self, name, value):
        raise TypeError(f"cannot set attributes of a {object.__getattribute__(self, '_rtype')} object across the sandbox boundary")

    def __call__(self, *args, **kwargs):
        return _ref_op(self, "call", *args, **kwargs)

    def __bool__(self):
        return bool(_ref_op(self, "bool"))

    def __repr__(self):
        return str(_ref_op(self, "repr"))

    def __str__(self):
        return str(_ref_op(self, "str"))

    def __len__(self):
        return _ref_op(self, "len")

    def __getitem__(self, key):
        return _ref_op(self, "getitem", key)

    def __contains__(self, item):
        return bool(_ref_op(self, "contains", item))

    def __iter__(self):
        return _RefIterator(_ref_op(self, "iter"))

    def __next__(self):
        return _ref_op(self, "next")

    def __hash__(self):
        return _ref_op(self, "hash")

    __eq__ = _cmp("eq")
    __ne__ = _cmp("ne")
    __lt__ = _cmp("lt")
    __le__ = _cmp("le")
    __gt__ = _cmp("gt")
    __ge__ = _cmp("ge")


class _RefIterator:
    """Iterates a C-side iterator, fetching 1, 2, 4... up to 1024 items per crossing."""

    __slots__ = ("_source", "_buffer", "_done", "_batch")

    def __init__(self, source):
        self._source = source
        self._buffer = []
        self._done = False
        self._batch = 1

    def __iter__(self):
        return self

    def __next__(self):
        if not self._buffer:
            if self._done:
                raise StopIteration
            if type(self._source) is not _Ref:  # C returned plain data for iter(): a list of items
                self._buffer, self._done = list(self._source), True
            else:
                items, self._done = _ref_op(self._source, "take", self._batch)
                self._buffer = list(items)
                self._batch = min(self._batch * 2, 1024)
            self._buffer.reverse()
            if not self._buffer:
                raise StopIteration
        return self._buffer.pop()


def t_callback(payload):
    """Calls a test-side callable for C with plain arguments. Returns JSON like c_call."""
    try:
        handle, args, kwargs = _decode(json.loads(payload))
        return _dumps({"ok": _encode(_callbacks[handle](*args, **kwargs), 0, _Budget(), set())})
    except BaseException as exc:  # noqa: BLE001 - reported to C
        return _error_reply(exc)
