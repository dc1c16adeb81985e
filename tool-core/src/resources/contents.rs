//! What reading a resource gives: text or bytes, with a MIME type.

use crate::output::{Resource as Embedded, ResourceBody};

/// One piece of a resource's contents, as a reader returns it: text or bytes, and a MIME
/// type. The URI is the one read unless [`at`](Self::at) says otherwise (a directory's
/// entries, say), and the MIME type the resource's own unless [`mime_type`](Self::mime_type)
/// sets one.
///
/// ```
/// use tool_runtime::resources::Contents;
///
/// let page = Contents::text("# Hello").mime_type("text/markdown");
/// let logo = Contents::blob([0x89, b'P', b'N', b'G']).mime_type("image/png");
/// # let _ = (page, logo);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Contents {
    pub(crate) uri: Option<String>,
    pub(crate) mime_type: Option<String>,
    pub(crate) body: ResourceBody,
}

impl Contents {
    /// Text contents.
    pub fn text(text: impl Into<String>) -> Contents {
        Contents {
            uri: None,
            mime_type: None,
            body: ResourceBody::Text { text: text.into() },
        }
    }

    /// Binary contents (sent in base64).
    pub fn blob(bytes: impl AsRef<[u8]>) -> Contents {
        Contents::blob_base64(crate::output::safe::base64(bytes.as_ref()))
    }

    /// Binary contents already in base64.
    pub fn blob_base64(base64: impl Into<String>) -> Contents {
        Contents {
            uri: None,
            mime_type: None,
            body: ResourceBody::Blob {
                blob: base64.into(),
            },
        }
    }

    /// The contents' MIME type (default: the resource's).
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Contents {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The URI these contents are at, when not the one read.
    #[must_use]
    pub fn at(mut self, uri: impl Into<String>) -> Contents {
        self.uri = Some(uri.into());
        self
    }

    /// The contents as an embedded resource at `uri` (or their own), typed `mime_type` unless
    /// they say.
    pub(crate) fn into_embedded(self, uri: &str, mime_type: Option<&str>) -> Embedded {
        Embedded {
            uri: self.uri.unwrap_or_else(|| uri.to_owned()),
            mime_type: self.mime_type.or_else(|| mime_type.map(str::to_owned)),
            body: self.body,
            annotations: None,
        }
    }
}

impl From<Contents> for Vec<Contents> {
    fn from(contents: Contents) -> Vec<Contents> {
        vec![contents]
    }
}
