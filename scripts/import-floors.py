#!/usr/bin/env python3
"""Imports running back up a floor in tool-core's src/.

The runtime is built along the flow of a call; each module sits on a floor, and a file should
import only from its own floor or the floors below it. This prints every import from a lower
floor to a higher one (file -> file, with both floors), then a summary line:
`imports running back up: N`.

usage: import-floors.py [SRC_DIR]   (default: tool-core/src)

The floors above the core are crates of their own (tool-text, tool-mcp, tool-agent, then
tool-runtime, which re-exports them all): Cargo refuses an import from a lower crate to a
higher one, so only the core's floors need this count. Before the split, run it on
tool-runtime/src.

Imports are read the way import-circles.py reads them (`use crate::...`, `use super::...`,
`crate::x::y` mentions; a crate's lib.rs and tests are left out): the resolution below is
copied from it, so both count the same edges.

The floors, bottom first (a module path prefix; the longest prefix that matches wins):

  0  the floor (`base/`, and what is left at the root: inject, tls): the types every stage
     uses: call, error (with its violations), error_format, spec, def, tool, context, output,
     state, approval, notify, and the primitives the stages share (the gate and a call's hold
     on it, the panic guard, JSON pointers, the schema reader); and `client/`, the questions a
     tool's context asks its client (`ToolContext` holds them)
  1  pipeline: one call's stages up to the tool run (limits, lookup, repair, resolve,
     validate, output check)
  2  dispatch: the run itself (gate, approval, concurrency, thread, timeout, panic)
  3  what every provider builds on: the export machinery (strict lowering, Gemini's subset,
     names, rewrites), the results' texts (`results/answer.rs`), the router's types (errors,
     `Routed`, shapes, the reply reader, the stream accumulator), and the agent's wire
     machinery (`Model`, its errors, sending, reading, bodies)
  4  providers: one folder per model API
  5  the doors over the providers' table: `Export` (and its cache), `results::answer*`,
     `router::{route, route_auto, detect}`, the streams' list
  6  resources, then the registry: the facade that calls the stages, exports and answers
  7  text: calls written in plain text, over a registry's specs (the crate tool-text)
  8  mcp (its import stays in the core, beside the builder that names it; serving is the
     crate tool-mcp), agent (the crate tool-agent), code (code mode, over the registry)
"""
import os
import re
import sys

FLOORS = [
    # (module path prefix, floor, floor name)
    ("", 0, "floor"),
    ("base", 0, "floor"),
    ("client", 0, "floor"),
    ("pipeline", 1, "pipeline"),
    ("dispatch", 2, "dispatch"),
    ("export", 3, "provider machinery"),
    ("results/answer", 3, "provider machinery"),
    ("router/error", 3, "provider machinery"),
    ("router/routed", 3, "provider machinery"),
    ("router/shape", 3, "provider machinery"),
    ("router/reply_json", 3, "provider machinery"),
    ("router/input", 3, "provider machinery"),
    ("router/stream/accumulate", 3, "provider machinery"),
    ("agent/model", 3, "provider machinery"),
    ("agent/error", 3, "provider machinery"),
    ("agent/transport", 3, "provider machinery"),
    ("providers", 4, "providers"),
    ("export/handle", 5, "doors"),
    ("export/cache", 5, "doors"),
    ("results", 5, "doors"),
    ("router", 5, "doors"),
    ("resources", 6, "registry"),
    ("registry", 6, "registry"),
    ("text", 7, "text"),
    ("mcp", 8, "mcp/agent"),
    ("agent", 8, "mcp/agent"),
    ("code", 8, "mcp/agent"),
]

USE = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
GROUP = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*?)\}", re.S)


def module_of(root, path):
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] == "mod":
        rel = rel[:-1]
    return rel


def file_of(root, parts):
    """The file holding the longest prefix of `parts` that is a module."""
    for n in range(len(parts), 0, -1):
        base = os.path.join(root, *parts[:n])
        for cand in (base + ".rs", os.path.join(base, "mod.rs")):
            if os.path.isfile(cand):
                return cand
    return None


def reexports(root, path):
    """Names a module file hands on with `pub use` (and `pub(crate) use`): name -> module path."""
    out = {}
    if not os.path.isfile(path):
        return out
    text = re.sub(r"//[^\n]*", "", open(path, encoding="utf-8", errors="replace").read())
    me = module_of(root, path) if os.path.basename(path) not in ("lib.rs", "main.rs") else []
    for m in re.finditer(r"pub(?:\([a-z]+\))?\s+use\s+([^;]+);", text, re.S):
        body = m.group(1).strip()
        g = re.match(r"(?:(crate|self|super)::)?([A-Za-z0-9_:]*?)::\{(.*)\}$", body, re.S)
        if g:
            head, prefix, inner = g.group(1), g.group(2), g.group(3)
            items = [i.strip().split(" as ") for i in re.split(r",", re.sub(r"\{[^}]*\}", "", inner)) if i.strip()]
            for it in items:
                name = it[-1].strip()
                if name and name != "self":
                    out[name] = (head, prefix.split("::") + [it[0].strip()])
        else:
            parts = body.split(" as ")
            path_ = parts[0].strip().split("::")
            head = path_[0] if path_[0] in ("crate", "self", "super") else None
            if head:
                path_ = path_[1:]
            out[parts[-1].strip().split("::")[-1]] = (head, path_)
    resolved = {}
    for name, (head, parts) in out.items():
        base = [] if head in (None, "crate") and not me else (me if head in (None, "self") else me[:-1])
        if head == "crate":
            base = []
        resolved[name] = base + [p for p in parts if p]
    return resolved


def scan(root):
    """Every non-test file -> the files it imports (as import-circles.py reads them)."""
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".rs") and not n.endswith("_tests.rs") and n != "tests.rs":
                files.append(os.path.join(d, n))
    lib = {os.path.join(root, "lib.rs"), os.path.join(root, "main.rs")}
    root_names = {}
    for l in lib:
        root_names.update(reexports(root, l))
    edges = {f: set() for f in files if f not in lib}
    for f in edges:
        text = open(f, encoding="utf-8", errors="replace").read()
        text = re.sub(r"//[^\n]*", "", text)
        cut = text.find("#[cfg(test)]")
        if cut >= 0:
            text = text[:cut]
        me = module_of(root, f)
        paths = []
        for m in GROUP.finditer(text):
            head, prefix, inner = m.group(1), m.group(2), m.group(3)
            for item in re.split(r"[,\s]+", re.sub(r"\{[^}]*\}", "", inner)):
                item = item.split(" as ")[0].strip()
                if item and item != "self":
                    paths.append((head, prefix + "::" + item))
        for m in USE.finditer(text):
            paths.append((m.group(1), m.group(2)))
        for head, tail in paths:
            parts = [p for p in tail.split("::") if p]
            if head == "crate":
                base = []
            elif head == "super":
                base = me[:-1]
                while parts and parts[0] == "super":
                    parts, base = parts[1:], base[:-1]
            else:
                base = me
            if head == "crate" and parts and parts[0] in root_names and not os.path.isfile(os.path.join(root, parts[0] + ".rs")) and not os.path.isdir(os.path.join(root, parts[0])):
                parts = root_names[parts[0]] + parts[1:]
            target = file_of(root, base + parts)
            if target and target != f and target in edges:
                edges[f].add(target)
    return edges


def floor_of(root, path):
    """The floor of the longest prefix in FLOORS matching the file's module path."""
    module = "/".join(module_of(root, path))
    best = None
    for prefix, number, name in FLOORS:
        if prefix == "" or module == prefix or module.startswith(prefix + "/"):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, number, name)
    return best[1], best[2]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "tool-core/src"
    if not os.path.isdir(root):
        print(__doc__)
        return 2
    edges = scan(root)
    up = []
    for f in sorted(edges):
        low, low_name = floor_of(root, f)
        for t in sorted(edges[f]):
            high, high_name = floor_of(root, t)
            if high > low:
                up.append((os.path.relpath(f, root), low, low_name, os.path.relpath(t, root), high, high_name))
    for f, low, low_name, t, high, high_name in up:
        print(f"{f} ({low} {low_name}) -> {t} ({high} {high_name})")
    print(f"imports running back up: {len(up)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
