//! Where a sign-in's own HTTP client (`dpop_http.rs`) may connect, by the rule rmcp's client
//! keeps: an address on this machine or a private network only when the MCP server's own
//! URL names one of the same kind (`localhost`, a loopback or a private IP literal), and
//! never a link-local, unspecified, multicast or broadcast one. Metadata that names
//! `http://169.254.169.254/` (a cloud's metadata service) or a name that resolves into the
//! office network is so refused, at each connection, not only when the URL is read.

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::net::{IpAddr, SocketAddr};

/// Which kinds of address beyond the public ones the MCP server's URL allows.
#[derive(Clone, Copy, Debug)]
pub(super) struct Confined {
    loopback: bool,
    private: bool,
}

impl Confined {
    /// The rule for the sign-in to the MCP server at `url`.
    pub(super) fn for_server(url: &str) -> Confined {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host().map(|h| h.to_owned()));
        let (mut loopback, mut private) = (false, false);
        match host {
            Some(url::Host::Domain(name)) => loopback = name.eq_ignore_ascii_case("localhost"),
            Some(url::Host::Ipv4(ip)) => {
                loopback = ip.is_loopback();
                private = is_private(IpAddr::V4(ip));
            }
            Some(url::Host::Ipv6(ip)) => {
                loopback = ip.is_loopback();
                private = is_private(IpAddr::V6(ip));
            }
            None => {}
        }
        Confined { loopback, private }
    }

    /// Whether a connection to `ip` is allowed.
    pub(super) fn allows(self, ip: IpAddr) -> bool {
        let never = match ip {
            IpAddr::V4(v4) => {
                v4.is_link_local() || v4.is_unspecified() || v4.is_multicast() || v4.is_broadcast()
            }
            IpAddr::V6(v6) => {
                v6.is_unspecified() || v6.is_multicast() || v6.is_unicast_link_local()
            }
        };
        if never {
            return false;
        }
        if ip.is_loopback() {
            return self.loopback;
        }
        !is_private(ip) || self.private
    }

    /// Refuses a URL whose host is an IP literal this rule doesn't allow (names are checked as
    /// they resolve, by [`Resolve`]).
    pub(super) fn check_literal(self, url: &str) -> Result<(), String> {
        let ip = match url::Url::parse(url)
            .ok()
            .and_then(|u| u.host().map(|h| h.to_owned()))
        {
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
            _ => return Ok(()),
        };
        if self.allows(ip) {
            Ok(())
        } else {
            Err(refused(&ip.to_string()))
        }
    }
}

/// Why a host was refused.
fn refused(host: &str) -> String {
    format!(
        "{host} is on this machine or a private network, where this MCP server's authorization \
         may not send its requests (the server's own URL is not)"
    )
}

/// A private (RFC 1918, shared CGNAT, unique local IPv6) address.
fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_private() || (a == 100 && (64..128).contains(&b))
        }
        IpAddr::V6(v6) => (v6.segments()[0] & 0xfe00) == 0xfc00,
    }
}

impl Resolve for Confined {
    fn resolve(&self, name: Name) -> Resolving {
        let rule = *self;
        Box::pin(async move {
            let found = tokio::net::lookup_host((name.as_str(), 0)).await?;
            let kept: Vec<SocketAddr> = found.filter(|a| rule.allows(a.ip())).collect();
            if kept.is_empty() {
                return Err(refused(name.as_str()).into());
            }
            Ok(Box::new(kept.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_local_server_may_have_a_local_authorization_server() {
        let public = Confined::for_server("https://mcp.example.com/mcp");
        let local = Confined::for_server("http://localhost:3000/mcp");
        let office = Confined::for_server("http://10.1.2.3/mcp");
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(public.allows(ip("93.184.216.34")));
        assert!(!public.allows(ip("127.0.0.1")));
        assert!(!public.allows(ip("10.0.0.9")));
        assert!(!public.allows(ip("fd00::1")));
        assert!(local.allows(ip("127.0.0.1")) && local.allows(ip("::1")));
        assert!(!local.allows(ip("192.168.1.1")));
        assert!(office.allows(ip("192.168.1.1")) && !office.allows(ip("127.0.0.1")));
        for everyone in [public, local, office] {
            assert!(!everyone.allows(ip("169.254.169.254")));
            assert!(!everyone.allows(ip("0.0.0.0")));
            assert!(!everyone.allows(ip("fe80::1")));
        }
        assert!(public
            .check_literal("http://169.254.169.254/token")
            .is_err());
        assert!(public.check_literal("https://as.example.com/token").is_ok());
    }
}
