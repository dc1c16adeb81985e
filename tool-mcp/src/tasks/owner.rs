//! Who a task belongs to: the session or address a request came from.

use std::net::IpAddr;

/// Who made a request: the HTTP session it came on (then only that session sees its tasks),
/// and the address it came from (what tells sessionless clients apart for their share).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Owner {
    /// The live session, or `None` for a sessionless client (stdio, protocol 2026-07-28).
    pub(crate) session: Option<String>,
    /// The peer's address, when the transport knows it.
    pub(crate) address: Option<IpAddr>,
}

impl Owner {
    /// A request of session `id`.
    #[cfg(test)]
    pub(crate) fn session(id: &str) -> Owner {
        Owner {
            session: Some(id.to_owned()),
            address: None,
        }
    }

    /// Whose share the tasks of this owner count against.
    pub(crate) fn share(&self) -> Share {
        match &self.session {
            Some(session) => Share::Session(session.clone()),
            None => Share::Address(self.address),
        }
    }
}

/// The peer address of an HTTP request, which the server puts in the request's extensions:
/// it tells sessionless clients apart for their share of the tasks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PeerAddress(pub(crate) IpAddr);

/// One client, as the shares count it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Share {
    Session(String),
    /// Sessionless clients of one address are one client (all of stdio's, with none).
    Address(Option<IpAddr>),
}
