//! Building registries: collection, selection, and the errors a bad setup gets.

use tool_runtime::registry::BuildError;
use tool_runtime::registry::Location;
use tool_runtime::{tool, Registry};
use tool_tests::Catalogue;

/// Two tools that claim one name, defined only in this test binary.
mod clash {
    use super::tool;

    /// The first of two tools named "clash".
    #[tool(name = "clash")]
    pub(crate) fn clash_one() {}

    /// The second of two tools named "clash".
    #[tool(name = "clash")]
    pub(crate) fn clash_two() {}
}

fn catalogue() -> Catalogue {
    Catalogue {
        products: Vec::new(),
    }
}

#[test]
fn tools_from_other_crates_are_collected() {
    let registry = Registry::builder()
        .state(catalogue())
        .exclude(["clash"])
        .build()
        .unwrap();
    let names: Vec<&str> = registry.specs().map(|s| s.name()).collect();
    assert_eq!(
        names,
        [
            "add_numbers",
            "kinds",
            "list_items",
            "noop",
            "pwd",
            "run_dir",
            "search_products",
            "whoami"
        ]
    );
}

#[test]
fn a_duplicated_name_names_both_locations() {
    let error = Registry::builder().state(catalogue()).build().unwrap_err();
    let BuildError::DuplicateName {
        name,
        first,
        second,
    } = &error
    else {
        panic!("{error}")
    };
    assert_eq!(name, "clash");
    let (Location::Source(first), Location::Source(second)) = (first, second) else {
        panic!("{error}")
    };
    assert!(first.file.ends_with("registry.rs") && second.file.ends_with("registry.rs"));
    assert_ne!(first.line, second.line);
    let message = error.to_string();
    assert!(
        message.contains(&format!("{first}")) && message.contains(&format!("{second}")),
        "{message}"
    );
}

#[test]
fn missing_state_names_the_tool_and_the_type() {
    let error = Registry::builder().exclude(["clash"]).build().unwrap_err();
    let BuildError::MissingState { tool, type_name } = &error else {
        panic!("{error}")
    };
    assert_eq!(tool, "search_products");
    assert!(type_name.ends_with("Catalogue"), "{type_name}");
    assert!(error.to_string().contains(".state("));
}

#[test]
fn every_problem_is_reported_at_once() {
    let error = Registry::builder()
        .only(["search_products", "clash", "no_such_tool"])
        .build()
        .unwrap_err();
    let kinds: Vec<String> = error
        .problems()
        .iter()
        .map(|p| {
            format!("{p:?}")
                .split_whitespace()
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        kinds,
        ["UnknownName", "DuplicateName", "MissingState"],
        "{error}"
    );
}

#[test]
fn only_and_exclude_select_tools() {
    let only = Registry::builder()
        .only(["add_numbers", "noop"])
        .build()
        .unwrap();
    assert_eq!(
        only.specs().map(|s| s.name()).collect::<Vec<_>>(),
        ["add_numbers", "noop"]
    );

    let excluded = Registry::builder()
        .exclude(["clash", "search_products", "kinds", "list_items"])
        .build()
        .unwrap();
    assert_eq!(
        excluded.specs().map(|s| s.name()).collect::<Vec<_>>(),
        ["add_numbers", "noop", "pwd", "run_dir", "whoami"]
    );

    let typo = Registry::builder()
        .exclude(["clash", "serch_products"])
        .state(catalogue())
        .build()
        .unwrap_err();
    assert!(
        matches!(
            typo,
            BuildError::UnknownName {
                filter: "exclude",
                ..
            }
        ),
        "{typo}"
    );
}

#[test]
fn tools_can_be_registered_by_hand() {
    let registry = Registry::builder()
        .without_inventory()
        .register(tool_tests::add::TOOL)
        .build()
        .unwrap();
    assert_eq!(registry.len(), 1);
    assert!(registry.get("add_numbers").is_some());
    assert_eq!(
        registry
            .call_blocking("add_numbers", r#"{"a": 2, "b": 3}"#)
            .to_model_text(),
        "5"
    );

    // Registering a tool inventory already collected is not a clash.
    let both = Registry::builder()
        .register(tool_tests::add::TOOL)
        .only(["add_numbers"])
        .build()
        .unwrap();
    assert_eq!(both.len(), 1);
}

#[test]
fn many_registries_can_coexist() {
    let a = Registry::builder().only(["noop"]).build().unwrap();
    let b = Registry::builder().only(["add_numbers"]).build().unwrap();
    assert!(a.get("add_numbers").is_none() && b.get("noop").is_none());
}

#[test]
fn get_gives_the_spec() {
    let registry = Registry::builder()
        .state(catalogue())
        .exclude(["clash"])
        .build()
        .unwrap();
    let spec = registry.get("search_products").unwrap();
    assert_eq!(
        spec.description(),
        "Search the product catalogue.\n\nResults are ordered by **relevance**."
    );
    assert!(spec.flags().read_only && !spec.flags().destructive);
    let location = spec.location().unwrap();
    assert!(location.file.ends_with("src/lib.rs"), "{location}");
    assert_eq!(spec.input_schema()["type"], "object");
    assert!(registry.get("nope").is_none());
}

/// A dynamic tool named `name` that echoes nothing: only its place in the list matters.
fn named(name: &str) -> tool_runtime::DynamicTool {
    tool_runtime::DynamicTool::new(
        name,
        format!("The tool {name}."),
        serde_json::json!({"type": "object", "properties": {}}),
        |_args, _cx| async { tool_runtime::ToolOutput::text("ok") },
    )
}

/// Tools keep the order they were given in (an MCP server's list, a caller's ranking):
/// `inventory`'s `#[tool]` fns, which come in no reliable order, first and by name, then the
/// builder's tools as given, in every listing and export.
#[test]
fn tools_keep_the_order_they_were_given_in() {
    let registry = Registry::builder()
        .only(["noop", "add_numbers", "zeta", "alpha", "mid"])
        .dynamic(named("zeta"))
        .register(tool_tests::add::TOOL)
        .dynamic(named("alpha"))
        .dynamic(named("mid"))
        .build()
        .unwrap();
    let names: Vec<&str> = registry.specs().map(|s| s.name()).collect();
    // `noop` is collected by inventory only; `add_numbers` is registered by hand too, so it
    // takes its place among the given tools.
    assert_eq!(names, ["noop", "zeta", "add_numbers", "alpha", "mid"]);
    for (dialect, strict) in [
        (tool_runtime::Provider::OpenAiChat, false),
        (tool_runtime::Provider::Mcp, false),
        (tool_runtime::Provider::Anthropic, true),
    ] {
        let exported = registry.export(dialect).strict(strict).to_value();
        let text = exported.to_string();
        let at = |name: &str| text.find(&format!("\"{name}\"")).unwrap();
        assert!(
            at("noop") < at("zeta") && at("zeta") < at("add_numbers") && at("alpha") < at("mid"),
            "{dialect:?}: {text}"
        );
    }
}

/// `tests/attacks/schemas/*.json`: each tool given at run time with a legacy or hostile
/// schema (from the public source each file names). The build never fails because of it: the
/// legacy forms are rewritten to their 2020-12 meaning (a note says so) and validate as their
/// draft meant, a schema that can't be used leaves its tool out (a note says so), and the
/// local tool is always kept. `strict_build(true)` makes a left-out tool a build error.
#[test]
fn legacy_and_hostile_schemas_replayed() {
    use serde_json::{json, Value};
    use tool_runtime::registry::BuildNote;
    use tool_runtime::{DynamicTool, ToolOutput};

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("attacks/schemas");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "the corpus is there");
    let schema_of = |case: &Value| -> Value {
        match case["tool"]["nested"].as_u64() {
            // Built in code: serde_json reads no deeper than 128 levels.
            Some(levels) => {
                let mut schema = json!({"type": "string"});
                for _ in 0..levels {
                    // Not `json!` with `schema` inside: it would copy it, recursively.
                    let mut properties = serde_json::Map::new();
                    properties.insert("a".into(), schema);
                    let mut object = serde_json::Map::new();
                    object.insert("type".into(), "object".into());
                    object.insert("properties".into(), Value::Object(properties));
                    schema = Value::Object(object);
                }
                schema
            }
            None => case["tool"]["inputSchema"].clone(),
        }
    };
    let tool_of = |case: &Value| {
        DynamicTool::new(
            case["tool"]["name"].as_str().unwrap(),
            "A tool from outside.",
            schema_of(case),
            |args, _cx| async move { ToolOutput::json(&args) },
        )
    };
    for file in files {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let name = case["tool"]["name"].as_str().unwrap();
        let at = file.display();
        let registry = Registry::builder()
            .without_inventory()
            .register(tool_tests::noop::TOOL)
            .dynamic(tool_of(&case))
            .build()
            .unwrap_or_else(|e| panic!("{at}: the build failed: {e}"));
        // The program's own tool is kept, whatever the schema beside it.
        assert!(!registry.call_blocking("noop", "{}").is_error(), "{at}");
        let kept = case["kept"].as_bool().unwrap();
        assert_eq!(registry.get(name).is_some(), kept, "{at}");
        let wanted = case["note_contains"].as_str().unwrap();
        let notes: Vec<String> = registry.notes().iter().map(ToString::to_string).collect();
        assert!(
            notes.iter().any(|n| n.contains(wanted) && n.contains(name)),
            "{at}: {notes:?}"
        );
        if !kept {
            assert!(
                registry
                    .notes()
                    .iter()
                    .any(|n| matches!(n, BuildNote::ToolLeftOut { tool, .. } if tool == name)),
                "{at}"
            );
            let strict = Registry::builder()
                .without_inventory()
                .register(tool_tests::noop::TOOL)
                .dynamic(tool_of(&case))
                .strict_build(true)
                .build();
            assert!(
                matches!(strict, Err(BuildError::InvalidSchema { ref tool, .. }) if tool == name),
                "{at}: {strict:?}"
            );
        }
        for call in case["calls"].as_array().into_iter().flatten() {
            let arguments = call["arguments"].as_str().unwrap();
            let output = registry.call_blocking(name, arguments);
            match call["code"].as_str() {
                None => assert!(!output.is_error(), "{at}: {arguments}: {output:?}"),
                Some(code) => {
                    let error = output
                        .as_error()
                        .unwrap_or_else(|| panic!("{at}: {arguments} must fail, got {output:?}"));
                    assert_eq!(
                        serde_json::to_value(error.code).unwrap(),
                        code,
                        "{at}: {arguments}"
                    );
                }
            }
        }
    }
}

/// A schema nested right up to `MAX_SCHEMA_DEPTH` is kept: it builds, exports in every
/// dialect and takes a call on a test thread's 2 MiB stack; one level more is left out.
#[test]
fn a_schema_at_the_depth_limit_is_kept_and_one_past_it_left_out() {
    use serde_json::{Map, Value};
    use tool_runtime::registry::MAX_SCHEMA_DEPTH;
    use tool_runtime::{DynamicTool, Provider, ToolOutput};

    // `{"type": "string"}` is 1 level; each wrapping object adds 2.
    let nested = |levels: usize| {
        let mut schema = serde_json::json!({"type": "string"});
        for _ in 0..levels {
            let mut properties = Map::new();
            properties.insert("a".into(), schema);
            let mut object = Map::new();
            object.insert("type".into(), "object".into());
            object.insert("properties".into(), Value::Object(properties));
            schema = Value::Object(object);
        }
        DynamicTool::new("deep", "Deep.", schema, |args, _| async move {
            ToolOutput::json(&args)
        })
    };
    let at_limit = (MAX_SCHEMA_DEPTH - 1) / 2;
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(nested(at_limit))
        .build()
        .unwrap();
    assert!(registry.get("deep").is_some() && registry.notes().is_empty());
    for provider in Provider::ALL {
        for strict in [false, true] {
            let _ = registry.export(provider).strict(strict).to_value();
        }
    }
    let _ = registry.export_plain().to_value();
    let call = format!("{}\"x\"{}", r#"{"a": "#.repeat(20), "}".repeat(20));
    let _ = registry.call_blocking("deep", &call);

    let registry = Registry::builder()
        .without_inventory()
        .dynamic(nested(at_limit + 1))
        .build()
        .unwrap();
    assert!(registry.get("deep").is_none());
}
