//! Gemini `{"functionDeclarations": [{"name", "description", "parameters", "response"}]}`.
//!
//! `parameters` is the schema reduced to Gemini's OpenAPI subset (`gemini_schema.rs`), left
//! out for a tool without parameters ("For function with no parameters, this can be left
//! unset", `FunctionDeclaration` reference). A schema the subset can't express (a map, a
//! recursive type) goes out whole as `parametersJsonSchema`, the declaration's JSON Schema
//! alternative ("mutually exclusive with `parameters`"), rather than as a lossy or rejected
//! `parameters`.
//!
//! A tool that declares its output's schema ([`ToolSpec::output_schema`]) has it in
//! `response` ("Describes the output from this function ... The Schema defines the type used
//! for the response value of the function"), reduced by the same rules. It describes the
//! value the tool returns, which its `functionResponse` carries as `output`: MCP's
//! `{"result": ...}` wrapper is MCP's, and is taken off. An output schema the subset can't
//! express is left out, not sent as `responseJsonSchema`: Google's own ADK keeps that key
//! out of its requests to the Gemini Developer API (a bug of that API, it says), and a hint
//! about the output is not worth a refused request.
//!
//! [`ToolSpec::output_schema`]: crate::ToolSpec::output_schema

use crate::export::gemini_schema;
use crate::export::names::NameRule;
use crate::export::tool_list::ToolList;
use crate::output::structured;
use crate::ToolSpec;
use serde_json::{Map, Value};

/// The `tools[]` element holding every declaration.
pub(crate) fn declarations(tools: ToolList<'_>, _strict: bool) -> Value {
    let declarations = tools
        .specs()
        .enumerate()
        .map(|(i, spec)| {
            let mut declaration = Map::new();
            let name = tools.name(NameRule::Gemini, i);
            declaration.insert("name".into(), name.into());
            declaration.insert("description".into(), spec.description().into());
            match gemini_schema::reduce(spec.input_schema()) {
                Ok(Some(parameters)) => {
                    declaration.insert("parameters".into(), parameters);
                }
                Ok(None) => {}
                Err(_) => {
                    declaration.insert(
                        "parametersJsonSchema".into(),
                        crate::export::for_model(spec.input_schema()),
                    );
                }
            }
            response(spec, &mut declaration);
            Value::Object(declaration)
        })
        .collect();
    let mut out = Map::new();
    out.insert("functionDeclarations".into(), Value::Array(declarations));
    Value::Object(out)
}

/// `response`, for a tool that declares its output's schema and the subset can express it.
fn response(spec: &ToolSpec, declaration: &mut Map<String, Value>) {
    let Some(schema) = spec.output_schema() else {
        return;
    };
    let value = structured::value_schema(schema, spec.output_wrapped);
    if let Ok(response) = gemini_schema::reduce_output(&value) {
        declaration.insert("response".into(), response);
    }
}
