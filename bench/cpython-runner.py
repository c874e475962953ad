"""Process-per-problem CPython runner, built like the official human-eval harness.

openai/human-eval `evaluate_functional_correctness` runs every problem's program
(prompt + completion + test + `check(entry_point)`) in a fresh process with a time
limit and collects passed / failed. This runner does the same with a fresh
`python3` interpreter per problem (subprocess instead of multiprocessing, no
reliability guard: it only runs the dataset's own canonical solutions), with the
harness's default of 4 worker threads (`evaluate_functional_correctness(..., n_workers=4)`,
human-eval/evaluation.py) unless `--workers` says otherwise. It is the baseline of `npm run bench:code`: the
whole-process time of `verify-code` on the same problems is divided by this
runner's whole-process time.

Usage: python3 bench/cpython-runner.py [--dataset FILE] [--timeout SECONDS] [--workers N]
Prints `N passed, M failed` and the failing task ids; exit status 0.
"""

import argparse
import concurrent.futures
import gzip
import json
import os
import subprocess
import sys


def read_problems(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def program_of(problem):
    # human-eval execution.py: problem["prompt"] + completion + "\n" + problem["test"] + "\n" + f"check({entry_point})"
    return problem["prompt"] + problem["canonical_solution"] + "\n" + problem["test"] + "\n" + f"check({problem['entry_point']})\n"


def run_one(problem, timeout):
    try:
        done = subprocess.run([sys.executable, "-c", program_of(problem)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
        return problem["task_id"], "passed" if done.returncode == 0 else "failed"
    except subprocess.TimeoutExpired:
        return problem["task_id"], "timed out"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "humaneval", "HumanEval.jsonl.gz"))
    parser.add_argument("--timeout", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    problems = read_problems(args.dataset)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(lambda problem: run_one(problem, args.timeout), problems))
    failed = [task for task, outcome in results if outcome != "passed"]
    for task in failed:
        print(f"FAIL {task}")
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed ({args.workers} worker threads)")


if __name__ == "__main__":
    main()
