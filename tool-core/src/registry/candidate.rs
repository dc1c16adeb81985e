//! Every way a tool reaches the builder (a `#[tool]` fn, a [`Tool`](crate::Tool) value, a
//! [`DynamicTool`](crate::DynamicTool)), brought to one shape before the checks.

use super::legacy;
use super::schema_depth::{self, MAX_SCHEMA_DEPTH};
use crate::context::ResolverFn;
use crate::def::{SourceLocation, ToolDef, ToolFlags};
use crate::error_format::ErrorFormat;
use crate::output::structured;
use crate::pipeline::Handler;
use crate::schema;
use crate::state::StateRequirement;
use crate::tool::{DynamicTool, Tool, Typed};
use serde_json::Value;
use std::sync::Arc;

/// A tool on its way into the registry.
pub(crate) struct Candidate {
    pub name: String,
    pub title: Option<String>,
    pub description: String,
    pub flags: ToolFlags,
    pub location: Option<SourceLocation>,
    pub handler: Handler,
    pub requires: &'static [Option<StateRequirement>],
    pub resolver: Option<ResolverFn>,
    pub timeout: Option<std::time::Duration>,
    /// The output cap from `#[tool(max_output = ...)]`.
    pub max_output: Option<usize>,
    /// How the tool's errors read to the model.
    pub error_format: ErrorFormat,
    /// The input schema, and whether the runtime closed objects the Rust type leaves open.
    pub schema: Result<(Value, bool), String>,
    /// The declared output schema and whether it wraps the output as `{"result": ...}`
    /// (`output::structured`); `Ok(None)` for a tool that declares none.
    pub output_schema: Result<Option<(Value, bool)>, String>,
    /// Whether arguments are deserialized into a Rust type, which applies the schema's
    /// defaults by itself (a dynamic tool's `Value` doesn't).
    pub typed: bool,
    /// Whether the schema came from outside the program (a [`DynamicTool`]'s): one that
    /// can't be used leaves the tool out with a note, unless the build is strict.
    pub outside: bool,
    /// What was rewritten in an outside schema (its legacy forms: `registry::legacy`).
    pub schema_changes: Vec<String>,
}

impl From<ToolDef> for Candidate {
    fn from(def: ToolDef) -> Candidate {
        Candidate {
            name: def.name.to_owned(),
            title: def.title.map(str::to_owned),
            description: def.description.to_owned(),
            flags: def.flags,
            location: Some(def.location),
            handler: Handler::Static(def.invoke),
            requires: def.requires,
            resolver: def.resolver,
            timeout: def.timeout_ms.map(std::time::Duration::from_millis),
            max_output: def.max_output,
            error_format: def.error_format,
            schema: Ok(schema::input_schema(def.schema)),
            output_schema: Ok(def.output_schema.map(structured::from_type)),
            typed: true,
            outside: false,
            schema_changes: Vec::new(),
        }
    }
}

impl Candidate {
    pub(crate) fn from_tool<T: Tool>(tool: T) -> Candidate {
        Candidate {
            name: tool.name().to_owned(),
            title: None,
            description: tool.description().to_owned(),
            flags: tool.flags(),
            location: None,
            requires: &[],
            resolver: None,
            timeout: None,
            max_output: None,
            error_format: tool.error_format(),
            schema: Ok(schema::input_schema(
                <T::Args as schemars::JsonSchema>::json_schema,
            )),
            output_schema: tool
                .output_schema()
                .map(|schema| schema.resolve())
                .transpose(),
            typed: true,
            outside: false,
            schema_changes: Vec::new(),
            handler: Handler::Runtime(Arc::new(Typed(tool))),
        }
    }

    pub(crate) fn from_dynamic(mut tool: DynamicTool) -> Candidate {
        // Everything below recurses into the schema (even dropping it): one nested past the
        // limit is taken apart on a heap stack and never looked at again.
        let mut schema_changes = Vec::new();
        let schema = if schema_depth::exceeds(&tool.input_schema, MAX_SCHEMA_DEPTH) {
            schema_depth::dismantle(std::mem::take(&mut tool.input_schema));
            Err(format!(
                "the input schema nests deeper than {MAX_SCHEMA_DEPTH} levels"
            ))
        } else {
            // A schema from outside is taken as given, in 2020-12's words: the validator is
            // the judge of it.
            given_schema(&tool.input_schema).map(|mut schema| {
                schema_changes = legacy::translate(&mut schema);
                (schema, false)
            })
        };
        Candidate {
            name: tool.name.clone(),
            title: tool.title.clone(),
            description: tool.description.clone(),
            flags: tool.flags,
            location: None,
            requires: &[],
            resolver: None,
            timeout: None,
            max_output: None,
            error_format: tool.error_format,
            schema,
            output_schema: match &tool.output_schema {
                Some(given) => {
                    structured::from_given(given).map(|s| Some((s, tool.output_wrapped)))
                }
                None => Ok(None),
            },
            typed: false,
            outside: true,
            schema_changes,
            handler: Handler::Runtime(Arc::new(tool)),
        }
    }
}

/// A schema from outside must at least describe an object.
fn given_schema(schema: &Value) -> Result<Value, String> {
    match schema {
        Value::Object(map) => {
            let mut map = map.clone();
            match map.get("type") {
                None => {
                    map.insert("type".into(), Value::from("object"));
                }
                Some(Value::String(t)) if t == "object" => {}
                Some(other) => {
                    return Err(format!(
                        "a tool's input schema must describe an object, not {other}"
                    ))
                }
            }
            Ok(Value::Object(map))
        }
        Value::Bool(true) => Ok(serde_json::json!({"type": "object"})),
        other => Err(format!(
            "a tool's input schema must be a JSON object, not {other}"
        )),
    }
}
