import json, os
# Regenerates the corpus: `python3 tests/attacks/generate.py`. Large inputs are stored as
# generator specs (`arguments_gen`: parts that are text, `repeat` x `times`, or `numbered`).
OUT = os.path.dirname(os.path.abspath(__file__))
files = {}
def add(file, name, tool, args=None, gen=None, **expect):
    e = {"name": name, "tool": tool}
    if gen is not None: e["arguments_gen"] = gen
    else: e["arguments"] = args
    e["expect"] = expect
    files.setdefault(file, []).append(e)

def bad(name, args, tool="echo", code="malformed_arguments", **kw):
    add("malformed_json", name, tool, args, code=code, **kw)

# ---- malformed and truncated JSON (echo takes {"text": string}) ----
M = "malformed_arguments"; I = "invalid_arguments"
bad("open brace only", "{")
bad("close brace only", "}")
bad("open bracket only", "[")
bad("truncated after key", '{"text"')
bad("truncated after colon", '{"text":')
bad("truncated inside string", '{"text": "ab')
bad("truncated after value", '{"text": "ab"')
bad("truncated after comma", '{"text": "ab",')
bad("truncated escape", '{"text": "ab\\')
bad("truncated unicode escape", '{"text": "\\u12')
bad("missing colon", '{"text" "x"}')
bad("missing value", '{"text": }')
bad("single quotes", "{'text': 'x'}")
bad("unquoted key", '{text: "x"}')
bad("trailing comma", '{"text": "x",}')
bad("double comma", '{"text": "x",, "y": 1}')
bad("leading comma", '{, "text": "x"}')
bad("line comment", '{"text": "x" // note\n}')
bad("block comment", '{/* c */ "text": "x"}')
bad("extra closing brace", '{"text": "x"}}')
bad("trailing garbage", '{"text": "x"} garbage')
bad("two objects", '{"text": "x"}{"text": "y"}')
bad("bad escape", '{"text": "\\x41"}')
bad("raw newline in string", '{"text": "a\nb"}')
bad("raw tab in string", '{"text": "a\tb"}')
bad("raw NUL in string", '{"text": "a\u0000b"}')
bad("raw control char in key", '{"te\u0001xt": "a"}')
bad("byte order mark", '\ufeff{"text": "x"}')
bad("bare word", "hello")
bad("truncated literal", "tru")
bad("truncated null", "nul")
bad("unterminated string", '"unterminated')
bad("backslash only", "\\")
bad("key is a number", '{1: "x"}')
bad("key is an object", '{{"a": 1}: "x"}')
bad("mismatched brackets", '{"text": ["x"}')
bad("array for object", '["text", "x"]', code=I)
bad("number for object", "42", code=I)
bad("boolean for object", "true", code=I)
bad("string that isn't JSON", '"just text"', code=I)
bad("empty arguments read as {} (text missing)", "", code=I, message_contains="text")
bad("whitespace arguments read as {} (text missing)", "   \n\t ", code=I, message_contains="text")
bad("null arguments read as {} (text missing)", "null", code=I)
add("malformed_json", "double-encoded arguments are repaired", "echo", '"{\\"text\\": \\"twice\\"}"', ok=True, output_equals="twice")
add("malformed_json", "text for a string that is an object", "echo", '{"text": {"nested": 1}}', code=I)
add("malformed_json", "text is null", "echo", '{"text": null}', code=I)

# ---- huge inputs, generated ----
def rep(s, n): return {"repeat": s, "times": n}
def lit(s): return {"text": s}
add("huge", "10 MB string", "echo", gen=[lit('{"text": "'), rep("a", 10 << 20), lit('"}')], code="limit_exceeded", message_contains="over the limit")
add("huge", "1 MiB plus one byte", "echo", gen=[lit('{"text": "'), rep("a", (1 << 20) + 1 - 12), lit('"}')], code="limit_exceeded")
add("huge", "string just under 1 MiB comes back capped", "echo", gen=[lit('{"text": "'), rep("b", (1 << 20) - 100), lit('"}')], ok=True, output_contains="truncated")
add("huge", "10 MB of whitespace", "echo", gen=[rep(" ", 10 << 20)], code="limit_exceeded")
add("huge", "10 MB of multibyte characters", "echo", gen=[lit('{"text": "'), rep("\u00e9", 5 << 20), lit('"}')], code="limit_exceeded")
add("huge", "arrays nested 100,000 deep", "anything", gen=[lit('{"value": '), rep("[", 100000), rep("]", 100000), lit("}")], code="limit_exceeded", message_contains="deeper than 64")
add("huge", "objects nested 100,000 deep", "anything", gen=[lit('{"value": '), rep('{"a": ', 100000), lit("1"), rep("}", 100000), lit("}")], code="limit_exceeded")
add("huge", "100,000 open brackets, never closed", "anything", gen=[rep("[", 100000)], code="limit_exceeded")
add("huge", "100,000 close brackets", "anything", gen=[rep("]", 100000)], code="malformed_arguments")
add("huge", "nesting 65 deep", "anything", gen=[lit('{"value": '), rep("[", 64), rep("]", 64), lit("}")], code="limit_exceeded")
add("huge", "nesting 64 deep is allowed", "anything", gen=[lit('{"value": '), rep("[", 63), rep("]", 63), lit("}")], ok=True)
add("huge", "brackets inside a string are not nesting", "echo", gen=[lit('{"text": "'), rep("[{", 50000), lit('"}')], ok=True, output_contains="truncated")
add("huge", "escaped quotes and brackets inside a string", "echo", gen=[lit('{"text": "'), rep('\\"[', 30000), lit('"}')], ok=True)
add("huge", "80,000 unknown keys", "echo", gen=[lit('{"text": "x"'), {"numbered": ',"k{}":1', "times": 80000}, lit("}")], code=I)
add("huge", "80,000 keys into a free-form value", "anything", gen=[lit('{"value": {"a": 0'), {"numbered": ',"k{}":1', "times": 80000}, lit("}}")], ok=True)
add("huge", "80,000 copies of one key", "echo", gen=[lit('{"text": "x"'), rep(",\"text\":\"y\"", 80000), lit("}")], code=M, message_contains="appears twice")
add("huge", "a 900 KB key", "echo", gen=[lit('{"'), rep("k", 900000), lit('": 1, "text": "x"}')], code=I)
add("huge", "300,000 array items", "anything", gen=[lit('{"value": [0'), rep(",1", 300000), lit("]}")], ok=True, output_contains="items truncated")
add("huge", "300,000 numbers where strings are wanted", "list_tags", gen=[lit('{"tags": [0'), rep(",1", 300000), lit("]}")], code=I)
add("huge", "a 100,000-digit integer", "numbers", gen=[lit('{"big": '), rep("9", 100000), lit("}")], code=M, message_contains="number out of range")
add("huge", "a 100,000-digit float", "numbers", gen=[lit('{"real": 0.'), rep("3", 100000), lit("}")], ok=True)

# ---- numbers ----
def num(name, args, **kw): add("numbers", name, "numbers", args, **kw)
num("1e400 for a float", '{"real": 1e400}', code=M)
num("-1e400 for a float", '{"real": -1e400}', code=M)
num("1e-400 underflows to 0", '{"real": 1e-400}', ok=True, output_contains='"real":0.0')
num("largest f64", '{"real": 1.7976931348623157e308}', ok=True)
num("NaN literal", '{"real": NaN}', code=M)
num("Infinity literal", '{"real": Infinity}', code=M)
num("-Infinity literal", '{"real": -Infinity}', code=M)
num("nan lowercase", '{"real": nan}', code=M)
num("NaN as a string", '{"real": "NaN"}', code=I)
num("Infinity as a string", '{"real": "Infinity"}', code=I)
num("1e400 as a string", '{"real": "1e400"}', code=I)
num("2^64+1 for u64", '{"big": 18446744073709551617}', code=I)
num("2^64 for u64", '{"big": 18446744073709551616}', code=I)
num("u64::MAX", '{"big": 18446744073709551615}', ok=True, output_contains="18446744073709551615")
num("2^53+1 for u64 stays exact", '{"big": 9007199254740993}', ok=True, output_contains="9007199254740993")
num("-1 for u64", '{"big": -1}', code=I)
num("i64::MIN", '{"signed": -9223372036854775808}', ok=True, output_contains="-9223372036854775808")
num("i64::MIN - 1", '{"signed": -9223372036854775809}', code=I)
num("i64::MAX + 1", '{"signed": 9223372036854775808}', code=I)
num("256 for u8", '{"small": 256}', code=I)
num("-1 for u8", '{"small": -1}', code=I)
num("-0 for u8", '{"small": -0}', ok=True, output_contains='"small":0')
num("-0.0 for u8", '{"small": -0.0}', ok=True, output_contains='"small":0')
num("1.5 for u8", '{"small": 1.5}', code=I)
num("1e2 for u8", '{"small": 1e2}', ok=True, output_contains='"small":100')
num("1e3 for u8", '{"small": 1e3}', code=I)
num("-129 for i8", '{"tiny": -129}', code=I)
num("-128 for i8", '{"tiny": -128}', ok=True)
num("4294967296 for u32", '{"count": 4294967296}', code=I)
num("-0 for a float", '{"real": -0}', ok=True)
num("leading zeros", '{"small": 007}', code=M)
num("plus sign", '{"small": +1}', code=M)
num("hex literal", '{"small": 0x10}', code=M)
num("trailing dot", '{"real": 1.}', code=M)
num("leading dot", '{"real": .5}', code=M)
num("bare exponent", '{"real": 1e}', code=M)
num("number as a string is repaired", '{"small": "7"}', ok=True, output_contains='"small":7')
num("number string out of range", '{"small": "300"}', code=I)
num("number string with spaces is repaired", '{"small": " 7 "}', ok=True, output_contains='"small":7')
num("a boolean for a number", '{"small": true}', code=I)

# ---- strings and unicode ----
def s(name, args, **kw): add("unicode", name, "echo", args, **kw)
s("lone high surrogate", '{"text": "\\ud800"}', code=M)
s("lone low surrogate", '{"text": "\\udc00"}', code=M)
s("high surrogate then text", '{"text": "\\ud800abc"}', code=M)
s("two high surrogates", '{"text": "\\ud800\\ud800"}', code=M)
s("reversed surrogate pair", '{"text": "\\ude00\\ud83d"}', code=M)
s("lone surrogate in a key", '{"\\ud800": 1, "text": "x"}', code=M)
s("valid surrogate pair", '{"text": "\\ud83d\\ude00"}', ok=True, output_equals="\U0001F600")
s("escaped NUL", '{"text": "a\\u0000b"}', ok=True, output_equals="a\u0000b")
s("noncharacter U+FFFF", '{"text": "\\uffff"}', ok=True)
s("right-to-left override", '{"text": "abc\\u202edef"}', ok=True, output_equals="abc\u202edef")
s("ANSI escape sequence", '{"text": "\\u001b[31mred\\u001b[0m"}', ok=True)
s("zero-width joiner soup", '{"text": "' + "\u200d" * 1000 + '"}', ok=True)
s("combining marks", '{"text": "a' + "\u0301" * 5000 + '"}', ok=True)
s("raw 4-byte characters", '{"text": "\U0001F600\U0001F4A9"}', ok=True, output_equals="\U0001F600\U0001F4A9")
s("uppercase hex escape", '{"text": "\\u00E9"}', ok=True, output_equals="\u00e9")
s("escaped slash", '{"text": "a\\/b"}', ok=True, output_equals="a/b")

# ---- keys ----
def k(name, tool, args, **kw): add("keys", name, tool, args, **kw)
k("duplicate key", "echo", '{"text": "first", "text": "second"}', code=M, message_contains="appears twice")
k("duplicate key, three times", "echo", '{"text": "a", "text": "b", "text": "c"}', code=M, message_contains="appears twice")
k("duplicate key in a free-form value: last wins on the typed path", "anything", '{"value": {"a": 1, "a": 2}}', ok=True, output_equals='{"a":2}')
k("duplicate key in a free-form value of a bad call is refused", "anything", '{"value": {"a": 1, "a": 2}, "extra": 1}', code=M, message_contains="appears twice")
k("duplicate key differing only by escape", "echo", '{"text": "a", "\\u0074ext": "b"}', code=M, message_contains="appears twice")
k("duplicate key in a double-encoded call", "echo", json.dumps('{"text": "a", "text": "b"}'), code=I)
k("duplicate argv smuggles another command past the approver", "exec_command", '{"argv": ["echo", "harmless"], "argv": ["touch", "pwned"]}', code=M, no_file="pwned")
k("duplicate key in a map argument", "list_tags", '{"tags": ["a"], "tags": ["b"]}', code=M)
k("__proto__ as an argument", "echo", '{"text": "x", "__proto__": {"admin": true}}', code=I, message_contains="__proto__")
k("constructor as an argument", "echo", '{"text": "x", "constructor": {"prototype": {"admin": true}}}', code=I)
k("prototype as an argument", "echo", '{"text": "x", "prototype": 1}', code=I)
k("$ref as the arguments", "echo", '{"$ref": "#/$defs/Echo"}', code=I)
k("$ref beside the arguments", "echo", '{"text": "x", "$ref": "http://127.0.0.1:1/schema.json"}', code=I)
k("$ref as a value", "echo", '{"text": {"$ref": "#"}}', code=I)
k("$schema as an argument", "echo", '{"text": "x", "$schema": "http://json-schema.org/draft-04/schema#"}', code=I)
k("$id as an argument", "echo", '{"text": "x", "$id": "http://127.0.0.1:1/"}', code=I)
k("__class__ as an argument", "echo", '{"text": "x", "__class__": "os.system"}', code=I)
k("empty key", "echo", '{"text": "x", "": 1}', code=I)
k("NUL key", "echo", '{"text": "x", "\\u0000": 1}', code=I)
k("key differing by case", "echo", '{"Text": "x"}', code=I)
k("key with trailing space", "echo", '{"text ": "x"}', code=I)
k("__proto__ inside a free-form value is data", "anything", '{"value": {"__proto__": {"admin": true}}}', ok=True, output_contains="__proto__")
k("$ref inside a free-form value is data", "anything", '{"value": {"$ref": "http://127.0.0.1:1/x"}}', ok=True, output_contains="$ref")
k("constructor inside a free-form value is data", "anything", '{"value": {"constructor": "Object"}}', ok=True)
k("hasOwnProperty as a key", "echo", '{"text": "x", "hasOwnProperty": 1}', code=I)

# ---- tool names ----
def n(name, tool, **kw): add("names", name, tool, '{"text": "x"}', **kw)
U = "unknown_tool"
n("empty name", "", code=U)
n("space name", " ", code=U)
n("newline name", "\n", code=U)
n("NUL after the name", "echo\u0000", code=U)
n("newline after the name is trimmed", "echo\n", ok=True, output_equals="x")
n("carriage return and line feed in the name", "ec\r\nho", code=U)
n("ANSI escape in the name", "\u001b[31mecho\u001b[0m", code=U)
n("bell and backspace in the name", "echo\u0007\u0008", code=U)
n("10,000-character name", "e" * 10000, code=U)
add("names", "1 MiB name", None, '{"text": "x"}', code=U)
files["names"][-1]["tool_gen"] = [{"repeat": "x", "times": 1 << 20}]
del files["names"][-1]["tool"]
n("a path prefix is dropped like a namespace", "../echo", ok=True, output_equals="x")
n("shell in the name", "echo; rm -rf /", code=U)
n("Cyrillic lookalike", "\u0435cho", code=U)
n("__proto__ as a tool", "__proto__", code=U)
n("constructor as a tool", "constructor", code=U)
n("toString as a tool", "toString", code=U)
n("unknown tool", "delete_everything", code=U)
n("name off by case is repaired", "ECHO", ok=True, output_equals="x")
n("namespace prefix is repaired", "functions.echo", ok=True, output_equals="x")
n("zero-width space in the name", "ec\u200bho", code=U)

# ---- read_file: path traversal ----
def p(name, path, tool="read_file", **kw):
    add("paths", name, tool, json.dumps({"path": path}), **kw)
F = "tool_failed"
p("parent directory", "../secret.txt", code=F, message_contains="above the workspace")
p("deep climb", "../../../../../../etc/passwd", code=F, message_contains="above the workspace")
p("climb after descending", "sub/../../secret.txt", code=F, message_contains="above the workspace")
p("absolute path", "/etc/passwd", code=F, message_contains="absolute")
p("double-slash absolute path", "//etc/passwd", code=F, message_contains="absolute")
p("absolute path to proc", "/proc/self/environ", code=F, message_contains="absolute")
p("symlink to a directory outside", "escape/secret.txt", code=F, message_contains="symbolic link")
p("symlink to a file outside", "link_secret.txt", code=F, message_contains="symbolic link")
p("symlink chain to outside", "chain.txt", code=F, message_contains="symbolic link")
p("symlink inside the root is fine", "inner_link.txt", ok=True, output_contains="one")
p("percent-encoded dots are literal", "%2e%2e/secret.txt", code=F, message_contains="does not exist")
p("percent-encoded slash is literal", "..%2f..%2fetc%2fpasswd", code=F, message_contains="does not exist")
p("double-encoded dots are literal", "%252e%252e/secret.txt", code=F, message_contains="does not exist")
p("NUL byte truncation", "notes.txt\u0000.png", code=F, message_contains="NUL")
p("NUL byte alone", "\u0000", code=F, message_contains="NUL")
p("backslash traversal is a literal name", "..\\..\\secret.txt", code=F, message_contains="does not exist")
p("four dots are a name", "..../secret.txt", code=F, message_contains="does not exist")
p("tilde is a name", "~/.ssh/id_rsa", code=F, message_contains="does not exist")
p("file URL is a name", "file:///etc/passwd", code=F, message_contains="does not exist")
p("empty path", "", code=F, message_contains="empty")
p("whitespace path", "   ", code=F, message_contains="empty")
p("the root itself is a directory", ".", code=F, message_contains="directory")
p("a file used as a directory", "notes.txt/..", code=F)
p("dot segments that stay inside", "sub/./../notes.txt", ok=True, output_contains="L1: one")
p("an ordinary read", "notes.txt", ok=True, output_equals="L1: one\nL2: two\n")
p("unicode dot lookalikes", "\u2024\u2024/secret.txt", code=F, message_contains="does not exist")
p("list_dir above the root", "..", tool="list_dir", code=F, message_contains="above the workspace")
p("list_dir through a symlink", "escape", tool="list_dir", code=F, message_contains="symbolic link")
p("list_dir absolute", "/", tool="list_dir", code=F, message_contains="absolute")
add("paths", "read_file with a path array", "read_file", '{"path": ["..", "etc"]}', code=I)

# ---- exec_command: shell metacharacters are literal argv ----
def x(name, argv, **kw):
    add("exec", name, "exec_command", json.dumps({"argv": argv}), **kw)
for meta in ["; rm -rf /", "$(touch pwned)", "`touch pwned`", "a | touch pwned", "a && touch pwned",
             "a || touch pwned", "> pwned", "$HOME", "*", "'quoted'", "\"double\"", "a\nb", "&", "$((1+1))",
             "${IFS}touch${IFS}pwned", "!!", "<(id)", "\\; touch pwned"]:
    x("echo " + meta.replace("\n", "\\n"), ["echo", meta], ok=True, output_contains=json.dumps(meta)[1:-1], no_file="pwned")
x("shell command as the program name", ["rm -rf /"], code=F, message_contains="not found")
x("sh -c in one string", ["sh -c id"], code=F, message_contains="not found")
x("empty argv", [], code=F, message_contains="argv is empty")
x("empty program", [""], code=F, message_contains="argv[0] is empty")
x("NUL in an argument", ["echo", "a\u0000b"], code=F, message_contains="NUL")
add("exec", "workdir above the root", "exec_command", json.dumps({"argv": ["pwd"], "workdir": ".."}), code=F, message_contains="above the workspace")
add("exec", "workdir through a symlink", "exec_command", json.dumps({"argv": ["pwd"], "workdir": "escape"}), code=F, message_contains="symbolic link")
add("exec", "timeout of 0 is out of range", "exec_command", json.dumps({"argv": ["true"], "timeout_ms": 0}), code=I)
add("exec", "a program that outlives its timeout is killed", "exec_command", json.dumps({"argv": ["sleep", "10"], "timeout_ms": 100}), ok=True, output_contains='"timed_out":true')
add("exec", "a program that floods stdout comes back capped", "exec_command", json.dumps({"argv": ["head", "-c", "20000000", "/dev/zero"]}), ok=True, output_contains='"exit_code":0')

# ---- execution: tools that misbehave ----
def r(name, tool, args="{}", **kw): add("execution", name, tool, args, **kw)
r("a tool that never returns (async)", "never_returns", code="timeout")
r("a tool that never returns (sync, sleeping)", "sleeps", code="timeout")
r("a tool that allocates 64 MiB of text", "flood_text", '{"mib": 64}', ok=True, output_contains="truncated", max_output=8192)
r("a tool that returns a million-item array", "flood_json", '{"items": 1000000}', ok=True, output_contains="items truncated", max_output=8192)
r("a tool that fails with a 16 MiB message", "flood_error", '{"mib": 16}', code=F, max_output=8192)
r("a tool that panics", "panics", '{"message": "boom"}', code="panicked", message_contains="boom")
r("a tool that returns NaN", "not_a_number", ok=True, output_contains="NaN")
r("a tool whose Serialize fails", "bad_serialize", code="output_error")
r("a tool that returns 1,000-deep JSON", "deep_output", '{"depth": 1000}', ok=True, max_output=8192)


def batch(name, fmt, calls, repeat, ids):
    files.setdefault("batches", []).append({"name": name, "batch": {"format": fmt, "calls": calls, "repeat": repeat, "ids": ids}})
ok_echo = {"tool": "echo", "arguments": '{"text": "hi"}', "expect": {"ok": True, "output_equals": "hi"}}
bad_echo = {"tool": "echo", "arguments": '{"text": 5}', "expect": {"code": "invalid_arguments"}}
broken = {"tool": "echo", "arguments": '{"text": "', "expect": {"code": "malformed_arguments"}}
unknown = {"tool": "nope", "arguments": '{}', "expect": {"code": "unknown_tool"}}
slow = {"tool": "never_returns", "arguments": '{}', "expect": {"code": "timeout"}}
panic = {"tool": "panics", "arguments": '{"message": "in a batch"}', "expect": {"code": "panicked"}}
read = {"tool": "read_file", "arguments": '{"path": "notes.txt"}', "expect": {"ok": True, "output_contains": "L1: one"}}
escape = {"tool": "read_file", "arguments": '{"path": "../x"}', "expect": {"code": "tool_failed"}}
shell = {"tool": "exec_command", "arguments": '{"argv": ["echo", "$(id)"]}', "expect": {"ok": True, "output_contains": "$(id)"}}
batch("1,000 good calls in one OpenAI Chat message", "openai_chat", [ok_echo], 1000, "unique")
batch("1,000 good calls in one Anthropic message", "anthropic", [ok_echo], 1000, "unique")
batch("1,000 mixed calls in one OpenAI Chat message", "openai_chat", [ok_echo, bad_echo, broken, unknown, read, escape, panic], 1000, "unique")
batch("one call id used by 1,000 calls", "openai_chat", [ok_echo, bad_echo], 1000, "same")
batch("a call id reused by two calls", "anthropic", [ok_echo, read], 1, "same")
batch("a call id reused across different outcomes", "openai_chat", [ok_echo, unknown, broken, panic], 2, "pairs")
batch("empty call ids", "openai_chat", [ok_echo, bad_echo], 10, "empty")
batch("slow, panicking and shell calls together", "openai_chat", [slow, panic, shell, ok_echo], 5, "unique")
batch("1,000 calls to unknown tools", "anthropic", [unknown], 1000, "unique")
batch("200 calls that each time out", "openai_chat", [slow], 200, "unique")

# ---- model text that opens calls and never closes them (`model_text/`: router input, not
# arguments). Each is 256 KiB of one piece; `formats` are the text formats it is parsed as,
# whole and streamed; `calls` how many calls it must give (none: every opened call is an
# error). The first cost time with the cube of its size (11 s for 144 KB), the second its
# square; the JSON ones were read again with every piece streamed.
def trap(name, piece, formats, calls=0):
    add_text = {"name": name, "text_gen": [{"repeat": piece, "times": 256 * 1024 // len(piece)}],
                "formats": formats, "expect": {"calls": calls}}
    model_text.append(add_text)
model_text = []
XML = ["auto", "hermes", "qwen_xml", "mistral", "pythonic"]
trap("Qwen XML call, function and parameter opened, repeated", "<tool_call><function=f><parameter=a>", XML)
trap("<tool_call> alone, repeated", "<tool_call>", XML)
trap("Hermes call opened inside a string, repeated", "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"", XML)
trap("Mistral call with an array opened, repeated", "[TOOL_CALLS]f[ARGS]{\"a\": [", XML)
trap("pythonic call with a list opened, repeated", "[a(x=[", XML)
trap("a call opened inside thinking, repeated", "<think><tool_call>", XML)
trap("a fenced JSON call opened, repeated", "```json\n{\"name\": \"f\", \"arguments\": {", XML)
trap("Llama 3 bare JSON call opened, repeated", "{\"name\": \"f\", \"parameters\": {\"a\": [", ["auto", "llama3"])
os.makedirs(os.path.join(OUT, "model_text"), exist_ok=True)
with open(os.path.join(OUT, "model_text", "never_closed.jsonl"), "w") as out:
    for e in model_text:
        out.write(json.dumps(e, ensure_ascii=False) + "\n")
print("model_text/never_closed", len(model_text))

# ---- provider replies `run --format auto` once lost calls on (`replies/`): an Anthropic
# message whose one call must come through (`ok_*`), or fail as `--format anthropic` does,
# exit 2 (`fails_*`). Written as bytes: the BOM is part of the input.
def reply(tool_input, usage):
    return ('{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude", '
            '"stop_reason": "tool_use", "content": [{"type": "tool_use", "id": "toolu_01", '
            '"name": "list_dir", "input": %s}], "usage": %s}' % (tool_input, usage))
replies = {
    "ok_byte_order_mark.json": "\ufeff" + reply('{"path": "."}', '{"input_tokens": 1, "output_tokens": 2}'),
    "ok_number_past_f64_in_usage.json": reply('{"path": "."}', '{"input_tokens": 1, "total_tokens": 1e999}'),
    "fails_input_nested_131_deep.json": reply('{"path": %s1%s}' % ("[" * 131, "]" * 131), "{}"),
}
os.makedirs(os.path.join(OUT, "replies"), exist_ok=True)
for name, text in replies.items():
    with open(os.path.join(OUT, "replies", name), "wb") as out:
        out.write(text.encode("utf-8"))
print("replies", len(replies))

# ---- a schema whose definitions each use the next twice (`exports/`): inlined, it doubles
# with every level (a 182 MB Gemini export from 1.7 KB before the inlining budget).
defs = {"D%d" % level: {"type": "object", "properties": {"a": {"$ref": "#/$defs/D%d" % (level + 1)},
        "b": {"$ref": "#/$defs/D%d" % (level + 1)}}, "required": ["a", "b"], "additionalProperties": False}
        for level in range(20)}
defs["D20"] = {"type": "string"}
os.makedirs(os.path.join(OUT, "exports"), exist_ok=True)
with open(os.path.join(OUT, "exports", "doubling_definitions.json"), "w") as out:
    json.dump({"source": "20 levels of definitions that each use the next twice (issue 17: 1.7 KB "
               "made a 182 MB Gemini export and took the strict exports minutes)",
               "schema": {"type": "object", "properties": {"root": {"$ref": "#/$defs/D0"}},
                          "required": ["root"], "additionalProperties": False, "$defs": defs}},
              out, indent=1)
    out.write("\n")

for f, entries in files.items():
    with open(os.path.join(OUT, f + ".jsonl"), "w") as out:
        for e in entries:
            out.write(json.dumps(e, ensure_ascii=False) + "\n")
    print(f, len(entries))
print("total", sum(len(v) for v in files.values()))
