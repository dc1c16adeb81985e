//! Protocol 2026-07-28's `subscriptions/listen`, the successor of `resources/subscribe`: one
//! long-lived request whose stream carries the updates of the resources it names. rmcp
//! acknowledges it and tags each notification with the subscription's id; this grants the
//! filter and forwards [`Resources::updated`] to it.

use crate::resources::Resources;
use rmcp::model::ErrorData;
use std::sync::Arc;

/// What protocol 2026-07-28's `subscriptions/listen` is granted (its successor of
/// `resources/subscribe`): the resource URIs asked for, when the registry has resources. No
/// list ever changes here, so the `*ListChanged` notifications are never granted.
pub(crate) fn accepted_filter(
    requested: &rmcp::model::SubscriptionFilter,
    resources: &Arc<Resources>,
) -> Option<rmcp::model::SubscriptionFilter> {
    if resources.resources().is_empty() && resources.templates().is_empty() {
        return None;
    }
    let mut accepted = rmcp::model::SubscriptionFilter::new();
    accepted.resource_subscriptions = requested.resource_subscriptions.clone();
    Some(accepted)
}

/// One `subscriptions/listen` stream: each update of an accepted URI
/// ([`Resources::updated`]) goes out as `notifications/resources/updated`, tagged with the
/// subscription's id by rmcp, until the client closes the stream.
pub(crate) async fn listen(
    subscription: rmcp::service::SubscriptionContext,
    resources: &Arc<Resources>,
) -> Result<(), ErrorData> {
    let mut updates = resources.updates();
    loop {
        let uri = tokio::select! {
            () = subscription.cancelled() => return Ok(()),
            uri = updates.recv() => uri,
        };
        let uri = match uri {
            Ok(uri) => uri,
            // Fell behind: the updates missed can't be named, the next ones can.
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return Ok(()),
        };
        let wanted = subscription
            .accepted()
            .resource_subscriptions
            .as_ref()
            .is_some_and(|uris| uris.contains(&uri));
        if !wanted {
            continue;
        }
        let update = rmcp::model::ResourceUpdatedNotification::new(
            rmcp::model::ResourceUpdatedNotificationParam::new(uri),
        );
        let notification = rmcp::model::ServerNotification::ResourceUpdatedNotification(update);
        if subscription.sink().send(notification).await.is_err() {
            return Ok(()); // the stream is closed
        }
    }
}
