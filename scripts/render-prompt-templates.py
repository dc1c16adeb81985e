#!/usr/bin/env python3
"""Render the model families' own chat templates with a fixed tool set, for the prompt test.

Run from the repository root (needs jinja2, 3.1 tested):

    python3 scripts/render-prompt-templates.py \\
        --vllm /work/peers/vllm-0.33.0 \\
        --llamacpp /work/peers/llama_cpp_python-0.3.36/vendor/llama.cpp \\
        [--out tool-runtime/tests/fixtures/prompts]

For each text format that has a template (`SOURCES` below), it renders that template the way
vLLM and llama.cpp's server do (transformers' Jinja environment, which llama.cpp's minja
copies: `trim_blocks`, `lstrip_blocks`, `tojson` as `json.dumps` with `ensure_ascii=False`,
`raise_exception`, `strftime_now`), with the two tools of `TOOLS`, no system message and one
user message, and writes the text to `<out>/<format>.txt`. `<out>/tools.json` holds the
tools (the Rust test builds its registry from it) and `<out>/sources.json` says which
template, from which peer, each file was rendered from. The formats of `EDGE_FORMATS`, whose
templates convert JSON Schema to text of their own, are rendered again with `EDGE_TOOLS`
into `<out>/edge/` (with its `tools.json`). The Rust side is
`cargo test -p tool-runtime --test text_prompt_templates`: each format's
`registry.text_tool_prompt(format)` must appear in its rendered template.
"""

import argparse
import datetime
import json
import pathlib
import sys

import jinja2
import jinja2.ext
import jinja2.sandbox

VLLM_VERSION = "vllm-0.33.0"
LLAMACPP_VERSION = "llama-cpp-python-0.3.36 (vendored llama.cpp)"

# The tools: one with a parameter of each kind (string, integer, enum, array, object) and a
# non-ASCII description, one without parameters.
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "The city, e.g. São Paulo."},
                    "days": {"type": "integer", "description": "How many days to forecast."},
                    "unit": {
                        "type": "string",
                        "enum": ["celsius", "fahrenheit"],
                        "description": "The temperature unit.",
                    },
                    "hours": {
                        "type": "array",
                        "items": {"type": "integer"},
                        "description": "The hours of the day to show.",
                    },
                    "options": {
                        "type": "object",
                        "properties": {"wind": {"type": "boolean"}},
                        "description": "What else to show.",
                    },
                },
                "required": ["city", "days"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "Get the current time.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]

# A tool for the formats whose templates convert schemas to text of their own (TypeScript,
# signatures, declarations): the cases `TOOLS` has not, rendered into `<out>/edge/`. A type
# list, a nested object, an array of objects, `oneOf` with a description and a default,
# `anyOf`, defaults, bounds, an integer enum, a date format, a two-line description, an array
# of arrays, a property without a schema.
EDGE_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Search.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": ["string", "null"]},
                    "filters": {
                        "type": "object",
                        "description": "Filters.",
                        "properties": {
                            "tags": {"type": "array", "items": {"type": "string"}},
                            "range": {
                                "type": "object",
                                "properties": {"from": {"type": "integer"}},
                                "required": ["from"],
                            },
                        },
                    },
                    "items": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "id": {"type": "integer"},
                                # Not OpenAPI's `nullable`: the registry makes it this.
                                "label": {"type": ["string", "null"]},
                            },
                            "required": ["id"],
                        },
                    },
                    "mode": {
                        "oneOf": [
                            {"type": "string", "description": "A name."},
                            {"type": "integer", "default": 3},
                        ]
                    },
                    "either": {
                        "anyOf": [{"type": "string"}, {"type": "null"}],
                        "description": "Either.",
                    },
                    "sort": {"type": "string", "enum": ["asc", "desc"], "default": "asc"},
                    "limit": {"type": "integer", "default": 10, "minimum": 1, "maximum": 100},
                    "level": {"type": "integer", "enum": [1, 2, 3]},
                    "when": {
                        "type": "string",
                        "format": "date-time",
                        "description": "Line one.\nLine two.",
                    },
                    "flag": {"type": "boolean", "default": False},
                    "matrix": {
                        "type": "array",
                        "items": {"type": "array", "items": {"type": "number"}},
                    },
                    "anything": {},
                },
                "required": ["filters"],
            },
        },
    }
]

# The formats rendered with `EDGE_TOOLS` too.
EDGE_FORMATS = ["harmony", "apertus", "gigachat", "functionary_v32", "seed_oss", "gemma4"]

MESSAGES = [{"role": "user", "content": "What is the weather in Paris?"}]

# Each format's template: (peer, path inside the peer, system message or None). The system
# message is given only where a template shows the tools with one alone (vLLM's FunctionGemma
# template); it is FunctionGemma's documented developer prompt.
L = "models/templates/"
V = "examples/"
SOURCES = {
    "hermes": ("llama.cpp", L + "Qwen-Qwen2.5-7B-Instruct.jinja", None),
    "qwen_xml": ("vllm", V + "tool_chat_template_qwen3coder.jinja", None),
    "mistral": ("vllm", V + "tool_chat_template_mistral.jinja", None),
    "llama3": ("vllm", V + "tool_chat_template_llama3.2_json.jinja", None),
    "pythonic": ("vllm", V + "tool_chat_template_llama3.2_pythonic.jinja", None),
    "jamba": ("vllm", V + "tool_chat_template_hunyuan_a13b.jinja", None),
    "granite": ("vllm", V + "tool_chat_template_granite.jinja", None),
    "granite_20b_fc": ("vllm", V + "tool_chat_template_granite_20b_fc.jinja", None),
    "internlm": ("vllm", V + "tool_chat_template_internlm2_tool.jinja", None),
    "nemotron": ("llama.cpp", L + "NVIDIA-Nemotron-Nano-v2.jinja", None),
    "harmony": ("llama.cpp", L + "openai-gpt-oss-120b.jinja", None),
    "gemma4": ("vllm", V + "tool_chat_template_gemma4.jinja", None),
    "functiongemma": (
        "vllm",
        V + "tool_chat_template_functiongemma.jinja",
        "You are a model that can do function calling with the following functions",
    ),
    "lfm2": ("llama.cpp", L + "LFM2-8B-A1B.jinja", None),
    "functionary": ("llama.cpp", L + "meetkai-functionary-medium-v3.1.jinja", None),
    "apertus": ("llama.cpp", L + "Apertus-8B-Instruct.jinja", None),
    "command_r": ("llama.cpp", L + "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja", None),
    "glm": ("llama.cpp", L + "GLM-4.6.jinja", None),
    "hy_v3": ("llama.cpp", L + "tencent-Hy3.jinja", None),
    "minimax_m2": ("llama.cpp", L + "MiniMax-M2.jinja", None),
    "minicpm5": ("llama.cpp", L + "openbmb-MiniCPM5-1B.jinja", None),
    "seed_oss": ("llama.cpp", L + "ByteDance-Seed-OSS.jinja", None),
    "deepseek_v3": ("vllm", V + "tool_chat_template_deepseekv3.jinja", None),
    "deepseek_v31": ("vllm", V + "tool_chat_template_deepseekv31.jinja", None),
    "deepseek_v32": ("llama.cpp", L + "deepseek-ai-DeepSeek-V3.2.jinja", None),
    "deepseek_v4": ("llama.cpp", L + "deepseek-ai-DeepSeek-V4.jinja", None),
    "kimi_k2": ("llama.cpp", L + "Kimi-K2-Instruct.jinja", None),
    "kimi_k3": ("llama.cpp", L + "Kimi-K3.jinja", None),
    # The Llama-based xLAM-2 template; the Qwen-based one has the same tool section.
    "xlam": ("vllm", V + "tool_chat_template_xlam_llama.jinja", None),
    "phi4_mini": ("vllm", V + "tool_chat_template_phi4_mini.jinja", None),
    # GigaChat 3.1's template shows the tools as 3's does.
    "gigachat": ("llama.cpp", L + "GigaChat3-10B-A1.8B.jinja", None),
    "minimax_m3": ("llama.cpp", L + "MiniMax-M3.jinja", None),
    "functionary_v32": ("llama.cpp", L + "meetkai-functionary-medium-v3.2.jinja", None),
    # vLLM's Muse Glimmer template (one call a message, as the parser reads them); llama.cpp's
    # differs in the example's wording.
    "muse": ("vllm", V + "tool_chat_template_muse_glimmer.jinja", None),
    # Hermes 2 Pro, whose wrapper variants vLLM's `hermes` parser reads.
    "hermes_variants": ("llama.cpp", L + "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja", None),
}

# A fixed date for the templates that print today's.
NOW = datetime.datetime(2025, 1, 1)


class Generation(jinja2.ext.Extension):
    """transformers' `{% generation %}` block (it marks assistant text): rendered as is."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return jinja2.nodes.Scope(body, lineno=lineno)


def environment():
    """transformers' chat-template environment (`_compile_jinja_template`)."""

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(
            x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
        )

    def strftime_now(format):
        return NOW.strftime(format)

    env = jinja2.sandbox.ImmutableSandboxedEnvironment(
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=[Generation, jinja2.ext.loopcontrols],
    )
    env.filters["tojson"] = tojson
    # minja's `safe` returns its input: with Jinja's, `"..."|safe + text` escapes `text` as
    # HTML (functionary v3.1's template writes its tool JSON so), which llama.cpp never does.
    env.filters["safe"] = lambda x: x
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def render(path, system=None, tools=None):
    template = environment().from_string(path.read_text(encoding="utf-8"))
    messages = ([{"role": "system", "content": system}] if system else []) + MESSAGES
    return template.render(
        messages=messages,
        tools=tools or TOOLS,
        add_generation_prompt=True,
        bos_token="<BOS>",
        eos_token="<EOS>",
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vllm", default="/work/peers/vllm-0.33.0")
    parser.add_argument(
        "--llamacpp", default="/work/peers/llama_cpp_python-0.3.36/vendor/llama.cpp"
    )
    parser.add_argument("--out", default="tool-runtime/tests/fixtures/prompts")
    parser.add_argument("--explore", help="render every template into this directory instead")
    args = parser.parse_args()
    roots = {
        "vllm": (pathlib.Path(args.vllm), VLLM_VERSION),
        "llama.cpp": (pathlib.Path(args.llamacpp), LLAMACPP_VERSION),
    }
    if args.explore:
        out = pathlib.Path(args.explore)
        out.mkdir(parents=True, exist_ok=True)
        paths = sorted((roots["vllm"][0] / "examples").glob("tool_chat_template_*.jinja"))
        paths += sorted((roots["llama.cpp"][0] / "models/templates").glob("*.jinja"))
        for path in paths:
            try:
                (out / (path.stem + ".txt")).write_text(render(path), encoding="utf-8")
            except Exception as error:  # noqa: BLE001 - exploring: report and go on
                print(f"{path.name}: {type(error).__name__}: {error}", file=sys.stderr)
        return
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "tools.json").write_text(
        json.dumps(TOOLS, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    sources = {}
    for name, (peer, relative, system) in SOURCES.items():
        root, version = roots[peer]
        text = render(root / relative, system)
        (out / f"{name}.txt").write_text(text, encoding="utf-8")
        sources[name] = {"peer": version, "template": relative, "system": system}
        print(f"{name}: {relative} ({len(text)} chars)")
    edge = out / "edge"
    edge.mkdir(exist_ok=True)
    (edge / "tools.json").write_text(
        json.dumps(EDGE_TOOLS, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    for name in EDGE_FORMATS:
        peer, relative, system = SOURCES[name]
        text = render(roots[peer][0] / relative, system, EDGE_TOOLS)
        (edge / f"{name}.txt").write_text(text, encoding="utf-8")
    (out / "sources.json").write_text(
        json.dumps(sources, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
