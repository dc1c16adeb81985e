//! Every export dialect, checked against each provider's documented rules (`tests/support/src/rules/`) on
//! every tool of `tool_tests` and of the example crate, strict and not; plus what strict mode
//! promises at call time, the fallback of tools that can't be strict, and name mapping.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use tool_test_support::rules;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use tool_runtime::export::{StrictIssueKind, StrictLimit};
use tool_runtime::pipeline::FilledBy;
use tool_runtime::registry::ToolDef;
use tool_runtime::{tool, ErrorCode, Provider, Registry, RegistryBuilder};
use tool_tests::Catalogue;

/// A tree of names: a recursive type, which OpenAI's strict mode allows and Anthropic's and
/// Gemini's `parameters` don't.
#[derive(Deserialize, JsonSchema)]
pub struct Tree {
    /// This node's name.
    pub name: String,
    /// The nodes below it.
    pub children: Vec<Tree>,
}

/// Count the nodes of a tree.
#[tool(read_only)]
fn count_nodes(
    /// The tree.
    tree: Tree,
) -> usize {
    fn count(t: &Tree) -> usize {
        1 + t.children.iter().map(count).sum::<usize>()
    }
    count(&tree)
}

/// Say a text back.
#[tool(title = "Echo", strict = false)]
fn echo(
    /// What to say.
    text: String,
) -> String {
    text
}

const TESTS_TOOLS: [ToolDef; 8] = [
    tool_tests::search_products::TOOL,
    tool_tests::add::TOOL,
    tool_tests::whoami::TOOL,
    tool_tests::noop::TOOL,
    tool_tests::kinds::TOOL,
    tool_tests::pwd::TOOL,
    tool_tests::list_items::TOOL,
    tool_tests::run_dir::TOOL,
];

fn catalogue() -> Catalogue {
    Catalogue {
        products: vec![
            ("Red sun hat".into(), tool_tests::Category::Hats, 1500),
            (
                "Red running shoes".into(),
                tool_tests::Category::Shoes,
                9000,
            ),
        ],
    }
}

fn registry_of(tools: &[ToolDef]) -> RegistryBuilder {
    tools
        .iter()
        .fold(Registry::builder().without_inventory(), |b, &t| {
            b.register(t)
        })
        .state(catalogue())
}

/// `tests/src/lib.rs`'s tools, this file's, and some with names no provider takes as they are.
fn tests_registry() -> Registry {
    registry_of(&TESTS_TOOLS)
        .register_all([count_nodes::TOOL, echo::TOOL])
        .register(ToolDef {
            name: "math.add",
            ..tool_tests::add::TOOL
        })
        .register(ToolDef {
            name: "2fa:verify code",
            ..tool_tests::noop::TOOL
        })
        .register(ToolDef {
            name: "a_tool_name_that_runs_far_past_the_sixty_four_characters_openai_allows",
            ..tool_tests::pwd::TOOL
        })
        .build()
        .unwrap()
}

/// The example crate's registry, as its CLI builds it.
fn examples_registry(root: &Path) -> Registry {
    tool_examples::registry(root.to_path_buf()).unwrap()
}

use rules::{dialects, violations};

#[test]
fn every_export_follows_its_providers_rules() {
    let dir = tempfile::tempdir().unwrap();
    for (which, registry) in [
        ("tests", tests_registry()),
        ("examples", examples_registry(dir.path())),
    ] {
        for dialect @ (provider, strict) in dialects() {
            let export = registry.export(provider).strict(strict).to_value();
            let found = violations(provider, &export);
            assert!(
                found.is_empty(),
                "{which} in {dialect:?}:\n{}",
                found.join("\n")
            );
        }
    }
}

/// The registry never changes, so each dialect's export is made once and then shared.
#[test]
fn each_dialect_is_exported_once_and_shared() {
    let registry = tests_registry();
    for dialect @ (provider, strict) in dialects() {
        let export = registry.export(provider).strict(strict);
        let shared = export.shared();
        assert!(std::sync::Arc::ptr_eq(
            &shared,
            &registry.export(provider).strict(strict).shared()
        ));
        assert_eq!(export.to_value(), *shared);
        // The text form is the same list, written once.
        let text = export.raw_json();
        assert!(std::sync::Arc::ptr_eq(
            &text,
            &registry.export(provider).strict(strict).raw_json()
        ));
        assert_eq!(
            text.get(),
            serde_json::to_string(&*shared).unwrap(),
            "{dialect:?}"
        );
    }
    let chat = registry.export(Provider::OpenAiChat).shared();
    let strict = registry.export(Provider::OpenAiChat).strict(true).shared();
    assert_ne!(chat, strict, "strict and non-strict exports are told apart");
}

#[test]
fn strict_exports_are_strict_where_the_tool_allows_it() {
    let registry = tests_registry();
    let tools = registry
        .export(Provider::OpenAiChat)
        .strict(true)
        .to_value();
    let strict: Vec<(&str, bool)> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["function"]["name"].as_str().unwrap(),
                t["function"]["strict"] == true,
            )
        })
        .collect();
    for (name, is_strict) in &strict {
        let expected = !matches!(*name, "kinds" | "echo");
        assert_eq!(*is_strict, expected, "{name}");
    }
    // Anthropic refuses recursion: the tree tool falls back there, and only there.
    let anthropic = registry.export(Provider::Anthropic).strict(true).to_value();
    let tree = anthropic
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "count_nodes")
        .unwrap();
    assert!(tree.get("strict").is_none(), "{tree}");
    let issues = registry
        .export(Provider::Anthropic)
        .check("count_nodes")
        .unwrap_err();
    assert_eq!(
        issues.issues[0].kind,
        StrictIssueKind::Recursive("Tree".into())
    );
}

#[test]
fn a_tool_that_cant_be_strict_says_why_and_goes_out_as_it_is() {
    let registry = tests_registry();
    let issues = registry
        .export(Provider::OpenAiResponses)
        .check("kinds")
        .unwrap_err();
    assert_eq!(issues.tool, "kinds");
    assert_eq!(issues.issues.len(), 1, "{issues}");
    assert_eq!(
        issues.issues[0].pointer,
        "/properties/counts/additionalProperties"
    );
    assert_eq!(issues.issues[0].kind, StrictIssueKind::OpenObject);
    assert!(issues.to_string().contains("a map"), "{issues}");

    let tools = registry
        .export(Provider::OpenAiResponses)
        .strict(true)
        .to_value();
    let kinds = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "kinds")
        .unwrap();
    assert_eq!(kinds["strict"], false);
    assert_eq!(
        &kinds["parameters"],
        registry.get("kinds").unwrap().input_schema()
    );

    // The same answer from the spec alone.
    let spec = registry.get("kinds").unwrap();
    assert_eq!(spec.strict_compatibility(Provider::OpenAiChat), Err(issues));

    let opted_out = registry
        .export(Provider::OpenAiChat)
        .check("echo")
        .unwrap_err();
    assert_eq!(opted_out.issues[0].kind, StrictIssueKind::OptedOut);
    let no_mode = registry
        .export(Provider::Gemini)
        .check("add_numbers")
        .unwrap_err();
    assert_eq!(no_mode.issues[0].kind, StrictIssueKind::NoStrictMode);
    let unknown = registry
        .export(Provider::OpenAiChat)
        .check("nope")
        .unwrap_err();
    assert_eq!(unknown.issues[0].kind, StrictIssueKind::UnknownTool);
    assert!(registry
        .export(Provider::Anthropic)
        .check("search_products")
        .is_ok());
}

#[test]
fn anthropics_request_budget_spills_later_tools_to_non_strict() {
    // search_files has 4 optional parameters: the seventh copy would make 28, over 24.
    let copies: Vec<ToolDef> = (0..7)
        .map(|i| ToolDef {
            name: ["s0", "s1", "s2", "s3", "s4", "s5", "s6"][i],
            ..tool_examples::tools::search_files::search_files::TOOL
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let registry = copies
        .iter()
        .fold(Registry::builder().without_inventory(), |b, &t| {
            b.register(t)
        })
        .state(tool_examples::Workspace::new(dir.path()))
        .build()
        .unwrap();
    let tools = registry.export(Provider::Anthropic).strict(true).to_value();
    let strict: Vec<bool> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.get("strict").is_some())
        .collect();
    assert_eq!(strict, [true, true, true, true, true, true, false]);
    let issues = registry
        .export(Provider::Anthropic)
        .check("s6")
        .unwrap_err();
    assert_eq!(
        issues.issues[0].kind,
        StrictIssueKind::Limit {
            limit: StrictLimit::OptionalParams,
            value: 28,
            max: 24
        }
    );
    assert!(rules::anthropic::check(&tools).is_empty());

    // With the optional budget spent, a tool with no optional parameter still fits, and the
    // export agrees with `Export::check` on every tool.
    let registry = copies
        .iter()
        .fold(Registry::builder().without_inventory(), |b, &t| {
            b.register(t)
        })
        .register(ToolDef {
            name: "t_noop",
            ..tool_tests::noop::TOOL
        })
        .state(tool_examples::Workspace::new(dir.path()))
        .build()
        .unwrap();
    let tools = registry.export(Provider::Anthropic).strict(true).to_value();
    for tool in tools.as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        let checked = registry.export(Provider::Anthropic).check(name);
        assert_eq!(tool.get("strict").is_some(), checked.is_ok(), "{name}");
    }
    assert_eq!(tools[7]["name"], "t_noop", "registry order is by name");
    assert_eq!(tools[7]["strict"], true);

    // And the 21st strict tool is one too many.
    let names: Vec<String> = (0..21).map(|i| format!("noop_{i:02}")).collect();
    let registry = names
        .iter()
        .fold(Registry::builder().without_inventory(), |b, n| {
            b.register(ToolDef {
                name: Box::leak(n.clone().into_boxed_str()),
                ..tool_tests::noop::TOOL
            })
        })
        .build()
        .unwrap();
    let tools = registry.export(Provider::Anthropic).strict(true).to_value();
    let strict = tools
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t.get("strict").is_some())
        .count();
    assert_eq!(strict, 20);
}

/// A call shaped the way strict mode makes the model shape it: every property present, `null`
/// for the ones the tool leaves optional.
fn strict_call(schema: &Value, root: &Value) -> Value {
    let Some(map) = schema.as_object() else {
        return Value::Null;
    };
    if let Some(target) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| root.pointer(&r[1..]))
    {
        return strict_call(target, root);
    }
    if let Some(branches) = map.get("anyOf").and_then(Value::as_array) {
        if branches.iter().any(|b| b["type"] == "null") {
            return Value::Null;
        }
        return strict_call(&branches[0], root);
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .find(|v| !v.is_null())
            .cloned()
            .unwrap_or(Value::Null);
    }
    let types: Vec<&str> = match &map.get("type") {
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        Some(Value::String(t)) => vec![t.as_str()],
        _ => Vec::new(),
    };
    if types.contains(&"null") {
        return Value::Null;
    }
    match types.first().copied() {
        Some("string") => json!("red"),
        Some("integer") => map.get("minimum").cloned().unwrap_or(json!(1)),
        Some("number") => map.get("minimum").cloned().unwrap_or(json!(0.5)),
        Some("boolean") => json!(false),
        Some("array") => json!([]),
        Some("object") => Value::Object(
            map.get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), strict_call(v, root)))
                .collect(),
        ),
        _ => Value::Null,
    }
}

#[test]
fn every_strict_tool_runs_a_strict_shaped_call_with_nulls() {
    let dir = tempfile::tempdir().unwrap();
    for registry in [tests_registry(), examples_registry(dir.path())] {
        for dialect in [Provider::OpenAiChat, Provider::Anthropic] {
            let export = registry.export(dialect).strict(true).to_value();
            for tool in export.as_array().unwrap() {
                let (name, schema, strict) = match dialect {
                    Provider::OpenAiChat => (
                        &tool["function"]["name"],
                        &tool["function"]["parameters"],
                        tool["function"]["strict"] == true,
                    ),
                    _ => (
                        &tool["name"],
                        &tool["input_schema"],
                        tool.get("strict").is_some(),
                    ),
                };
                if !strict {
                    continue;
                }
                let name = name.as_str().unwrap();
                let args = strict_call(schema, schema);
                let output = registry.call_blocking(name, &args.to_string());
                let code = output.as_error().map(|e| e.code);
                assert!(
                    !matches!(
                        code,
                        Some(
                            ErrorCode::InvalidArguments
                                | ErrorCode::MalformedArguments
                                | ErrorCode::UnknownTool
                        )
                    ),
                    "{dialect:?} {name} {args}: {}",
                    output.to_model_text()
                );
            }
        }
    }
}

#[tokio::test]
async fn nulls_from_a_strict_call_become_the_tools_defaults() {
    let registry = tests_registry();
    let (output, report) = registry
        .call_with_report(
            "search_products",
            r#"{"query": "red", "limit": null, "category": null, "price": null}"#,
        )
        .await;
    assert!(!output.is_error(), "{}", output.to_model_text());
    assert_eq!(
        output.to_model_text(),
        r#"["Red sun hat","Red running shoes"]"#
    );
    let limit = report
        .filled
        .iter()
        .find(|f| f.pointer == "/limit")
        .unwrap();
    assert_eq!(
        (limit.value.clone(), limit.by),
        (json!(10), FilledBy::SchemaDefault)
    );

    // A nested default, filled inside the object the model sent.
    let output = registry
        .call(
            "list_items",
            r#"{"paging": {"size": null, "page": 2}, "tags": null}"#,
        )
        .await;
    assert_eq!(output.to_model_text(), r#"{"size":25,"page":2,"tags":[]}"#);
}

#[test]
fn names_a_provider_rejects_are_mapped_and_mapped_back() {
    let registry = tests_registry();
    let openai = registry
        .export(Provider::OpenAiChat)
        .name_of("math.add")
        .unwrap();
    assert_eq!(openai, "math_add");
    assert_eq!(
        registry.export(Provider::Mcp).name_of("math.add"),
        Some("math.add")
    );
    assert_eq!(
        registry.export(Provider::Gemini).name_of("math.add"),
        Some("math.add")
    );
    let code = registry
        .export(Provider::Gemini)
        .name_of("2fa:verify code")
        .unwrap();
    assert_eq!(code, "_2fa:verify_code");
    let long = "a_tool_name_that_runs_far_past_the_sixty_four_characters_openai_allows";
    let short = registry.export(Provider::Anthropic).name_of(long).unwrap();
    assert_eq!(short.len(), 64);
    assert_eq!(registry.export(Provider::Mcp).name_of(long), Some(long));

    // A call to an exported name reaches the tool.
    assert_eq!(
        registry
            .call_blocking(openai, r#"{"a": 2, "b": 3}"#)
            .to_model_text(),
        "5"
    );
    assert_eq!(
        registry
            .call_blocking(short, r#"{"cwd": "/w"}"#)
            .to_model_text(),
        "/w"
    );
    assert!(!registry.call_blocking(code, "{}").is_error());
    let mcp_code = registry
        .export(Provider::Mcp)
        .name_of("2fa:verify code")
        .unwrap();
    assert!(
        !registry.call_blocking(mcp_code, "{}").is_error(),
        "{mcp_code}"
    );
}

#[test]
fn gemini_leaves_out_empty_parameters_and_sends_what_its_subset_cant_say_as_json_schema() {
    let registry = tests_registry();
    let export = registry.export(Provider::Gemini).to_value();
    let find = |name: &str| rules::gemini::declaration(&export, name).unwrap().clone();
    assert_eq!(
        find("noop"),
        json!({"name": "noop", "description": "A tool with no parameters and no result."})
    );
    for tool in ["kinds", "count_nodes"] {
        let declaration = find(tool);
        assert!(declaration.get("parameters").is_none(), "{declaration}");
        assert_eq!(
            &declaration["parametersJsonSchema"],
            registry.get(tool).unwrap().input_schema()
        );
    }
    // The reduced schema accepts what the tool accepts.
    let parameters = rules::gemini::to_json_schema(&find("search_products")["parameters"]);
    let validator = jsonschema::validator_for(&parameters).unwrap();
    for good in [
        json!({"query": "red"}),
        json!({"query": "red", "category": "hats", "price": {"min": 1, "max": null}}),
        json!({"query": "red", "category": null, "limit": 5}),
    ] {
        assert!(validator.is_valid(&good), "{good}");
    }
    assert!(!validator.is_valid(&json!({"query": "red", "category": "socks"})));
}

#[test]
fn mcp_lists_the_title() {
    let registry = tests_registry();
    let tools = registry.export(Provider::Mcp).to_value();
    let echo = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "echo")
        .unwrap();
    assert_eq!(echo["title"], "Echo");
    assert_eq!(registry.get("echo").unwrap().title(), Some("Echo"));
    let add = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "add_numbers")
        .unwrap();
    assert!(add.get("title").is_none());
}

/// Compares with `tests/support/src/rules/snapshots/<name>.json`; `UPDATE_SNAPSHOTS=1` rewrites it.
fn snapshot(name: &str, actual: &Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("support/src/rules/snapshots")
        .join(format!("{name}.json"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        let text = serde_json::to_string_pretty(actual).unwrap();
        std::fs::write(&path, text + "\n").unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let expected: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        actual,
        &expected,
        "{name} changed; if on purpose, rerun with UPDATE_SNAPSHOTS=1\n{}",
        serde_json::to_string_pretty(actual).unwrap()
    );
}

#[test]
fn full_exports_match_their_snapshots() {
    let registry = registry_of(&[tool_tests::search_products::TOOL, tool_tests::noop::TOOL])
        .register(tool_examples::tools::update_plan::update_plan::TOOL)
        .state_arc(Arc::new(tool_examples::PlanBoard::default()))
        .build()
        .unwrap();
    snapshot(
        "openai_chat_strict",
        &registry
            .export(Provider::OpenAiChat)
            .strict(true)
            .to_value(),
    );
    snapshot(
        "anthropic_strict",
        &registry.export(Provider::Anthropic).strict(true).to_value(),
    );
    snapshot("gemini", &registry.export(Provider::Gemini).to_value());
    snapshot("mcp", &registry.export(Provider::Mcp).to_value());
}

#[test]
fn the_rules_catch_what_each_provider_rejects() {
    // The plain schemas break strict rules: they show the checkers are not vacuous.
    let registry = registry_of(&[tool_tests::search_products::TOOL])
        .build()
        .unwrap();
    let mut plain = registry.export(Provider::OpenAiChat).to_value();
    plain[0]["function"]["strict"] = json!(true);
    let found = rules::openai::check_chat(&plain).join("\n");
    for expected in [
        "property limit is not required",
        "`default` is not a supported keyword",
        "format uint32",
        "`oneOf` is not a supported keyword",
    ] {
        assert!(found.contains(expected), "{expected}:\n{found}");
    }
    let mut plain = registry.export(Provider::Anthropic).to_value();
    plain[0]["strict"] = json!(true);
    let found = rules::anthropic::check(&plain).join("\n");
    assert!(found.contains("`minimum` is not supported"), "{found}");
    assert!(found.contains("oneOf"), "{found}");
    // A strict schema whose definition was left behind refers to nothing.
    let mut strict = registry
        .export(Provider::OpenAiChat)
        .strict(true)
        .to_value();
    strict[0]["function"]["parameters"]["$defs"] = json!({});
    let found = rules::openai::check_chat(&strict).join("\n");
    assert!(found.contains("a reference to nothing"), "{found}");

    let bad_gemini = json!({"functionDeclarations": [{"name": "9x", "parameters": {
        "type": "object", "properties": {"m": {"type": "OBJECT", "additionalProperties": {"type": "STRING"}},
                                          "r": {"$ref": "#/$defs/R"}}}}]});
    let found = rules::gemini::check(&bad_gemini).join("\n");
    for expected in [
        "name breaks",
        "parameters are not an OBJECT",
        "`additionalProperties` is not a Schema field",
        "an OBJECT without properties",
        "`$ref` is not a Schema field",
    ] {
        assert!(found.contains(expected), "{expected}:\n{found}");
    }
    // An output in both slots, or one the subset has no words for.
    let bad_gemini = json!({"functionDeclarations": [
        {"name": "both", "response": {"type": "STRING"}, "responseJsonSchema": {"type": "string"}},
        {"name": "refs", "response": {"type": "ARRAY", "items": {"$ref": "#/$defs/Hit"}}},
        {"name": "dangling", "responseJsonSchema": {"$ref": "#/$defs/Gone"}}
    ]});
    let found = rules::gemini::check(&bad_gemini).join("\n");
    for expected in [
        "both: both response and responseJsonSchema",
        "refs /response/items: `$ref` is not a Schema field",
        "dangling responseJsonSchema: does not compile",
    ] {
        assert!(found.contains(expected), "{expected}:\n{found}");
    }
    let bad_mcp = json!([{"name": "a b", "inputSchema": {"type": "string"}, "annotations": {"readOnlyHint": "yes"}}]);
    assert_eq!(rules::mcp::check(&bad_mcp).len(), 3);
}

/// An imported schema of about 1.7 KB whose definitions each use the next twice: inlined, it
/// would double with every level (2^20 copies of the last one). Every export stays bounded:
/// Gemini sends the schema as `parametersJsonSchema` (references kept) past its inlining
/// budget, and the strict exports lower each definition once.
#[test]
fn definitions_that_double_never_blow_up_an_export() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("attacks/exports/doubling_definitions.json");
    let case: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("the attack corpus")).unwrap();
    let schema = case["schema"].clone();
    assert!(schema.to_string().len() < 4_000);
    let tool = tool_runtime::DynamicTool::new("doubling", "Doubles.", schema, |_, _| async {
        tool_runtime::ToolOutput::text("ok")
    });
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tool)
        .build()
        .unwrap();
    for provider in Provider::ALL {
        for strict in [false, true] {
            let text = registry
                .export(provider)
                .strict(strict)
                .to_value()
                .to_string();
            assert!(
                text.len() < 1_000_000,
                "{provider:?} strict {strict}: {} bytes",
                text.len()
            );
        }
    }
    let gemini = registry.export(Provider::Gemini).to_value();
    let declaration = &gemini["functionDeclarations"][0];
    assert!(
        declaration.get("parametersJsonSchema").is_some(),
        "{declaration}"
    );
}
