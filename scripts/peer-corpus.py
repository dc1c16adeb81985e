#!/usr/bin/env python3
"""Extract the peers' own tool-parser test cases into a corpus our text router is replayed on.

Run from the repository root (Python 3 standard library only):

    python3 scripts/peer-corpus.py \\
        --vllm /work/peers/vllm-0.33.0 \\
        --llamacpp /work/peers/llama_cpp_python-0.3.36/vendor/llama.cpp \\
        [--sglang DIR_OF_test/registered/function_call [--sglang-commits COMMITS.json]] \\
        [--out tool-runtime/tests/fixtures/peer_corpus]

It writes one `<peer>-<parser>.jsonl` file per peer parser name into `--out` (replacing the
`*.jsonl` files there, except `differences.jsonl`), and prints, per peer and parser, the cases
found, extracted and skipped, with the reasons for skipping. The replay is
`cargo test -p tool-runtime --test text_peer_corpus -- --nocapture`.

Each line of a corpus file is one case:

    {"id": "...", "peer": "vllm|llama.cpp|sglang", "source": "path::test_name[param]",
     "commit": "...",                                 # SGLang: the commit the file was read at
     "parser": "<the peer's parser name>",
     "dialect": "...",                                # SGLang: a multi-dialect detector's `tool_format`
     "model_output": "...",
     "tools": {"<name>": <input schema>},            # only when the test gives tool schemas
     "calls": [{"name": "..." | null, "arguments": {..} | null,
                "checks": [{"path": [..], "equals": v} | {"path": [..], "type": "integer"}]}],
     "count": "exact" | "at_least",
     "content": "..." | null, "content_checked": true | false,
     "reasoning": "...",                              # llama.cpp, when it expects reasoning
     "notes": "..."}

A `null` name or arguments means the peer's test does not check it; `checks` are the single
argument values (or their JSON types) the peer checks when it does not check them all;
`count` says whether the peer wants exactly `len(calls)` calls or at least that many;
`content_checked: false` means the peer does not look at the content.

How the cases are found:

* vLLM (`tests/tool_parsers/test_*.py`, Apache-2.0): each file is read with `ast`. Literal
  parts are evaluated statically (constants, `json.dumps`, `ToolCall`/`FunctionCall`,
  `pytest.param`, module constants, helper functions such as `assert_tool_calls`); parametrize
  decorators and fixtures (parser fixtures, tool schemas) are expanded; the test body is
  followed statement by statement and every `extract_tool_calls` / `run_tool_extraction*` call
  becomes a case, whose expectations are the `assert`s about its result. The shared
  `ToolParserTests` suite (`common_tests.py`) is expanded from each file's
  `ToolParserTestConfig`. What can't be evaluated statically (tokenizer-driven streaming loops,
  mocks, values computed at run time) is skipped and counted.
* llama.cpp (`tests/test-chat*.cpp`, MIT): the `peg_tester` builder chains
  (`tst.test("...").tools({..}).expect(..).run();`) are read with a small C++ string-literal
  lexer. llama.cpp has no parser names since its PEG rewrite; the name used is the vLLM/SGLang
  parser name of the model family, or llama.cpp's former `COMMON_CHAT_FORMAT_*` name (see
  `LLAMACPP_PARSERS`), or else a slug of the template's name.
* SGLang (`test/registered/function_call/*.py`, Apache-2.0): only when `--sglang` points at a
  copy of that directory; `unittest` assertions (and pytest `assert`s) about `detect_and_parse`
  results are read the same way as vLLM's asserts. Detector classes are known under the names
  the file imports them as (`SGLANG_DETECTORS`); a reasoning parser's test is skipped. The
  multi-format and K2V3 detectors' dialect (`tool_format`) goes into each case's notes; the
  Qwen3-Coder runner's registered cases (`test_cases.py`, through test_framework.py's
  `StreamingTestRunner`) are read as its folder's detector's (`SGLANG_RUNNER_DETECTORS`). Every
  case carries the `commit` its file was copied from: `--sglang-commits` (default: the copy's
  `COMMITS.json`) maps each file's path under `--sglang` to it.
"""

from __future__ import annotations

import argparse
import ast
import collections
import itertools
import json
import os
import re
import sys
import textwrap

# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.found = collections.Counter()
        self.extracted = collections.Counter()
        self.skipped = collections.defaultdict(collections.Counter)

    def found_one(self, peer, parser):
        self.found[(peer, parser)] += 1

    def extract(self, peer, parser):
        self.extracted[(peer, parser)] += 1

    def skip(self, peer, parser, reason, where=None):
        self.skipped[(peer, parser)][reason] += 1
        if VERBOSE:
            print(f"skip {peer}/{parser}: {where or CURRENT[0]}: {reason}", file=sys.stderr)

    def report(self, out=sys.stdout):
        keys = sorted(set(self.found) | set(self.extracted) | set(self.skipped))
        for peer in sorted({k[0] for k in keys}):
            rows = [k for k in keys if k[0] == peer]
            total = [0, 0, 0]
            print(f"\n== {peer}", file=out)
            print(f"  {'parser':<34} {'found':>6} {'extracted':>9} {'skipped':>8}", file=out)
            for key in rows:
                skipped = sum(self.skipped[key].values())
                found = self.found[key]
                extracted = self.extracted[key]
                total[0] += found
                total[1] += extracted
                total[2] += skipped
                print(f"  {key[1]:<34} {found:>6} {extracted:>9} {skipped:>8}", file=out)
                for reason, n in self.skipped[key].most_common():
                    print(f"      {n:>4} skipped: {reason}", file=out)
            print(f"  {'total':<34} {total[0]:>6} {total[1]:>9} {total[2]:>8}", file=out)


STATS = Stats()
VERBOSE = False
# The test being read, for --verbose.
CURRENT = [""]


def case_key(case):
    """What makes two cases the same test of a parser (the streaming and non-streaming
    variants of one vLLM test usually are)."""
    return json.dumps(
        [
            case["parser"],
            case["model_output"],
            case.get("tools"),
            case["calls"],
            case["count"],
            case["content"],
            case["content_checked"],
        ],
        sort_keys=True,
    )


class Corpus:
    def __init__(self):
        self.cases = []
        self.keys = set()
        self.ids = set()

    def add(self, case):
        peer, parser = case["peer"], case["parser"]
        key = case_key(case)
        if key in self.keys:
            STATS.skip(peer, parser, "same case as another one (streaming/non-streaming twin)")
            return
        self.keys.add(key)
        base = case["id"]
        n = 2
        while case["id"] in self.ids:
            case["id"] = f"{base}~{n}"
            n += 1
        self.ids.add(case["id"])
        self.cases.append(case)
        STATS.extract(peer, parser)


CORPUS = Corpus()

# --------------------------------------------------------------------------------------------
# The static evaluator for Python test files
# --------------------------------------------------------------------------------------------


class _Unknown:
    def __repr__(self):
        return "UNKNOWN"


UNKNOWN = _Unknown()


class SkipTest(Exception):
    """The rest of the test can't be followed (or the peer skips it)."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Return(Exception):
    def __init__(self, value):
        super().__init__("return")
        self.value = value


class Obj:
    """An object whose attributes are set by the test (`self`, `request`)."""

    def __init__(self, **attrs):
        self.attrs = dict(attrs)


class Parser:
    def __init__(self, name, tools=None):
        self.name = name
        self.tools = tools


class ParserClass:
    def __init__(self, name):
        self.name = name


class ParserFactory:
    def __init__(self, name):
        self.name = name


class Request:
    def __init__(self, tools):
        self.tools = tools


class ToolDef:
    def __init__(self, name, schema):
        self.name = name
        self.schema = schema


class CallVal:
    """An expected call, as the test builds it (`ToolCall(function=FunctionCall(...))`)."""

    def __init__(self, name, arguments):
        self.name = name
        self.arguments = arguments

    def __eq__(self, other):
        return (
            isinstance(other, CallVal)
            and self.name == other.name
            and self.arguments == other.arguments
        )


class Config:
    """A `ToolParserTestConfig(...)`."""

    def __init__(self, kwargs):
        self.kwargs = kwargs


class ParamVal:
    def __init__(self, values, id_, marks):
        self.values = values
        self.id = id_
        self.marks = marks


class Run:
    """One extraction call in a test: its input and the expectations about its result."""

    def __init__(self, parser, model_output, tools, flags):
        self.parser = parser
        self.model_output = model_output
        self.tools = tools
        self.flags = set(flags)
        self.constraints = []
        self.unreplayed = 0
        self.notes = []
        # The dialect (`tool_format`) of a detector that reads several, when known.
        self.dialect = None


class Sym:
    """A value of an extraction's result: `path` is ("calls",), ("call", i), ("name", i),
    ("args", i), ("argsjson", i), ("arg", i, key...), ("content",), ("tools_called",),
    ("len",), ("id", i)."""

    def __init__(self, run, path):
        self.run = run
        self.path = path


class Result:
    def __init__(self, run):
        self.run = run


class SymComp:
    """`[f(call) for call in <the calls>]`: compared with a list, one expectation per call."""

    def __init__(self, run, node, env):
        self.run = run
        self.node = node
        self.env = env


def is_concrete(value):
    if value is UNKNOWN or isinstance(
        value, (Sym, Result, Obj, Parser, ParserClass, ParserFactory, Request)
    ):
        return False
    if isinstance(value, (list, tuple)):
        return all(is_concrete(v) for v in value)
    if isinstance(value, dict):
        return all(is_concrete(k) and is_concrete(v) for k, v in value.items())
    return True


def dotted(node):
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def contains_call(node, names):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            d = dotted(sub.func) or ""
            if any(d == n or d.endswith("." + n) for n in names):
                return True
    return False


EXTRACTIONS = (
    "extract_tool_calls",
    "run_tool_extraction",
    "run_tool_extraction_streaming",
    "run_tool_extraction_nonstreaming",
    "detect_and_parse",
    "parse_non_stream",
)
HAND_STREAMING = (
    "extract_tool_calls_streaming",
    "parse_streaming_increment",
    "stream_delta_message_generator",
    "_simulate_streaming",
)

STRING_METHODS = {
    "join",
    "format",
    "strip",
    "lstrip",
    "rstrip",
    "replace",
    "split",
    "splitlines",
    "upper",
    "lower",
    "startswith",
    "endswith",
}


class Module:
    """One test file: its constants, helper functions, fixtures and classes."""

    def __init__(self, peer, path, rel, tree, parser_classes, detector_names=None, constants=None):
        self.peer = peer
        self.path = path
        self.rel = rel
        self.tree = tree
        self.parser_classes = parser_classes
        self.detector_names = detector_names or {}
        # The commit the file was read at, when known (SGLang's copies).
        self.commit = None
        self.globals = dict(constants or {})
        self.functions = {}
        self.fixtures = {}
        self.classes = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef):
                if is_fixture(stmt):
                    self.fixtures[stmt.name] = stmt
                else:
                    self.functions[stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt
        # Helper functions that parse a model output (directly or through other helpers).
        self.parsing_helpers = set()
        changed = True
        while changed:
            changed = False
            for name, fn in list(self.functions.items()) + list(self.fixtures.items()):
                if name not in self.parsing_helpers and contains_call(
                    fn, EXTRACTIONS + HAND_STREAMING + tuple(self.parsing_helpers)
                ):
                    self.parsing_helpers.add(name)
                    changed = True
        # SGLang's tests also stream through helper methods of their class (`self._stream`).
        self.parsing_methods = set()
        if peer == "sglang":
            for cls in self.classes.values():
                for sub in cls.body:
                    if isinstance(sub, ast.FunctionDef) and contains_call(sub, EXTRACTIONS + HAND_STREAMING):
                        self.parsing_methods.add(sub.name)
        self.test_nodes = {}
        # Module constants, in order; a value that can't be evaluated is UNKNOWN.
        ev = Evaluator(self, None)
        for stmt in tree.body:
            try:
                if isinstance(stmt, ast.Assign):
                    value = ev.eval(stmt.value, {})
                    for target in stmt.targets:
                        ev.bind(target, value, self.globals)
                elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                    ev.bind(stmt.target, ev.eval(stmt.value, {}), self.globals)
                elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                    old = self.globals.get(stmt.target.id, UNKNOWN)
                    ev.aug(stmt, old, ev.eval(stmt.value, {}), self.globals)
            except (SkipTest, Return, RecursionError):
                pass


def _parses(self, fn):
    if fn is None:
        return True
    names = EXTRACTIONS + HAND_STREAMING + tuple(self.parsing_helpers) + tuple(self.parsing_methods)
    if contains_call(fn, names):
        return True
    # Through a fixture (a parser built with a parsing helper) or a class helper method.
    return any(isinstance(a, ast.arg) and a.arg in self.parsing_helpers for a in ast.walk(fn))


Module.parses = _parses


def case_fn(case_id, module):
    return module.test_nodes.get(case_id.split("[")[0])


def is_fixture(fn):
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        d = dotted(target) or ""
        if d in ("pytest.fixture", "fixture"):
            return True
    return False


def fixture_params(fn):
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call) and (dotted(dec.func) or "") in ("pytest.fixture", "fixture"):
            for kw in dec.keywords:
                if kw.arg == "params":
                    return kw.value
    return None


class Evaluator:
    """Evaluates the literal parts of a test and follows its statements."""

    def __init__(self, module, ctx):
        self.module = module
        self.ctx = ctx
        self.depth = 0
        self.cls = None

    # -- names ---------------------------------------------------------------------------

    def lookup(self, name, env):
        if name in env:
            return env[name]
        if name in self.module.globals:
            return self.module.globals[name]
        if name in self.module.parser_classes:
            return ParserClass(self.module.parser_classes[name])
        if name in self.module.detector_names:
            return ParserClass(self.module.detector_names[name])
        if name in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[name]
        return UNKNOWN

    def bind(self, target, value, env):
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (list, tuple)) and len(value) == len(target.elts):
                for t, v in zip(target.elts, value):
                    self.bind(t, v, env)
            else:
                for t in target.elts:
                    self.bind(t, UNKNOWN, env)
        elif isinstance(target, ast.Attribute):
            base = self.eval(target.value, env)
            if isinstance(base, Obj):
                base.attrs[target.attr] = value
        elif isinstance(target, ast.Starred):
            self.bind(target.value, UNKNOWN, env)

    def aug(self, stmt, old, value, env):
        if is_concrete(old) and is_concrete(value) and isinstance(stmt.op, ast.Add):
            try:
                env[stmt.target.id] = old + value
                return
            except TypeError:
                pass
        env[stmt.target.id] = UNKNOWN

    # -- expressions ---------------------------------------------------------------------

    def eval(self, node, env):
        try:
            return self._eval(node, env)
        except (SkipTest, Return):
            raise
        except RecursionError:
            raise
        except Exception:  # A value the evaluator can't compute statically.
            return UNKNOWN

    def _eval(self, node, env):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.lookup(node.id, env)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.Constant):
                    parts.append(value.value)
                    continue
                v = self.eval(value.value, env)
                if not is_concrete(v):
                    return UNKNOWN
                if value.conversion == ord("r"):
                    v = repr(v)
                spec = ""
                if value.format_spec is not None:
                    spec = self.eval(value.format_spec, env)
                    if not isinstance(spec, str):
                        return UNKNOWN
                parts.append(format(v, spec))
            return "".join(parts)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = []
            for elt in node.elts:
                if isinstance(elt, ast.Starred):
                    v = self.eval(elt.value, env)
                    if isinstance(v, (list, tuple, str)):
                        items.extend(v)
                    else:
                        items.append(UNKNOWN)
                else:
                    items.append(self.eval(elt, env))
            return tuple(items) if isinstance(node, ast.Tuple) else items
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    merged = self.eval(v, env)
                    if not isinstance(merged, dict):
                        return UNKNOWN
                    out.update(merged)
                    continue
                key = self.eval(k, env)
                if not is_concrete(key):
                    return UNKNOWN
                out[key] = self.eval(v, env)
            return out
        if isinstance(node, ast.BinOp):
            left = self.eval(node.left, env)
            right = self.eval(node.right, env)
            if not (is_concrete(left) and is_concrete(right)):
                return UNKNOWN
            ops = {
                ast.Add: lambda a, b: a + b,
                ast.Mult: lambda a, b: a * b,
                ast.Mod: lambda a, b: a % b,
                ast.Sub: lambda a, b: a - b,
            }
            op = ops.get(type(node.op))
            if op is None:
                return UNKNOWN
            result = op(left, right)
            if isinstance(result, str) and len(result) > 1_000_000:
                return UNKNOWN
            return result
        if isinstance(node, ast.UnaryOp):
            v = self.eval(node.operand, env)
            if isinstance(node.op, ast.USub) and isinstance(v, (int, float)):
                return -v
            if isinstance(node.op, ast.Not) and is_concrete(v):
                return not v
            return UNKNOWN
        if isinstance(node, ast.IfExp):
            test = self.eval(node.test, env)
            if is_concrete(test):
                return self.eval(node.body if test else node.orelse, env)
            return UNKNOWN
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left = self.eval(node.left, env)
            right = self.eval(node.comparators[0], env)
            if is_concrete(left) and is_concrete(right):
                op = node.ops[0]
                if isinstance(op, (ast.Eq, ast.Is)):
                    return left == right
                if isinstance(op, (ast.NotEq, ast.IsNot)):
                    return left != right
                if isinstance(op, ast.In):
                    return left in right
                if isinstance(op, ast.NotIn):
                    return left not in right
            return UNKNOWN
        if isinstance(node, ast.BoolOp):
            values = [self.eval(v, env) for v in node.values]
            if all(is_concrete(v) for v in values):
                if isinstance(node.op, ast.And):
                    return all(values)
                return any(values)
            return UNKNOWN
        if isinstance(node, ast.Attribute):
            return self.attribute(self.eval(node.value, env), node.attr, node)
        if isinstance(node, ast.Subscript):
            base = self.eval(node.value, env)
            index = self.eval(node.slice, env)
            return self.subscript(base, index)
        if isinstance(node, ast.Slice):
            lo = self.eval(node.lower, env) if node.lower else None
            hi = self.eval(node.upper, env) if node.upper else None
            step = self.eval(node.step, env) if node.step else None
            if all(is_concrete(v) for v in (lo, hi, step)):
                return slice(lo, hi, step)
            return UNKNOWN
        if isinstance(node, ast.Call):
            return self.call(node, env)
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            gen = node.generators[0]
            items = self.eval(gen.iter, env)
            if isinstance(items, Sym) and items.path[0] == "calls" and not gen.ifs:
                return SymComp(items.run, node, env)
            if isinstance(items, (list, tuple)) and len(items) <= 200:
                out = []
                for item in items:
                    inner = dict(env)
                    self.bind(gen.target, item, inner)
                    if all(self.eval(cond, inner) is True for cond in gen.ifs):
                        out.append(self.eval(node.elt, inner))
                    elif not all(is_concrete(self.eval(cond, inner)) for cond in gen.ifs):
                        return UNKNOWN
                return out
            return UNKNOWN
        return UNKNOWN

    def attribute(self, base, attr, node):
        if isinstance(base, Obj):
            return base.attrs.get(attr, UNKNOWN)
        if isinstance(base, Result):
            return {
                "tools_called": Sym(base.run, ("tools_called",)),
                "tool_calls": Sym(base.run, ("calls",)),
                "calls": Sym(base.run, ("calls",)),
                "content": Sym(base.run, ("content",)),
                "normal_text": Sym(base.run, ("content",)),
                "other_content": Sym(base.run, ("content",)),
            }.get(attr, UNKNOWN)
        if isinstance(base, Sym):
            kind = base.path[0]
            if kind == "call":
                i = base.path[1]
                if attr == "function":
                    return Sym(base.run, ("func", i))
                if attr == "name":
                    return Sym(base.run, ("name", i))
                if attr == "parameters":
                    return Sym(base.run, ("args", i))
                if attr == "id":
                    return Sym(base.run, ("id", i))
                return UNKNOWN
            if kind == "func":
                i = base.path[1]
                if attr == "name":
                    return Sym(base.run, ("name", i))
                if attr == "arguments":
                    return Sym(base.run, ("args", i))
            return UNKNOWN
        if isinstance(base, CallVal):
            if attr == "function":
                return base
            if attr == "name":
                return base.name
            if attr in ("arguments", "parameters"):
                return base.arguments
            if attr == "id":
                return UNKNOWN
            return UNKNOWN
        if isinstance(base, ToolDef):
            if attr == "name":
                return base.name
            if attr == "parameters":
                return base.schema
            if attr == "function":
                return base
            return UNKNOWN
        if isinstance(base, Config):
            return base.kwargs.get(attr, UNKNOWN)
        return UNKNOWN

    def subscript(self, base, index):
        if isinstance(base, Sym):
            kind = base.path[0]
            if kind == "calls" and isinstance(index, int) and index >= 0:
                return Sym(base.run, ("call", index))
            if kind == "argsjson" and isinstance(index, str):
                return Sym(base.run, ("arg", base.path[1], index))
            if kind == "arg" and isinstance(index, (str, int)):
                return Sym(base.run, base.path + (index,))
            return UNKNOWN
        if isinstance(base, (list, tuple, str, dict)) and is_concrete(index):
            return base[index]
        return UNKNOWN

    def call(self, node, env):
        name = dotted(node.func) or ""
        short = name.rsplit(".", 1)[-1]
        if not name and isinstance(node.func, ast.Attribute):
            short = node.func.attr  # A method of a value built in place: `Detector().parse(..)`.
        if name == "pytest.skip" or name == "self.skipTest":
            raise SkipTest("skipped by the peer here")
        if name == "pytest.fail":
            raise SkipTest("the test fails by design here")
        args = [self.eval(a, env) for a in node.args if not isinstance(a, ast.Starred)]
        if any(isinstance(a, ast.Starred) for a in node.args):
            return UNKNOWN
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                return UNKNOWN
            kwargs[kw.arg] = self.eval(kw.value, env)
        ctx = self.ctx
        # Extractions: the calls the corpus is made of.
        if short in EXTRACTIONS and ctx is not None:
            return self.extraction(short, node, args, kwargs, env)
        if short in HAND_STREAMING and ctx is not None:
            ctx.hand_streaming = True
            return UNKNOWN
        # unittest assertions.
        if name.startswith("self.assert") and ctx is not None:
            self.unittest_assert(short, node, env)
            return None
        if name in ("json.dumps",):
            if not args or not is_concrete(args[0]):
                return UNKNOWN
            options = {k: v for k, v in kwargs.items() if k in ("ensure_ascii", "indent", "separators", "sort_keys")}
            if not all(is_concrete(v) for v in options.values()):
                return UNKNOWN
            return json.dumps(args[0], **options)
        if name == "json.loads":
            if not args:
                return UNKNOWN
            v = args[0]
            if isinstance(v, Sym) and v.path[0] == "args":
                return Sym(v.run, ("argsjson", v.path[1]))
            if isinstance(v, str):
                return json.loads(v)
            return UNKNOWN
        if name in ("textwrap.dedent", "dedent"):
            return textwrap.dedent(args[0]) if args and isinstance(args[0], str) else UNKNOWN
        if name == "len":
            v = args[0] if args else UNKNOWN
            if isinstance(v, Sym) and v.path[0] == "calls":
                return Sym(v.run, ("len",))
            if is_concrete(v) and isinstance(v, (list, tuple, str, dict)):
                return len(v)
            return UNKNOWN
        if name == "isinstance":
            if len(args) == 2 and isinstance(args[0], Parser) and isinstance(args[1], ParserClass):
                return args[0].name == args[1].name
            return UNKNOWN
        if name in ("str", "int", "float", "bool", "list", "tuple", "dict", "sorted", "reversed"):
            if all(is_concrete(a) for a in args) and all(is_concrete(v) for v in kwargs.values()):
                fn = {"str": str, "int": int, "float": float, "bool": bool, "list": list,
                      "tuple": tuple, "dict": dict, "sorted": sorted,
                      "reversed": lambda x: list(reversed(x))}[name]
                return fn(*args, **kwargs)
            return UNKNOWN
        if name == "range":
            if all(isinstance(a, int) for a in args):
                return list(range(*args))
            return UNKNOWN
        if name == "enumerate":
            if args and isinstance(args[0], (list, tuple)):
                return list(enumerate(args[0]))
            return UNKNOWN
        if name == "zip":
            return self.zip(args)
        if name in ("pytest.param",):
            return ParamVal(tuple(args), kwargs.get("id"), marks_text(node))
        if name.endswith("mark.xfail") or name.endswith("mark.skip") or name.endswith("mark.skipif"):
            return UNKNOWN
        if short in ("ToolCall", "DeltaToolCall", "ToolCallItem"):
            fn = kwargs.get("function", args[0] if args else None)
            if isinstance(fn, CallVal):
                return fn
            if "name" in kwargs:
                arguments = kwargs.get("parameters", kwargs.get("arguments", UNKNOWN))
                if isinstance(arguments, dict):
                    arguments = json.dumps(arguments)
                return CallVal(kwargs["name"], arguments)
            return UNKNOWN
        if short in ("FunctionCall", "DeltaFunctionCall"):
            fname = kwargs.get("name", args[0] if args else UNKNOWN)
            arguments = kwargs.get("arguments", args[1] if len(args) > 1 else UNKNOWN)
            if isinstance(arguments, dict):
                arguments = json.dumps(arguments)
            return CallVal(fname, arguments)
        if short in ("ChatCompletionToolsParam", "Tool"):
            fn = kwargs.get("function", UNKNOWN)
            if isinstance(fn, ToolDef):
                return fn
            if isinstance(fn, dict) and isinstance(fn.get("name"), str):
                return ToolDef(fn["name"], fn.get("parameters"))
            return UNKNOWN
        if short in ("FunctionTool", "FunctionDefinition", "Function"):
            if isinstance(kwargs.get("name"), str):
                return ToolDef(kwargs["name"], kwargs.get("parameters"))
            return UNKNOWN
        if short in ("ChatCompletionRequest", "ResponsesRequest"):
            return Request(tool_defs(kwargs.get("tools")))
        if short == "ToolParserTestConfig":
            return Config(kwargs)
        if name.endswith("get_tool_parser") and args and isinstance(args[0], str):
            return ParserFactory(args[0])
        if short == "FunctionCallParser":
            tools = kwargs.get("tools", args[0] if args else None)
            pname = kwargs.get("tool_call_parser", args[1] if len(args) > 1 else UNKNOWN)
            if isinstance(pname, str):
                return Parser(pname, tool_defs(tools))
            return UNKNOWN
        func = self.eval(node.func, env)
        if isinstance(func, (ParserFactory, ParserClass)):
            parser = Parser(func.name, tool_defs(kwargs.get("tools")))
            if func.name in SGLANG_DIALECTS:
                parser.dialect = sglang_dialect(func.name, args, kwargs)
            return parser
        if isinstance(node.func, ast.Attribute):
            base = self.eval(node.func.value, env)
            if isinstance(base, str) and node.func.attr in STRING_METHODS:
                if all(is_concrete(a) for a in args) and all(is_concrete(v) for v in kwargs.values()):
                    return getattr(base, node.func.attr)(*args, **kwargs)
                return UNKNOWN
            if isinstance(base, dict) and node.func.attr in ("keys", "values", "items", "get"):
                if all(is_concrete(a) for a in args):
                    return list(getattr(base, node.func.attr)(*args)) if node.func.attr != "get" else base.get(*args)
                return UNKNOWN
            if isinstance(base, list) and node.func.attr in ("append", "extend"):
                if node.func.attr == "append":
                    base.append(args[0] if args else UNKNOWN)
                elif args and isinstance(args[0], (list, tuple)):
                    base.extend(args[0])
                return None
            if isinstance(base, Obj) and name.startswith("self.") and self.cls is not None:
                method = find_method(self.module, self.cls, node.func.attr)
                if method is not None and not is_fixture(method):
                    return self.inline(method, [base] + args, kwargs)
            return UNKNOWN
        if isinstance(node.func, ast.Name) and node.func.id in self.module.functions:
            fn = self.module.functions[node.func.id]
            if not fn.name.startswith("test"):
                return self.inline(fn, args, kwargs)
        return UNKNOWN

    def zip(self, args):
        if len(args) != 2:
            if all(isinstance(a, (list, tuple)) for a in args):
                return list(zip(*args))
            return UNKNOWN
        a, b = args
        if isinstance(a, Sym) and a.path[0] == "calls" and isinstance(b, (list, tuple)):
            return [(Sym(a.run, ("call", i)), v) for i, v in enumerate(b)]
        if isinstance(b, Sym) and b.path[0] == "calls" and isinstance(a, (list, tuple)):
            return [(v, Sym(b.run, ("call", i))) for i, v in enumerate(a)]
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return list(zip(a, b))
        return UNKNOWN

    def inline(self, fn, args, kwargs):
        if self.depth > 8:
            return UNKNOWN
        params = fn.args.args
        env = {}
        defaults = fn.args.defaults
        for i, p in enumerate(params):
            if i < len(args):
                env[p.arg] = args[i]
            elif p.arg in kwargs:
                env[p.arg] = kwargs[p.arg]
            else:
                d = i - (len(params) - len(defaults))
                env[p.arg] = self.eval(defaults[d], {}) if d >= 0 else UNKNOWN
        for p in fn.args.kwonlyargs:
            env[p.arg] = kwargs.get(p.arg, UNKNOWN)
        self.depth += 1
        try:
            self.exec_block(fn.body, env)
        except Return as r:
            return r.value
        finally:
            self.depth -= 1
        return None

    # -- extractions and expectations ----------------------------------------------------

    def extraction(self, short, node, args, kwargs, env):
        ctx = self.ctx
        if short in ("detect_and_parse", "parse_non_stream"):
            receiver = self.eval(node.func.value, env)
            text = args[0] if args else kwargs.get("text", UNKNOWN)
            tools = args[1] if len(args) > 1 else kwargs.get("tools")
            parser = receiver if isinstance(receiver, Parser) else None
            run = ctx.new_run(parser, text, tool_defs(tools) or (parser.tools if parser else None))
            dialect = getattr(parser, "dialect", None)
            if dialect is not UNKNOWN and dialect is not None:
                run.dialect = dialect
                run.notes.append(f"SGLang's {parser.name} detector in its `{dialect}` dialect")
            elif dialect is UNKNOWN:
                run.notes.append(f"SGLang's {parser.name} detector in a dialect the script can't tell")
            if short == "parse_non_stream":
                return (Sym(run, ("content",)), Sym(run, ("calls",)))
            return Result(run)
        if short == "extract_tool_calls":
            receiver = self.eval(node.func.value, env)
            text = args[0] if args else kwargs.get("model_output", UNKNOWN)
            request = args[1] if len(args) > 1 else kwargs.get("request")
            parser = receiver if isinstance(receiver, Parser) else None
            tools = request.tools if isinstance(request, Request) and request.tools else None
            if tools is None and parser is not None:
                tools = parser.tools
            return Result(ctx.new_run(parser, text, tools))
        parser = args[0] if args else kwargs.get("tool_parser", UNKNOWN)
        parser = parser if isinstance(parser, Parser) else None
        text = args[1] if len(args) > 1 else kwargs.get("model_output", kwargs.get("model_deltas", UNKNOWN))
        request = args[2] if len(args) > 2 else kwargs.get("request")
        tools = request.tools if isinstance(request, Request) and request.tools else None
        if tools is None and parser is not None:
            tools = parser.tools
        streaming = kwargs.get("streaming", False)
        flags = []
        if isinstance(text, (list, tuple)) and all(isinstance(t, str) for t in text):
            text = "".join(text)
            flags.append("deltas")
        if short == "run_tool_extraction_streaming" or streaming is True:
            flags.append("streaming")
        run = ctx.new_run(parser, text, tools, flags)
        if short == "run_tool_extraction":
            return (Sym(run, ("content",)), Sym(run, ("calls",)))
        return Result(run)

    def unittest_assert(self, short, node, env):
        args = node.args
        ctx = self.ctx
        if short in ("assertEqual", "assertEquals", "assertListEqual", "assertDictEqual") and len(args) >= 2:
            self.expect_eq(self.eval(args[0], env), self.eval(args[1], env))
        elif short == "assertTrue" and args:
            self.expect_truthy(self.eval(args[0], env), True)
        elif short == "assertFalse" and args:
            self.expect_truthy(self.eval(args[0], env), False)
        elif short == "assertIsNone" and args:
            self.expect_eq(self.eval(args[0], env), None)
        elif short == "assertIn" and len(args) >= 2:
            self.expect_in(self.eval(args[0], env), self.eval(args[1], env))
        elif short == "assertIsInstance" and len(args) >= 2:
            self.expect_type(self.eval(args[0], env), args[1])
        elif short in ("assertGreater", "assertGreaterEqual") and len(args) >= 2:
            left, right = self.eval(args[0], env), self.eval(args[1], env)
            if isinstance(left, Sym) and left.path[0] == "len" and isinstance(right, int):
                at_least = right + 1 if short == "assertGreater" else right
                left.run.constraints.append(("at_least", at_least))
            else:
                ctx.unreplayed_about(left, right)
        else:
            ctx.unreplayed_about(*[self.eval(a, env) for a in args])

    def assert_node(self, test, env):
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            for v in test.values:
                self.assert_node(v, env)
            return
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            self.expect_truthy(self.eval(test.operand, env), False)
            return
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            op = test.ops[0]
            left = self.eval(test.left, env)
            right = self.eval(test.comparators[0], env)
            if isinstance(op, (ast.Eq, ast.Is)):
                self.expect_eq(left, right)
            elif isinstance(op, ast.In):
                self.expect_in(left, right)
            elif isinstance(op, (ast.Gt, ast.GtE)) and isinstance(left, Sym) and left.path[0] == "len" and isinstance(right, int):
                left.run.constraints.append(("at_least", right + 1 if isinstance(op, ast.Gt) else right))
            elif isinstance(op, (ast.IsNot, ast.NotEq)) and right is None and isinstance(left, Sym):
                pass  # `x is not None` adds nothing the other checks don't.
            else:
                self.ctx.unreplayed_about(left, right)
            return
        if isinstance(test, ast.Call) and (dotted(test.func) or "") == "isinstance" and len(test.args) == 2:
            self.expect_type(self.eval(test.args[0], env), test.args[1])
            return
        self.expect_truthy(self.eval(test, env), True)

    def expect_truthy(self, value, truth):
        if isinstance(value, Sym):
            kind = value.path[0]
            if kind in ("tools_called", "calls"):
                value.run.constraints.append(("at_least", 1) if truth else ("count", 0))
                return
            if kind == "content" and not truth:
                value.run.constraints.append(("content_empty",))
                return
        self.ctx.unreplayed_about(value)

    def expect_type(self, value, type_node):
        names = {"int": "integer", "float": "float", "str": "string", "bool": "boolean",
                 "dict": "object", "list": "array", "NoneType": "null"}
        tname = names.get(dotted(type_node) or "")
        if isinstance(value, Sym) and value.path[0] == "arg" and tname:
            value.run.constraints.append(("check", value.path[1], list(value.path[2:]), {"type": tname}))
        elif isinstance(value, Sym) and value.path[0] == "argsjson" and tname:
            value.run.constraints.append(("check", value.path[1], [], {"type": tname}))
        else:
            self.ctx.unreplayed_about(value)

    def expect_in(self, needle, hay):
        if isinstance(hay, Sym) and hay.path[0] == "args" and isinstance(needle, str):
            try:
                fragment = json.loads("{" + needle + "}")
            except ValueError:
                fragment = None
            if isinstance(fragment, dict) and fragment:
                for k, v in fragment.items():
                    hay.run.constraints.append(("check", hay.path[1], [k], {"equals": v}))
                return
        if isinstance(hay, Sym) and hay.path[0] == "argsjson" and isinstance(needle, str):
            hay.run.constraints.append(("check", hay.path[1], [needle], {"present": True}))
            return
        self.ctx.unreplayed_about(needle, hay)

    def expect_eq(self, left, right):
        if isinstance(right, (Sym, SymComp)) and not isinstance(left, (Sym, SymComp)):
            left, right = right, left
        if isinstance(left, SymComp) and isinstance(right, (list, tuple)) and is_concrete(right):
            left.run.constraints.append(("count", len(right)))
            gen = left.node.generators[0]
            for i, want in enumerate(right):
                inner = dict(left.env)
                self.bind(gen.target, Sym(left.run, ("call", i)), inner)
                self.expect_eq(self.eval(left.node.elt, inner), want)
            return
        if not isinstance(left, Sym) or isinstance(right, Sym) or not is_concrete(right):
            self.ctx.unreplayed_about(left, right)
            return
        run, path = left.run, left.path
        kind = path[0]
        c = run.constraints
        if kind == "tools_called" and isinstance(right, bool):
            c.append(("at_least", 1) if right else ("count", 0))
        elif kind == "calls" and isinstance(right, (list, tuple)):
            if all(isinstance(v, CallVal) for v in right):
                c.append(("count", len(right)))
                for i, v in enumerate(right):
                    self.expect_call(run, i, v)
            else:
                self.ctx.unreplayed_about(left)
        elif kind == "len" and isinstance(right, int):
            c.append(("count", right))
        elif kind in ("call", "func") and isinstance(right, CallVal):
            self.expect_call(run, path[1], right)
        elif kind == "name" and isinstance(right, str):
            c.append(("name", path[1], right))
        elif kind == "args" and isinstance(right, str):
            try:
                value = json.loads(right) if right else {}
            except ValueError:
                self.ctx.unreplayed_about(left)
                return
            c.append(("arguments", path[1], value))
        elif kind == "argsjson":
            c.append(("arguments", path[1], right))
        elif kind == "arg":
            c.append(("check", path[1], list(path[2:]), {"equals": right}))
        elif kind == "content" and (right is None or isinstance(right, str)):
            c.append(("content", right))
        else:
            self.ctx.unreplayed_about(left)

    def expect_call(self, run, i, call):
        if isinstance(call.name, str):
            run.constraints.append(("name", i, call.name))
        if isinstance(call.arguments, str):
            try:
                run.constraints.append(("arguments", i, json.loads(call.arguments) if call.arguments else {}))
            except ValueError:
                pass

    # -- statements ----------------------------------------------------------------------

    def exec_block(self, stmts, env):
        for stmt in stmts:
            self.exec_stmt(stmt, env)

    def exec_stmt(self, stmt, env):
        ctx = self.ctx
        if isinstance(stmt, ast.Assign):
            value = self.eval(stmt.value, env)
            for target in stmt.targets:
                self.bind(target, value, env)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self.bind(stmt.target, self.eval(stmt.value, env), env)
        elif isinstance(stmt, ast.AugAssign):
            if isinstance(stmt.target, ast.Name):
                self.aug(stmt, self.lookup(stmt.target.id, env), self.eval(stmt.value, env), env)
        elif isinstance(stmt, ast.Expr):
            self.eval(stmt.value, env)
        elif isinstance(stmt, ast.Assert):
            if ctx is not None:
                self.assert_node(stmt.test, env)
        elif isinstance(stmt, ast.If):
            test = self.eval(stmt.test, env)
            if is_concrete(test):
                self.exec_block(stmt.body if test else stmt.orelse, env)
            elif ctx is not None:
                if contains_call(stmt, EXTRACTIONS):
                    ctx.lost = "an extraction under a condition the script can't evaluate"
                ctx.unreplayed += sum(isinstance(n, ast.Assert) for n in ast.walk(stmt))
        elif isinstance(stmt, ast.For):
            items = self.eval(stmt.iter, env)
            if isinstance(items, (list, tuple, str)) and len(items) <= 200:
                for item in items:
                    self.bind(stmt.target, item, env)
                    self.exec_block(stmt.body, env)
            elif ctx is not None:
                if contains_call(stmt, EXTRACTIONS):
                    ctx.lost = "an extraction inside a loop the script can't unroll"
                if contains_call(stmt, HAND_STREAMING):
                    ctx.hand_streaming = True
                ctx.unreplayed += sum(isinstance(n, ast.Assert) for n in ast.walk(stmt))
        elif isinstance(stmt, ast.With):
            flags = []
            for item in stmt.items:
                d = dotted(item.context_expr.func) if isinstance(item.context_expr, ast.Call) else ""
                d = d or ""
                if "patch" in d:
                    flags.append("patched")
                elif d.endswith("raises") or d.endswith("assertRaises"):
                    flags.append("raises")
                value = self.eval(item.context_expr, env)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, UNKNOWN if flags else value, env)
            if ctx is not None:
                ctx.flags.extend(flags)
            try:
                self.exec_block(stmt.body, env)
            finally:
                if ctx is not None:
                    for f in flags:
                        ctx.flags.remove(f)
        elif isinstance(stmt, ast.Try):
            self.exec_block(stmt.body, env)
            self.exec_block(stmt.finalbody, env)
        elif isinstance(stmt, ast.Return):
            raise Return(self.eval(stmt.value, env) if stmt.value is not None else None)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Yield):
            raise Return(self.eval(stmt.value.value, env))
        elif isinstance(stmt, ast.Raise):
            raise SkipTest("the test raises")
        elif isinstance(stmt, (ast.While,)):
            if ctx is not None and contains_call(stmt, EXTRACTIONS):
                ctx.lost = "an extraction inside a loop the script can't unroll"
            if ctx is not None and contains_call(stmt, HAND_STREAMING):
                ctx.hand_streaming = True
        # Nested definitions, imports, pass, del: nothing to follow.


def marks_text(node):
    for kw in node.keywords:
        if kw.arg == "marks":
            return ast.unparse(kw.value)
    return ""


def tool_defs(value):
    if isinstance(value, ToolDef):
        value = [value]
    if isinstance(value, (list, tuple)):
        tools = [v for v in value if isinstance(v, ToolDef)]
        if tools and len(tools) == len(value):
            return tools
    return None


def find_method(module, cls, name):
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == name:
            return stmt
    for base in cls.bases:
        base_name = dotted(base) or ""
        if base_name in module.classes:
            found = find_method(module, module.classes[base_name], name)
            if found is not None:
                return found
    return None


class TestContext:
    """What one run of one test (one set of parameters) found."""

    def __init__(self):
        self.runs = []
        self.flags = []
        self.hand_streaming = False
        self.lost = None
        self.unreplayed = 0

    def new_run(self, parser, text, tools, flags=()):
        run = Run(parser, text, tools, list(flags) + self.flags)
        self.runs.append(run)
        return run

    def unreplayed_about(self, *values):
        for v in values:
            if isinstance(v, (Sym, Result)):
                v.run.unreplayed += 1
                return
        self.unreplayed += 1


# --------------------------------------------------------------------------------------------
# Tests, parameters and fixtures
# --------------------------------------------------------------------------------------------


def parametrize_sets(ev, fn_or_cls):
    """The parameter sets of `@pytest.mark.parametrize` decorators: a list of
    (id, {name: value}, skip reason or None)."""
    sets = [("", {}, None)]
    for dec in fn_or_cls.decorator_list:
        if not isinstance(dec, ast.Call) or not (dotted(dec.func) or "").endswith("parametrize"):
            continue
        args = list(dec.args)
        kw = {k.arg: k.value for k in dec.keywords}
        names_node = args[0] if args else kw.get("argnames")
        values_node = args[1] if len(args) > 1 else kw.get("argvalues")
        names = ev.eval(names_node, {}) if names_node is not None else UNKNOWN
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",") if n.strip()]
        values = ev.eval(values_node, {}) if values_node is not None else UNKNOWN
        ids = ev.eval(kw["ids"], {}) if "ids" in kw else None
        if not isinstance(names, (list, tuple)) or not isinstance(values, (list, tuple)):
            return None
        new = []
        for n, value in enumerate(values):
            skip = None
            pid = None
            if isinstance(value, ParamVal):
                pid = value.id
                if "xfail" in value.marks:
                    skip = "marked xfail by the peer"
                elif "skip" in value.marks:
                    skip = "marked skip by the peer"
                value = value.values
                if len(names) == 1:
                    value = value[0] if len(value) == 1 else value
            if len(names) == 1:
                bound = {names[0]: value}
            elif isinstance(value, (list, tuple)) and len(value) == len(names):
                bound = dict(zip(names, value))
            else:
                bound = {name: UNKNOWN for name in names}
            if pid is None and isinstance(ids, (list, tuple)) and n < len(ids):
                pid = ids[n]
            if pid is None:
                pid = "-".join(param_id(name, bound[name], n) for name in names)
            for old_id, old, old_skip in sets:
                merged = dict(old)
                merged.update(bound)
                new.append((f"{old_id}-{pid}" if old_id else str(pid), merged, old_skip or skip))
        sets = new
    return sets


def param_id(name, value, n):
    if isinstance(value, (bool, int, float)) or value is None:
        return str(value)
    if isinstance(value, str) and len(value) <= 20 and value.isprintable():
        return value
    return f"{name}{n}"


def fixture_values(ev, name, cls, seen=()):
    """The values a fixture takes: [(id, value)]."""
    module = ev.module
    fn = None
    if cls is not None:
        fn = find_method(module, cls, name)
        if fn is not None and not is_fixture(fn):
            fn = None
    if fn is None:
        fn = module.fixtures.get(name)
    if fn is None or name in seen or len(seen) > 6:
        return [("", UNKNOWN)]
    params_node = fixture_params(fn)
    params = [("", None)]
    if params_node is not None:
        values = ev.eval(params_node, {})
        if isinstance(values, dict):
            values = list(values)
        if hasattr(values, "__iter__") and not isinstance(values, (str, _Unknown)):
            values = list(values)
            params = [(str(v) if isinstance(v, (str, int, bool)) else f"{name}{i}", v) for i, v in enumerate(values)]
        else:
            params = [("", UNKNOWN)]
    out = []
    for pid, param in params:
        arg_names = [a.arg for a in fn.args.args if a.arg not in ("self", "request")]
        arg_choices = [fixture_values(ev, a, cls, seen + (name,)) for a in arg_names]
        for combo in itertools.islice(itertools.product(*arg_choices), 8):
            env = {a: v for a, (_, v) in zip(arg_names, combo)}
            env["request"] = Obj(param=param)
            if any(a.arg == "self" for a in fn.args.args):
                env["self"] = Obj()
            sub = Evaluator(module, None)
            sub.cls = cls
            value = UNKNOWN
            try:
                sub.exec_block(fn.body, env)
            except Return as r:
                value = r.value
            except (SkipTest, RecursionError):
                value = UNKNOWN
            ids = [pid] + [i for i, _ in combo if i]
            out.append(("-".join(i for i in ids if i), value))
    return out or [("", UNKNOWN)]


def run_test(module, cls, fn, extra_fixtures=None, setup=None):
    """Follows one test function for each of its parameter sets and fixture values."""
    ev = Evaluator(module, None)
    ev.cls = cls
    sets = parametrize_sets(ev, fn)
    if cls is not None and sets is not None:
        cls_sets = parametrize_sets(ev, cls)
        if cls_sets is None:
            sets = None
        elif cls_sets != [("", {}, None)]:
            sets = [
                ("-".join(x for x in (a_id, b_id) if x), {**a, **b}, a_s or b_s)
                for (a_id, a, a_s), (b_id, b, b_s) in itertools.product(cls_sets, sets)
            ]
    source = f"{module.rel}::{cls.name + '::' if cls is not None else ''}{fn.name}"
    CURRENT[0] = source
    module.test_nodes[source] = fn
    parser_hint = guess_parser(module, cls, fn)
    if sets is None:
        STATS.found_one(module.peer, parser_hint)
        STATS.skip(module.peer, parser_hint, "parameters the script can't evaluate")
        return
    arg_names = [a.arg for a in fn.args.args if a.arg != "self"]
    for pid, params, skip in sets:
        fixture_args = [a for a in arg_names if a not in params]
        choices = []
        for a in fixture_args:
            if extra_fixtures and a in extra_fixtures:
                choices.append(extra_fixtures[a])
            else:
                choices.append(fixture_values(ev, a, cls))
        for combo in itertools.islice(itertools.product(*choices), 16):
            env = dict(params)
            ids = [pid] if pid else []
            for a, (fid, value) in zip(fixture_args, combo):
                env[a] = value
                if fid:
                    ids.append(fid)
            ctx = TestContext()
            runner = Evaluator(module, ctx)
            runner.cls = cls
            if cls is not None:
                env["self"] = Obj()
                if setup is not None:
                    try:
                        runner.inline(setup, [env["self"]], {})
                    except SkipTest:
                        pass
            case_id = f"{source}[{'-'.join(ids)}]" if ids else source
            aborted = skip
            if aborted is None:
                try:
                    runner.exec_block(fn.body, env)
                except Return:
                    pass
                except SkipTest as s:
                    aborted = s.reason
                except RecursionError:
                    aborted = "too deep to follow"
            emit_runs(module, ctx, case_id, parser_hint, aborted)


def guess_parser(module, cls, fn):
    """The parser a test is about, for counting the tests the script can't follow."""
    names = []
    for sub in ast.walk(fn):
        if isinstance(sub, ast.Name):
            names.append(sub.id)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            names.append(sub.value)
        elif isinstance(sub, ast.arg):
            names.append(sub.arg)
    for n in names:
        if n in module.parser_classes:
            return module.parser_classes[n]
        if module.detector_names.get(n, REASONING) != REASONING:
            return module.detector_names[n]
    # The file's own parser: the first one its code names.
    for sub in ast.walk(module.tree):
        if isinstance(sub, ast.Name) and sub.id in module.parser_classes:
            return module.parser_classes[sub.id]
        if isinstance(sub, ast.Name) and module.detector_names.get(sub.id, REASONING) != REASONING:
            return module.detector_names[sub.id]
        if isinstance(sub, ast.Call) and (dotted(sub.func) or "").endswith("get_tool_parser"):
            if sub.args and isinstance(sub.args[0], ast.Constant):
                return sub.args[0].value
        if isinstance(sub, ast.keyword) and sub.arg == "parser_name" and isinstance(sub.value, ast.Constant):
            return sub.value.value
    return "?"


def emit_runs(module, ctx, case_id, parser_hint, aborted):
    peer = module.peer
    CURRENT[0] = case_id
    if aborted is not None and not ctx.runs:
        STATS.found_one(peer, parser_hint)
        STATS.skip(peer, parser_hint, aborted)
        return
    if not ctx.runs:
        if not module.parses(case_fn(case_id, module)):
            STATS.found_one(peer, "-")
            STATS.skip(peer, "-", "not a parse test (no model output is parsed)")
            return
        STATS.found_one(peer, parser_hint)
        if ctx.hand_streaming:
            STATS.skip(peer, parser_hint, "streams by hand (tokenizer deltas), no whole-text expectation")
        elif ctx.lost:
            STATS.skip(peer, parser_hint, ctx.lost)
        else:
            STATS.skip(peer, parser_hint, "no extraction call the script can follow")
        return
    for n, run in enumerate(ctx.runs):
        parser = run.parser.name if run.parser is not None and run.parser.name != REASONING else parser_hint
        STATS.found_one(peer, parser)
        rid = case_id if len(ctx.runs) == 1 else f"{case_id}#{n + 1}"
        if aborted is not None:
            STATS.skip(peer, parser, aborted)
            continue
        if run.parser is None:
            STATS.skip(peer, parser, "parser not known statically")
            continue
        if run.parser.name == REASONING:
            STATS.skip(peer, parser, "a reasoning parser's test (no tool parser runs)")
            continue
        if "patched" in run.flags:
            STATS.skip(peer, parser, "the test patches the parser (mocks)")
            continue
        if "raises" in run.flags:
            STATS.skip(peer, parser, "the test expects an exception")
            continue
        if not isinstance(run.model_output, str):
            STATS.skip(peer, parser, "model output built at run time")
            continue
        case, reason = build_case(run)
        if case is None:
            STATS.skip(peer, parser, reason)
            continue
        notes = []
        if "streaming" in run.flags:
            notes.append("the peer's test streams it")
        if run.unreplayed:
            notes.append(f"{run.unreplayed} assertion(s) of the test not replayed")
        notes.extend(run.notes)
        case.update(
            {
                "id": f"{peer}:{rid}",
                "peer": peer,
                "source": rid,
                **({"commit": module.commit} if module.commit else {}),
                "parser": parser,
                **({"dialect": run.dialect} if run.dialect else {}),
                "model_output": run.model_output,
                "notes": "; ".join(notes),
            }
        )
        if run.tools:
            case["tools"] = {t.name: (t.schema if isinstance(t.schema, dict) else {}) for t in run.tools}
        CORPUS.add(order_case(case))


def order_case(case):
    keys = ["id", "peer", "source", "commit", "parser", "dialect", "model_output", "tools", "calls", "count",
            "content", "content_checked", "reasoning", "notes"]
    return {k: case[k] for k in keys if k in case}


def build_case(run):
    """The calls and content a run's constraints ask for, or why there are none."""
    count = None
    at_least = 0
    calls = {}
    content = None
    content_checked = False
    for c in run.constraints:
        kind = c[0]
        if kind == "count":
            if count is not None and count != c[1]:
                return None, "contradictory expectations"
            count = c[1]
        elif kind == "at_least":
            at_least = max(at_least, c[1])
        elif kind in ("name", "arguments", "check"):
            i = c[1]
            call = calls.setdefault(i, {"name": None, "arguments": None, "checks": []})
            if kind == "name":
                if call["name"] is not None and call["name"] != c[2]:
                    return None, "contradictory expectations"
                call["name"] = c[2]
            elif kind == "arguments":
                if call["arguments"] is not None and call["arguments"] != c[2]:
                    return None, "contradictory expectations"
                call["arguments"] = c[2]
            else:
                check = {"path": c[2], **c[3]}
                if check not in call["checks"]:
                    call["checks"].append(check)
        elif kind == "content":
            if content_checked and content != c[1]:
                return None, "contradictory expectations"
            content = c[1]
            content_checked = True
        elif kind == "content_empty":
            if not content_checked:
                content = ""
                content_checked = True
    if count is None and not calls and at_least == 0 and not content_checked:
        return None, "no expectation the replay can check"
    n = max([count or 0, at_least] + [i + 1 for i in calls])
    if count is not None and n > count:
        return None, "contradictory expectations"
    out = []
    for i in range(n):
        call = calls.get(i, {"name": None, "arguments": None, "checks": []})
        if call["arguments"] is not None:
            call["checks"] = []
        entry = {"name": call["name"], "arguments": call["arguments"]}
        if call["checks"]:
            entry["checks"] = call["checks"]
        out.append(entry)
    return {
        "calls": out,
        "count": "exact" if count is not None else "at_least",
        "content": content,
        "content_checked": content_checked,
    }, None


# --------------------------------------------------------------------------------------------
# vLLM's shared suite (common_tests.py)
# --------------------------------------------------------------------------------------------


def common_defaults(common_path):
    """The defaults of `ToolParserTestConfig`, read from common_tests.py."""
    tree = ast.parse(open(common_path, encoding="utf-8").read())
    ev = Evaluator(Module("vllm", common_path, "", ast.parse(""), {}), None)
    defaults = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "ToolParserTestConfig":
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                    value = stmt.value
                    if isinstance(value, ast.Call) and (dotted(value.func) or "") == "field":
                        factory = next((k.value for k in value.keywords if k.arg == "default_factory"), None)
                        if isinstance(factory, ast.Lambda):
                            defaults[stmt.target.id] = ev.eval(factory.body, {})
                        elif factory is not None and (dotted(factory) or "") == "dict":
                            defaults[stmt.target.id] = {}
                        continue
                    defaults[stmt.target.id] = ev.eval(value, {})
    return defaults


TYPE_NAMES = {"str": "string", "int": "integer", "float": "float", "bool": "boolean",
              "NoneType": "null", "list": "array", "dict": "object"}


def common_cases(module, cls, config, defaults):
    """The shared suite's tests for one parser's `ToolParserTestConfig`."""
    cfg = dict(defaults)
    cfg.update(config.kwargs)
    parser = cfg.get("parser_name")
    peer = module.peer
    source = f"{module.rel}::{cls.name}::"
    if not isinstance(parser, str):
        STATS.found_one(peer, "?")
        STATS.skip(peer, "?", "parser not known statically")
        return
    xfail = cfg.get("xfail_nonstreaming") or {}

    def emit(test, output, calls, count, content=None, content_checked=False, suffix=""):
        STATS.found_one(peer, parser)
        if not isinstance(xfail, dict):
            STATS.skip(peer, parser, "parameters the script can't evaluate")
            return
        if test in xfail:
            STATS.skip(peer, parser, "xfail in the peer's own suite")
            return
        if not isinstance(output, str):
            STATS.skip(peer, parser, "model output built at run time")
            return
        case = {
            "id": f"{peer}:{source}{test}{suffix}",
            "peer": peer,
            "source": f"{source}{test}{suffix} (common_tests.py)",
            "parser": parser,
            "model_output": output,
            "calls": calls,
            "count": count,
            "content": content,
            "content_checked": content_checked,
            "notes": "shared vLLM suite (tests/tool_parsers/common_tests.py)",
        }
        CORPUS.add(order_case(case))

    emit("test_no_tool_calls", cfg.get("no_tool_calls_output"), [], "exact",
         cfg.get("no_tool_calls_output"), True)
    args = cfg.get("single_tool_call_expected_args") or {}
    checks = [{"path": [k], "equals": v} for k, v in args.items()] if isinstance(args, dict) else []
    call = {"name": cfg.get("single_tool_call_expected_name"), "arguments": None}
    if checks:
        call["checks"] = checks
    expected_content = cfg.get("single_tool_call_expected_content")
    emit("test_single_tool_call_simple_args", cfg.get("single_tool_call_output"), [call], "exact",
         expected_content, expected_content is not None)
    names = cfg.get("parallel_tool_calls_names") or []
    count = cfg.get("parallel_tool_calls_count")
    if isinstance(count, int) and isinstance(names, list):
        calls = [{"name": names[i] if i < len(names) else None, "arguments": None} for i in range(count)]
        emit("test_parallel_tool_calls", cfg.get("parallel_tool_calls_output"), calls, "exact")
    fields = {"string_field": "str", "int_field": "int", "float_field": "float", "bool_field": "bool",
              "null_field": "NoneType", "array_field": "list", "object_field": "dict"}
    typed = cfg.get("supports_typed_arguments", True)
    checks = [{"path": [k], "type": TYPE_NAMES[t]} if typed else {"path": [k], "present": True}
              for k, t in fields.items()]
    emit("test_various_data_types", cfg.get("various_data_types_output"),
         [{"name": None, "arguments": None, "checks": checks}], "exact")
    emit("test_empty_arguments", cfg.get("empty_arguments_output"),
         [{"name": None, "arguments": {}}], "exact")
    emit("test_surrounding_text", cfg.get("surrounding_text_output"),
         [{"name": None, "arguments": None}], "at_least")
    emit("test_escaped_strings", cfg.get("escaped_strings_output"),
         [{"name": None, "arguments": None, "checks": [{"path": [], "nonempty": True}]}], "exact")
    for _ in cfg.get("malformed_input_outputs") or []:
        STATS.found_one(peer, parser)
        STATS.skip(peer, parser, "no expectation: the peer only checks it doesn't raise")
    STATS.found_one(peer, parser)
    STATS.skip(peer, parser, "compares the peer's own streaming and non-streaming results")


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------


def vllm_parser_classes(vllm_root):
    """Parser class name -> the first name vLLM registers it under."""
    init = os.path.join(vllm_root, "vllm", "tool_parsers", "__init__.py")
    tree = ast.parse(open(init, encoding="utf-8").read())
    classes = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_TOOL_PARSERS_TO_REGISTER" for t in node.targets
        ):
            for name, (_, class_name) in ast.literal_eval(node.value).items():
                classes.setdefault(class_name, name)
    return classes


def python_files(peer, files, parser_classes, detector_names, defaults, rel_base, rel_prefix="", commits=None):
    for path in files:
        rel = rel_prefix + os.path.relpath(path, rel_base)
        try:
            tree = ast.parse(open(path, encoding="utf-8").read())
        except SyntaxError:
            STATS.found_one(peer, "?")
            STATS.skip(peer, "?", "file doesn't parse")
            continue
        constants = {}
        if detector_names:
            detector_names_here, constants = sglang_imports(tree, detector_names)
        else:
            detector_names_here = detector_names
        module = Module(peer, path, rel, tree, parser_classes, detector_names_here, constants)
        if commits is not None:
            module.commit = commits.get(os.path.relpath(path, rel_base))
        runner_tools = sglang_runner_tools(module, tree, path) if peer == "sglang" else None
        for stmt in tree.body:
            if runner_tools is not None and isinstance(stmt, ast.FunctionDef) and stmt.name.startswith("test"):
                sglang_runner_case(module, stmt, runner_tools)
            elif isinstance(stmt, ast.FunctionDef) and stmt.name.startswith("test") and not is_fixture(stmt):
                run_test(module, None, stmt)
            elif isinstance(stmt, ast.ClassDef):
                cls = stmt
                bases = [dotted(b) or "" for b in cls.bases]
                setup = find_method(module, cls, "setUp") or find_method(module, cls, "setup_method")
                extra = None
                if "ToolParserTests" in bases:
                    config_fn = find_method(module, cls, "test_config")
                    config = None
                    if config_fn is not None:
                        vals = fixture_values(Evaluator(module, None), "test_config", cls)
                        config = next((v for _, v in vals if isinstance(v, Config)), None)
                    if config is None:
                        STATS.found_one(peer, guess_parser(module, cls, cls))
                        STATS.skip(peer, guess_parser(module, cls, cls), "config the script can't evaluate")
                        continue
                    common_cases(module, cls, config, defaults)
                    pname = config.kwargs.get("parser_name")
                    extra = {
                        "tool_parser": [("", Parser(pname))] if isinstance(pname, str) else [("", UNKNOWN)],
                        "streaming": [("True", True), ("False", False)],
                        "test_config": [("", config)],
                    }
                for sub in cls.body:
                    if isinstance(sub, ast.FunctionDef) and sub.name.startswith("test") and not is_fixture(sub):
                        run_test(module, cls, sub, extra, setup)


# --------------------------------------------------------------------------------------------
# llama.cpp
# --------------------------------------------------------------------------------------------

# Template -> parser name (see the module doc). Matched on the template's file name.
LLAMACPP_PARSERS = [
    (r"^Qwen3-Coder|^Qwen3\.5|^NVIDIA-Nemotron-3-Nano", "qwen3_coder"),
    (r"^NousResearch-Hermes-2-Pro|^NousResearch-Hermes-3|^Qwen-QwQ|^Qwen-Qwen2\.5", "hermes_2_pro"),
    (r"^meta-llama-Llama-3\.[123]", "llama_3_x"),
    (r"^mistralai-Mistral-Nemo", "mistral_nemo"),
    (r"^Mistral-Small-3\.2|^unsloth-mistral-Devstral|^mistralai-Ministral-3", "mistral"),
    (r"^ibm-granite-granite-3", "granite"),
    (r"^ibm-granite-granite-4", "granite4"),
    (r"^NVIDIA-Nemotron-Nano-v2", "nemotron_v2"),
    (r"^CohereForAI-c4ai-command-r7b", "command_r7b"),
    (r"^meetkai-functionary-medium-v3\.1", "functionary_v3_1_llama_3_1"),
    (r"^meetkai-functionary-medium-v3\.2", "functionary_v3_2"),
    (r"^fireworks-ai-llama-3-firefunction-v2", "firefunction_v2"),
    (r"^deepseek-ai-DeepSeek-R1-Distill|^llama-cpp-deepseek-r1", "deepseek_r1"),
    (r"^deepseek-ai-DeepSeek-V3\.1", "deepseek_v31"),
    (r"^deepseek-ai-DeepSeek-V3\.2", "deepseek_v32"),
    (r"^deepseek-ai-DeepSeek-V4\.jinja", "deepseek_v4"),
    (r"^moonshotai-Kimi-K2|^Kimi-K2", "kimi_k2"),
    (r"^Kimi-K3", "kimi_k3"),
    (r"^GLM-4\.6", "glm45"),
    (r"^GLM-4\.7", "glm47"),
    (r"^MiniMax-M2", "minimax_m2"),
    (r"^MiniMax-M3", "minimax_m3"),
    (r"^openai-gpt-oss", "openai"),
    (r"^google-gemma-4", "gemma4"),
    (r"^ByteDance-Seed-OSS", "seed_oss"),
    (r"^LFM2", "lfm2"),
    (r"^Apertus", "apertus"),
    (r"^GigaChat3", "gigachat3"),
    (r"^StepFun3\.5", "step3p5"),
    (r"^inclusionai-ling-3", "ling3"),
    (r"^openbmb-MiniCPM5", "minicpm5"),
    (r"^muse-glimmer", "muse_glimmer"),
    # Templates of families without a parser of their own, named after the parser of the
    # markup they write: Apriel's `<tool_calls>[..]` is Jamba's, MiMo-VL's and Reka Edge's
    # `<tool_call>` JSON is Hermes's, Spark 2.5's key/value tags are GLM 4.7's, Cohere2MoE
    # writes Command R7B's actions, and DeepSeek V4 Flash V4's DSML.
    (r"Apriel", "jamba"),
    (r"^MiMo-VL|^Reka-Edge", "hermes_2_pro"),
    (r"^Spark2\.5", "glm47"),
    (r"^Cohere2MoE", "command_r7b"),
    (r"^deepseek-ai-DeepSeek-V4-Flash", "deepseek_v4"),
]


def llamacpp_parser(template):
    base = os.path.basename(template)
    for pattern, name in LLAMACPP_PARSERS:
        if re.search(pattern, base):
            return name
    slug = re.sub(r"\.jinja$", "", base)
    return re.sub(r"[^a-z0-9]+", "_", slug.lower()).strip("_")


CPP_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'",
               "?": "?", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


class CppLexer:
    """Just enough of C++ to find the ends of calls and read string literals."""

    def __init__(self, text):
        self.text = text

    def skip_literal(self, i):
        """If a string/char literal or a comment starts at i, the index after it."""
        t = self.text
        if t.startswith("//", i):
            j = t.find("\n", i)
            return len(t) if j < 0 else j
        if t.startswith("/*", i):
            j = t.find("*/", i + 2)
            return len(t) if j < 0 else j + 2
        m = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', t[i:i + 24])
        if m and (i == 0 or not (t[i - 1].isalnum() or t[i - 1] == "_")):
            end = t.find(")" + m.group(1) + '"', i + m.end())
            return len(t) if end < 0 else end + len(m.group(1)) + 2
        if t[i] in "\"'":
            q = t[i]
            j = i + 1
            while j < len(t) and t[j] != q:
                j += 2 if t[j] == "\\" else 1
            return j + 1
        return None

    def matching(self, i):
        """The index of the bracket closing the one at i."""
        t = self.text
        pairs = {"(": ")", "{": "}", "[": "]"}
        stack = [pairs[t[i]]]
        j = i + 1
        while j < len(t):
            skip = self.skip_literal(j)
            if skip is not None:
                j = skip
                continue
            c = t[j]
            if c in pairs:
                stack.append(pairs[c])
            elif c in ")}]":
                if not stack or stack[-1] != c:
                    return None
                stack.pop()
                if not stack:
                    return j
            j += 1
        return None

    def strip_comments(self):
        t = self.text
        out = []
        i = 0
        while i < len(t):
            if t.startswith("//", i) or t.startswith("/*", i):
                j = self.skip_literal(i)
                # Keep the line breaks, so that line numbers still point into the file.
                out.append(" " + "\n" * t.count("\n", i, j) if t.startswith("/*", i) else " ")
                i = j
                continue
            skip = self.skip_literal(i)
            if skip is not None:
                out.append(t[i:skip])
                i = skip
                continue
            out.append(t[i])
            i += 1
        return "".join(out)


def cpp_strings(expr):
    """The value of an expression made only of string literals (concatenated), else None."""
    s = expr.strip()
    if s.startswith("std::string(") and s.endswith(")"):
        s = s[len("std::string("):-1].strip()
    out = []
    i = 0
    while i < len(s):
        if s[i].isspace():
            i += 1
            continue
        m = re.match(r'(?:u8)?R"([^()\\ ]{0,16})\(', s[i:])
        if m:
            end = s.find(")" + m.group(1) + '"', i + m.end())
            if end < 0:
                return None
            out.append(s[i + m.end():end])
            i = end + len(m.group(1)) + 2
            continue
        m = re.match(r'(?:u8)?"', s[i:])
        if m:
            j = i + m.end()
            buf = bytearray()
            while j < len(s) and s[j] != '"':
                c = s[j]
                if c == "\\":
                    e = s[j + 1]
                    if e in CPP_ESCAPES:
                        buf += CPP_ESCAPES[e].encode()
                        j += 2
                    elif e == "x":
                        h = re.match(r"[0-9a-fA-F]+", s[j + 2:]).group(0)
                        buf.append(int(h, 16) & 0xFF)
                        j += 2 + len(h)
                    elif e in "uU":
                        n = 4 if e == "u" else 8
                        buf += chr(int(s[j + 2:j + 2 + n], 16)).encode()
                        j += 2 + n
                    elif e in "01234567":
                        o = re.match(r"[0-7]{1,3}", s[j + 1:]).group(0)
                        buf.append(int(o, 8) & 0xFF)
                        j += 1 + len(o)
                    else:
                        return None
                else:
                    buf += c.encode()
                    j += 1
            if j >= len(s):
                return None
            try:
                out.append(buf.decode("utf-8"))
            except UnicodeDecodeError:
                return None
            i = j + 1
            continue
        return None
    return "".join(out) if out else None


def statement_end(lex, start):
    """The `;` that ends the statement going on at `start`."""
    text = lex.text
    depth = 0
    i = start
    while i < len(text):
        skip = lex.skip_literal(i)
        if skip is not None:
            i = skip
            continue
        c = text[i]
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == ";" and depth <= 0:
            return i
        i += 1
    return len(text)


def split_top(text, sep=","):
    """Splits on `sep` outside brackets and literals."""
    lex = CppLexer(text)
    parts = []
    depth = 0
    start = 0
    i = 0
    while i < len(text):
        skip = lex.skip_literal(i)
        if skip is not None:
            i = skip
            continue
        c = text[i]
        if c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    tail = text[start:]
    if tail.strip():
        parts.append(tail)
    return [p.strip() for p in parts]


class CppMsg:
    def __init__(self, content="", reasoning="", calls=None):
        self.content = content
        self.reasoning = reasoning
        self.calls = calls or []


def cpp_message(expr, consts):
    """A `common_chat_msg` built by one of test-chat.cpp's helpers, or a named constant."""
    expr = expr.strip()
    if re.fullmatch(r"\w+", expr):
        return consts.get(expr)
    m = re.fullmatch(r"(\w+)\s*\((.*)\)", expr, re.S)
    if not m:
        return None
    fn, inner = m.group(1), m.group(2)
    args = split_top(inner)
    if fn == "message_with_reasoning_content_and_multiple_tool_calls":
        if len(args) != 3:
            return None
        reasoning, content = cpp_strings(args[0]), cpp_strings(args[1])
        calls = cpp_call_list(args[2])
        if reasoning is None or content is None or calls is None:
            return None
        return CppMsg(content, reasoning, calls)
    values = [cpp_strings(a) for a in args]
    if any(v is None for v in values):
        return None
    if fn == "simple_assist_msg":
        content, reasoning, name, arguments, id_ = (values + ["", "", "", "", ""])[:5]
        calls = [(name, arguments)] if name or id_ else []
        return CppMsg(content, reasoning, calls)
    if fn == "message_with_tool_calls" and len(values) == 2:
        return CppMsg("", "", [(values[0], values[1])])
    if fn == "message_with_tool_calls_and_reasoning" and len(values) == 3:
        return CppMsg("", values[2], [(values[0], values[1])])
    if fn == "message_with_content_and_tool_call" and len(values) == 3:
        return CppMsg(values[0], "", [(values[1], values[2])])
    if fn == "message_with_reasoning_and_tool_call" and len(values) == 3:
        return CppMsg("", values[0], [(values[1], values[2])])
    return None


def cpp_call_list(expr):
    """`{ {"name", "args", ""}, ... }` -> [(name, args)]."""
    expr = expr.strip()
    if not (expr.startswith("{") and expr.endswith("}")):
        return None
    calls = []
    for item in split_top(expr[1:-1]):
        if not (item.startswith("{") and item.endswith("}")):
            return None
        fields = split_top(item[1:-1])
        if len(fields) < 2:
            return None
        name, arguments = cpp_strings(fields[0]), cpp_strings(fields[1])
        if name is None or arguments is None:
            return None
        calls.append((name, arguments))
    return calls


def llamacpp_file(path, rel):
    peer = "llama.cpp"
    raw = open(path, encoding="utf-8").read()
    text = CppLexer(raw).strip_comments()
    lex = CppLexer(text)
    # Tools: `static common_chat_tool NAME{ "name", "description", R"(schema)" };`
    tools = {}
    for m in re.finditer(r"static\s+common_chat_tool\s+(\w+)\s*\{", text):
        end = lex.matching(m.end() - 1)
        if end is None:
            continue
        fields = split_top(text[m.end():end])
        if len(fields) >= 3:
            name, schema = cpp_strings(fields[0]), cpp_strings(fields[2])
            try:
                parsed = json.loads(schema) if schema is not None else None
            except ValueError:
                parsed = None
            if name is not None:
                tools[m.group(1)] = (name, parsed, schema)
    tool_lists = {}
    for m in re.finditer(r"static\s+std::vector<common_chat_tool>\s+(\w+)\s*\{", text):
        end = lex.matching(m.end() - 1)
        if end is not None:
            tool_lists[m.group(1)] = [x.strip() for x in split_top(text[m.end():end])]
    # Messages: `const common_chat_msg NAME = helper(...);`
    consts = {}
    for m in re.finditer(r"(?:const|static)\s+common_chat_msg\s+(\w+)\s*=\s*", text):
        end = statement_end(lex, m.end())
        expr = text[m.end():end]
        msg = cpp_message(expr, consts)
        if msg is not None:
            consts[m.group(1)] = msg
    # String variables: `std::string NAME = "..." "...";` (also `const`, `auto`).
    string_vars = []
    for m in re.finditer(r"(?:const\s+)?(?:std::string|auto)\s+(\w+)\s*=\s*", text):
        end = statement_end(lex, m.end())
        value = cpp_concat(text[m.end():end], {n: v for _, n, v in string_vars})
        if value is not None:
            string_vars.append((m.start(), m.group(1), value))
    # Testers: `auto VAR = peg_tester(TEMPLATE, ...)`, in source order.
    binds = []
    for m in re.finditer(r"auto\s+(\w+)\s*=\s*peg_tester\(\s*([^,)]+)", text):
        binds.append((m.start(), m.group(1), m.group(2).strip()))

    def templates_of(expr, at):
        lit = cpp_strings(expr)
        if lit is not None:
            return [lit]
        if not re.fullmatch(r"\w+", expr):
            return []
        # A loop variable: `for (const ... NAME : { "a", "b" })` before `at`.
        loops = list(re.finditer(r"for\s*\(\s*const[^:;]*?\b" + expr + r"\s*:\s*\{", text[:at]))
        if loops:
            m = loops[-1]
            end = lex.matching(m.end() - 1)
            if end is not None:
                values = [cpp_strings(x) for x in split_top(text[m.end():end])]
                if all(v is not None for v in values):
                    return values
        # A parameter of the enclosing function: its call sites.
        fns = list(re.finditer(r"static\s+void\s+(\w+)\s*\(([^)]*)\)\s*\{", text[:at]))
        if fns and re.search(r"\b" + expr + r"\b", fns[-1].group(2)):
            fname = fns[-1].group(1)
            out = []
            for call in re.finditer(r"\b" + fname + r"\(\s*([^,)]+)", text):
                if call.start() == fns[-1].start() + fns[-1].group(0).find(fname):
                    continue
                out.extend(templates_of(call.group(1).strip(), call.start()))
            return out
        return []

    for m in re.finditer(r"\b(\w+)\s*\.\s*test\s*\(", text):
        var = m.group(1)
        bound = [b for b in binds if b[1] == var and b[0] < m.start()]
        open_paren = m.end() - 1
        close = lex.matching(open_paren)
        if close is None:
            continue
        input_expr = text[open_paren + 1:close]
        # The chain up to `.run();`
        chain = []
        i = close + 1
        while True:
            mm = re.match(r"\s*\.\s*(\w+)\s*\(", text[i:])
            if not mm:
                break
            p = i + mm.end() - 1
            q = lex.matching(p)
            if q is None:
                break
            chain.append((mm.group(1), text[p + 1:q].strip()))
            i = q + 1
        if not chain or chain[-1][0] != "run":
            continue
        if not bound:
            continue
        templates = templates_of(bound[-1][2], bound[-1][0])
        line = text.count("\n", 0, m.start()) + 1
        if not templates:
            STATS.found_one(peer, "?")
            STATS.skip(peer, "?", "template not known statically")
            continue
        for template in templates:
            parser = llamacpp_parser(template)
            STATS.found_one(peer, parser)
            source = f"{rel}::{os.path.basename(template)}@{line}"
            CURRENT[0] = source
            # String variables defined before the test (the latest definition of each name).
            strings = {}
            for pos, name, value in string_vars:
                if pos < m.start():
                    strings[name] = value
            case, reason = llamacpp_case(input_expr, chain, consts, tools, tool_lists, strings)
            if case is None:
                STATS.skip(peer, parser, reason)
                continue
            case.update({"id": f"{peer}:{source}", "peer": peer, "source": source, "parser": parser})
            CORPUS.add(order_case(case))


def cpp_concat(expr, strings):
    """A string built with `+` from literals and string variables (`strings`: name -> value)."""
    parts = split_top(expr, "+")
    out = []
    for part in parts:
        if re.fullmatch(r"\w+", part):
            if part not in strings:
                return None
            out.append(strings[part])
            continue
        value = cpp_strings(part)
        if value is None:
            return None
        out.append(value)
    return "".join(out) if out else None


def llamacpp_case(input_expr, chain, consts, tools, tool_lists, strings):
    model_output = cpp_concat(input_expr, strings)
    if model_output is None:
        return None, "input not a string literal"
    expect = None
    content = reasoning = None
    calls = None
    tool_schemas = {}
    notes = []
    for method, arg in chain:
        if method == "expect":
            expect = cpp_message(arg, consts)
            if expect is None:
                return None, "expected message not a literal"
        elif method == "expect_content":
            content = cpp_strings(arg)
            if content is None:
                return None, "expected message not a literal"
        elif method == "expect_reasoning":
            reasoning = cpp_strings(arg)
            if reasoning is None:
                return None, "expected message not a literal"
        elif method == "expect_tool_calls":
            calls = cpp_call_list(arg)
            if calls is None:
                return None, "expected message not a literal"
        elif method == "is_partial" and arg.strip() == "true":
            return None, "is_partial: a streaming snapshot, not a final parse"
        elif method == "continue_final_message":
            return None, "continues a prefilled message"
        elif method == "json_schema":
            return None, "a response format (json_schema), not tool calls"
        elif method == "tools":
            names = arg.strip()
            if names.startswith("{") and names.endswith("}"):
                names = split_top(names[1:-1])
            elif names in tool_lists:
                names = tool_lists[names]
            else:
                return None, "tools not known statically"
            for n in names:
                if n not in tools:
                    return None, "tools not known statically"
                tname, schema, raw = tools[n]
                if schema is None:
                    notes.append(f"the peer's schema for {tname} is not valid JSON: {raw.strip()!r}")
                    schema = {}
                tool_schemas[tname] = schema
        elif method in ("reasoning_format", "enable_thinking", "tool_choice", "parallel_tool_calls",
                        "add_generation_prompt", "messages"):
            notes.append(f"{method}({arg})")
    msg = expect or CppMsg()
    if content is not None:
        msg.content = content
    if reasoning is not None:
        msg.reasoning = reasoning
    if calls is not None:
        msg.calls = calls
    if expect is None and content is None and reasoning is None and calls is None:
        return None, "no expectation the replay can check"
    out_calls = []
    for name, arguments in msg.calls:
        if arguments == "":
            out_calls.append({"name": name, "arguments": None})
            notes.append("the peer expects an empty arguments string")
            continue
        try:
            value = json.loads(arguments)
        except ValueError:
            return None, "expected arguments not JSON (a cut-off call)"
        out_calls.append({"name": name, "arguments": value})
    case = {
        "model_output": model_output,
        "calls": out_calls,
        "count": "exact",
        "content": msg.content,
        "content_checked": True,
        "notes": "; ".join(notes),
    }
    if tool_schemas:
        case["tools"] = tool_schemas
    if msg.reasoning:
        case["reasoning"] = msg.reasoning
    return case, None


# --------------------------------------------------------------------------------------------
# SGLang
# --------------------------------------------------------------------------------------------

# SGLang detector class -> its `--tool-call-parser` name (python/sglang/srt/function_call/
# function_call_parser.py, ToolCallParserEnum).
SGLANG_DETECTORS = {
    "DeepSeekV3Detector": "deepseekv3",
    "DeepSeekV31Detector": "deepseekv31",
    "DeepSeekV32Detector": "deepseekv32",
    "DeepSeekV4Detector": "deepseekv4",
    "GigaChat3Detector": "gigachat3",
    "Glm4MoeDetector": "glm45",
    "Glm47MoeDetector": "glm47",
    "GptOssDetector": "gpt-oss",
    "HermesDetector": "hermes",
    "InternlmDetector": "interns1",
    "K2V3Detector": "k2_v3",
    "KimiK2Detector": "kimi_k2",
    "KimiK3Detector": "kimi_k3",
    "Lfm2Detector": "lfm2",
    "Llama32Detector": "llama3",
    "MiMoDetector": "mimo",
    "MiniCPM4XmlFormatDetector": "minicpm4",
    "MinimaxM2Detector": "minimax-m2",
    "MistralDetector": "mistral",
    "MultiFormatDetector": "multi_format",
    "PythonicDetector": "pythonic",
    "Qwen25Detector": "qwen25",
    "Qwen3CoderDetector": "qwen3_coder",
    "Step3Detector": "step3",
    "TrinityDetector": "trinity",
}

# The module SGLang's detectors live in: a name imported from elsewhere (the reasoning parsers
# reuse detector class names) is not a tool parser.
SGLANG_DETECTOR_MODULE = "sglang.srt.function_call."
SGLANG_REASONING_MODULE = "sglang.srt.parser.reasoning_parser"
# Constants the tests import from SGLang's sources (python/sglang/srt/function_call/
# kimik3_format.py, read at commit 6658b91249776879a9a98df184396715f8f84017).
SGLANG_CONSTANTS = {
    "sglang.srt.function_call.kimik3_format": {
        "THINK_OPEN": "<|open|>think<|sep|>",
        "THINK_CLOSE": "<|close|>think<|sep|>",
        "RESPONSE_OPEN": "<|open|>response<|sep|>",
        "RESPONSE_CLOSE": "<|close|>response<|sep|>",
        "TOOLS_OPEN": "<|open|>tools<|sep|>",
        "TOOLS_CLOSE": "<|close|>tools<|sep|>",
        "MESSAGE_CLOSE": "<|close|>message<|sep|>",
        "CALL_OPEN": "<|open|>call",
        "CALL_CLOSE": "<|close|>call<|sep|>",
        "ARGUMENT_CLOSE": "<|close|>argument<|sep|>",
    },
}
REASONING = "<reasoning parser>"


def sglang_imports(tree, detector_names):
    """The file's own view of SGLang's names: detector classes under the names it imports
    them as, reasoning parsers marked as such, and the constants it imports."""
    names = dict(detector_names)
    constants = {}
    for stmt in tree.body:
        if not isinstance(stmt, ast.ImportFrom) or not stmt.module:
            continue
        for alias in stmt.names:
            local = alias.asname or alias.name
            if stmt.module.startswith(SGLANG_DETECTOR_MODULE) and alias.name in detector_names:
                names[local] = detector_names[alias.name]
            elif stmt.module == SGLANG_REASONING_MODULE:
                names[local] = REASONING
            elif local in names:
                del names[local]
            if alias.name in SGLANG_CONSTANTS.get(stmt.module, {}):
                constants[local] = SGLANG_CONSTANTS[stmt.module][alias.name]
    return names, constants


# --------------------------------------------------------------------------------------------


# SGLang's detectors that read several dialects, chosen by `tool_format` (a keyword, the first
# positional argument, or `chat_template_kwargs`), and the dialect each one reads by default
# (python/sglang/srt/function_call/multi_format_detector.py).
SGLANG_DIALECTS = {"multi_format": "default", "k2_v3": "xml"}


def sglang_dialect(name, args, kwargs):
    fmt = kwargs.get("tool_format", args[0] if args else None)
    ctk = kwargs.get("chat_template_kwargs")
    if fmt is None and isinstance(ctk, dict):
        fmt = ctk.get("tool_format", ctk.get("tool_call_format"))
    if fmt is None and ctk is None:
        return SGLANG_DIALECTS[name]
    return fmt if isinstance(fmt, str) else UNKNOWN


# SGLang's qwen3_coder tests in test_qwen3_coder_detector/: test_cases.py's registered cases call
# `TestCase(runner).run(name, text, mode, expected)`, i.e. test_framework.py's
# `StreamingTestRunner.run_test`, which parses the text streamed and whole and compares both with
# `expected` (the text up to trailing whitespace, the calls' names and arguments exactly). The
# runner is built without a detector in the file; the folder's detector is the one it is for.
SGLANG_RUNNER_DETECTORS = {"test_qwen3_coder_detector": "qwen3_coder"}


def sglang_runner_tools(module, tree, path):
    """The tools of a file whose tests run through SGLang's StreamingTestRunner, or None."""
    imports = [
        s for s in tree.body
        if isinstance(s, ast.ImportFrom) and s.module and any(a.name == "StreamingTestRunner" for a in s.names)
    ]
    folder = os.path.basename(os.path.dirname(path))
    if not imports or folder not in SGLANG_RUNNER_DETECTORS:
        return None
    fixtures = os.path.join(os.path.dirname(path), "test_fixtures.py")
    if not os.path.exists(fixtures):
        return None
    ftree = ast.parse(open(fixtures, encoding="utf-8").read())
    fmod = Module("sglang", fixtures, "", ftree, {})
    fn = fmod.functions.get("get_test_tools")
    if fn is None:
        return None
    try:
        return tool_defs(Evaluator(fmod, None).inline(fn, [], {})) or None
    except (SkipTest, Return, RecursionError):
        return None


def sglang_runner_case(module, fn, tools):
    folder = os.path.basename(os.path.dirname(module.path))
    parser = SGLANG_RUNNER_DETECTORS[folder]
    source = f"{module.rel}::{fn.name}"
    CURRENT[0] = source
    module.test_nodes[source] = fn
    ev = Evaluator(module, None)
    env = {}
    call = None
    for stmt in fn.body:
        if isinstance(stmt, ast.Assign):
            try:
                value = ev.eval(stmt.value, env)
            except (SkipTest, Return, RecursionError):
                value = UNKNOWN
            for target in stmt.targets:
                ev.bind(target, value, env)
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "run":
                call = sub
    STATS.found_one(module.peer, parser)
    if call is None or len(call.args) < 2:
        STATS.skip(module.peer, parser, "no extraction call the script can follow")
        return
    text = ev.eval(call.args[1], env)
    kwargs = {k.arg: k.value for k in call.keywords}
    expected = ev.eval(kwargs["expected"], env) if "expected" in kwargs else None
    if not isinstance(text, str):
        STATS.skip(module.peer, parser, "model output built at run time")
        return
    if not isinstance(expected, dict) or not is_concrete(expected):
        STATS.skip(module.peer, parser, "no expectation the replay can check")
        return
    case = {"calls": [], "count": "exact", "content": None, "content_checked": False}
    for t in expected.get("tools", []):
        case["calls"].append({"name": t["name"], "arguments": t.get("args", {})})
    if "text" in expected:
        case["content"] = expected["text"]
        case["content_checked"] = True
    case.update(
        {
            "id": f"{module.peer}:{source}",
            "peer": module.peer,
            "source": source,
            **({"commit": module.commit} if module.commit else {}),
            "parser": parser,
            "model_output": text,
            "tools": {t.name: (t.schema if isinstance(t.schema, dict) else {}) for t in tools},
            "notes": "the peer's test streams it; the test runs through test_framework.py's "
            f"StreamingTestRunner (built without a detector: {parser} is its folder's), which "
            "compares the text up to trailing whitespace and asserts nothing",
        }
    )
    CORPUS.add(order_case(case))


def write(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        if name.endswith(".jsonl") and name != "differences.jsonl":
            os.remove(os.path.join(out_dir, name))
    by_file = collections.defaultdict(list)
    prefix = {"vllm": "vllm", "llama.cpp": "llamacpp", "sglang": "sglang"}
    for case in CORPUS.cases:
        by_file[f"{prefix[case['peer']]}-{case['parser']}.jsonl"].append(case)
    for name, cases in sorted(by_file.items()):
        with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
            for case in cases:
                f.write(json.dumps(case, ensure_ascii=False, sort_keys=False) + "\n")
    return len(by_file)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vllm", default="/work/peers/vllm-0.33.0")
    ap.add_argument("--llamacpp", default="/work/peers/llama_cpp_python-0.3.36/vendor/llama.cpp")
    ap.add_argument("--sglang", default=None, help="a copy of SGLang's test/registered/function_call")
    ap.add_argument(
        "--sglang-commits",
        default=None,
        help="JSON map: file path under --sglang -> the SGLang commit it was copied from "
        "(default: COMMITS.json in --sglang, if there)",
    )
    ap.add_argument("--out", default="tool-runtime/tests/fixtures/peer_corpus")
    ap.add_argument("--verbose", action="store_true", help="name every case skipped, on stderr")
    opts = ap.parse_args()
    global VERBOSE
    VERBOSE = opts.verbose
    sys.setrecursionlimit(5000)

    if opts.vllm:
        tests = os.path.join(opts.vllm, "tests", "tool_parsers")
        files = sorted(
            os.path.join(tests, f) for f in os.listdir(tests) if f.startswith("test_") and f.endswith(".py")
        )
        defaults = common_defaults(os.path.join(tests, "common_tests.py"))
        python_files("vllm", files, vllm_parser_classes(opts.vllm), {}, defaults, opts.vllm)
    if opts.llamacpp:
        tests = os.path.join(opts.llamacpp, "tests")
        for f in sorted(os.listdir(tests)):
            if f.startswith("test-chat") and f.endswith(".cpp"):
                llamacpp_file(os.path.join(tests, f), os.path.join("tests", f))
    if opts.sglang:
        files = []
        for dirpath, _, names in os.walk(opts.sglang):
            files.extend(os.path.join(dirpath, n) for n in names if n.startswith("test") and n.endswith(".py"))
        commits_path = opts.sglang_commits or os.path.join(opts.sglang, "COMMITS.json")
        commits = {}
        if os.path.exists(commits_path):
            commits = json.load(open(commits_path, encoding="utf-8"))
        python_files(
            "sglang", sorted(files), {}, SGLANG_DETECTORS, {}, opts.sglang,
            "test/registered/function_call/", commits,
        )

    n = write(opts.out)
    STATS.report()
    print(f"\n{len(CORPUS.cases)} cases in {n} files under {opts.out}")


if __name__ == "__main__":
    main()
