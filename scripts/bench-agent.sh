#!/usr/bin/env bash
# The agent loop per turn, ours against rig 0.44's, against a scripted OpenAI Chat
# Completions server in another process (bench-peers/benches/agent_turns.rs); writes
# bench-peers/results/agent.md.
#
#   scripts/bench-agent.sh                          # 5 rounds of 200 warm-up + 2000 timed runs
#   AGENT_RUNS=500 AGENT_ROUNDS=1 scripts/bench-agent.sh
#
# bench-peers/ is its own workspace; it shares the main build directory, like
# scripts/bench-peers.sh. The first release build takes about 11 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export CARGO_TARGET_DIR=$ROOT/target
export AGENT_RUNS=${AGENT_RUNS:-2000}
export AGENT_WARMUP=${AGENT_WARMUP:-200}
export AGENT_ROUNDS=${AGENT_ROUNDS:-5}
RESULTS=$ROOT/bench-peers/results
mkdir -p "$RESULTS"

(cd bench-peers && cargo bench --bench agent_turns --no-run)

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load before: $load_before"
table=$(cd bench-peers && cargo bench --bench agent_turns)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load after: $load_after"

version() {
    sed -n "/^name = \"$1\"$/{n;s/^version = \"\(.*\)\"/\1/p;q}" bench-peers/Cargo.lock
}

{
    echo "# The agent loop per turn: ours against rig 0.44"
    echo
    echo "One turn is one model request: write the request with the tool list, send it, read"
    echo "the reply, run its call, append the result. Each run is a prompt, the model's call to"
    echo "\`search\`, the call, and the model's final answer: 2 turns, 1 tool call. The model is"
    echo "a scripted OpenAI Chat Completions server (a test fixture) in another process, on"
    echo "127.0.0.1 over HTTP/1.1 keep-alive, answering whole (non-streamed) replies with"
    echo "\`usage\`; its CPU is not counted. CPU is the client process's user + system time"
    echo "(\`getrusage(RUSAGE_SELF)\`, all its threads) divided by the turns; wall is elapsed"
    echo "time per turn and includes the server's. Both frameworks run on one current-thread"
    echo "tokio runtime. Every run is checked: 2 requests, the tool's counter moved by one, and"
    echo "the server's final answer, which it gives only when the tool result it got back is"
    echo "the \`search\` output, names the number of tools the request offered."
    echo
    echo "- ours: \`tool_runtime::agent::Agent\` over \`OpenAiChat\` (non-streamed), \`clear()\`"
    echo "  after each run; \`search\` is \`#[tool(inline)]\` (\`ours::search_inline\` named"
    echo "  \`search\`), or a plain sync \`#[tool]\` that runs on tokio's blocking pool (its own row)."
    echo "- rig: \`rig_agent::AgentBuilder\` over \`OpenAIConfig::with_base_url(..).connect(http).chat(..)\`"
    echo "  (rig's OpenAI provider on the Chat Completions wire), with"
    echo "  \`peer_rig::Search\` (a \`PortableTool\`; counted by a wrapper with its name, schema"
    echo "  and body), \`agent.prompt(..).max_turns(2)\`. The transport is rig's own"
    echo "  (\`rig_reqwest::ReqwestClient\`, what rig-core's \`reqwest\` feature shares) over a"
    echo "  \`reqwest::Client\` with a 30 s request timeout, as ours has; no TLS feature (the tree's"
    echo "  reqwest has \`rustls-no-provider\`: the bench installs ring as the process's rustls"
    echo "  provider before building clients, as our transport does)."
    echo "- 100 tools: \`search\` and 99 filler tools with the same schema, never called (ours:"
    echo "  \`DynamicTool\`s in the registry; rig: \`DynamicTool\`s on the agent)."
    echo "- hand-written loop: the same two requests with reqwest and serde_json and no framework"
    echo "  (bench-peers/src/agent_baseline.rs): the HTTP exchange's own cost, the floor under both."
    echo "- \"of which sys\": kernel time (loopback TCP, epoll); Linux splits user/sys by sampling,"
    echo "  so the split is approximate, the total is not."
    echo
    echo "$table"
    echo
    echo "## The tool list in every request"
    echo
    echo "- ours: the agent asks the registry for its export once (\`Agent::tools\`, a \`OnceLock\`,"
    echo "  tool-agent/src/mod.rs:248-255; the export's JSON text is itself made once,"
    echo "  tool-core/src/export/handle.rs:98-107) and each request body is written in one pass"
    echo "  with that text copied in as a \`RawValue\` (tool-agent/src/transport/openai_chat.rs:56,"
    echo "  body.rs:56): no tool is re-serialized or cloned per request."
    echo "- rig 0.44: every request rebuilds the list from the registrations, as \`serde_json::Value\`"
    echo "  trees, several times, then serializes it (paths under ~/.cargo/registry/src/*/):"
    echo "  1. rig-agent-0.44.0/src/agent/completion.rs:104 \`snapshot_with_dynamic\` →"
    echo "     src/tool/server.rs:729-743 clones every \`RegisteredTool\` (its \`ToolDefinition\`:"
    echo "     name, description, \`parameters: Value\`) into an \`IndexMap\`; src/tool/catalog.rs:49"
    echo "     clones every definition again (src/tool/registry.rs:182);"
    echo "  2. rig-agent-0.44.0/src/agent/completion.rs:131 clones the advertised definitions"
    echo "     again; the request is then cloned into the bus effect that carries it to the model"
    echo "     (src/agent/engine.rs:1974, \`kind.clone()\`);"
    echo "  3. rig-core-0.44.0/src/operation/completion.rs:139 (\`Completion::prepare\`) →"
    echo "     src/completion/history.rs:520-525 \`context_of\`: \`json!(tools)\` serializes every"
    echo "     definition into a new \`Value\`, and \`Fingerprint::of\`"
    echo "     (src/completion/message/native.rs:198-199) converts that to a \`Value\` again,"
    echo "     rebuilds it with sorted keys and serializes it into a hash;"
    echo "  4. rig-core-0.44.0/src/providers/openai/wire/chat.rs:314-325 (\`Chat::base\`) clones"
    echo "     each tool's \`parameters\` into a new \`{\"type\":\"function\",...}\` \`Value\`, :372 puts"
    echo "     the array in the body map, which src/completion/options/merge.rs:691ff merges with"
    echo "     the option layers, and merge.rs:54 (\`into_body\`, called at chat.rs:221)"
    echo "     serializes to bytes."
    echo
    echo "  So rig's per-turn CPU grows with the tool list much faster than ours (see the 100-tool"
    echo "  rows); a \`perf\` profile of the 100-tool rig run puts most of its time in those clones,"
    echo "  \`context_of\`/\`Fingerprint::of\`, \`Chat::base\`/\`request_params\`, and freeing the copies."
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- tool-runtime tool-macros || echo ' (tool-runtime or tool-macros modified)')"
    echo "- load average before / after: $load_before / $load_after ($(nproc) cores)"
    echo "- versions: rig-core $(version rig-core), rig-agent $(version rig-agent), rig-reqwest $(version rig-reqwest), reqwest $(version reqwest), hyper $(version hyper), tokio $(version tokio), serde_json $(version serde_json); $(rustc --version)"
    echo "- runs: AGENT_ROUNDS=$AGENT_ROUNDS, AGENT_WARMUP=$AGENT_WARMUP, AGENT_RUNS=$AGENT_RUNS"
} >"$RESULTS/agent.md"
cat "$RESULTS/agent.md"
