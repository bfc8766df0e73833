#!/usr/bin/env python3
"""ctest: the documents agree with the code.

- every fenced code block preceded by a line `<!-- file: PATH -->` in README.md and docs/*.md is
  exactly the file PATH (relative to the repository root), so the programs shown are the ones
  ctest builds and runs;
- with --matrix PROGRAM: docs/support-matrix.md is exactly what `PROGRAM` prints, and the
  README's "Operations with kernels today:" list is what `PROGRAM --list` prints.

usage: check_docs.py ROOT [--matrix PROGRAM]
"""
import pathlib
import re
import subprocess
import sys


def code_blocks(text):
    """(path, block) for each fenced block right after a `<!-- file: PATH -->` line."""
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        m = re.fullmatch(r"<!-- file: (\S+) -->", line.strip())
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            found.append((m.group(1), None))
            continue
        end = i + 2
        while end < len(lines) and lines[end] != "```":
            end += 1
        found.append((m.group(1), "\n".join(lines[i + 2:end]) + "\n"))
    return found


def main():
    root = pathlib.Path(sys.argv[1])
    program = sys.argv[3] if len(sys.argv) == 4 and sys.argv[2] == "--matrix" else None
    problems, checked = [], 0
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for path, block in code_blocks(doc.read_text(encoding="utf-8")):
            checked += 1
            if block is None:
                problems.append(f"{doc.name}: no code block after the marker for {path}")
            elif block != (root / path).read_text(encoding="utf-8"):
                problems.append(f"{doc.name}: the block marked {path} differs from that file")
    if checked == 0:
        problems.append("no marked code block found")
    if program:
        matrix = subprocess.run([program], capture_output=True, text=True, check=True).stdout
        if matrix != (root / "docs" / "support-matrix.md").read_text(encoding="utf-8"):
            problems.append("docs/support-matrix.md differs from nnhal_support_matrix's output "
                            "(regenerate: build/bin/nnhal_support_matrix > docs/support-matrix.md)")
        listed = subprocess.run([program, "--list"], capture_output=True, text=True, check=True).stdout.strip()
        readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
        m = re.search(r"Operations with kernels today: ([A-Z0-9_, ]+)\.", readme)
        if not m:
            problems.append("README.md has no 'Operations with kernels today: ...' sentence")
        elif m.group(1) != listed:
            problems.append(f"README.md lists the operations with kernels as\n  {m.group(1)}\nthe code has\n  {listed}")
    if problems:
        sys.exit("\n".join(problems))
    print(f"{checked} code block(s) match their files" + ("; support matrix and README list in sync" if program else ""))


if __name__ == "__main__":
    main()
