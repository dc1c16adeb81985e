#!/usr/bin/env python3
"""The peers bench's tables and chart (run by scripts/bench-peers.sh).

    python3 scripts/bench_peers_report.py CRITERION_HOME COUNTS_TSV SVG_OUT

Reads criterion's medians for the `peers/{small,large}` groups and the instruction counts
(`size path instructions` per line), prints markdown tables with the ratios, and writes an SVG
bar chart of per-call nanoseconds: us, the hand-written baseline and the peers.
"""

import glob
import json
import os
import sys

PATHS = [
    ("baseline_hand_written", "baseline", "hand-written baseline"),
    ("ours_call_blocking", "ours_blocking", "ours: call_blocking (sync tool)"),
    ("ours_async_call", "ours_async", "ours: call().await (async tool)"),
    ("ours_sync_call_await", "ours_sync_await", "ours: call().await (sync tool, blocking pool)"),
    ("ours_inline_call_await", "ours_inline_await", "ours: call().await (sync tool, inline)"),
    ("rmcp_tool_router_call", "rmcp", "rmcp 3.11: ToolRouter::call"),
    ("rig_toolset_execute", "rig", "rig 0.44: ToolSet::execute"),
]
COLORS = {
    "baseline_hand_written": "#9e9e9e",
    "ours_call_blocking": "#1b7f3b",
    "ours_async_call": "#52b36b",
    "ours_sync_call_await": "#a3d9a5",
    "ours_inline_call_await": "#2e9e5b",
    "rmcp_tool_router_call": "#c0504d",
    "rig_toolset_execute": "#e08a2c",
}
SIZES = ["small", "large"]


def medians(home):
    """{(size, bench): median ns} from criterion's `new/` estimates."""
    found = {}
    for meta in glob.glob(os.path.join(home, "**", "new", "benchmark.json"), recursive=True):
        with open(meta) as f:
            info = json.load(f)
        group = info.get("group_id", "")
        if not group.startswith("peers/"):
            continue
        with open(os.path.join(os.path.dirname(meta), "estimates.json")) as f:
            estimates = json.load(f)
        found[(group.split("/", 1)[1], info["function_id"])] = estimates["median"]["point_estimate"]
    return found


def counts(path):
    found = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                size, name, instructions = line.split()
                found[(size, name)] = int(instructions)
    return found


def ns(value):
    return f"{value:,.0f} ns" if value < 10_000 else f"{value / 1000:,.1f} µs"


def tables(time, instr):
    lines = []
    for size in SIZES:
        base_t = time.get((size, "baseline_hand_written"))
        base_i = instr.get((size, "baseline"))
        lines.append(f"\n{size} payload\n")
        lines.append("| path | median | × baseline | instructions per call | × baseline |")
        lines.append("|---|---:|---:|---:|---:|")
        for bench, count_name, _ in PATHS:
            t = time.get((size, bench))
            i = instr.get((size, count_name))
            lines.append(
                f"| `{bench}` | {ns(t) if t else '–'} | {f'{t / base_t:.2f}×' if t and base_t else '–'}"
                f" | {f'{i:,}' if i else '–'} | {f'{i / base_i:.2f}×' if i and base_i else '–'} |"
            )
    lines.append("\nHow many times fewer ns (instructions) per call ours takes than each peer:\n")
    lines.append("| payload | ours | vs rmcp | vs rig |")
    lines.append("|---|---|---:|---:|")
    for size in SIZES:
        for ours_bench, ours_count, label in PATHS[1:3]:
            cells = []
            for peer_bench, peer_count in [("rmcp_tool_router_call", "rmcp"), ("rig_toolset_execute", "rig")]:
                t, to = time.get((size, peer_bench)), time.get((size, ours_bench))
                i, io = instr.get((size, peer_count)), instr.get((size, ours_count))
                time_ratio = f"{t / to:.1f}×" if t and to else "–"
                instr_ratio = f" ({i / io:.1f}×)" if i and io else ""
                cells.append(time_ratio + instr_ratio)
            lines.append(f"| {size} | `{ours_bench}` | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def svg(time, instr, path):
    width, label_w, bar_w, row_h, gap = 900, 250, 520, 22, 34
    rows = len(PATHS)
    panel_h = rows * row_h + gap
    height = 60 + len(SIZES) * panel_h + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="10" y="24" font-size="16" font-weight="bold">One call of the same 4-parameter tool: '
        "median ns per call (criterion, one run)</text>",
        '<text x="10" y="44" fill="#555">from (name, args JSON) to the String each framework hands on; '
        "validation on for ours; bar label: time, × hand-written baseline</text>",
    ]
    y = 60
    for size in SIZES:
        values = [time.get((size, b)) for b, _, _ in PATHS]
        top = max(v for v in values if v) if any(values) else 1
        base = time.get((size, "baseline_hand_written"))
        out.append(f'<text x="10" y="{y + 14}" font-weight="bold">{size} arguments</text>')
        y += 22
        for (bench, _, label), value in zip(PATHS, values):
            out.append(f'<text x="{label_w - 8}" y="{y + 15}" text-anchor="end">{label}</text>')
            if value:
                w = max(1.0, bar_w * value / top)
                out.append(
                    f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" '
                    f'fill="{COLORS[bench]}"/>'
                )
                ratio = f" ({value / base:.2f}×)" if base else ""
                out.append(f'<text x="{label_w + w + 6:.1f}" y="{y + 15}">{ns(value)}{ratio}</text>')
            y += row_h
        y += gap - 22
    out.append("</svg>")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    home, counts_tsv, svg_out = sys.argv[1:4]
    time = medians(home)
    instr = counts(counts_tsv)
    print(tables(time, instr))
    svg(time, instr, svg_out)
    print(f"\nchart: {os.path.relpath(svg_out)}")


if __name__ == "__main__":
    main()
