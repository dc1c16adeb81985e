//! Each family prompt against its family's own chat template: `text::tool_prompt`
//! must be found in the template as vLLM or llama.cpp render it with the same tools.
//!
//! The renderings are `fixtures/prompts/<format>.txt`, written by
//! `scripts/render-prompt-templates.py` (run by hand; `sources.json` says which template of
//! which peer each one is), from the tools of `fixtures/prompts/tools.json`, which this test's
//! registry is built from.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::path::PathBuf;
use tool_runtime::text::{self, TextFormat};
use tool_runtime::{DynamicTool, Registry, ToolOutput};

fn fixture(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests/fixtures/prompts", name]
        .iter()
        .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The tools the templates were rendered with (`dir` is `""` or `"edge/"`).
fn registry(dir: &str) -> Registry {
    let tools: Value = serde_json::from_str(&fixture(&format!("{dir}tools.json"))).unwrap();
    let mut builder = Registry::builder().without_inventory();
    for tool in tools.as_array().unwrap() {
        let function = &tool["function"];
        builder = builder.dynamic(DynamicTool::new(
            function["name"].as_str().unwrap(),
            function["description"].as_str().unwrap(),
            function["parameters"].clone(),
            |_, _| async { ToolOutput::text("ok") },
        ));
    }
    builder.build().unwrap()
}

/// Where a template puts markup of its own inside the tool section (a role header), the
/// prompt has words instead: the prompt is cut at them, and each part must be found in the
/// template, in order.
const STAND_INS: &[(TextFormat, &str)] = &[
    // Granite 3's tool list is a role of its own: `<|start_of_role|>available_tools<|end_of_role|>`.
    (TextFormat::Granite, "\n\nAvailable tools:\n"),
];

/// Template text our prompt writes otherwise on purpose: replaced in the rendering first.
const REWRITTEN: &[(TextFormat, &str, &str)] = &[];

#[test]
fn each_family_prompt_is_its_templates_own_text() {
    let registry = registry("");
    let sources: Value = serde_json::from_str(&fixture("sources.json")).unwrap();
    let mut failures = Vec::new();
    for format in TextFormat::ALL {
        let prompt = text::tool_prompt(format, registry.specs());
        // The generic prompt ends with an example call of ours; a family's has its own words.
        let family = !prompt.contains("For example:\n\n");
        let Some(source) = sources.get(format.name()) else {
            if family {
                failures.push(format!("{format:?}: a family prompt without its template"));
            }
            continue;
        };
        if !family {
            failures.push(format!(
                "{format:?}: {source} rendered, but the prompt is generic"
            ));
            continue;
        }
        let mut rendered = fixture(&format!("{}.txt", format.name()));
        for (_, from, to) in REWRITTEN.iter().filter(|(f, ..)| *f == format) {
            rendered = rendered.replace(from, to);
        }
        let mut parts = vec![prompt.as_str()];
        for (_, stand_in) in STAND_INS.iter().filter(|(f, _)| *f == format) {
            parts = parts.iter().flat_map(|part| part.split(stand_in)).collect();
        }
        let mut rest = rendered.as_str();
        for part in parts {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => {
                    let difference = first_difference(part, rest);
                    failures.push(format!("{format:?}: not in {source}:\n{difference}"));
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The converters of JSON Schema to a template's own text (TypeScript, signatures, Gemma's
/// declarations) against their templates with the schema cases `tools.json` lacks: nested
/// objects, arrays of objects, `oneOf`/`anyOf`, type lists, defaults, bounds, formats.
#[test]
fn schema_conversions_are_their_templates_own_text() {
    let registry = registry("edge/");
    let mut failures = Vec::new();
    let mut checked = 0;
    for format in TextFormat::ALL {
        let path: PathBuf = [
            env!("CARGO_MANIFEST_DIR"),
            "tests/fixtures/prompts/edge",
            &format!("{}.txt", format.name()),
        ]
        .iter()
        .collect();
        let Ok(rendered) = std::fs::read_to_string(&path) else {
            continue;
        };
        checked += 1;
        let prompt = text::tool_prompt(format, registry.specs());
        if !rendered.contains(&prompt) {
            let difference = first_difference(&prompt, &rendered);
            failures.push(format!(
                "{format:?}: not in edge/{}.txt:\n{difference}",
                format.name()
            ));
        }
    }
    assert_eq!(checked, 6, "the renderings of edge/");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Where `part` stops matching `rendered`: the longest start of it found there, and what
/// follows in each.
fn first_difference(part: &str, rendered: &str) -> String {
    let mut found = 0;
    for (at, _) in part.char_indices().skip(1) {
        if rendered.contains(&part[..at]) {
            found = at;
        } else {
            break;
        }
    }
    let matched = &part[..found];
    let ours: String = part[found..].chars().take(120).collect();
    let theirs = rendered
        .find(matched)
        .map(|at| rendered[at + found..].chars().take(120).collect::<String>())
        .unwrap_or_default();
    format!(
        "...{:?}\n ours:   {ours:?}\n theirs: {theirs:?}",
        matched
            .chars()
            .rev()
            .take(80)
            .collect::<String>()
            .chars()
            .rev()
            .collect::<String>()
    )
}
