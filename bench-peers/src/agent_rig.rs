//! rig 0.44's agent loop for the agent-loop bench: rig's OpenAI provider on the Chat
//! Completions wire (`OpenAIConfig::with_base_url(..).connect(http).chat(..)`), on rig's own
//! reqwest transport (`rig_reqwest::ReqwestClient`, with a 30 s request timeout like ours),
//! pointed at the scripted server; a `rig_agent::AgentBuilder` agent with the `search` tool
//! (and optionally 99 more); `agent.prompt(..).max_turns(2)`, so rig runs the loop itself:
//! request, call, result appended, final answer.

use crate::{peer_rig, SearchArgs};
use rig_agent::completion::PromptError;
use rig_agent::{Agent, AgentBuilder};
use rig_core::message::ToolName;
use rig_core::providers::openai::OpenAIConfig;
use rig_core::tool::{DynamicTool, PortableTool, ToolOutput};
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How many times [`CountedSearch`] has run.
pub static CALLS: AtomicUsize = AtomicUsize::new(0);

/// `peer_rig::Search` (the same name, description, schema and body), counted.
pub struct CountedSearch;

impl PortableTool for CountedSearch {
    const NAME: &'static str = peer_rig::Search::NAME;
    type Args = SearchArgs;
    type Output = crate::Found;
    type Error = Infallible;

    fn description(&self) -> String {
        peer_rig::Search.description()
    }

    fn parameters(&self) -> serde_json::Value {
        peer_rig::Search.parameters()
    }

    async fn call(&self, args: SearchArgs) -> Result<crate::Found, Infallible> {
        CALLS.fetch_add(1, Ordering::Relaxed);
        peer_rig::Search.call(args).await
    }
}

/// The agent: `search` and `tools - 1` filler tools (`search_1`, ... with the same schema as
/// ours get), the model `scripted` behind `base_url`.
pub fn agent(base_url: &str, tools: usize) -> Agent {
    // The tree's reqwest is built with `rustls-no-provider` (tool-runtime's choice: no
    // aws-lc-rs), and reqwest panics building a client without a process-wide provider: ring
    // is installed, as our transport does. The server is plain HTTP; TLS is never used.
    let _ = rustls::crypto::ring::default_provider().install_default();
    // rig's reqwest transport (what `OpenAIConfig::client()` shares, with rig-core's `reqwest`
    // feature), on a client with a request timeout like ours.
    let http = rig_reqwest::ReqwestClient::from(
        reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("a reqwest client"),
    );
    let model = OpenAIConfig::new("scripted")
        .with_base_url(base_url)
        .connect(http)
        .chat("scripted");
    let schema = crate::agent_ours::filler_schema();
    let fillers: Vec<DynamicTool> = (1..tools)
        .map(|i| {
            DynamicTool::new(
                ToolName::new(format!("search_{i}")).expect("a tool name"),
                format!("Search index number {i}."),
                schema.clone(),
                |_args| Box::pin(async { Ok(ToolOutput::text("never called")) }),
            )
        })
        .collect();
    let builder = AgentBuilder::new(model).tool(CountedSearch);
    let builder = if fillers.is_empty() {
        builder
    } else {
        builder.dynamic_tools(fillers)
    };
    builder.build()
}

/// What one run gives back: the answer and how many model requests it made.
pub struct RigReply {
    /// The final answer's text.
    pub text: String,
    /// The model requests the run made.
    pub requests: usize,
}

/// One run: a fresh conversation (rig's runs keep no history without memory), at most two
/// model requests.
pub async fn run(agent: &Agent, prompt: &str) -> Result<RigReply, PromptError> {
    let response = agent.prompt(prompt).max_turns(2).await?;
    Ok(RigReply {
        text: response.output(),
        requests: response.requests(),
    })
}
