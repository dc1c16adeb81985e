#!/usr/bin/env bash
# Runs the fuzz targets in fuzz/ one after another, each for a given time, on one core.
#
#   scripts/fuzz.sh [seconds-per-target] [target...]     (default: 600 s, every target)
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`) and is run by hand, never by CI;
# `code_workers` also needs Monty's worker binary (`scripts/install-test-clients.sh`).
# On a stable toolchain the sanitizer flags need RUSTC_BOOTSTRAP=1, which this script sets;
# FUZZ_SANITIZER=none builds without AddressSanitizer (faster, coverage only).
#
# Seeds come from the attack corpus (tests/attacks/*.jsonl), the router and text fixtures
# (tool-runtime/tests/fixtures) and a few hand-written inputs; the corpus grows in
# fuzz/corpus/<target>, crashes land in fuzz/artifacts/<target>, each run's log in
# fuzz/logs/<target>.log. At the end it prints, per target, the executions, execs/s, coverage
# and corpus size libFuzzer reported, and any crash files.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
all_targets=(text router stream_openai_chat stream_anthropic stream_responses stream_tensorzero repair pipeline export code_workers)
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi
sanitizer="${FUZZ_SANITIZER:-address}"
export RUSTC_BOOTSTRAP=1

command -v cargo-fuzz >/dev/null || {
  echo "cargo-fuzz is missing: cargo install cargo-fuzz --locked" >&2
  exit 1
}

echo "== build (release, sanitizer: $sanitizer)"
(cd fuzz && cargo fuzz build --release --sanitizer "$sanitizer")

echo "== seeds"
# The example tools' input schemas, as the MCP export lists them, seed the export target.
cargo run -q -p tool-examples -- schema --dialect mcp >fuzz/example-schemas.json
python3 - <<'PY'
import glob, json, os

corpus = "fuzz/corpus"
def put(target, name, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)

# Text formats: every text fixture, under each format selector.
texts = []
for path in sorted(glob.glob("tool-runtime/tests/fixtures/text/*.txt")):
    texts.append(open(path, encoding="utf-8").read())
texts += [
    "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par",
    "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Rome\"}[TOOL_CALLS]get_time{\"tz\": \"UTC\"}",
    "<|python_tag|>{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Lima\"}}; {\"name\": \"f\", \"parameters\": {}}",
    "[get_weather(city='Paris', days=3), get_time(tz=\"CET\")]",
    "{\"tool_calls\": [{\"name\": \"f\", \"arguments\": {}}]}",
    "```json\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Cairo\"}}\n```",
    "<tool_call>\n<function=get_weather>\n<parameter=city>\nNew York\n</parameter>\n</function>\n</tool_call>",
    "{\"response\": \"Hi there\"}",
]
for i, text in enumerate(texts):
    for fmt in range(8):
        put("text", f"{i}-{fmt}", bytes([fmt, (i * 37 + fmt) % 256]) + text.encode())

# Providers: whole responses for the router, event streams for the accumulators.
selector = {"openai_chat": 1, "openai_responses": 2, "anthropic": 3, "gemini": 4,
            "tensorzero": 5}
stream_target = {"openai_chat": "stream_openai_chat", "openai_responses": "stream_responses",
                 "anthropic": "stream_anthropic", "tensorzero": "stream_tensorzero"}
for path in sorted(glob.glob("tool-runtime/tests/fixtures/providers/*/*")):
    provider = os.path.basename(os.path.dirname(path))
    name = provider + "-" + os.path.basename(path)
    data = open(path, "rb").read()
    if path.endswith(".json"):
        put("router", name + "-auto", b"\x00" + data)
        put("router", name, bytes([selector[provider]]) + data)
    elif path.endswith(".jsonl") and provider in stream_target:
        put(stream_target[provider], name, data)
        sse = b"".join(b"data: " + line + b"\n\n" for line in data.splitlines() if line.strip())
        put(stream_target[provider], name + ".sse", sse + b"data: [DONE]\n")

# The attack corpus: (tool, arguments) pairs for the pipeline and the repair target.
tools = ["read_file", "list_dir", "update_plan", "csv_summary", "search_files",
         "search_tools", "describe_tool"]
good = {
    "read_file": '{"path": "a.txt", "offset": 2, "limit": 5}',
    "list_dir": '{"path": ".", "depth": 3}',
    "update_plan": '{"plan": [{"step": "ship it", "status": "pending"}], "explanation": "go"}',
    "csv_summary": '{"path": "data/sales.csv"}',
    "search_files": '{"pattern": "beta", "path": "."}',
    "search_tools": '{"query": "file"}',
    "describe_tool": '{"name": "read_file"}',
}
for tool, args in good.items():
    put("pipeline", "good-" + tool, b"\x00" + tool.encode() + b"\x00" + args.encode())
    put("pipeline", "good-async-" + tool, b"\x04" + tool.encode() + b"\x00" + args.encode())
put("pipeline", "escape", b"\x01read_file\x00{\"path\": \"secret\"}")
put("pipeline", "batch", b"\x08" + b"\x01".join(
    t.encode() + b"\x00" + a.encode() for t, a in good.items()))
n = 0
for path in sorted(glob.glob("tests/attacks/*.jsonl")):
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line:
            continue
        try:
            case = json.loads(line)
        except ValueError:
            continue
        args = case.get("arguments")
        if not isinstance(args, str) or len(args) > 4000:
            continue
        tool = case.get("tool")
        n += 1
        put("repair", f"attack-{n}", args)
        if not isinstance(tool, str) or tool == "exec_command":
            continue
        if tool not in tools and tool.strip() not in tools and tool not in ("echo",):
            pass
        if tool == "echo":
            tool = tools[n % len(tools)]
        put("pipeline", f"attack-{n}", bytes([n % 3]) + tool.encode("utf-8", "surrogatepass")
            + b"\x00" + args.encode("utf-8", "surrogatepass"))
for i, args in enumerate([
    '{"text": "hi", "count": 3, "flag": true, "items": [1, 2], "point": {"x": 1, "y": 2}, "mode": {"slow": {"level": 3}}, "ratio": 0.5}',
    "{text: 'hi', count: '3', items: 5, /* c */ point: {x: 1,},}",
    '"{\\"text\\": \\"double\\"}"',
    '{"text": "cut off", "items": [1, 2',
    '{"text": "refuse this", "count": 2}',
    "{text: 'refuse', count: '2'}",
]):
    put("repair", f"echo-{i}", args)
# Schemas for the export target: every example tool's, and shapes the lowerings rewrite.
for tool in json.load(open("fuzz/example-schemas.json")):
    put("export", tool["name"], json.dumps(tool["inputSchema"]))
for i, schema in enumerate([
    {"type": "object", "properties": {"mode": {"$ref": "#/$defs/Mode", "description": "How."}},
     "required": ["mode"], "$defs": {"Mode": {"oneOf": [
         {"type": "string", "const": "fast", "description": "Quick."},
         {"type": "string", "const": "slow"}]}}},
    {"type": "object", "properties": {"tree": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": {
        "type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}},
    {"type": "object", "properties": {"counts": {"type": "object",
     "additionalProperties": {"type": "integer", "minimum": 0}}}},
    {"type": "object", "properties": {"a": {"allOf": [{"$ref": "#/$defs/A"}]}, "b": {
     "anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}], "default": None}},
     "$defs": {"A": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}},
    {"type": "object", "properties": {"x": {"type": ["string", "null"], "pattern": "^(?=a)b$",
     "format": "uri"}, "y": {"enum": [1, "two", None]}, "z": {"const": {"k": 1}}},
     "patternProperties": {"^p": {}}, "unevaluatedProperties": False},
]):
    put("export", f"shape-{i}", json.dumps(schema))
# Code mode in worker processes: programs of fragments (fuzz/src/code.rs) and code as is.
for i, program in enumerate([b"\x00\x08\x0a", b"\x0b\x0c\x0d", b"\x0e\x0f\x10\x15\x16", b"\x17\x18\x19\x1a\x1b\x1c\x1d",
                             b"\x07\x09\x22\x26\x27\x28\x29", b"\x2a\x2b\x30\x31\x32\x33\x34"]):
    put("code_workers", f"fragments-{i}", b"\x00" + program)
put("code_workers", "loop", b"\x01total = 0\nfor i in range(5):\n    total = add(a=total, b=i)\ntotal")
put("code_workers", "gather", b"\x01import asyncio\nawait asyncio.gather(echo_async(text='a'), add_async(a=1, b=2))")
print("seeds written")
PY

mkdir -p fuzz/logs
for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
  echo "== $target: ${seconds}s"
  # One process, one thread, so one core (the machine is shared): libFuzzer's default. (Not
  # `-jobs=1`, which forks a worker that writes its output, final stats included, to
  # fuzz-0.log instead.) -timeout: a single input running 10 s is reported as a hang.
  # -rss_limit_mb: memory must stay bounded.
  (cd fuzz && cargo fuzz run --release --sanitizer "$sanitizer" "$target" \
    "corpus/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=8192 -print_final_stats=1 -artifact_prefix="artifacts/$target/") \
    >"fuzz/logs/$target.log" 2>&1 || echo "   $target stopped with a finding: see fuzz/logs/$target.log"
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "fuzz/logs/$target.log" | grep -o '[0-9]*$' | tail -1)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "fuzz/logs/$target.log" | grep -o '[0-9]*$' | tail -1)
  last=$(grep -E '^#[0-9]+' "fuzz/logs/$target.log" | tail -1)
  cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*')
  ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*')
  corp=$(echo "$last" | grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*')
  crashes=$(ls "fuzz/artifacts/$target" | wc -l)
  echo "   executions=${execs:-?} execs/s=${rate:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} crashes=$crashes"
done

echo "== summary"
for target in "${targets[@]}"; do
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "fuzz/logs/$target.log" 2>/dev/null | grep -o '[0-9]*$' | tail -1 || true)
  printf '%-20s executions=%s crashes=%s\n' "$target" "${execs:-?}" "$(ls "fuzz/artifacts/$target" 2>/dev/null | wc -l)"
done
