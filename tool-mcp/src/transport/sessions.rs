//! [`Sessions`]: rmcp's in-memory session manager, which also tells the server's task store
//! when a session starts and ends, so that a session's end cancels and drops its tasks and
//! a task is created only for a live session.
//!
//! Every end of a session passes through [`SessionManager::close_session`]: the client's
//! `DELETE`, the session's idle timeout and the server's stop (rmcp closes the session when
//! its service ends).

use crate::tasks::store::Tasks;
use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use rmcp::transport::WorkerTransport;
use std::sync::Arc;

/// rmcp's [`LocalSessionManager`], reporting each session's start and end to a task store.
#[derive(Debug)]
pub(crate) struct Sessions {
    local: LocalSessionManager,
    tasks: Arc<Tasks>,
}

impl Sessions {
    /// Sessions whose starts and ends `tasks` learns; it tracks sessions from now on.
    pub(crate) fn new(tasks: Arc<Tasks>) -> Sessions {
        tasks.track_sessions();
        Sessions {
            local: LocalSessionManager::default(),
            tasks,
        }
    }
}

impl std::ops::Deref for Sessions {
    type Target = LocalSessionManager;

    fn deref(&self) -> &LocalSessionManager {
        &self.local
    }
}

impl SessionManager for Sessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.local.create_session().await?;
        self.tasks.session_started(&id);
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.local.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.local.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        // The tasks first: from here on no request of the session can reach them.
        self.tasks.session_ended(id);
        self.local.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.local.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.local.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.local.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.local.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        let restored = self.local.restore_session(id.clone()).await?;
        if matches!(restored, RestoreOutcome::Restored(_)) {
            self.tasks.session_started(&id);
        }
        Ok(restored)
    }

    fn event_store(
        &self,
    ) -> Option<Arc<dyn rmcp::transport::streamable_http_server::session::store::EventStore>> {
        self.local.event_store()
    }
}
