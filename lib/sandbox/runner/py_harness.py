# Test harness of the Python sandbox (part 3 of 4; see py_codec.py).
#
#   "C" (candidate) interpreter: runs the candidate program (c_load) and its
#       functions (c_call); arguments and results cross as plain data.
#   "T" (test) interpreter: runs the test code (t_run). Names the candidate defined
#       are stubs that call into C through a JavaScript bridge function. Candidate
#       code never runs in T, so it cannot patch `assert`, builtins, modules or
#       frames that the test uses.

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


def c_load(setup, code):
    """Runs setup + candidate code in a fresh namespace. Returns JSON {names} or {error}."""
    ns = _fresh_namespace()
    _candidate_ns[0] = ns
    _role[0] = "C"
    _handles.clear()
    try:
        if setup:
            exec(compile(setup, "<setup>", "exec"), ns)
        exec(compile(code, "<candidate>", "exec"), ns)
    except BaseException as exc:  # noqa: BLE001 - everything is reported
        return _dumps({
            "error": _describe(exc, "<candidate>", code),
            "interrupt": isinstance(exc, KeyboardInterrupt),
        })
    names = []
    for key, value in list(dict.items(ns)):
        if type(key) is str and not key.startswith("__") and callable(value) and type(value) is not types.ModuleType:
            names.append(key)
    return _dumps({"names": names})


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


def t_run(setup, test_code, names_json, entry_point=""):
    """Runs one test against stubs for `names`. Returns JSON {status, message}.

    A candidate function named like a builtin (`abs`, `len`...) is not exposed, so
    the test keeps the real builtin; the entry point itself is always exposed.
    """
    ns = _fresh_namespace()
    for name in json.loads(names_json):
        if name in _pristine_builtins and name != entry_point:
            continue
        ns[name] = _make_stub(name)
    _callbacks.clear()
    _setup_classes.clear()
    try:
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
