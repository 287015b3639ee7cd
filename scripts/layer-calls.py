#!/usr/bin/env python3
"""layer-calls.py: the calls between the files of kernel/events/, by layer.

  scripts/layer-calls.py [--pairs] [--up] [DIR]

Reads the .c and .h files of DIR (default linux/kernel/events, the test
PMUs of its test/ included), finds the functions each file defines (a
header's inline functions count as its .c file's) and, in every function
body, the calls to functions another file defines.  Each file's layer is
taken from the layer table of design.rst ("Layers"); a call from a file
to a file of a higher layer is an upward call.  Prints the number of
file pairs tied by calls, and of upward pairs and calls; --pairs lists
every pair, --up every upward call with its caller.  The scan is
lexical: macros that call functions and calls through pointers are not
seen.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESIGN = os.path.join(ROOT, "linux/Documentation/perf/core/design.rst")

DEF_RE = re.compile(r"^(?:static\s+)?(?:inline\s+|__always_inline\s+|noinline\s+)*"
                    r"[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(([^;]*)$")
CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do",
            "typeof", "__typeof__", "defined", "else"}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def functions(path):
    """(name, is_static, body) of each function defined in @path."""
    lines = strip_comments(open(path).read()).split("\n")
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = DEF_RE.match(line)
        if not m or line.startswith((" ", "\t", "#")) or \
                m.group(1) in KEYWORDS:
            i += 1
            continue
        # the signature may continue; the body starts at a '{' line
        j = i
        while j < len(lines) and "{" not in lines[j] and ";" not in lines[j]:
            j += 1
        if j >= len(lines) or ";" in lines[j].split("{")[0]:
            i = j + 1
            continue
        depth = 0
        body = []
        k = j
        while k < len(lines):
            depth += lines[k].count("{") - lines[k].count("}")
            body.append(lines[k])
            if depth <= 0 and "}" in lines[k]:
                break
            k += 1
        out.append((m.group(1), line.startswith("static"), "\n".join(body)))
        i = k + 1
    return out


def unit_of(path, top):
    """A header belongs to its .c file; one without (internal.h) is its own."""
    rel = os.path.relpath(path, top)
    if rel.endswith(".h") and os.path.exists(os.path.join(top, rel[:-2] + ".c")):
        return rel[:-2] + ".c"
    return rel


def layers():
    """file -> layer number, from design.rst's "Layers" table."""
    table = {}
    text = open(DESIGN).read()
    sec = re.search(r"\nLayers\n-+\n(.*?)(\n\S[^\n]*\n[-=]+\n|\Z)", text, re.S)
    if not sec:
        return table
    current = None
    for line in sec.group(1).split("\n"):
        m = re.match(r"^(\d+)\s", line)
        if m:
            current = int(m.group(1))
        if current is None:
            continue
        if line.startswith("="):	# the table's closing rule
            break
        for f in re.findall(r"``([\w/]+\.c)``", line):
            table[f] = current
    return table


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    top = args[0] if args else os.path.join(ROOT, "linux/kernel/events")
    paths = []
    for d, _, files in os.walk(top):
        paths += [os.path.join(d, f) for f in files if f.endswith((".c", ".h"))]
    defs = {}		# non-static name -> unit
    bodies = []		# (unit, function, body)
    for p in sorted(paths):
        unit = unit_of(p, top)
        for name, static, body in functions(p):
            if not static or p.endswith(".h"):
                defs.setdefault(name, unit)
            bodies.append((unit, name, body))
    calls = {}		# (from, to) -> [(caller, callee)]
    for unit, fn, body in bodies:
        for callee in set(CALL_RE.findall(body)):
            to = defs.get(callee)
            if to and to != unit and callee != fn:
                calls.setdefault((unit, to), []).append((fn, callee))
    layer = layers()
    layer["internal.h"] = 0		# the helpers every file shares
    up = {k: v for k, v in calls.items()
          if k[0] in layer and k[1] in layer and layer[k[0]] < layer[k[1]]}
    unplaced = sorted({u for k in calls for u in k if u not in layer})
    print("file pairs tied by calls: %d (%d calls)" %
          (len(calls), sum(len(v) for v in calls.values())))
    print("upward pairs: %d (%d calls)" %
          (len(up), sum(len(v) for v in up.values())))
    if unplaced:
        print("files without a layer: " + " ".join(unplaced))
    if "--pairs" in sys.argv:
        for (a, b), v in sorted(calls.items()):
            print("  %-22s -> %-22s %3d" % (a, b, len(v)))
    if "--up" in sys.argv:
        for (a, b), v in sorted(up.items()):
            print("  %s (%d) -> %s (%d):" % (a, layer[a], b, layer[b]))
            for caller, callee in sorted(set(v)):
                print("      %s() -> %s()" % (caller, callee))


if __name__ == "__main__":
    main()
