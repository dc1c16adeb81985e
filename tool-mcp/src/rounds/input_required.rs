//! Protocol 2026-07-28's input-required results (SEP-2322): the questions a tool, a prompt or
//! a resource asks its client when the server can't send the client requests.
//!
//! From 2026-07-28 on a server sends nothing to the client during a request. A tool that asks
//! ([`sample`](crate::ToolContext::sample), [`elicit`](crate::ToolContext::elicit),
//! [`roots`](crate::ToolContext::roots)), or a prompt or resource through its
//! [`AskContext`](crate::client::AskContext), and finds no answer in the request makes the
//! request (`tools/call`, `prompts/get`, `resources/read`) end with
//! `resultType: "input_required"`: its questions as `inputRequests`, and a `requestState`
//! holding the answers it had. The client answers and asks again with `inputResponses` and
//! the `requestState`; the tool (prompt, resource) runs again from the start, and each
//! question gets its answer, in the order asked, until one has none.
//!
//! The server keeps nothing between the rounds, so any replica can serve the next one. The
//! state is sealed with an HMAC (rmcp's `RequestStateCodec`) under a per-server key, bound to
//! the method, the tool, prompt or URI and the arguments ([`RoundTrip`]), and expires after
//! an hour: a client can't forge an answer received earlier, nor replay one for another
//! request. An answer sealed in the state is final: an `inputResponses` entry under the key
//! of one is ignored, so a client can't change an earlier round's answer either (it starts
//! the request over, without the state, to answer differently).

use super::round_trip::RoundTrip;
use crate::client::{
    BoxError, Client, ClientCapabilities, ClientFuture, ClientRequests, InputPending,
    UrlElicitationRequest,
};
use crate::lock::lock;
use rmcp::model::{
    ErrorData, InputRequest, InputRequests, InputRequiredResult, ProtocolVersion,
    RequestStateCodec, SealOptions,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a `requestState` may be brought back: a user may take a while with a form.
const STATE_TTL: Duration = Duration::from_secs(60 * 60);

/// Seals and opens the `requestState` of one server (or of every replica given the same key).
#[derive(Clone, Debug)]
pub(crate) struct RequestStates {
    codec: RequestStateCodec,
}

impl RequestStates {
    /// A codec under a random key: states from this process only.
    pub(crate) fn random() -> RequestStates {
        let mut key = [0u8; 32];
        if getrandom::fill(&mut key).is_err() {
            // No OS randomness (rare sandboxes): std's hasher keys come from it when it
            // exists and from the address space and clock otherwise; better than a constant.
            use std::hash::{BuildHasher, Hasher};
            for (i, chunk) in key.chunks_mut(8).enumerate() {
                let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
                hasher.write_usize(i);
                hasher.write_u128(
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_nanos()),
                );
                chunk.copy_from_slice(&hasher.finish().to_le_bytes());
            }
        }
        RequestStates {
            codec: RequestStateCodec::new_unchecked(key.to_vec()),
        }
    }

    /// A codec under `key` (at least 32 bytes): the same on every replica behind a balancer.
    pub(crate) fn with_key(key: Vec<u8>) -> Result<RequestStates, rmcp::model::RequestStateError> {
        RequestStateCodec::try_new(key).map(|codec| RequestStates { codec })
    }
}

/// Whether the request speaks 2026-07-28 or later, which has input-required results instead
/// of server-to-client requests.
pub(crate) fn sessionless(cx: &RequestContext<RoleServer>) -> bool {
    // ISO dates compare as text, as rmcp compares them.
    cx.protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// One run of a request under 2026-07-28 (a tool call, a prompt, a read): the answers it
/// came with, the questions it asked.
pub(crate) struct InputRound {
    capabilities: ClientCapabilities,
    /// The answers of earlier rounds (from `requestState`) and of this one (`inputResponses`).
    answers: BTreeMap<String, Value>,
    retry: bool,
    /// What the state of the next round is bound to: [`RoundTrip::bound_to`].
    bound_to: String,
    asked: Mutex<Asked>,
}

#[derive(Default)]
struct Asked {
    /// Unnamed questions so far, per method: their keys are `sampling-1`, ...
    counts: BTreeMap<&'static str, usize>,
    /// The answers the run used, for the next round's state.
    used: BTreeMap<String, Value>,
    /// The questions without an answer yet.
    requests: InputRequests,
    /// An answer that is not what its question takes: the call is a protocol error.
    invalid: Option<String>,
    /// A capability a question needed and the client did not declare.
    refused: Option<&'static str>,
}

impl InputRound {
    /// The round of `request`: its answers, checked, and the client's capabilities from the
    /// request's `_meta`.
    ///
    /// # Errors
    ///
    /// `-32602` for a `requestState` that fails its integrity check, has expired, or was made
    /// for another request (another method, tool, prompt, URI, or other arguments).
    pub(crate) fn open(
        states: &RequestStates,
        request: &impl RoundTrip,
        cx: &RequestContext<RoleServer>,
    ) -> Result<Arc<InputRound>, ErrorData> {
        let bound_to = request.bound_to();
        let mut answers = match request.request_state() {
            None => BTreeMap::new(),
            Some(state) => states
                .codec
                .open_json_with::<BTreeMap<String, Value>>(state, bound_to.as_bytes())
                .map_err(|error| {
                    // One error for the client whatever failed, as rmcp asks: the detail
                    // would help a forger.
                    tracing::debug!(%error, "requestState rejected");
                    ErrorData::invalid_params(
                        "requestState is not one this server gave for this request",
                        None,
                    )
                })?,
        };
        let retry = request.input_responses().is_some() || !answers.is_empty();
        if let Some(responses) = request.input_responses() {
            // A sealed answer wins: the state holds what the client answered in an earlier
            // round, and a new `inputResponses` entry under the same key must not replace it
            // (the run that used it may have acted on it already, and the seal is what
            // promises it can't be changed). Only questions still without one take an answer.
            for (key, answer) in responses {
                answers.entry(key.clone()).or_insert_with(|| answer.clone());
            }
        }
        let capabilities = cx
            .meta
            .client_capabilities()
            .map(|declared| crate::content::declared(&declared))
            .unwrap_or_default();
        Ok(Arc::new(InputRound {
            capabilities,
            answers,
            retry,
            bound_to,
            asked: Mutex::new(Asked::default()),
        }))
    }

    /// The [`Client`] a run of the request asks.
    pub(crate) fn client(self: &Arc<InputRound>) -> Client {
        Client::new(RoundClient(Arc::clone(self)))
    }

    /// What the request gives instead of its output, once it has run (`failed`: the output is
    /// an error): an input-required result when a question had no answer, nothing when the
    /// output stands.
    ///
    /// # Errors
    ///
    /// `-32602` when an answer the client gave does not fit its question; `-32021` (HTTP 400)
    /// when the run failed after asking what the client did not declare, as the spec asks of
    /// a request that needs a capability the client lacks.
    pub(crate) fn outcome(
        &self,
        states: &RequestStates,
        failed: bool,
    ) -> Result<Option<InputRequiredResult>, ErrorData> {
        let asked = lock(&self.asked);
        if let Some(invalid) = &asked.invalid {
            return Err(ErrorData::invalid_params(invalid.clone(), None));
        }
        if asked.requests.is_empty() {
            return match asked.refused {
                Some(capability) if failed => Err(missing_capability(capability)),
                _ => Ok(None),
            };
        }
        let options = SealOptions::new()
            .associated_data(self.bound_to.as_bytes())
            .ttl(STATE_TTL);
        let state = states
            .codec
            .seal_json_with(&asked.used, &options)
            .map_err(|error| {
                ErrorData::internal_error(format!("requestState not sealed: {error}"), None)
            })?;
        Ok(Some(InputRequiredResult::new(
            Some(asked.requests.clone()),
            Some(state),
        )))
    }

    fn request(&self, key: Option<&str>, method: &str, params: Value) -> ClientFuture {
        let mut asked = lock(&self.asked);
        let key = match key {
            Some(key) => key.to_owned(),
            None => unnamed_key(&mut asked.counts, method),
        };
        if let Some(answer) = self.answers.get(&key) {
            return match fits(method, answer) {
                Ok(()) => {
                    asked.used.insert(key, answer.clone());
                    let answer = answer.clone();
                    Box::pin(async move { Ok(answer) })
                }
                Err(why) => {
                    asked
                        .invalid
                        .get_or_insert_with(|| format!("inputResponses.{key}: {why}"));
                    pending(key)
                }
            };
        }
        match input_request(method, params) {
            Ok(request) => {
                asked.requests.insert(key.clone(), request);
                pending(key)
            }
            Err(error) => {
                let error: BoxError = format!("{method} could not be asked: {error}").into();
                Box::pin(async move { Err(error) })
            }
        }
    }
}

/// The question `key` waits for the client's next round. It yields once first, so that
/// questions asked together (`tokio::join!`, `try_join!`) are all asked before the first
/// error ends the tool: the client gets them in one round.
fn pending(key: String) -> ClientFuture {
    Box::pin(async move {
        tokio::task::yield_now().await;
        Err(Box::new(InputPending { key }) as BoxError)
    })
}

/// The key of the next unnamed question asking `method`: `sampling-1`, `elicitation-1`,
/// `roots-1`, ... counted in `counts`, per method.
pub(crate) fn unnamed_key(counts: &mut BTreeMap<&'static str, usize>, method: &str) -> String {
    let (prefix, method) = match method {
        "sampling/createMessage" => ("sampling", "sampling/createMessage"),
        "elicitation/create" => ("elicitation", "elicitation/create"),
        _ => ("roots", "roots/list"),
    };
    let count = counts.entry(method).or_default();
    *count += 1;
    format!("{prefix}-{count}")
}

/// A question as the input request the client reads.
pub(crate) fn input_request(
    method: &str,
    mut params: Value,
) -> Result<InputRequest, serde_json::Error> {
    if let Some(params) = params.as_object_mut() {
        // 2026-07-28 removed URL mode's `elicitationId` (rmcp writes it empty).
        params.remove("elicitationId");
    }
    serde_json::from_value(serde_json::json!({"method": method, "params": params}))
}

/// Whether `answer` is a result of `method`'s kind: the spec's shapes, checked before the
/// tool reads them (and again, typed, when it does).
pub(crate) fn fits(method: &str, answer: &Value) -> Result<(), &'static str> {
    let object = answer.as_object().ok_or("not an object")?;
    match method {
        "elicitation/create" => match object.get("action").and_then(Value::as_str) {
            Some("accept" | "decline" | "cancel") => Ok(()),
            _ => Err("an elicitation result needs `action`: accept, decline or cancel"),
        },
        "sampling/createMessage"
            if object.contains_key("content") && object.contains_key("role") =>
        {
            Ok(())
        }
        "sampling/createMessage" => Err("a sampling result needs `role` and `content`"),
        _ if object.get("roots").is_some_and(Value::is_array) => Ok(()),
        _ => Err("a roots result needs a `roots` array"),
    }
}

/// `-32021`, naming `capability` (`sampling`, `sampling.tools`, `sampling.context`,
/// `elicitation`, `elicitation.url`, `roots`) in `data.requiredCapabilities`: a request that
/// needs what the client did not declare.
pub(crate) fn missing_capability(capability: &str) -> ErrorData {
    ErrorData::missing_required_client_capability(required(capability))
}

/// The capabilities that name `capability`, for `-32021`'s `requiredCapabilities`.
fn required(capability: &str) -> rmcp::model::ClientCapabilities {
    let declared = match capability.split_once('.') {
        // `sampling.tools`, `sampling.context`, `elicitation.url`.
        Some((outer, inner)) => serde_json::json!({ outer: { inner: {} } }),
        None if capability == "elicitation" => serde_json::json!({"elicitation": {"form": {}}}),
        None => serde_json::json!({ capability: {} }),
    };
    serde_json::from_value(declared).unwrap_or_default()
}

/// The round as a call's client.
struct RoundClient(Arc<InputRound>);

impl ClientRequests for RoundClient {
    fn capabilities(&self) -> ClientCapabilities {
        self.0.capabilities
    }

    fn request(&self, key: Option<&str>, method: &str, params: Value) -> ClientFuture {
        self.0.request(key, method, params)
    }

    fn is_retry(&self) -> bool {
        self.0.retry
    }

    fn refused(&self, capability: &'static str) {
        lock(&self.0.asked).refused.get_or_insert(capability);
    }

    /// 2026-07-28 has no `-32042`: the interactions are asked as URL-mode input requests of
    /// this round (unnamed, so keyed `elicitation-N`). A retry that answers them and still
    /// ends needing them ends with the error's text: the user was asked once per call.
    fn url_required(&self, elicitations: &[UrlElicitationRequest]) {
        for elicitation in elicitations {
            match serde_json::to_value(elicitation) {
                // The question's future only says "pending" (or gives the answer): the tool
                // has ended already, and the round keeps the question.
                Ok(params) => drop(self.0.request(None, "elicitation/create", params)),
                Err(error) => tracing::error!(%error, "a URL elicitation that can't be written"),
            }
        }
    }
}

#[cfg(test)]
#[path = "input_required_tests.rs"]
mod tests;
