//! Tools beyond free functions: a [`Tool`] trait for tools that own state, and
//! [`DynamicTool`] for tools found at run time (MCP servers, plug-ins). Both go through the
//! same pipeline as `#[tool]` fns: repair, defaults, validation, dispatch.

use crate::context::{CallContext, Inject, ToolContext};
use crate::def::{Args, BoxFuture, Pending, ToolFlags};
use crate::error::ToolError;
use crate::error_format::ErrorFormat;
use crate::output::{result_output, OutputSchema, ToolOutput};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;

/// A tool that owns its state: a struct with a name, a description, typed arguments and an
/// async `call`. Register it by value with
/// [`RegistryBuilder::tool`](crate::RegistryBuilder::tool).
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use tool_runtime::{Registry, Tool, ToolContext, ToolError};
///
/// /// A counter the model can bump.
/// struct Counter(AtomicU64);
///
/// #[derive(Deserialize, JsonSchema)]
/// struct Bump {
///     /// How much to add.
///     by: u64,
/// }
///
/// impl Tool for Counter {
///     type Args = Bump;
///     type Output = u64;
///
///     fn name(&self) -> &str {
///         "bump_counter"
///     }
///     fn description(&self) -> &str {
///         "Add to the counter and return its new value."
///     }
///     async fn call(&self, args: Bump, _cx: ToolContext) -> Result<u64, ToolError> {
///         Ok(self.0.fetch_add(args.by, Ordering::SeqCst) + args.by)
///     }
/// }
///
/// let registry = Registry::builder().without_inventory().tool(Counter(AtomicU64::new(40))).build().unwrap();
/// assert_eq!(registry.call_blocking("bump_counter", r#"{"by": 2}"#).to_model_text(), "42");
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The arguments, deserialized from the model's JSON; their schema is the input schema.
    type Args: DeserializeOwned + JsonSchema + Send + 'static;
    /// What a call returns: a `String` is text, a `ToolOutput` is kept, anything else JSON.
    type Output: Serialize + 'static;

    /// The name the model calls the tool by.
    fn name(&self) -> &str;

    /// What the tool does, for the model.
    fn description(&self) -> &str;

    /// Hints about what the tool does (read-only, destructive, ...).
    fn flags(&self) -> ToolFlags {
        ToolFlags::default()
    }

    /// How the tool's errors read to the model (default [`ErrorFormat::Text`]); an error's
    /// own [`format`](ToolError::format) wins over it.
    fn error_format(&self) -> ErrorFormat {
        ErrorFormat::Text
    }

    /// The schema of what the tool returns, as `#[tool(output_schema)]` declares a fn's
    /// (default: none). A tool that declares one has it exported (MCP's `outputSchema`,
    /// Gemini's `response`), and every successful output checked against it by the
    /// pipeline's last stage: one that doesn't conform, or is over the output cap, is an
    /// `output_error` saying why, never a cut structured result.
    ///
    /// ```
    /// use schemars::JsonSchema;
    /// use serde::{Deserialize, Serialize};
    /// use tool_runtime::output::OutputSchema;
    /// use tool_runtime::{Provider, Registry, Tool, ToolContext, ToolError};
    ///
    /// /// A stock level.
    /// #[derive(Serialize, JsonSchema)]
    /// struct Stock {
    ///     sku: String,
    ///     count: u32,
    /// }
    ///
    /// #[derive(Deserialize, JsonSchema)]
    /// struct Query {
    ///     sku: String,
    /// }
    ///
    /// /// The warehouse's stock, behind its own connection.
    /// struct Inventory;
    ///
    /// impl Tool for Inventory {
    ///     type Args = Query;
    ///     type Output = Stock;
    ///
    ///     fn name(&self) -> &str {
    ///         "stock_level"
    ///     }
    ///     fn description(&self) -> &str {
    ///         "How many of an item are in stock."
    ///     }
    ///     fn output_schema(&self) -> Option<OutputSchema> {
    ///         Some(OutputSchema::of::<Stock>())
    ///     }
    ///     async fn call(&self, query: Query, _cx: ToolContext) -> Result<Stock, ToolError> {
    ///         Ok(Stock { sku: query.sku, count: 12 })
    ///     }
    /// }
    ///
    /// let registry = Registry::builder().without_inventory().tool(Inventory).build().unwrap();
    /// let listed = registry.export(Provider::Mcp).to_value();
    /// assert_eq!(listed[0]["outputSchema"]["required"], serde_json::json!(["sku", "count"]));
    /// ```
    fn output_schema(&self) -> Option<OutputSchema> {
        None
    }

    /// Runs one call.
    fn call(
        &self,
        args: Self::Args,
        cx: ToolContext,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;
}

/// A tool known only at run time: a name, a description, a JSON Schema, and a closure over
/// the arguments as a `serde_json::Value`. Register it with
/// [`RegistryBuilder::dynamic`](crate::RegistryBuilder::dynamic); its schema is compiled and
/// checked like any other, read as JSON Schema 2020-12 with older drafts' forms rewritten
/// ([`BuildNote::SchemaRewritten`](crate::registry::BuildNote::SchemaRewritten)). A schema that
/// still can't be used leaves the tool out with a
/// [`BuildNote::ToolLeftOut`](crate::registry::BuildNote::ToolLeftOut), or fails a
/// [`strict_build`](crate::RegistryBuilder::strict_build).
///
/// ```
/// use serde_json::json;
/// use tool_runtime::{DynamicTool, Registry, ToolOutput};
///
/// let shout = DynamicTool::new(
///     "shout",
///     "Repeat a word in capitals.",
///     json!({"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}),
///     |args, _cx| async move { ToolOutput::text(args["word"].as_str().unwrap_or_default().to_uppercase()) },
/// );
/// let registry = Registry::builder().without_inventory().dynamic(shout).build().unwrap();
/// assert_eq!(registry.call_blocking("shout", r#"{"word": "hey"}"#).to_model_text(), "HEY");
/// assert!(registry.call_blocking("shout", r#"{"word": 5}"#).is_error()); // validated
/// ```
#[derive(Clone)]
pub struct DynamicTool {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: String,
    pub(crate) input_schema: Value,
    pub(crate) output_schema: Option<Value>,
    /// Whether the structured result wraps the output as `{"result": ...}` (an imported
    /// tool's schema in that form; see `output::structured`).
    pub(crate) output_wrapped: bool,
    pub(crate) flags: ToolFlags,
    pub(crate) error_format: ErrorFormat,
    run: DynamicFn,
}

type DynamicFn = Arc<dyn Fn(Value, ToolContext) -> BoxFuture<'static, ToolOutput> + Send + Sync>;

impl DynamicTool {
    /// A tool from its name, description, input schema and the closure that runs it.
    ///
    /// `run` is called when the call runs (after approval, at its place at the gate, inside
    /// the panic guard), never while the call is being prepared.
    pub fn new<F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
        run: F,
    ) -> DynamicTool
    where
        F: Fn(Value, ToolContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ToolOutput> + Send + 'static,
    {
        DynamicTool {
            name: name.into(),
            title: None,
            description: description.into(),
            input_schema,
            output_schema: None,
            output_wrapped: false,
            flags: ToolFlags::default(),
            error_format: ErrorFormat::Text,
            run: Arc::new(move |args, cx| Box::pin(run(args, cx))),
        }
    }

    /// Sets the tool's flags.
    #[must_use]
    pub fn with_flags(mut self, flags: ToolFlags) -> DynamicTool {
        self.flags = flags;
        self
    }

    /// Declares the schema of the tool's structured result (an object at the root, as MCP
    /// requires), exported as MCP's `outputSchema`. Every successful output must then be JSON
    /// that conforms to it, within the tool's output cap; one that isn't is replaced by an
    /// `output_error` saying why ([`ToolSpec::output_schema`](crate::ToolSpec::output_schema)).
    /// A schema without an object root leaves the tool out with a note, like a bad input
    /// schema.
    #[must_use]
    pub fn with_output_schema(mut self, schema: Value) -> DynamicTool {
        self.output_schema = Some(schema);
        self.output_wrapped = false;
        self
    }

    /// Sets a display name for UIs, exported as MCP's `title`.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> DynamicTool {
        self.title = Some(title.into());
        self
    }

    /// Sets how the tool's errors read to the model (default [`ErrorFormat::Text`]): for an
    /// imported tool too, `mcp_tools.into_tools()` mapped through this before `.dynamic(..)`.
    #[must_use]
    pub fn with_error_format(mut self, format: ErrorFormat) -> DynamicTool {
        self.error_format = format;
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl std::fmt::Debug for DynamicTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynamicTool")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// A tool registered at run time, behind one object-safe entry point.
pub(crate) trait RuntimeTool: Send + Sync {
    fn invoke<'a>(&'a self, args: Args<'a>, cx: &'a CallContext<'a>) -> Pending<'a>;
}

/// Adapts a [`Tool`] to [`RuntimeTool`].
pub(crate) struct Typed<T>(pub T);

impl<T: Tool> RuntimeTool for Typed<T> {
    fn invoke<'a>(&'a self, args: Args<'a>, cx: &'a CallContext<'a>) -> Pending<'a> {
        let args = match args.parse::<T::Args>(cx) {
            Ok(args) => args,
            Err(output) => return Pending::Refused(output),
        };
        let context = match ToolContext::inject(cx) {
            Ok(context) => context,
            Err(output) => return Pending::Refused(output),
        };
        Pending::Async(Box::pin(async move {
            result_output(self.0.call(args, context).await)
        }))
    }
}

impl RuntimeTool for DynamicTool {
    fn invoke<'a>(&'a self, args: Args<'a>, cx: &'a CallContext<'a>) -> Pending<'a> {
        let args = match args.parse::<Value>(cx) {
            Ok(args) => args,
            Err(output) => return Pending::Refused(output),
        };
        match ToolContext::inject(cx) {
            // The closure is called on the first poll, not here: this is still the call's
            // preparation, before approval, the gate and cancellation, and outside the panic
            // guard, and a closure may do its work before returning its future.
            Ok(context) => Pending::Async(Box::pin(async move { (self.run)(args, context).await })),
            Err(output) => Pending::Refused(output),
        }
    }
}
