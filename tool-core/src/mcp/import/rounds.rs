//! An imported server's input-required results (protocol 2026-07-28): its questions are
//! asked through the [`Asking`] context of the forwarded request, each under the server's own
//! key, and the request is sent again with the answers and the server's `requestState`, for
//! a bounded number of rounds. [`forward`] drives a `prompts/get` or `resources/read` that
//! way (under the handshake too, where the questions come as requests instead);
//! [`answer`] is the step a forwarded `tools/call` shares.

use super::asking::{Asking, Asks};
use crate::client::{AskContext, AskError};
use rmcp::model::{
    ClientRequest, ErrorData, InputRequest, InputRequiredResult, InputResponses, ServerResult,
    DEFAULT_MRTR_MAX_ROUNDS,
};
use rmcp::service::{Peer, PeerRequestOptions, RoleClient, ServiceError};
use std::sync::Arc;
use std::time::Duration;

/// How many requests one forwarded request may take (the first and its retries) before it
/// fails: rmcp's own bound for its clients, so that a server can't keep a caller forever.
pub(crate) const MAX_ROUNDS: usize = DEFAULT_MRTR_MAX_ROUNDS;

/// Why a forwarded request got no result.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RoundError {
    /// The request failed on its way or at the server.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// The server did not answer one round within the timeout.
    #[error("no answer within {:.1}s", .0.as_secs_f64())]
    Timeout(Duration),
    /// A question of the server could not be asked: no client, or a capability it lacks.
    #[error(transparent)]
    Ask(AskError),
    /// A question of the server could not be answered.
    #[error("its question {key} could not be answered: {}", .error.message)]
    Unanswered {
        /// The question's key in `inputRequests`.
        key: String,
        /// Why.
        error: ErrorData,
    },
    /// The server asked for input with neither questions nor a state: a retry would be the
    /// same request.
    #[error("it asked for input without a question or a state")]
    Empty,
    /// The server still wanted input after [`MAX_ROUNDS`] requests.
    #[error("it still asked for input after {MAX_ROUNDS} rounds")]
    Rounds,
}

/// What the next round sends besides the request itself.
#[derive(Clone, Debug, Default)]
pub(crate) struct Retry {
    /// The answers, by the server's keys.
    pub(crate) input_responses: Option<InputResponses>,
    /// The server's state, echoed.
    pub(crate) request_state: Option<String>,
}

/// Sends the request `build` makes for each round, marked in flight for `cx` (the server's
/// requests under the handshake find it), answering input-required results until the server
/// gives another result. A server that fails after a question could not be asked fails with
/// that question's [`AskError`], as a local prompt or resource asking it would.
pub(crate) async fn forward(
    peer: &Peer<RoleClient>,
    asks: &Arc<Asks>,
    cx: AskContext,
    timeout: Duration,
    build: impl Fn(Retry) -> ClientRequest,
) -> Result<ServerResult, RoundError> {
    let asking = Asking::new(cx);
    let mut retry = Retry::default();
    for _ in 0..MAX_ROUNDS {
        let sent = one(peer, asks, &asking, timeout, build(retry)).await;
        match sent {
            Ok(ServerResult::InputRequiredResult(result)) => {
                retry = answer(asks, &asking, result).await?;
            }
            Ok(result) => return Ok(result),
            Err(RoundError::Service(ServiceError::McpError(error))) => {
                return Err(match asking.refusal() {
                    Some(refused) => RoundError::Ask(refused),
                    None => RoundError::Service(ServiceError::McpError(error)),
                })
            }
            Err(error) => return Err(error),
        }
    }
    Err(RoundError::Rounds)
}

/// One request, in flight for `asking` until its answer.
async fn one(
    peer: &Peer<RoleClient>,
    asks: &Arc<Asks>,
    asking: &Arc<Asking>,
    timeout: Duration,
    request: ClientRequest,
) -> Result<ServerResult, RoundError> {
    let handle = peer
        .send_request_with_option(request, PeerRequestOptions::no_options())
        .await?;
    let _asking = asks.in_flight(handle.id.clone(), asking);
    match tokio::time::timeout(timeout, handle.await_response()).await {
        Ok(answer) => Ok(answer?),
        Err(_) => Err(RoundError::Timeout(timeout)),
    }
}

/// Answers an input-required result's questions through `asking`, all at once (the server
/// asked them together): the next round's answers and state.
pub(crate) async fn answer(
    asks: &Asks,
    asking: &Asking,
    result: InputRequiredResult,
) -> Result<Retry, RoundError> {
    let questions = result.input_requests.unwrap_or_default();
    if questions.is_empty() && result.request_state.is_none() {
        return Err(RoundError::Empty);
    }
    let answers = futures_util::future::join_all(
        questions
            .into_iter()
            .map(|(key, question)| answer_one(asks, asking, key, question)),
    )
    .await;
    let mut input_responses = InputResponses::new();
    for answered in answers {
        match answered {
            Ok((key, value)) => {
                input_responses.insert(key, value);
            }
            Err(RoundError::Unanswered { key, error }) => {
                return Err(match asking.refusal() {
                    Some(refused) => RoundError::Ask(refused),
                    None => RoundError::Unanswered { key, error },
                })
            }
            Err(error) => return Err(error),
        }
    }
    Ok(Retry {
        input_responses: (!input_responses.is_empty()).then_some(input_responses),
        request_state: result.request_state,
    })
}

async fn answer_one(
    asks: &Asks,
    asking: &Asking,
    key: String,
    question: InputRequest,
) -> Result<(String, serde_json::Value), RoundError> {
    let answered = match question {
        InputRequest::CreateMessage(request) => asks
            .sample_for(request.params, Some(asking), Some(&key))
            .await
            .and_then(|result| to_json(&result)),
        InputRequest::Elicitation(request) => asks
            .elicit_for(request.params, Some(asking), Some(&key))
            .await
            .and_then(|result| to_json(&result)),
        // The import's client does not declare `roots`: a server asking anyway gets nothing.
        InputRequest::ListRoots(_) => Err(ErrorData::invalid_request(
            "roots are not available: the import's client does not list roots",
            None,
        )),
        // A kind of question this version doesn't know.
        _ => Err(ErrorData::invalid_request(
            "an unknown kind of question",
            None,
        )),
    };
    match answered {
        Ok(value) => Ok((key, value)),
        Err(error) => Err(RoundError::Unanswered { key, error }),
    }
}

fn to_json(value: &impl serde::Serialize) -> Result<serde_json::Value, ErrorData> {
    serde_json::to_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}
