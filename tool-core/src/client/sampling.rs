//! A sampling request (`sampling/createMessage`) and its result, in MCP's shape (2025-11-25):
//! they serialize to the request's `params` and deserialize from its `result`.

use super::question::Question;
use super::ClientCapabilities;
use crate::spec::ToolSpec;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// How many tokens a request lets the model write unless told otherwise.
const DEFAULT_MAX_TOKENS: u32 = 1024;

/// What a tool asks the client's model: the conversation so far and how to answer it.
///
/// ```
/// use tool_runtime::client::{ModelPreferences, SamplingRequest};
///
/// let request = SamplingRequest::user("Name a colour.")
///     .system_prompt("Answer in one word.")
///     .max_tokens(10)
///     .temperature(0.0)
///     .stop_sequence("\n")
///     .model_preferences(ModelPreferences::new().hint("claude").speed(0.8));
/// let wire = serde_json::to_value(&request).unwrap();
/// assert_eq!(wire["messages"][0]["content"]["text"], "Name a colour.");
/// assert_eq!(wire["maxTokens"], 10);
/// assert_eq!(wire["modelPreferences"]["hints"][0]["name"], "claude");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingRequest {
    /// The conversation, oldest first.
    pub messages: Vec<SamplingMessage>,
    /// Which model the client should pick; the client decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<ModelPreferences>,
    /// The system prompt; the client may change or drop it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// The most tokens the model may write.
    pub max_tokens: u32,
    /// How random the answer is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Texts that end the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop_sequences: Vec<String>,
    /// Tools the model may call (the client must declare `sampling.tools`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<SamplingTool>,
    /// Whether the model must, may or must not call a tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice>,
    /// Which MCP servers' context the client should add to the prompt (`includeContext`);
    /// unset means none. Soft-deprecated by MCP 2025-11-25 beside `none`: see
    /// [`IncludeContext`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<IncludeContext>,
    /// Provider-specific values passed through to the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
}

impl SamplingRequest {
    /// A request for an answer to `messages`, of at most 1024 tokens.
    pub fn new(messages: impl IntoIterator<Item = SamplingMessage>) -> SamplingRequest {
        SamplingRequest {
            messages: messages.into_iter().collect(),
            model_preferences: None,
            system_prompt: None,
            max_tokens: DEFAULT_MAX_TOKENS,
            temperature: None,
            stop_sequences: Vec::new(),
            tools: Vec::new(),
            tool_choice: None,
            include_context: None,
            metadata: None,
        }
    }

    /// A request for an answer to one user message of text, of at most 1024 tokens.
    pub fn user(text: impl Into<String>) -> SamplingRequest {
        SamplingRequest::new([SamplingMessage::user(text)])
    }

    /// Adds a message at the end of the conversation.
    #[must_use]
    pub fn message(mut self, message: SamplingMessage) -> SamplingRequest {
        self.messages.push(message);
        self
    }

    /// Sets the system prompt.
    #[must_use]
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> SamplingRequest {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// Sets the most tokens the model may write.
    #[must_use]
    pub fn max_tokens(mut self, tokens: u32) -> SamplingRequest {
        self.max_tokens = tokens;
        self
    }

    /// Sets how random the answer is.
    #[must_use]
    pub fn temperature(mut self, temperature: f64) -> SamplingRequest {
        self.temperature = Some(temperature);
        self
    }

    /// Adds a text that ends the answer.
    #[must_use]
    pub fn stop_sequence(mut self, stop: impl Into<String>) -> SamplingRequest {
        self.stop_sequences.push(stop.into());
        self
    }

    /// Says which model the client should pick.
    #[must_use]
    pub fn model_preferences(mut self, preferences: ModelPreferences) -> SamplingRequest {
        self.model_preferences = Some(preferences);
        self
    }

    /// Offers the model a tool (a [`ToolSpec`] of a registry, or a [`SamplingTool`]).
    #[must_use]
    pub fn tool(mut self, tool: impl Into<SamplingTool>) -> SamplingRequest {
        self.tools.push(tool.into());
        self
    }

    /// Says whether the model must, may or must not call a tool.
    #[must_use]
    pub fn tool_choice(mut self, choice: ToolChoice) -> SamplingRequest {
        self.tool_choice = Some(choice);
        self
    }

    /// Asks the client to add context from MCP servers to the prompt (`includeContext`).
    /// `thisServer` and `allServers` need the client's `sampling.context`: without it the
    /// request is not sent ([`AskError::Unsupported`](super::AskError::Unsupported)).
    ///
    /// ```
    /// use tool_runtime::client::{IncludeContext, SamplingRequest};
    ///
    /// let request = SamplingRequest::user("What did we do so far?")
    ///     .include_context(IncludeContext::ThisServer);
    /// assert_eq!(serde_json::to_value(&request).unwrap()["includeContext"], "thisServer");
    /// ```
    #[must_use]
    pub fn include_context(mut self, context: IncludeContext) -> SamplingRequest {
        self.include_context = Some(context);
        self
    }

    /// Sets provider-specific values passed through to the client.
    #[must_use]
    pub fn metadata(mut self, metadata: Value) -> SamplingRequest {
        self.metadata = Some(metadata);
        self
    }
}

impl Question for SamplingRequest {
    const METHOD: &'static str = "sampling/createMessage";
    const CAPABILITY: &'static str = "sampling";
    type Answer = SamplingResult;

    fn missing(&self, declared: ClientCapabilities) -> Option<&'static str> {
        let tools = !self.tools.is_empty() || self.tool_choice.is_some();
        // `none` (or no value) asks for nothing the client must support.
        let context = matches!(
            self.include_context,
            Some(IncludeContext::ThisServer | IncludeContext::AllServers)
        );
        if !declared.sampling {
            Some("sampling")
        } else if tools && !declared.sampling_tools {
            Some("sampling.tools")
        } else if context && !declared.sampling_context {
            Some("sampling.context")
        } else {
            None
        }
    }

    fn params(&self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(self)
    }

    fn answer(self, result: Value) -> Result<SamplingResult, serde_json::Error> {
        serde_json::from_value(result)
    }
}

impl From<&str> for SamplingRequest {
    fn from(text: &str) -> SamplingRequest {
        SamplingRequest::user(text)
    }
}

impl From<String> for SamplingRequest {
    fn from(text: String) -> SamplingRequest {
        SamplingRequest::user(text)
    }
}

/// Who wrote a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user (or the tool, speaking for it).
    User,
    /// The model.
    Assistant,
}

/// One message of a sampling conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who wrote it.
    pub role: Role,
    /// What it holds: MCP sends one block as an object and several as an array; both read.
    #[serde(
        serialize_with = "one_or_many::serialize",
        deserialize_with = "one_or_many::deserialize"
    )]
    pub content: Vec<SamplingContent>,
}

impl SamplingMessage {
    /// A user message of text.
    pub fn user(text: impl Into<String>) -> SamplingMessage {
        SamplingMessage::with(Role::User, [SamplingContent::text(text)])
    }

    /// A model message of text.
    pub fn assistant(text: impl Into<String>) -> SamplingMessage {
        SamplingMessage::with(Role::Assistant, [SamplingContent::text(text)])
    }

    /// A message of any blocks: text, images, audio, tool uses (the model's) and tool
    /// results (the user's).
    pub fn with(role: Role, content: impl IntoIterator<Item = SamplingContent>) -> SamplingMessage {
        SamplingMessage {
            role,
            content: content.into_iter().collect(),
        }
    }
}

/// A block of a sampling message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum SamplingContent {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An image.
    #[serde(rename_all = "camelCase")]
    Image {
        /// The image, base64.
        data: String,
        /// Its type (`image/png`).
        mime_type: String,
    },
    /// Audio.
    #[serde(rename_all = "camelCase")]
    Audio {
        /// The audio, base64.
        data: String,
        /// Its type (`audio/wav`).
        mime_type: String,
    },
    /// A tool call the model made (assistant messages only).
    ToolUse {
        /// The call's id, which its result names.
        id: String,
        /// The tool.
        name: String,
        /// The arguments.
        input: Value,
    },
    /// The result of a tool call (user messages only, and alone in their message).
    #[serde(rename_all = "camelCase")]
    ToolResult {
        /// The id of the [`ToolUse`](SamplingContent::ToolUse) it answers.
        tool_use_id: String,
        /// The result's blocks (MCP content blocks: text, image, audio, resources).
        #[serde(default)]
        content: Vec<Value>,
        /// The result as JSON, when it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        structured_content: Option<Value>,
        /// Whether the call failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        is_error: Option<bool>,
    },
}

impl SamplingContent {
    /// A block of text.
    pub fn text(text: impl Into<String>) -> SamplingContent {
        SamplingContent::Text { text: text.into() }
    }

    /// An image: its bytes, base64, and its type (`image/png`).
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> SamplingContent {
        SamplingContent::Image {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// Audio: its bytes, base64, and its type (`audio/wav`).
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> SamplingContent {
        SamplingContent::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// A tool call the model made.
    pub fn tool_use(
        id: impl Into<String>,
        name: impl Into<String>,
        input: Value,
    ) -> SamplingContent {
        SamplingContent::ToolUse {
            id: id.into(),
            name: name.into(),
            input,
        }
    }

    /// The text result of the tool call `tool_use_id`.
    pub fn tool_result(tool_use_id: impl Into<String>, text: impl Into<String>) -> SamplingContent {
        SamplingContent::ToolResult {
            tool_use_id: tool_use_id.into(),
            content: vec![serde_json::json!({"type": "text", "text": text.into()})],
            structured_content: None,
            is_error: None,
        }
    }
}

/// Which model the client should pick (it decides): names to prefer, and how much cost,
/// speed and intelligence matter, each from 0 to 1.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelPreferences {
    /// Model names or families, most preferred first (`claude-3-5-sonnet`, `claude`).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hints")]
    pub hints: Vec<String>,
    /// How much a cheap model matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_priority: Option<f64>,
    /// How much a fast model matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_priority: Option<f64>,
    /// How much a capable model matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intelligence_priority: Option<f64>,
}

impl ModelPreferences {
    /// No preference.
    pub fn new() -> ModelPreferences {
        ModelPreferences::default()
    }

    /// Adds a model name or family to prefer, after those already given.
    #[must_use]
    pub fn hint(mut self, name: impl Into<String>) -> ModelPreferences {
        self.hints.push(name.into());
        self
    }

    /// How much a cheap model matters, 0 to 1.
    #[must_use]
    pub fn cost(mut self, priority: f64) -> ModelPreferences {
        self.cost_priority = Some(priority);
        self
    }

    /// How much a fast model matters, 0 to 1.
    #[must_use]
    pub fn speed(mut self, priority: f64) -> ModelPreferences {
        self.speed_priority = Some(priority);
        self
    }

    /// How much a capable model matters, 0 to 1.
    #[must_use]
    pub fn intelligence(mut self, priority: f64) -> ModelPreferences {
        self.intelligence_priority = Some(priority);
        self
    }
}

/// A tool offered to the client's model in a sampling request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingTool {
    /// Its name.
    pub name: String,
    /// What it does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its arguments' JSON schema (an object).
    pub input_schema: Value,
}

impl SamplingTool {
    /// A tool of this name, description and input schema.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
    ) -> SamplingTool {
        SamplingTool {
            name: name.into(),
            description: Some(description.into()),
            input_schema,
        }
    }
}

impl From<&ToolSpec> for SamplingTool {
    fn from(spec: &ToolSpec) -> SamplingTool {
        SamplingTool::new(spec.name(), spec.description(), spec.input_schema().clone())
    }
}

/// Whether the model must, may or must not call a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum ToolChoice {
    /// The model decides.
    Auto,
    /// The model must call at least one tool.
    Required,
    /// The model must not call a tool.
    None,
}

/// Which MCP servers' context the client should add to a sampling prompt (`includeContext`).
///
/// MCP 2025-11-25 soft-deprecates `thisServer` and `allServers`: a server should only ask for
/// them of a client that declared `sampling.context`, and they may leave a later version of
/// the spec. The client may ignore them either way; `none` is what an unset value means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum IncludeContext {
    /// No context beside the request's own messages.
    None,
    /// Context from this server's session (soft-deprecated).
    ThisServer,
    /// Context from every server the client is connected to (soft-deprecated).
    AllServers,
}

/// The client's answer to a sampling request: the model's message, which model wrote it, and
/// why it stopped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingResult {
    /// Who wrote it: the model, [`Role::Assistant`].
    pub role: Role,
    /// What it wrote.
    #[serde(
        serialize_with = "one_or_many::serialize",
        deserialize_with = "one_or_many::deserialize"
    )]
    pub content: Vec<SamplingContent>,
    /// The model's name, as the client gives it.
    pub model: String,
    /// Why the model stopped, when the client says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
}

impl SamplingResult {
    /// Every text block, joined: the answer, for a plain text request.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|block| match block {
                SamplingContent::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The tool calls the model made: `(id, name, input)`.
    pub fn tool_uses(&self) -> impl Iterator<Item = (&str, &str, &Value)> {
        self.content.iter().filter_map(|block| match block {
            SamplingContent::ToolUse { id, name, input } => {
                Some((id.as_str(), name.as_str(), input))
            }
            _ => None,
        })
    }
}

/// Why the model stopped writing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// It finished its turn (`endTurn`).
    EndTurn,
    /// It wrote a stop sequence (`stopSequence`).
    StopSequence,
    /// It reached the token limit (`maxTokens`).
    MaxTokens,
    /// It called a tool (`toolUse`).
    ToolUse,
    /// Another reason, as the client wrote it.
    Other(String),
}

impl StopReason {
    /// The reason as MCP writes it.
    pub fn as_str(&self) -> &str {
        match self {
            StopReason::EndTurn => "endTurn",
            StopReason::StopSequence => "stopSequence",
            StopReason::MaxTokens => "maxTokens",
            StopReason::ToolUse => "toolUse",
            StopReason::Other(other) => other,
        }
    }
}

impl Serialize for StopReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for StopReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<StopReason, D::Error> {
        Ok(match String::deserialize(deserializer)?.as_str() {
            "endTurn" => StopReason::EndTurn,
            "stopSequence" => StopReason::StopSequence,
            "maxTokens" => StopReason::MaxTokens,
            "toolUse" => StopReason::ToolUse,
            other => StopReason::Other(other.to_owned()),
        })
    }
}

/// A message's `content`: one block as an object (what clients before 2025-11-25 read), or
/// several as an array.
mod one_or_many {
    use super::SamplingContent;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(
        content: &[SamplingContent],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match content {
            [one] => one.serialize(serializer),
            many => many.serialize(serializer),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        Many(Vec<SamplingContent>),
        One(SamplingContent),
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<SamplingContent>, D::Error> {
        Ok(match OneOrMany::deserialize(deserializer)? {
            OneOrMany::Many(many) => many,
            OneOrMany::One(one) => vec![one],
        })
    }
}

/// `hints`: `[{"name": "claude"}]` on the wire, names here.
mod hints {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Hint {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    }

    pub(super) fn serialize<S: Serializer>(
        names: &[String],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(names.iter().map(|name| Hint {
            name: Some(name.clone()),
        }))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<String>, D::Error> {
        let hints = Vec::<Hint>::deserialize(deserializer)?;
        Ok(hints.into_iter().filter_map(|hint| hint.name).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_is_written_as_mcp_params() {
        let request = SamplingRequest::user("hi")
            .message(SamplingMessage::with(
                Role::Assistant,
                [
                    SamplingContent::text("calling"),
                    SamplingContent::tool_use("c1", "add", json!({"a": 1})),
                ],
            ))
            .message(SamplingMessage::with(
                Role::User,
                [SamplingContent::tool_result("c1", "2")],
            ))
            .tool(SamplingTool::new("add", "Add.", json!({"type": "object"})))
            .tool_choice(ToolChoice::Auto)
            .max_tokens(100);
        let wire = serde_json::to_value(&request).unwrap();
        assert_eq!(
            wire,
            json!({
                "messages": [
                    {"role": "user", "content": {"type": "text", "text": "hi"}},
                    {"role": "assistant", "content": [
                        {"type": "text", "text": "calling"},
                        {"type": "tool_use", "id": "c1", "name": "add", "input": {"a": 1}}
                    ]},
                    {"role": "user", "content": {"type": "tool_result", "toolUseId": "c1",
                        "content": [{"type": "text", "text": "2"}]}}
                ],
                "maxTokens": 100,
                "tools": [{"name": "add", "description": "Add.", "inputSchema": {"type": "object"}}],
                "toolChoice": {"mode": "auto"}
            })
        );
        let back: SamplingRequest = serde_json::from_value(wire).unwrap();
        assert_eq!(back, request);
    }

    #[test]
    fn include_context_is_written_in_the_spec_s_words() {
        for (context, word) in [
            (IncludeContext::None, "none"),
            (IncludeContext::ThisServer, "thisServer"),
            (IncludeContext::AllServers, "allServers"),
        ] {
            let request = SamplingRequest::user("hi").include_context(context);
            let wire = serde_json::to_value(&request).unwrap();
            assert_eq!(wire["includeContext"], word);
            let back: SamplingRequest = serde_json::from_value(wire).unwrap();
            assert_eq!(back.include_context, Some(context));
        }
        // Unset, it is left out: the spec's default, `none`.
        let wire = serde_json::to_value(SamplingRequest::user("hi")).unwrap();
        assert!(wire.get("includeContext").is_none(), "{wire}");
        assert!(serde_json::from_value::<SamplingRequest>(
            json!({"messages": [], "maxTokens": 1, "includeContext": "everything"})
        )
        .is_err());
    }

    #[test]
    fn a_result_reads_with_one_block_or_many() {
        let one: SamplingResult = serde_json::from_value(json!({
            "role": "assistant", "content": {"type": "text", "text": "hi"},
            "model": "m", "stopReason": "endTurn"
        }))
        .unwrap();
        assert_eq!(one.text(), "hi");
        assert_eq!(one.stop_reason, Some(StopReason::EndTurn));
        let many: SamplingResult = serde_json::from_value(json!({
            "role": "assistant", "model": "m", "stopReason": "refusal",
            "content": [{"type": "text", "text": "a"}, {"type": "tool_use", "id": "1", "name": "t", "input": {}}]
        }))
        .unwrap();
        assert_eq!(many.tool_uses().count(), 1);
        assert_eq!(many.stop_reason, Some(StopReason::Other("refusal".into())));
    }
}
