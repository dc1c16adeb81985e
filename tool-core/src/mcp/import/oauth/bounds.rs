//! What one of the sign-in's own HTTP requests may cost (the workload grant, the DPoP
//! client, the nonce probe): a time limit, and an answer read whole only up to a size.

use crate::client::BoxError;
use oauth2::http::Response;
use oauth2::HttpResponse;
use std::time::Duration;

/// How long one request may take (rmcp's own OAuth requests' limit).
pub(super) const TIMEOUT: Duration = Duration::from_secs(30);

/// `answer` whole, refused past `max` bytes of body.
pub(super) async fn read(
    mut answer: reqwest::Response,
    max: usize,
) -> Result<HttpResponse, BoxError> {
    let mut response = Response::builder().status(answer.status());
    if let Some(headers) = response.headers_mut() {
        headers.extend(answer.headers().clone());
    }
    let mut body = Vec::new();
    while let Some(chunk) = answer.chunk().await? {
        if body.len() + chunk.len() > max {
            return Err(format!("an answer from {} is over {max} bytes", answer.url()).into());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(response.body(body)?)
}
