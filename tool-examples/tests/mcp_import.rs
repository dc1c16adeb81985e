//! MCP from the library's side: a registry served over streamable HTTP and imported back
//! (our server and our client, both on rmcp), and the tools of servers nobody here wrote
//! (`server-everything`, a server on the Python SDK) imported, called and exported to every
//! dialect by its provider's rules. Every wait is bounded; all traffic is on 127.0.0.1.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use tool_test_support::mcp_clients;
use tool_test_support::rules;

use mcp_clients::clients;
use serde_json::json;
use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;
use tool_runtime::mcp::{HttpOptions, HttpServer, ImportNote, McpImport, McpServer};
use tool_runtime::output::ContentBlock;
use tool_runtime::output::{NotificationKind, Notifier};
use tool_runtime::pipeline::ApprovalPolicy;
use tool_runtime::pipeline::CancellationToken;
use tool_runtime::registry::BuildError;
use tool_runtime::registry::ToolFlags;
use tool_runtime::{DynamicTool, ErrorCode, Provider, Registry, ToolOutput};

/// Fails the test instead of hanging when `future` takes longer than `seconds`.
async fn bounded<F: Future>(seconds: u64, future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(seconds), future)
        .await
        .unwrap_or_else(|_| panic!("took longer than {seconds} s"))
}

fn loopback() -> SocketAddr {
    "127.0.0.1:0".parse().unwrap()
}

/// Serves `registry` on a free port with `options`; the URL and the token that stops it.
async fn serve(server: McpServer, options: HttpOptions) -> (String, CancellationToken) {
    let http = HttpServer::bind(server, loopback(), options).await.unwrap();
    let url = http.url();
    let stop = http.stop_token();
    tokio::spawn(http.run());
    (url, stop)
}

use rules::{dialects as every_dialect, violations};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_resources_and_prompts_import_back() {
    use tool_runtime::output::ResourceBody;
    use tool_runtime::resources::{Completion, CompletionTarget, PromptArgs, ResourceError, Role};

    let server =
        McpServer::new(tool_examples::conformance::builder().build().unwrap()).page_size(2);
    let (url, stop) = serve(server, HttpOptions::default()).await;
    let imported = bounded(30, McpImport::http(&url).named("conf").connect())
        .await
        .unwrap();
    // Three resources and five prompts over pages of two, the template on one.
    assert_eq!(imported.resources().len(), 3, "{imported:?}");
    assert_eq!(imported.templates().len(), 1);
    assert_eq!(imported.prompts().len(), 5);
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(imported)
        .build()
        .unwrap();
    let resources = registry.resources();
    let listing = resources.resources()[0].listing();
    assert_eq!(listing.name, "static-text");
    assert_eq!(
        listing.description.as_deref(),
        Some("A static text resource for testing.")
    );

    let text = bounded(30, resources.read("test://static-text"))
        .await
        .unwrap();
    assert_eq!(text[0].mime_type.as_deref(), Some("text/plain"));
    assert_eq!(
        text[0].body,
        ResourceBody::Text {
            text: "This is the content of the static text resource.".into()
        }
    );
    let binary = bounded(30, resources.read("test://static-binary"))
        .await
        .unwrap();
    assert!(matches!(&binary[0].body, ResourceBody::Blob { blob } if blob.starts_with("iVBOR")));
    let templated = bounded(30, resources.read("test://template/7/data"))
        .await
        .unwrap();
    assert_eq!(templated[0].uri, "test://template/7/data");
    let missing = bounded(30, resources.read("test://template/7/other")).await;
    assert!(
        matches!(missing, Err(ResourceError::NotFound { .. })),
        "{missing:?}"
    );

    let messages = bounded(
        30,
        resources.get_prompt(
            "conf__test_prompt_with_arguments",
            PromptArgs::new([("arg1", "a"), ("arg2", "b")]),
        ),
    )
    .await
    .unwrap();
    assert_eq!(
        messages[0].content.to_model_text(),
        "Prompt with arguments: arg1='a', arg2='b'"
    );
    let image = bounded(
        30,
        resources.get_prompt("conf__test_prompt_with_image", PromptArgs::default()),
    )
    .await
    .unwrap();
    assert!(matches!(image[0].content, ContentBlock::Image { .. }));
    assert_eq!(image[1].role, Role::User);
    let embedded = bounded(
        30,
        resources.get_prompt(
            "conf__test_prompt_with_embedded_resource",
            PromptArgs::new([("resourceUri", "test://e")]),
        ),
    )
    .await
    .unwrap();
    assert!(matches!(&embedded[0].content, ContentBlock::Resource(r) if r.uri == "test://e"));
    // Required arguments are checked here, before the server is asked.
    let without = bounded(
        30,
        resources.get_prompt("conf__test_prompt_with_arguments", PromptArgs::default()),
    )
    .await;
    assert!(matches!(
        without,
        Err(ResourceError::MissingArgument { .. })
    ));

    // Completion is forwarded, for prompt arguments and template variables.
    let prompt = bounded(
        30,
        resources.complete(
            CompletionTarget::Prompt("conf__test_prompt_with_arguments"),
            Completion::new("arg1", "test"),
        ),
    )
    .await
    .unwrap();
    assert_eq!(prompt, ["test", "testValue1"]);
    let template = bounded(
        30,
        resources.complete(
            CompletionTarget::Template("test://template/{id}/data"),
            Completion::new("id", "12"),
        ),
    )
    .await
    .unwrap();
    assert_eq!(template, ["123"]);

    // Served again, the imported prompts and resources are this registry's own.
    let again = McpServer::new(registry);
    let (again_url, again_stop) = serve(again, HttpOptions::default()).await;
    let twice = bounded(30, McpImport::http(&again_url).named("again").connect())
        .await
        .unwrap();
    assert_eq!(twice.prompts()[0].name(), "again__conf__test_simple_prompt");
    let twice = Registry::builder()
        .without_inventory()
        .mcp_tools(twice)
        .build()
        .unwrap();
    let read = bounded(30, twice.resources().read("test://template/9/data"))
        .await
        .unwrap();
    assert!(matches!(&read[0].body, ResourceBody::Text { text } if text.contains("9")));
    again_stop.cancel();
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_served_registry_imports_back_with_pages_content_and_progress() {
    let token = "t0ken";
    let server =
        McpServer::new(tool_examples::conformance::builder().build().unwrap()).page_size(3);
    let (url, stop) = serve(server, HttpOptions::default().bearer_token(token)).await;

    let imported = bounded(
        30,
        McpImport::http(&url)
            .named("conf")
            .bearer_token(token)
            .connect(),
    )
    .await
    .unwrap();
    // Every conformance tool (the `#[tool]` fns and the 2020-12 schema's dynamic tool) over
    // pages of three, every one named `conf__*`.
    let served = tool_examples::conformance::TOOLS.len() + 1;
    assert!(served > 3 * 10, "{served} tools: more than ten pages");
    assert_eq!(imported.tools().len(), served, "{imported:?}");
    assert_eq!(imported.server_name().unwrap().0, "tool-runtime");
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(imported)
        .build()
        .unwrap();
    assert!(registry.get("conf__test_simple_text").is_some());

    let text = bounded(30, registry.call("conf__test_simple_text", "{}")).await;
    assert_eq!(
        text,
        ToolOutput::text("This is a simple text response for testing.")
    );

    let mixed = bounded(30, registry.call("conf__test_multiple_content_types", "{}")).await;
    let ToolOutput::Content(blocks) = &mixed else {
        panic!("{mixed:?}")
    };
    assert!(
        matches!(&blocks[1], ContentBlock::Image { mime_type, .. } if mime_type == "image/png")
    );
    assert_eq!(
        blocks[2],
        ContentBlock::resource_text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#
        )
    );

    let failed = bounded(30, registry.call("conf__test_error_handling", "{}")).await;
    assert_eq!(
        failed.as_error().unwrap().message,
        "This tool intentionally returns an error for testing"
    );

    // Progress crosses both hops: the served tool's context → MCP → the import → ours.
    let (notifier, mut messages) = Notifier::channel();
    let out = bounded(
        30,
        notifier.scope(registry.call("conf__test_tool_with_progress", "{}")),
    )
    .await;
    assert!(!out.is_error(), "{out:?}");
    // The last one may trail the result a little: rmcp delivers notifications on tasks.
    let mut progress = Vec::new();
    while progress.len() < 3 {
        let next = tokio::time::timeout(Duration::from_secs(5), messages.recv()).await;
        let Ok(Some(message)) = next else { break };
        if let NotificationKind::Progress {
            progress: p, total, ..
        } = message.kind
        {
            assert_eq!(total, Some(100.0));
            assert_eq!(message.tool, "conf__test_tool_with_progress");
            progress.push(p);
        }
    }
    assert_eq!(progress, [0.0, 50.0, 100.0]);

    // The schema a dynamic tool gave arrives whole, 2020-12's `$schema` and `$anchor` kept
    // (SEP-1613, SEP-2106), and goes to a model API without the dialect marker.
    let schema = registry
        .get("conf__json_schema_2020_12_tool")
        .unwrap()
        .input_schema();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["$defs"]["address"]["$anchor"], "addressDef");
    assert_eq!(schema["properties"]["address"]["$ref"], "#/$defs/address");
    let exported = registry.export(Provider::OpenAiChat).to_value();
    let exported = exported
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["function"]["name"] == "conf__json_schema_2020_12_tool")
        .unwrap();
    assert!(exported["function"]["parameters"].get("$schema").is_none());

    // A wrong token is refused at connect time.
    let refused = bounded(30, McpImport::http(&url).bearer_token("wrong").connect()).await;
    assert!(refused.is_err());

    // The server goes away: calls end with an error output, quickly.
    stop.cancel();
    let gone = bounded(60, registry.call("conf__test_simple_text", "{}")).await;
    assert!(gone.is_error(), "{gone:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_on_the_server_are_results_the_model_reads() {
    let slow = DynamicTool::new(
        "slow",
        "Sleep a while.",
        json!({"type": "object"}),
        |_, _| async {
            tokio::time::sleep(Duration::from_secs(30)).await;
            ToolOutput::text("late")
        },
    );
    let panics = DynamicTool::new(
        "panics",
        "Panic.",
        json!({"type": "object"}),
        |_, _| async { panic!("the tool broke") },
    );
    let wipe = DynamicTool::new(
        "wipe",
        "Delete everything.",
        json!({"type": "object"}),
        |_, _| async { ToolOutput::text("wiped") },
    )
    .with_flags(ToolFlags {
        destructive: true,
        ..ToolFlags::default()
    });
    let served = Registry::builder()
        .without_inventory()
        .dynamic(slow)
        .dynamic(panics)
        .dynamic(wipe)
        .tool_timeout("slow", Duration::from_millis(200))
        .approval(ApprovalPolicy::default())
        .build()
        .unwrap();
    let (url, stop) = serve(McpServer::new(served), HttpOptions::default()).await;
    let imported = bounded(30, McpImport::http(&url).named("s").connect())
        .await
        .unwrap();
    // Forwarded without asking here, so that the serving side's approval is what's tested.
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(imported)
        .approval(ApprovalPolicy::Never)
        .build()
        .unwrap();
    // The destructive hint travels: this side would ask for approval by default.
    assert!(registry.get("s__wipe").unwrap().flags().destructive);
    for (tool, says) in [
        ("s__slow", "timed out"),
        ("s__panics", "the tool broke"),
        ("s__wipe", "denied"),
    ] {
        let out = bounded(30, registry.call(tool, "{}")).await;
        let error = out.as_error().unwrap_or_else(|| panic!("{tool}: {out:?}"));
        assert_eq!(error.code, ErrorCode::ToolFailed, "{tool}");
        assert!(error.message.contains(says), "{tool}: {}", error.message);
    }
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_servers_tools_are_called_and_export_to_every_dialect() {
    let clients = clients();
    let (node, everything) = clients.everything_command();
    let python = clients.python.display().to_string();
    let python_server = clients.script("python_server.py").display().to_string();
    let registry = bounded(
        120,
        Registry::builder()
            .without_inventory()
            .mcp_stdio(node, everything)
            .mcp(McpImport::stdio(python, [python_server]).named("py"))
            .build_async(),
    )
    .await
    .unwrap();

    let names: Vec<&str> = registry.specs().map(|s| s.name()).collect();
    for tool in [
        "everything__echo",
        "everything__get-sum",
        "py__ping",
        "py__math_add",
        "py__tally",
    ] {
        assert!(names.contains(&tool), "{tool} missing from {names:?}");
    }

    let echo = bounded(
        30,
        registry.call("everything__echo", r#"{"message": "hi"}"#),
    )
    .await;
    assert_eq!(echo, ToolOutput::text("Echo: hi"));
    let sum = bounded(
        30,
        registry.call("everything__get-sum", r#"{"a": 2, "b": "3"}"#),
    )
    .await;
    assert!(sum.to_model_text().contains('5'), "{sum:?}");
    let structured = bounded(
        30,
        registry.call(
            "everything__get-structured-content",
            r#"{"location": "New York"}"#,
        ),
    )
    .await;
    assert!(matches!(structured, ToolOutput::Json(_)), "{structured:?}");
    // Content annotations (who a block is for, how much it matters) come in with the blocks.
    let annotated = bounded(
        30,
        registry.call(
            "everything__get-annotated-message",
            r#"{"messageType": "success"}"#,
        ),
    )
    .await;
    let ToolOutput::Content(blocks) = &annotated else {
        panic!("annotations lost: {annotated:?}");
    };
    let annotations = blocks[0].annotations().expect("the text's annotations");
    assert_eq!(
        annotations.audience.as_deref(),
        Some(&["user".to_owned()][..])
    );
    assert_eq!(annotations.priority, Some(0.7));
    let image = bounded(30, registry.call("everything__get-tiny-image", "{}")).await;
    assert!(
        matches!(&image, ToolOutput::Content(blocks) if blocks.iter().any(|b| matches!(b, ContentBlock::Image { .. }))),
        "{image:?}"
    );
    // A dotted name, renamed, still reaches its tool; the default fills `b`.
    let add = bounded(30, registry.call("py__math_add", r#"{"a": 2}"#)).await;
    assert_eq!(add.to_model_text(), "3");
    // The Python SDK declares `-> int` as `{"result": integer}`: kept, and the result (checked
    // against it) is the number; `-> str` the same, as text.
    let declared = registry
        .get("py__math_add")
        .unwrap()
        .output_schema()
        .unwrap();
    assert_eq!(
        declared["properties"]["result"]["type"], "integer",
        "{declared}"
    );
    assert!(registry.get("py__shout").unwrap().output_schema().is_some());
    let tally = bounded(
        30,
        registry.call("py__tally", r#"{"counts": {"a": 2, "b": 5}}"#),
    )
    .await;
    assert_eq!(tally.to_model_text(), "7");

    for dialect @ (provider, strict) in every_dialect() {
        let export = registry.export(provider).strict(strict).to_value();
        let found = violations(provider, &export);
        assert!(found.is_empty(), "{dialect:?}:\n{}", found.join("\n"));
    }
    let strict = registry
        .export(Provider::OpenAiChat)
        .strict(true)
        .to_value();
    let echo = strict
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["function"]["name"] == "everything__echo")
        .unwrap();
    assert_eq!(echo["function"]["strict"], true, "{echo}");

    // pydantic writes `suffix: str = None` as `"type": "string", "default": null`: the default
    // is noted and never filled, so a call without `suffix` is valid. The tool's string comes
    // back as the server's `{"result": "HEY!"}` and its text, once.
    let noted = registry.notes().iter().any(|note| {
        matches!(note, tool_runtime::registry::BuildNote::UnusableDefault { tool, pointer, .. }
            if tool == "py__shout" && pointer == "/properties/suffix/default")
    });
    assert!(noted, "{:?}", registry.notes());
    let shout = bounded(30, registry.call("py__shout", r#"{"text": "hey"}"#)).await;
    assert_eq!(shout, ToolOutput::text("HEY!"));

    // The Python server dies during a call: that call and the next are error outputs, fast.
    let died = bounded(60, registry.call("py__die", "{}")).await;
    assert!(died.is_error(), "{died:?}");
    let after = bounded(60, registry.call("py__ping", "{}")).await;
    assert!(after.is_error(), "{after:?}");
    // The other server is still there.
    let echo = bounded(
        30,
        registry.call("everything__echo", r#"{"message": "still"}"#),
    )
    .await;
    assert_eq!(echo, ToolOutput::text("Echo: still"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renamed_tool_is_reported() {
    let clients = clients();
    let tools = bounded(
        60,
        McpImport::stdio(
            clients.python.display().to_string(),
            [clients.script("python_server.py").display().to_string()],
        )
        .connect(),
    )
    .await
    .unwrap();
    assert_eq!(tools.prefix(), "python-fixture");
    assert!(
        tools.notes().iter().any(|note| matches!(
            note,
            ImportNote::Renamed { tool, name, .. } if tool == "math.add" && name == "python-fixture__math_add"
        )),
        "{:?}",
        tools.notes()
    );
}

#[tokio::test]
async fn a_server_that_cannot_start_is_a_build_error() {
    let error = bounded(
        30,
        Registry::builder()
            .without_inventory()
            .mcp_stdio("/nonexistent/mcp-server", ["--flag"])
            .build_async(),
    )
    .await
    .unwrap_err();
    let BuildError::ToolSource { origin, reason } = &error else {
        panic!("{error}")
    };
    assert_eq!(origin, "/nonexistent/mcp-server --flag");
    assert!(reason.contains("could not start"), "{reason}");

    // `build` can't connect: it says to use `build_async`.
    let error = Registry::builder()
        .without_inventory()
        .mcp_http("http://127.0.0.1:9/mcp")
        .build()
        .unwrap_err();
    assert!(error.to_string().contains("build_async"), "{error}");
}

/// A tool of ours that declares its output schema, served, imported back and served again:
/// the schema travels both hops, and the structured result is checked on the way back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_output_schema_is_kept_checked_and_served_again() {
    let schema = json!({
        "type": "object",
        "properties": {"count": {"type": "integer"}, "unit": {"type": "string"}},
        "required": ["count"]
    });
    let counter = DynamicTool::new(
        "count",
        "Count things.",
        json!({"type": "object"}),
        |_, _| async { ToolOutput::json(&json!({"count": 3, "unit": "apples"})) },
    )
    .with_output_schema(schema.clone());
    let served = Registry::builder()
        .without_inventory()
        .dynamic(counter)
        .build()
        .unwrap();
    let (url, stop) = serve(McpServer::new(served), HttpOptions::default()).await;
    let imported = bounded(30, McpImport::http(&url).named("far").connect())
        .await
        .unwrap();
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(imported)
        .build()
        .unwrap();

    assert_eq!(
        registry.get("far__count").unwrap().output_schema(),
        Some(&schema)
    );
    let out = bounded(30, registry.call("far__count", "{}")).await;
    assert_eq!(
        out,
        ToolOutput::json(&json!({"count": 3, "unit": "apples"}))
    );
    // Served again, it lists the same schema.
    let export = registry.export(tool_runtime::Provider::Mcp).to_value();
    assert_eq!(export[0]["outputSchema"], schema);
    stop.cancel();
}

/// A server whose schema is written the way hand-made and generated schemas often are:
/// draft-07 `$schema`, `definitions`, no root `type`, vendor keywords, an open map, formats,
/// `oneOf` of constants, `examples`.
fn awkward_tool() -> DynamicTool {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://example.com/schemas/book.json",
        "properties": {
            "title": {"type": "string", "minLength": 1, "examples": ["Dune"], "x-order": 1},
            "isbn": {"type": "string", "pattern": "^[0-9-]{10,17}$", "format": "isbn"},
            "site": {"type": "string", "format": "uri"},
            "shelf": {"$ref": "#/definitions/Shelf"},
            "tags": {"type": "object", "additionalProperties": {"type": "string"}},
            "extra": {"type": "object", "additionalProperties": {}},
            "kind": {"oneOf": [{"const": "paper"}, {"const": "ebook"}]},
            "authors": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true}
        },
        "required": ["title"],
        "definitions": {
            "Shelf": {"type": "object", "properties": {"row": {"type": "integer", "minimum": 0}}, "required": ["row"]}
        }
    });
    DynamicTool::new(
        "add.book",
        "Add a book to the catalogue.",
        schema,
        |args, _| async move {
            ToolOutput::text(format!("added {}", args["title"].as_str().unwrap_or("?")))
        },
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn awkward_remote_schemas_come_in_clean_for_every_dialect() {
    let served = Registry::builder()
        .without_inventory()
        .dynamic(awkward_tool())
        .build()
        .unwrap();
    let (url, stop) = serve(McpServer::new(served), HttpOptions::default()).await;
    let imported = bounded(30, McpImport::http(&url).named("lib").connect())
        .await
        .unwrap();
    let cleaned: Vec<String> = imported.notes().iter().map(ToString::to_string).collect();
    assert!(
        cleaned
            .iter()
            .any(|n| n.contains("`definitions` became `$defs`")),
        "{cleaned:?}"
    );
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(imported)
        .build()
        .unwrap();
    let schema = registry.get("lib__add_book").unwrap().input_schema();
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["properties"]["shelf"]["$ref"], "#/$defs/Shelf");
    for key in ["$schema", "$id", "definitions"] {
        assert!(schema.get(key).is_none(), "{key} left in {schema}");
    }
    assert!(schema["properties"]["title"].get("x-order").is_none());

    for dialect @ (provider, strict) in every_dialect() {
        let export = registry.export(provider).strict(strict).to_value();
        let found = violations(provider, &export);
        assert!(found.is_empty(), "{dialect:?}:\n{}", found.join("\n"));
    }

    // Validation uses the cleaned schema, here and then on the server.
    let bad = bounded(
        30,
        registry.call("lib__add_book", r#"{"title": "", "shelf": {}}"#),
    )
    .await;
    assert_eq!(
        bad.as_error().unwrap().code,
        ErrorCode::InvalidArguments,
        "{bad:?}"
    );
    let good = bounded(
        30,
        registry.call("lib__add_book", r#"{"title": "Dune", "shelf": {"row": 2}}"#),
    )
    .await;
    assert_eq!(good, ToolOutput::text("added Dune"));
    stop.cancel();
}

/// Issue 17 item 9, end to end: a server offering one tool whose schema can't be used (a `$ref`
/// to a definition that isn't there; the serving registry here doesn't validate, so it serves
/// the schema as written) no longer fails the importing build: that tool is left out with a
/// note, the server's other tool and the builder's own are kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_unusable_imported_schema_leaves_only_its_tool_out() {
    let dangling = DynamicTool::new(
        "update_pet",
        "Update a pet.",
        json!({"type": "object", "properties": {
            "petId": {"type": "integer"}, "pet": {"$ref": "#/components/schemas/Pet"}}}),
        |_, _| async { ToolOutput::text("updated") },
    );
    let fine = DynamicTool::new(
        "get_pet",
        "Get a pet.",
        json!({"type": "object", "properties": {"petId": {"type": "integer"}}}),
        |_, _| async { ToolOutput::text("a cat") },
    );
    let served = Registry::builder()
        .without_inventory()
        .validation(false)
        .dynamic(dangling)
        .dynamic(fine)
        .build()
        .unwrap();
    let (url, stop) = serve(McpServer::new(served), HttpOptions::default()).await;
    let local = DynamicTool::new("local", "Mine.", json!({"type": "object"}), |_, _| async {
        ToolOutput::text("mine")
    });
    let registry = bounded(
        30,
        Registry::builder()
            .without_inventory()
            .dynamic(local)
            .mcp(McpImport::http(&url).named("pets"))
            .build_async(),
    )
    .await
    .expect("one unusable schema doesn't fail the build");
    let names: Vec<&str> = registry.specs().map(|s| s.name()).collect();
    assert_eq!(names, ["local", "pets__get_pet"]);
    let notes: Vec<String> = registry.notes().iter().map(ToString::to_string).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("pets__update_pet") && n.contains("was left out")),
        "{notes:?}"
    );
    let got = bounded(30, registry.call("pets__get_pet", r#"{"petId": 1}"#)).await;
    assert_eq!(got, ToolOutput::text("a cat"));
    stop.cancel();
}

/// A tool whose arguments also travel as `Mcp-Param-*` headers (`x-mcp-header`), served and
/// imported back at protocol 2026-07-28 (rmcp's client adds the headers, Base64-wrapped where
/// a value isn't plain ASCII, and the server refuses a call whose headers disagree with its
/// body) and with the handshake (neither happens); then the importing registry served again
/// and imported once more at 2026-07-28, its tool keeping the annotation, so both hops check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_with_custom_headers_imports_back_at_both_protocols() {
    use tool_runtime::mcp::McpProtocol;

    let route = DynamicTool::new(
        "route",
        "Say where a call goes.",
        json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "shard": {"type": "integer", "x-mcp-header": "Shard"},
            "canary": {"type": "boolean", "x-mcp-header": "Canary"},
            "note": {"type": "string"}
        }, "required": ["region", "shard"]}),
        |args, _| async move { ToolOutput::json(&args) },
    );
    let served = Registry::builder()
        .without_inventory()
        .dynamic(route)
        .build()
        .unwrap();
    let (url, stop) = serve(McpServer::new(served), HttpOptions::default()).await;
    let calls = [
        json!({"region": "eu-west", "shard": 7, "canary": true, "note": "plain"}),
        json!({"region": "Zürich", "shard": -1}),
        json!({"region": " padded\tand\nbroken ", "shard": 0, "canary": false}),
    ];

    for (protocol, version) in [
        (McpProtocol::V2026_07_28, "2026-07-28"),
        (McpProtocol::Handshake, "2025-11-25"),
    ] {
        let imported = bounded(
            30,
            McpImport::http(&url)
                .named("far")
                .protocol(protocol)
                .connect(),
        )
        .await
        .unwrap();
        assert_eq!(imported.protocol_version(), Some(version));
        let registry = Registry::builder()
            .without_inventory()
            .mcp_tools(imported)
            .build()
            .unwrap();
        let schema = registry.get("far__route").unwrap().input_schema();
        assert_eq!(schema["properties"]["region"]["x-mcp-header"], "Region");
        for arguments in &calls {
            let out = bounded(30, registry.call("far__route", &arguments.to_string())).await;
            assert!(!out.is_error(), "{version} {arguments}: {out:?}");
            assert_eq!(
                &out.to_model_text().parse::<serde_json::Value>().unwrap(),
                arguments
            );
        }

        if protocol == McpProtocol::V2026_07_28 {
            let (again_url, again_stop) =
                serve(McpServer::new(registry), HttpOptions::default()).await;
            let twice = Registry::builder()
                .without_inventory()
                .mcp(
                    McpImport::http(&again_url)
                        .named("again")
                        .protocol(protocol),
                )
                .build_async();
            let twice = bounded(30, twice).await.unwrap();
            let out = bounded(30, twice.call("again__far__route", &calls[1].to_string())).await;
            let text = out.to_model_text();
            assert_eq!(
                text.parse::<serde_json::Value>()
                    .unwrap_or_else(|e| panic!("{e}: {out:?}")),
                calls[1]
            );
            again_stop.cancel();
        }
    }
    stop.cancel();
}
