//! `tool-examples conformance-client URL`: our MCP import as the client the official
//! conformance suite drives (`conformance client --command "tool-examples
//! conformance-client" --scenario NAME`). The suite starts a server for the scenario, runs
//! this with the server's URL, and names the scenario in `MCP_CONFORMANCE_SCENARIO` (with
//! `MCP_CONFORMANCE_PROTOCOL_VERSION` in the pre-release suite).
//!
//! What it does is what any program importing a server does: connect (the handshake, or
//! protocol 2026-07-28's discovery), list the tools, and call the one the scenario serves,
//! answering the server's elicitations with the defaults its form declares. Nothing is
//! special-cased by scenario beyond which tool to call with which arguments.

use super::CliError;
use serde_json::{json, Map, Value};
use std::process::ExitCode;
use tool_runtime::client::{Elicitation, ElicitationRequest};
use tool_runtime::mcp::{McpImport, McpProtocol};
use tool_runtime::Registry;

/// Tools whose scenario wants particular arguments; any other tool the server lists is
/// called with a plain value for each required argument ([`plain_arguments`]: the auth
/// scenarios' `test-tool`, the input-required ones' `test_mrtr_*`, `valid_tool`), and left
/// alone when one isn't a plain string, number or boolean.
const ARGUMENTS: &[(&str, &str)] = &[("add_numbers", r#"{"a": 5, "b": 3}"#)];

/// The tool that echoes a schema back, and the tool whose schema it must get, as received
/// (`json-schema-2020-12-preservation`).
const ECHO: (&str, &str) = ("json_schema_echo", "json_schema_2020_12_tool");

/// Connects to `url` as the scenario in the environment asks, and exits 0 when every step
/// worked, 1 (saying why on stderr) when one failed.
pub(super) async fn run(url: &str) -> Result<ExitCode, CliError> {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let version = std::env::var("MCP_CONFORMANCE_PROTOCOL_VERSION").unwrap_or_default();
    let protocol = if version == "2026-07-28" {
        McpProtocol::V2026_07_28
    } else {
        McpProtocol::Handshake
    };
    eprintln!("conformance-client: scenario {scenario:?}, protocol {version:?}, {url}");
    let import = McpImport::http(url)
        .named("server")
        .protocol(protocol)
        .on_elicitation(|request| async move { Ok(with_defaults(&request)) });
    #[cfg(feature = "mcp-oauth")]
    let import = import.oauth(sign_in());
    let tools = match import.connect().await {
        Ok(tools) => tools,
        Err(error) => {
            eprintln!("conformance-client: {}", super::said(&error));
            return Ok(ExitCode::FAILURE);
        }
    };
    let prefix = format!("{}__", tools.prefix());
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .map_err(|e| CliError::Setup(e.to_string()))?;
    let listed: Vec<String> = registry.specs().map(|s| s.name().to_owned()).collect();
    eprintln!("conformance-client: tools {listed:?}");
    let mut failed = false;
    for (tool, args) in calls(&registry, &prefix) {
        let output = registry.call(&format!("{prefix}{tool}"), &args).await;
        eprintln!("conformance-client: {tool}: {}", output.to_model_text());
        failed |= output.is_error();
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The calls to make, by the server's own tool names: the scenario's context's `toolCalls`
/// when it gives them (exactly those), else each tool as [`ARGUMENTS`] and [`ECHO`] say.
fn calls(registry: &Registry, prefix: &str) -> Vec<(String, String)> {
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    if let Some(calls) = context["toolCalls"].as_array() {
        return calls
            .iter()
            .filter_map(|call| {
                let name = call["name"].as_str()?;
                // A null argument is one left out: what a header carries for it (none).
                let mut arguments = call["arguments"].as_object()?.clone();
                arguments.retain(|_, value| !value.is_null());
                Some((name.to_owned(), Value::Object(arguments).to_string()))
            })
            .collect();
    }
    let schema = |tool: &str| {
        registry
            .get(&format!("{prefix}{tool}"))
            .map(|spec| spec.input_schema().clone())
    };
    registry
        .specs()
        .filter_map(|spec| spec.name().strip_prefix(prefix))
        .filter_map(|tool| {
            if let Some((_, args)) = ARGUMENTS.iter().find(|(name, _)| *name == tool) {
                return Some((tool.to_owned(), (*args).to_owned()));
            }
            match tool {
                _ if tool == ECHO.0 => {
                    let echoed = json!({"schema": schema(ECHO.1)?});
                    Some((tool.to_owned(), echoed.to_string()))
                }
                // The echo's subject: its schema is the point, not a call.
                _ if tool == ECHO.1 => None,
                _ => Some((
                    tool.to_owned(),
                    plain_arguments(&schema(tool)?)?.to_string(),
                )),
            }
        })
        .collect()
}

/// A value for each argument `schema` requires, when each is a plain string, integer,
/// number or boolean; `None` when one isn't (a shape only its scenario knows how to fill).
fn plain_arguments(schema: &Value) -> Option<Value> {
    let mut arguments = Map::new();
    for name in schema["required"].as_array().into_iter().flatten() {
        let name = name.as_str()?;
        let value = match schema["properties"][name]["type"].as_str()? {
            "string" => json!("example"),
            "integer" | "number" => json!(1),
            "boolean" => json!(true),
            _ => return None,
        };
        arguments.insert(name.to_owned(), value);
    }
    Some(Value::Object(arguments))
}

/// How the authorization scenarios sign in: as a client whose metadata document is at the
/// URL the suite expects, with the context's pre-registered client when it gives one, and a
/// stand-in for the browser ([`follow`]).
#[cfg(feature = "mcp-oauth")]
fn sign_in() -> tool_runtime::mcp::McpOAuth {
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let mut oauth = tool_runtime::mcp::McpOAuth::new()
        .client_name("tool-examples conformance client")
        .client_metadata_url("https://conformance-test.local/client-metadata.json")
        .authorize_with("http://localhost:3000/callback", follow)
        .wait(std::time::Duration::from_secs(20));
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    #[cfg(feature = "mcp-oauth-jwt")]
    if let (Some(id), Some(pem)) = (
        context["client_id"].as_str(),
        context["private_key_pem"].as_str(),
    ) {
        let algorithm = context["signing_algorithm"].as_str().unwrap_or("ES256");
        if let Ok(algorithm) = algorithm.parse() {
            return tool_runtime::mcp::McpOAuth::private_key_jwt(id, pem, algorithm);
        }
    }
    // An enterprise user's ID token, and their identity provider (SEP-990).
    if let (Some(token), Some(issuer), Some(endpoint), Some(idp_client)) = (
        context["idp_id_token"].as_str(),
        context["idp_issuer"].as_str(),
        context["idp_token_endpoint"].as_str(),
        context["idp_client_id"].as_str(),
    ) {
        let idp = tool_runtime::mcp::IdentityProvider::new(issuer, endpoint, idp_client);
        let client = context["client_id"].as_str().unwrap_or_default();
        let secret = context["client_secret"].as_str().map(str::to_owned);
        return tool_runtime::mcp::McpOAuth::enterprise_managed(idp, token).client(client, secret);
    }
    // A workload's JWT (SEP-1933): the valid one; the others are for clients that test
    // their own refusals.
    if let (Some(id), Some(jwt)) = (context["client_id"].as_str(), context["valid_jwt"].as_str()) {
        return tool_runtime::mcp::McpOAuth::workload_identity(id, jwt);
    }
    if let Some(id) = context["client_id"].as_str() {
        let secret = context["client_secret"].as_str().map(str::to_owned);
        oauth = match secret {
            // The context's client is a machine's in the client credentials scenarios.
            Some(secret) if scenario.contains("client-credentials") => {
                tool_runtime::mcp::McpOAuth::client_credentials(id, secret)
            }
            secret => oauth.client(id, secret),
        };
    }
    oauth
}

/// The browser, as the suite's authorization servers need one: they approve at once and
/// redirect; the redirect's `Location` is the callback URL.
#[cfg(feature = "mcp-oauth")]
async fn follow(
    prompt: tool_runtime::mcp::AuthorizationPrompt,
) -> Result<String, tool_runtime::mcp::BoxError> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(std::time::Duration::from_secs(10))
        .build()?;
    let answer = client.get(&prompt.url).send().await?;
    let location = answer
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|value| value.to_str().ok())
        .ok_or_else(|| {
            format!(
                "the authorization server answered {} without a redirect",
                answer.status()
            )
        })?;
    Ok(location.to_owned())
}

/// An elicitation answered as a user who accepts every default would: each property of the
/// form that declares a `default` gets it.
fn with_defaults(request: &ElicitationRequest) -> Elicitation<Value> {
    let defaults: Map<String, Value> = request.requested_schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, property)| Some((name.clone(), property.get("default")?.clone())))
        .collect();
    Elicitation::Accept(json!(defaults))
}
