#!/usr/bin/env python3
"""ctest: nnhal_cts --trace FILE --profile over a few corpus files, then checks that

- FILE is valid JSON in the trace-event format: a traceEvents list of complete events ("ph": "X")
  with name, cat, ts, dur, pid and tid (one metadata event naming the process);
- every execution's node spans lie inside it (same thread), every WHILE iteration inside a
  WHILE node, and there is at least one node span per execution;
- the --profile table lists, per operation, exactly the number of node spans in the trace.

usage: check_trace.py NNHAL_CTS OUT.json PATH...
"""
import json
import re
import subprocess
import sys


def main():
    cts, out, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    run = subprocess.run([cts, "--trace", out, "--profile", *paths], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"nnhal_cts failed ({run.returncode}):\n{run.stdout}\n{run.stderr}")
    with open(out, encoding="utf-8") as f:
        trace = json.load(f)  # raises on invalid JSON
    events = trace["traceEvents"]
    complete = [e for e in events if e.get("ph") == "X"]
    meta = [e for e in events if e.get("ph") == "M"]
    if len(meta) != 1 or len(complete) + len(meta) != len(events):
        sys.exit("unexpected event phases")
    for e in complete:
        for key in ("name", "cat", "ts", "dur", "pid", "tid"):
            if key not in e:
                sys.exit(f"event without {key}: {e}")
        if e["dur"] < 0:
            sys.exit(f"negative duration: {e}")

    def within(inner, outer):
        return (inner["tid"] == outer["tid"] and outer["ts"] <= inner["ts"]
                and inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"] + 1e-3)

    by_cat = {}
    for e in complete:
        by_cat.setdefault(e["cat"], []).append(e)
    executions, nodes = by_cat.get("execution", []), by_cat.get("node", [])
    iterations, prepares = by_cat.get("iteration", []), by_cat.get("prepare", [])
    if not executions or not nodes or not iterations or not prepares:
        sys.exit(f"missing span kinds: { {k: len(v) for k, v in by_cat.items()} }")
    executions.sort(key=lambda e: (e["tid"], e["ts"]))
    for n in nodes:
        if not any(within(n, x) for x in executions):
            sys.exit(f"node span outside every execution: {n}")
    loops = [n for n in nodes if n["name"] == "WHILE"]
    for it in iterations:
        if not any(within(it, w) for w in loops):
            sys.exit(f"iteration span outside every WHILE node: {it}")
    for x in executions:
        if x["args"]["status"] == "NONE" and not any(within(n, x) for n in nodes):
            sys.exit(f"a successful execution without node spans: {x}")

    counts = {}
    for n in nodes:
        counts[n["name"]] = counts.get(n["name"], 0) + 1
    table = run.stdout.split("profile (", 1)
    if len(table) != 2:
        sys.exit("no profile table in the output")
    profiled = {}
    for line in table[1].splitlines()[2:]:
        m = re.match(r"^([A-Z0-9_]+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+%$", line)
        if not m:
            break
        profiled[m.group(1)] = int(m.group(2))
    if profiled != counts:
        sys.exit(f"profile counts {profiled} differ from the trace's node spans {counts}")
    print(f"{len(complete)} events: {len(prepares)} prepare, {len(executions)} execution, "
          f"{len(nodes)} node, {len(iterations)} iteration; profile agrees: {counts}")


if __name__ == "__main__":
    main()
