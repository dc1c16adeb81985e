//! Protocol 2026-07-28's `subscriptions/listen`, the successor of `resources/subscribe`: one
//! long-lived request whose stream carries the updates of the resources it names. rmcp
//! acknowledges it and tags each notification with the subscription's id; this grants the
//! filter and forwards [`Resources::updated`] to it.

use super::resources::SUBSCRIPTIONS_MAX;
use crate::resources::Resources;
use rmcp::model::ErrorData;
use std::sync::Arc;

/// What protocol 2026-07-28's `subscriptions/listen` is granted (its successor of
/// `resources/subscribe`): the resource URIs asked for that the registry serves, the first
/// [`SUBSCRIPTIONS_MAX`] of them, as `resources/subscribe` keeps (the granted filter tells
/// the client which). No list ever changes here, so the `*ListChanged` notifications are
/// never granted.
pub(crate) fn accepted_filter(
    requested: &rmcp::model::SubscriptionFilter,
    resources: &Arc<Resources>,
) -> Option<rmcp::model::SubscriptionFilter> {
    if resources.resources().is_empty() && resources.templates().is_empty() {
        return None;
    }
    let mut accepted = rmcp::model::SubscriptionFilter::new();
    accepted.resource_subscriptions = requested.resource_subscriptions.as_ref().map(|uris| {
        let mut served = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for uri in uris {
            if served.len() == SUBSCRIPTIONS_MAX {
                break;
            }
            if resources.serves(uri).is_ok() && seen.insert(uri.as_str()) {
                served.push(uri.clone());
            }
        }
        served
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::{Contents, Resource, ResourceTemplate};
    use crate::Registry;

    /// Item 5, its 2026-07-28 form: `subscriptions/listen` was granted every URI asked for.
    /// Only served ones are, once each, at most [`SUBSCRIPTIONS_MAX`].
    #[test]
    fn listen_is_granted_only_served_uris_and_only_so_many() {
        let registry = Registry::builder()
            .without_inventory()
            .resource(Resource::static_text("memo://today", "today", ""))
            .resource_template(ResourceTemplate::new("file:///{name}", "f", |_| async {
                Ok(Contents::text(""))
            }))
            .build()
            .unwrap();
        let mut asked: Vec<String> = vec![
            "memo://today".into(),
            "memo://today".into(),
            "memo://nothing".into(),
            format!("memo://{}", "x".repeat(1 << 20)),
            "file:///..%2Fsecret".into(),
        ];
        asked.extend((0..2 * SUBSCRIPTIONS_MAX).map(|n| format!("file:///{n}")));
        let mut requested = rmcp::model::SubscriptionFilter::new();
        requested.resource_subscriptions = Some(asked);
        let granted = accepted_filter(&requested, registry.resources()).unwrap();
        let uris = granted.resource_subscriptions.unwrap();
        assert_eq!(uris.len(), SUBSCRIPTIONS_MAX);
        assert_eq!(uris[0], "memo://today");
        assert_eq!(uris[1], "file:///0");
        assert_eq!(
            uris[SUBSCRIPTIONS_MAX - 1],
            format!("file:///{}", SUBSCRIPTIONS_MAX - 2)
        );
    }
}
