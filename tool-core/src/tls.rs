//! The crypto provider rustls needs before any reqwest client is built.
//!
//! The `agent` feature turns on reqwest's rustls without a default provider (`aws-lc-rs` is
//! slow to build), and features are shared across a build: every reqwest client in the
//! program, rmcp's MCP client included, then panics when built without a provider installed.
//! So each place this crate builds one installs `ring` first, as the process default, unless
//! the program has installed a provider of its own.

/// Installs `ring` as rustls's process-wide provider, unless one is installed already.
#[doc(hidden)]
pub fn ensure_provider() {
    // An `Err` means a provider is installed already: the program's choice stands.
    let _ = rustls::crypto::ring::default_provider().install_default();
}
