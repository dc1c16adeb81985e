//! TensorZero, natively, against the real gateway (PyPI `tensorzero`, installed by
//! `scripts/install-gateways.sh` on first use):
//!
//! 1. the config `export_tensorzero` writes (and `schema --provider tensorzero --out`) for the
//!    example tools and for 100 generated tools loads in the gateway, and a broken one is
//!    refused;
//! 2. an agent loop through the gateway's native `/inference` to the scripted upstream (a
//!    fixture, not a model): the upstream gets exactly our schemas, its tool call comes back
//!    through TensorZero as `tool_call` blocks, the real tool runs, and our `tool_result`
//!    reaches the upstream in the next request; whole and streamed, with the tools in the
//!    config or as `additional_tools`, the variant pinned and the episode carried.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use tool_runtime::agent::{Agent, AgentError, AgentEvent, Reply, TensorZero};
use tool_runtime::{DynamicTool, Provider, Registry, ToolOutput};
use tool_test_support::gateways;
use tool_test_support::sales::{script, workspace};
use tool_test_support::upstream::Upstream;

fn examples(root: &Path) -> Registry {
    tool_examples::registry(root.to_path_buf()).unwrap()
}

/// Reads `dir/tensorzero.toml` and checks it against `registry`'s TensorZero export: one
/// `[tools.NAME]` per tool, whose schema file holds exactly the exported parameters.
fn check_files(dir: &Path, registry: &Registry, strict: bool) -> toml::Table {
    let text = std::fs::read_to_string(dir.join("tensorzero.toml")).unwrap();
    let config: toml::Table = text.parse().unwrap();
    let tools = config["tools"].as_table().unwrap();
    let exported = registry
        .export(Provider::TensorZero)
        .strict(strict)
        .to_value();
    let exported = exported.as_array().unwrap();
    assert_eq!(tools.len(), exported.len());
    for tool in exported {
        let name = tool["name"].as_str().unwrap();
        let entry = tools[name].as_table().unwrap();
        assert_eq!(entry["description"].as_str(), tool["description"].as_str());
        assert_eq!(entry["strict"].as_bool(), tool["strict"].as_bool());
        let file = dir.join(entry["parameters"].as_str().unwrap());
        let schema: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
        assert_eq!(schema, tool["parameters"], "{name}");
    }
    config
}

#[test]
fn the_cli_writes_a_config_of_the_example_tools_that_the_gateway_loads() {
    let root = workspace();
    let registry = examples(root.path());
    for strict in [false, true] {
        let out = tempfile::tempdir().unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_tool-examples"));
        command.arg("--root").arg(root.path()).args([
            "schema",
            "--provider",
            "tensorzero",
            "--function",
            "assistant",
            "--model",
            "openai::gpt-4o-mini",
            "--out",
        ]);
        command.arg(out.path());
        if strict {
            command.arg("--strict");
        }
        let run = command.output().unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert_eq!(stdout.lines().count(), registry.len() + 1, "{stdout}");
        let config = check_files(out.path(), &registry, strict);
        let function = &config["functions"]["assistant"];
        assert_eq!(function["type"].as_str(), Some("chat"));
        assert_eq!(function["tools"].as_array().unwrap().len(), registry.len());
        gateways::tensorzero_config(&out.path().join("tensorzero.toml")).unwrap();
    }
}

/// 100 tools of many shapes: names TensorZero's providers can't take (dotted, spaced, too
/// long, differing only in case), descriptions with quotes, newlines and non-ASCII, schemas
/// with nesting, enums, unions, references, defaults and formats.
fn generated() -> Registry {
    let mut builder = Registry::builder().without_inventory();
    for i in 0..100 {
        let name = match i % 5 {
            0 => format!("ns.tool_{i}"),
            1 => format!("Tool{i}"),
            2 => format!("tool {i} with spaces"),
            3 => format!("t{i}_{}", "long".repeat(20)),
            _ => format!("tool_{i}"),
        };
        let schema = match i % 4 {
            0 => json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "A \"quoted\" city\nname: é"},
                "unit": {"type": "string", "enum": ["c", "f"], "default": "c"}},
                "required": ["city"]}),
            1 => json!({"type": "object", "properties": {
                "items": {"type": "array", "items": {"$ref": "#/$defs/item"}, "maxItems": 5}},
                "$defs": {"item": {"type": "object", "properties": {
                    "id": {"type": "integer", "minimum": 0},
                    "tags": {"type": "array", "items": {"type": "string"}}},
                    "required": ["id"], "additionalProperties": false}},
                "required": ["items"], "additionalProperties": false}),
            2 => json!({"type": "object", "properties": {
                "when": {"type": "string", "format": "date-time"},
                "value": {"anyOf": [{"type": "number"}, {"type": "string"}, {"type": "null"}]}}}),
            _ => json!({"type": "object", "properties": {}}),
        };
        let description = format!("Tool number {i}: it says \"hi\"\\n in ünïcode.\nSecond line.");
        builder = builder.dynamic(DynamicTool::new(name, description, schema, |_, _| async {
            ToolOutput::text("ok")
        }));
    }
    builder.build().unwrap()
}

#[test]
fn a_config_of_100_generated_tools_loads_and_names_go_out_sanitized() {
    let registry = generated();
    assert_eq!(registry.len(), 100);
    for strict in [false, true] {
        let out = tempfile::tempdir().unwrap();
        registry
            .export_tensorzero()
            .strict(strict)
            .function("assistant")
            .write_to(out.path())
            .unwrap();
        let config = check_files(out.path(), &registry, strict);
        for name in config["tools"].as_table().unwrap().keys() {
            assert!(
                name.len() <= 64
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'),
                "{name}"
            );
        }
        let files = std::fs::read_dir(out.path().join("tools")).unwrap().count();
        assert_eq!(files, 100, "one schema file a tool, none overwritten");
        gateways::tensorzero_config(&out.path().join("tensorzero.toml")).unwrap();
    }
    // A call to a sanitized name reaches its tool.
    let export = registry.export(Provider::TensorZero);
    let sanitized = export.name_of("ns.tool_0").unwrap();
    assert_eq!(sanitized, "ns_tool_0");
    let output = registry.call_blocking(sanitized, r#"{"city": "Paris"}"#);
    assert_eq!(output.to_model_text(), "ok");
}

/// Issue 32 item 6: tools imported over MCP as `h__Add` and `h__add` (one file on a
/// case-insensitive file system, so the second gets a hashed file name), beside a tool whose
/// real name is that hashed name. Each schema file holds its own tool's schema, none is
/// overwritten, and the gateway loads the config.
#[test]
fn a_hashed_schema_file_name_never_overwrites_another_tools() {
    let tool = |name: &str, property: &str| {
        let schema = json!({"type": "object", "properties": {property: {"type": "integer"}},
            "required": [property]});
        DynamicTool::new(name, format!("Uses {property}."), schema, |_, _| async {
            ToolOutput::text("ok")
        })
    };
    // The hashed name `h__add` gets beside `h__Add`, as the export writes it.
    let pair = Registry::builder()
        .without_inventory()
        .dynamic(tool("h__Add", "a"))
        .dynamic(tool("h__add", "b"))
        .build()
        .unwrap();
    let files = pair.export_tensorzero().files();
    let hashed = files[2]
        .path
        .strip_prefix("tools/")
        .unwrap()
        .strip_suffix(".json")
        .unwrap();
    assert_ne!(hashed, "h__add");
    let hashed = hashed.to_owned();
    // In every order, with the tool named after the hashed file first, between and last.
    let orders: [[(&str, &str); 3]; 3] = [
        [(&hashed, "c"), ("h__Add", "a"), ("h__add", "b")],
        [("h__Add", "a"), (&hashed, "c"), ("h__add", "b")],
        [("h__Add", "a"), ("h__add", "b"), (&hashed, "c")],
    ];
    for order in orders {
        let mut builder = Registry::builder().without_inventory();
        for (name, property) in order {
            builder = builder.dynamic(tool(name, property));
        }
        let registry = builder.build().unwrap();
        let out = tempfile::tempdir().unwrap();
        registry
            .export_tensorzero()
            .function("assistant")
            .write_to(out.path())
            .unwrap();
        check_files(out.path(), &registry, false);
        let files = std::fs::read_dir(out.path().join("tools")).unwrap().count();
        assert_eq!(files, 3, "{order:?}: one schema file a tool");
        gateways::tensorzero_config(&out.path().join("tensorzero.toml")).unwrap();
    }
}

#[test]
fn a_broken_config_is_refused_by_the_gateway() {
    let registry = generated();
    let out = tempfile::tempdir().unwrap();
    let config = registry.export_tensorzero().function("assistant");
    config.write_to(out.path()).unwrap();
    let toml = out.path().join("tensorzero.toml");
    gateways::tensorzero_config(&toml).unwrap();

    // A schema that is no JSON Schema.
    let file = out.path().join(&config.files()[1].path);
    let good = std::fs::read(&file).unwrap();
    std::fs::write(&file, r#"{"type": 12}"#).unwrap();
    let error = gateways::tensorzero_config(&toml).unwrap_err();
    assert!(error.contains("JSON Schema"), "{error}");
    // A schema file that is missing.
    std::fs::remove_file(&file).unwrap();
    assert!(gateways::tensorzero_config(&toml).is_err());
    std::fs::write(&file, good).unwrap();
    gateways::tensorzero_config(&toml).unwrap();
    // A function naming a tool the config lacks.
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("tools = [\"", "tools = [\"no_such_tool\", \""),
    )
    .unwrap();
    let error = gateways::tensorzero_config(&toml).unwrap_err();
    assert!(error.contains("no_such_tool"), "{error}");
}

/// A config folder for `registry`'s tools and the chat function `assistant`, plus the model
/// `scripted` (the upstream at `upstream_v1`) and a function `bare` without tools.
fn loop_config(registry: &Registry, upstream_v1: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    registry
        .export_tensorzero()
        .function("assistant")
        .model("scripted")
        .write_to(dir.path())
        .unwrap();
    let toml = dir.path().join("tensorzero.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str(&format!(
        r#"
[models.scripted]
routing = ["upstream"]

[models.scripted.providers.upstream]
type = "openai"
api_base = "{upstream_v1}"
model_name = "scripted"
api_key_location = "none"

[functions.bare]
type = "chat"

[functions.bare.variants.scripted]
type = "chat_completion"
model = "scripted"
"#
    ));
    std::fs::write(&toml, text).unwrap();
    dir
}

/// The agent's reply to `prompt`, its events streamed or not.
async fn run(agent: &mut Agent, prompt: &str, stream: bool) -> Result<Reply, AgentError> {
    if !stream {
        return agent.run(prompt).await;
    }
    let mut events = agent.stream(prompt);
    while let Some(event) = events.next().await {
        if let AgentEvent::Done(reply) = event? {
            return Ok(reply);
        }
    }
    panic!("the stream ended without Done")
}

/// One agent run through the native endpoint; `function` is `assistant` (tools in the
/// config) or `bare` (tools as `additional_tools`).
fn native_loop(function: &str, stream: bool) {
    let root = workspace();
    let registry = examples(root.path());
    let upstream = Upstream::start(script(stream));
    let config = loop_config(&registry, &format!("{}/v1", upstream.url()));
    let gateway = gateways::tensorzero_native(&config.path().join("tensorzero.toml"));
    let mut model = TensorZero::function(&gateway.url, function)
        .variant("scripted")
        .streaming(stream);
    if function == "assistant" {
        model = model.tools_in_config();
    }
    let model = std::sync::Arc::new(model);
    let tools = registry.export(Provider::TensorZero).to_value();
    let mut agent = Agent::new(model.clone(), registry).system("Be brief.");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let reply = runtime
        .block_on(run(&mut agent, "Summarize sales.csv", stream))
        .unwrap_or_else(|e| {
            panic!(
                "{e:?}\nsent: {:#?}\nupstream got: {:#?}\ngateway:\n{}",
                gateway.requests(),
                upstream
                    .requests()
                    .iter()
                    .map(|r| &r.body)
                    .collect::<Vec<_>>(),
                gateway.stderr()
            )
        });
    assert_eq!(reply.text, "Sales total 42.");
    assert_eq!(reply.calls, 1);

    // The upstream got exactly our schemas, whichever way they went to the gateway.
    let requests = upstream.requests();
    assert_eq!(requests.len(), 2, "two model requests reached the upstream");
    let sent = requests[0].body["tools"].as_array().unwrap();
    assert_eq!(sent.len(), tools.as_array().unwrap().len());
    for tool in tools.as_array().unwrap() {
        let got = sent
            .iter()
            .find(|t| t["function"]["name"] == tool["name"])
            .unwrap_or_else(|| panic!("{} not sent", tool["name"]));
        assert_eq!(got["function"]["parameters"], tool["parameters"]);
        assert_eq!(got["function"]["description"], tool["description"]);
    }
    // Our tool_result went back through the gateway to the upstream.
    let messages = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(
        messages[0],
        json!({"role": "system", "content": "Be brief."})
    );
    let asked = messages.iter().find(|m| m["role"] == "assistant").unwrap();
    assert_eq!(asked["tool_calls"][0]["id"], "c1");
    let result = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(result["tool_call_id"], "c1");
    assert!(result["content"].to_string().contains("south"), "{result}");

    // What the transport sent the gateway: the function, the pinned variant, the tools only
    // when they are not in the config, the episode carried to the second request, and the
    // result as a `tool_result` block in a user message.
    let sent = gateway.requests();
    assert_eq!(sent.len(), 2);
    for body in &sent {
        assert_eq!(body["function_name"], function);
        assert_eq!(body["variant_name"], "scripted");
        assert_eq!(body["input"]["system"], "Be brief.");
        assert_eq!(body.get("additional_tools").is_some(), function == "bare");
        assert_eq!(body.get("stream").is_some(), stream);
    }
    assert!(sent[0].get("episode_id").is_none());
    let episode = sent[1]["episode_id"].as_str().unwrap();
    assert_eq!(model.episode_id().as_deref(), Some(episode));
    let last = sent[1]["input"]["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["role"], "user");
    let block = &last["content"][0];
    assert_eq!(
        (
            block["type"].as_str(),
            block["id"].as_str(),
            block["name"].as_str()
        ),
        (Some("tool_result"), Some("c1"), Some("csv_summary"))
    );
    assert!(block["result"].as_str().unwrap().contains("south"));
}

#[test]
fn an_agent_loop_through_tensorzeros_native_inference_whole() {
    native_loop("assistant", false);
}

#[test]
fn an_agent_loop_through_tensorzeros_native_inference_streamed() {
    native_loop("assistant", true);
}

#[test]
fn an_agent_loop_with_additional_tools_through_tensorzero() {
    native_loop("bare", true);
}
