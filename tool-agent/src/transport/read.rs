//! Reading a reply: a whole JSON body, or server-sent events line by line, never more than
//! the transport's byte limit.

use super::settings::Http;
use crate::error::ModelError;
use crate::model::{ModelDelta, OnDelta};
use crate::router::error::RouteError;
use crate::router::stream::accumulate::Accumulate;
use serde_json::Value;
use std::time::{Duration, Instant};

impl Http {
    /// The whole body as JSON.
    pub(crate) async fn read_json(
        &self,
        url: &str,
        mut response: reqwest::Response,
    ) -> Result<Value, ModelError> {
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| self.transport_error(url, e))?
        {
            if body.len() + chunk.len() > self.max_reply_bytes {
                return Err(ModelError::TooLarge {
                    limit: self.max_reply_bytes,
                });
            }
            body.extend_from_slice(&chunk);
        }
        serde_json::from_slice(&body).map_err(|e| ModelError::Route(RouteError::NotJson(e.into())))
    }

    /// Reads a server-sent event stream to its end: each event's JSON goes to `on_event`,
    /// which says whether that event finishes the reply (with [`End::EventOrDone`], a
    /// `data: [DONE]` line does too). A stream that closes before the reply was finished is
    /// [`ModelError::StreamCut`].
    pub(crate) async fn read_events(
        &self,
        url: &str,
        response: reqwest::Response,
        end: End,
        mut on_event: impl FnMut(Value) -> Result<bool, ModelError>,
    ) -> Result<(), ModelError> {
        let mut finished = false;
        let received = self
            .read_lines(url, response, |line| {
                if end == End::EventOrDone && line.trim() == "data: [DONE]" {
                    finished = true;
                }
                let Some(data) = sse_data(line) else {
                    return Ok(());
                };
                finished |= on_event(event(data)?)?;
                Ok(())
            })
            .await?;
        if !finished {
            return Err(ModelError::StreamCut { received });
        }
        Ok(())
    }

    /// Feeds each line of an event stream to `on_line`, in order, and returns how many bytes
    /// arrived. A line may be split across chunks, and a chunk may hold many lines.
    ///
    /// The request timeout counts from the request to the reply's last byte, so it also runs
    /// while `on_line` works. The time spent in `on_line` is kept: when the timeout runs out
    /// and that time is most of it, the error is [`ModelError::HandlingTimeout`], not a
    /// server that did not answer (issue 32: a stream read in quadratic time was reported as
    /// "the model server did not answer within 120s").
    async fn read_lines(
        &self,
        url: &str,
        mut response: reqwest::Response,
        mut on_line: impl FnMut(&str) -> Result<(), ModelError>,
    ) -> Result<usize, ModelError> {
        let mut pending: Vec<u8> = Vec::new();
        let mut received = 0usize;
        let mut handling = Duration::ZERO;
        while let Some(chunk) =
            response
                .chunk()
                .await
                .map_err(|e| match self.transport_error(url, e) {
                    ModelError::Timeout(timeout) if handling * 2 >= timeout => {
                        ModelError::HandlingTimeout { timeout, handling }
                    }
                    error => error,
                })?
        {
            received += chunk.len();
            if received > self.max_reply_bytes {
                return Err(ModelError::TooLarge {
                    limit: self.max_reply_bytes,
                });
            }
            let started = Instant::now();
            let mut rest: &[u8] = &chunk;
            while let Some(end) = memchr::memchr(b'\n', rest) {
                pending.extend_from_slice(&rest[..end]);
                line(&pending, &mut on_line)?;
                pending.clear();
                rest = &rest[end + 1..];
            }
            pending.extend_from_slice(rest);
            handling += started.elapsed();
        }
        if !pending.is_empty() {
            line(&pending, &mut on_line)?;
        }
        Ok(received)
    }
}

/// What finishes an event stream's reply.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// An event that says so.
    Event,
    /// An event that says so, or a `data: [DONE]` line (OpenAI's chat completions, and what
    /// copies them).
    EventOrDone,
}

/// Feeds one event to a stream accumulator and passes on the deltas it completed.
pub(crate) fn accumulate(
    stream: &mut impl Accumulate,
    event: &Value,
    on_delta: &mut OnDelta<'_>,
) -> Result<(), ModelError> {
    for done in stream.push(event)? {
        on_delta(done.into());
    }
    Ok(())
}

/// The delta of a call whose id and name have come.
pub(crate) fn started(id: &str, name: &str) -> ModelDelta {
    ModelDelta::CallStarted {
        id: id.to_owned(),
        name: name.to_owned(),
    }
}

/// The JSON payload of one event-stream line: a `data:` line's data, or a bare JSON line;
/// `None` for `event:` lines, comments, blank lines and `[DONE]`.
fn sse_data(line: &str) -> Option<&str> {
    let line = line.trim();
    let data = match line.strip_prefix("data:") {
        Some(data) => data.trim_start(),
        None if line.starts_with('{') => line,
        None => return None,
    };
    (!data.is_empty() && data != "[DONE]").then_some(data)
}

/// Parses one event's payload.
fn event(data: &str) -> Result<Value, ModelError> {
    serde_json::from_str(data).map_err(|e| ModelError::Route(RouteError::NotJson(e.into())))
}

/// One line, without its `\r`, as text (invalid UTF-8 replaced: an event with it fails to
/// parse as JSON and is reported as such).
fn line(
    bytes: &[u8],
    on_line: &mut impl FnMut(&str) -> Result<(), ModelError>,
) -> Result<(), ModelError> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    on_line(&String::from_utf8_lossy(bytes))
}
