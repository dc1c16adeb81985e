//! Every model API the registry speaks, one folder each: the tool list it takes, the replies
//! it sends (whole and streamed), the results and messages its next request carries, and,
//! with the `agent` feature, the HTTP transport that talks to it.
//!
//! # How to add a provider: one folder, one variant, one table row
//!
//! 1. **One folder**, `providers/<name>/`, whose `mod.rs` fills in the crate's internal
//!    interface, an `Api` (`interface.rs`: a struct of plain fns, so a call through it costs
//!    one indirect call and nothing is boxed), as `pub(crate) const API: Api`: its names, its
//!    strict-mode target and name rule, and a fn for each operation. The fns live beside it,
//!    one file per stage of a call:
//!    - `export.rs`: the tool list (`fn(ToolList, strict) -> Value`), built on the shared
//!      machinery in `export/` (strict-mode lowering, name rules, Gemini's schema subset);
//!    - `route.rs`: a whole reply into a [`Routed`](crate::router::Routed), reading with
//!      `router::shape`'s pointer-keeping readers; and the shapes that tell its replies apart;
//!    - `stream.rs`: an [`Accumulate`](crate::router::stream::Accumulate) for its stream
//!      (re-exported in [`router::stream`](crate::router::stream));
//!    - `results.rs`: each call's result and the model's turn rebuilt, in its shape (user and
//!      assistant messages sit in `mod.rs`);
//!    - `wire.rs` (under `#[cfg(feature = "agent")]`): its transport, a type implementing
//!      `agent::transport::Wire`, which the shared sender (retries, bounded reads, SSE) drives.
//! 2. **One variant** of [`Provider`] (in `provider.rs`), added to [`Provider::ALL`].
//! 3. **One table row**: its arm in `api` below, and its public types in the `pub use`
//!    lists (`agent` re-exports the transport).
//!
//! Nothing else switches on a provider: `route`, `route_auto`, exports, results, the agent's
//! messages and its telemetry names all go through `api`.

#[doc(hidden)]
pub mod anthropic;
#[doc(hidden)]
pub mod gemini;
mod interface;
#[doc(hidden)]
pub mod mcp;
#[doc(hidden)]
pub mod ollama;
#[doc(hidden)]
pub mod openai_chat;
#[doc(hidden)]
pub mod openai_responses;
#[doc(hidden)]
pub mod provider;
#[doc(hidden)]
pub mod tensorzero;

pub(crate) use interface::Api;
pub use provider::{Provider, UnknownProvider};
pub use tensorzero::config::{TensorZeroConfig, TensorZeroFile, TensorZeroWriteError};

/// The table: each provider's [`Api`]. The one `match` on a provider in the crate.
#[doc(hidden)]
pub const fn api(provider: Provider) -> &'static Api {
    match provider {
        Provider::OpenAiChat => &openai_chat::API,
        Provider::OpenAiResponses => &openai_responses::API,
        Provider::Anthropic => &anthropic::API,
        Provider::Gemini => &gemini::API,
        Provider::Mcp => &mcp::API,
        Provider::TensorZero => &tensorzero::API,
        Provider::Ollama => &ollama::API,
    }
}
