//! [`RedisConfig`]: where the shared task store is, and how it behaves.

use std::time::Duration;

/// A Redis task store's settings: the server's URL, the prefix of its keys, the lease a
/// process holds on the tasks it runs, and how long one Redis command may take.
///
/// A `&str` or `String` converts into one with the defaults, so
/// [`TaskStore::redis("redis://127.0.0.1:6379/0")`](crate::TaskStore::redis) is the usual
/// form. Every process of a fleet must use the same Redis database and prefix (and should
/// use the same lease). The URL's password, if it has one, never appears in `Debug`.
#[derive(Clone)]
pub struct RedisConfig {
    pub(crate) url: String,
    pub(crate) prefix: String,
    pub(crate) lease: Duration,
    pub(crate) timeout: Duration,
}

impl RedisConfig {
    /// The default of [`lease`](Self::lease): 10 seconds.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(10);
    /// The default of [`timeout`](Self::timeout): 5 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);
    /// The default of [`prefix`](Self::prefix).
    pub const DEFAULT_PREFIX: &'static str = "tool-runtime:tasks";

    /// The store at `url` (`redis://HOST:PORT/DB`, `rediss://` for TLS is not built in;
    /// `redis://:PASSWORD@HOST:PORT/DB` with a password), with the defaults.
    pub fn new(url: impl Into<String>) -> RedisConfig {
        RedisConfig {
            url: url.into(),
            prefix: RedisConfig::DEFAULT_PREFIX.to_owned(),
            lease: RedisConfig::DEFAULT_LEASE,
            timeout: RedisConfig::DEFAULT_TIMEOUT,
        }
    }

    /// The prefix of every key and channel the store uses (default
    /// [`DEFAULT_PREFIX`](Self::DEFAULT_PREFIX)): two fleets can share one database under
    /// two prefixes.
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<String>) -> RedisConfig {
        self.prefix = prefix.into();
        self
    }

    /// How long a process's hold on its running tasks lasts without renewal (default
    /// [`DEFAULT_LEASE`](Self::DEFAULT_LEASE), at least 300 ms). The process renews it three
    /// times a lease; when the process dies, any other reports its running tasks `failed`
    /// within this time. Shorter notices a crash sooner; longer rides out a longer pause
    /// (a Redis restart, a stalled process) without failing tasks that still run.
    #[must_use]
    pub fn lease(mut self, lease: Duration) -> RedisConfig {
        self.lease = lease.max(Duration::from_millis(300));
        self
    }

    /// How long one Redis operation may take, connecting included (default
    /// [`DEFAULT_TIMEOUT`](Self::DEFAULT_TIMEOUT)): past it the request that needed it
    /// answers an error saying so, rather than waiting on a Redis that is down.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> RedisConfig {
        self.timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// The URL as logs and errors may show it: the password, if any, replaced by `***`.
    pub(crate) fn shown_url(&self) -> String {
        match self.url.split_once("://") {
            Some((scheme, rest)) => match rest.rsplit_once('@') {
                Some((_, host)) => format!("{scheme}://***@{host}"),
                None => self.url.clone(),
            },
            None => self.url.clone(),
        }
    }
}

impl std::fmt::Debug for RedisConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisConfig")
            .field("url", &self.shown_url())
            .field("prefix", &self.prefix)
            .field("lease", &self.lease)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl From<&str> for RedisConfig {
    fn from(url: &str) -> RedisConfig {
        RedisConfig::new(url)
    }
}

impl From<String> for RedisConfig {
    fn from(url: String) -> RedisConfig {
        RedisConfig::new(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_shows() {
        let config = RedisConfig::new("redis://:hunter2@127.0.0.1:6379/0");
        assert_eq!(config.shown_url(), "redis://***@127.0.0.1:6379/0");
        assert!(!format!("{config:?}").contains("hunter2"));
        let plain = RedisConfig::new("redis://127.0.0.1:6379/0");
        assert_eq!(plain.shown_url(), "redis://127.0.0.1:6379/0");
    }
}
