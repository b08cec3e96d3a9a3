#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find loops among the files of one source directory.

A file depends on another when it includes it (#include "name") or when
its object file uses a symbol the other's object file defines (nm: a
function or variable, called or referenced). Loops are reported as
"a.c -> b.c -> a.c"; the exit status is 1 if there is any.

usage: layering.py SRCDIR OBJDIR [--add FROM:TO ...]
  --add FROM:TO   an extra dependency, for the negative control
"""
import glob
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes(srcdir):
    """{file: {header it includes}} for the .c and .h files of srcdir."""
    deps = {}
    for path in glob.glob(os.path.join(srcdir, '*.[ch]')):
        name = os.path.basename(path)
        with open(path, encoding='utf-8') as f:
            found = INCLUDE.findall(f.read())
        deps[name] = {h for h in found
                      if os.path.exists(os.path.join(srcdir, h))}
    return deps


def nm(obj):
    out = subprocess.run(['nm', obj], capture_output=True, text=True,
                         check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in 'TDBRG':
            defined.add(fields[2])
        elif len(fields) == 2 and fields[0] == 'U':
            used.add(fields[1])
    return defined, used


def calls(srcdir, objdir):
    """{file.c: {file.c whose symbols it uses}} from the object files."""
    defined_by, uses = {}, {}
    for obj in glob.glob(os.path.join(objdir, '*.o')):
        src = os.path.basename(obj)[:-2] + '.c'
        if not os.path.exists(os.path.join(srcdir, src)):
            continue        # the module's link and .mod.o
        defined, used = nm(obj)
        for sym in defined:
            defined_by[sym] = src
        uses[src] = used
    return {src: {defined_by[s] for s in used
                  if s in defined_by and defined_by[s] != src}
            for src, used in uses.items()}


def loops(graph):
    """One loop per strongly connected component of more than one file."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(a_loop(graph, comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def a_loop(graph, comp):
    """A path from the component's first file back to itself."""
    start = min(comp)
    paths = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph.get(v, ())):
            if w == start:
                return paths[v] + [start]
            if w in comp and w not in paths:
                paths[w] = paths[v] + [w]
                todo.append(w)
    return sorted(comp)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    srcdir, objdir = argv[1], argv[2]
    graph = includes(srcdir)
    for src, deps in calls(srcdir, objdir).items():
        graph.setdefault(src, set()).update(deps)
    extra = argv[3:]
    while extra:
        if extra[0] != '--add' or len(extra) < 2 or ':' not in extra[1]:
            sys.exit(__doc__)
        a, b = extra[1].split(':', 1)
        graph.setdefault(a, set()).add(b)
        extra = extra[2:]
    edges = sum(len(d) for d in graph.values())
    found = loops(graph)
    for loop in found:
        print('loop: ' + ' -> '.join(loop))
    print(f'{len(graph)} files, {edges} dependencies, {len(found)} loops')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
