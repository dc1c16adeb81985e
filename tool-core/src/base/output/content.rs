//! Rich output: text, images, audio and embedded resources, in the order the model should
//! read them ([`ToolOutput::Content`](super::ToolOutput::Content)).
//!
//! MCP carries every kind natively; other providers get the nearest form they accept (an
//! Anthropic image block, an OpenAI Responses `input_image`, Gemini inline data), and a short
//! text note where they accept none: see `results/`.

use super::truncate;
use super::Truncation;
use serde::{Deserialize, Serialize};

/// One piece of a [`ToolOutput::Content`](super::ToolOutput::Content) output.
///
/// Serialized with a `type` tag: `{"type": "text", "text"}`,
/// `{"type": "image", "data", "mime_type"}` (data in base64), `{"type": "audio", ...}`, or
/// `{"type": "resource", "uri", "mime_type"?, "text" | "blob"}`.
///
/// ```
/// use tool_runtime::ToolOutput;
/// use tool_runtime::output::ContentBlock;
///
/// let png: &[u8] = &[0x89, b'P', b'N', b'G'];
/// let output = ToolOutput::content([
///     ContentBlock::text("The chart:"),
///     ContentBlock::image("image/png", png),
/// ]);
/// assert_eq!(output.to_model_text(), "The chart:\n[image: image/png, 4 bytes]");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContentBlock {
    /// Text for the model.
    Text {
        /// The text.
        text: String,
        /// Who the block is for and how much it matters (MCP's content annotations).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// An image.
    Image {
        /// The image's bytes, in base64.
        data: String,
        /// Its type: `image/png`, `image/jpeg`, ...
        mime_type: String,
        /// Who the block is for and how much it matters (MCP's content annotations).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A sound.
    Audio {
        /// The sound's bytes, in base64.
        data: String,
        /// Its type: `audio/wav`, `audio/mpeg`, ...
        mime_type: String,
        /// Who the block is for and how much it matters (MCP's content annotations).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations>,
    },
    /// A resource (a file, a record) with its contents, named by a URI.
    Resource(Resource),
}

/// An embedded resource: its URI, type and contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    /// What the resource is: `file:///...`, `test://...`.
    pub uri: String,
    /// Its type, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its contents.
    #[serde(flatten)]
    pub body: ResourceBody,
    /// Who the block is for and how much it matters (MCP's content annotations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

/// MCP's content annotations: hints for the client about a block, kept through import and
/// serve. Other providers have no place for them; they read the block as usual.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Annotations {
    /// Who the block is meant for: `"user"`, `"assistant"`, or both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<String>>,
    /// How important the block is, from 0 (least) to 1 (most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// When what the block holds last changed (ISO 8601).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// Annotations for `audience` (`"user"`, `"assistant"`).
    pub fn for_audience<S: Into<String>>(audience: impl IntoIterator<Item = S>) -> Annotations {
        Annotations {
            audience: Some(audience.into_iter().map(Into::into).collect()),
            ..Annotations::default()
        }
    }

    /// The same, with `priority` (0 to 1).
    #[must_use]
    pub fn priority(mut self, priority: f64) -> Annotations {
        self.priority = Some(priority);
        self
    }
}

/// A resource's contents: text, or bytes in base64.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceBody {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// Bytes, in base64.
    Blob {
        /// The bytes, in base64.
        blob: String,
    },
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> ContentBlock {
        ContentBlock::Text {
            text: text.into(),
            annotations: None,
        }
    }

    /// An image from its bytes (encoded to base64 here).
    pub fn image(mime_type: impl Into<String>, bytes: impl AsRef<[u8]>) -> ContentBlock {
        ContentBlock::Image {
            data: super::safe::base64(bytes.as_ref()),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// An image already in base64.
    pub fn image_base64(mime_type: impl Into<String>, data: impl Into<String>) -> ContentBlock {
        ContentBlock::Image {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// A sound from its bytes (encoded to base64 here).
    pub fn audio(mime_type: impl Into<String>, bytes: impl AsRef<[u8]>) -> ContentBlock {
        ContentBlock::Audio {
            data: super::safe::base64(bytes.as_ref()),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// A sound already in base64.
    pub fn audio_base64(mime_type: impl Into<String>, data: impl Into<String>) -> ContentBlock {
        ContentBlock::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }

    /// A resource whose contents are text.
    pub fn resource_text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> ContentBlock {
        ContentBlock::Resource(Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Text { text: text.into() },
            annotations: None,
        })
    }

    /// A resource whose contents are bytes (encoded to base64 here).
    pub fn resource_blob(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: impl AsRef<[u8]>,
    ) -> ContentBlock {
        ContentBlock::Resource(Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: ResourceBody::Blob {
                blob: super::safe::base64(bytes.as_ref()),
            },
            annotations: None,
        })
    }

    /// The block with MCP content `annotations` (who it is for, how much it matters), which
    /// MCP clients receive with it.
    ///
    /// ```
    /// use tool_runtime::output::{Annotations, ContentBlock};
    ///
    /// let note = ContentBlock::text("for the user only")
    ///     .with_annotations(Annotations::for_audience(["user"]).priority(0.2));
    /// assert_eq!(note.annotations().unwrap().priority, Some(0.2));
    /// ```
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> ContentBlock {
        *self.annotations_mut() = Some(annotations);
        self
    }

    /// The block's MCP content annotations, if it has any.
    pub fn annotations(&self) -> Option<&Annotations> {
        match self {
            ContentBlock::Text { annotations, .. }
            | ContentBlock::Image { annotations, .. }
            | ContentBlock::Audio { annotations, .. }
            | ContentBlock::Resource(Resource { annotations, .. }) => annotations.as_ref(),
        }
    }

    fn annotations_mut(&mut self) -> &mut Option<Annotations> {
        match self {
            ContentBlock::Text { annotations, .. }
            | ContentBlock::Image { annotations, .. }
            | ContentBlock::Audio { annotations, .. }
            | ContentBlock::Resource(Resource { annotations, .. }) => annotations,
        }
    }

    /// The block as a model reads it in plain text: text as is, a resource's text under a
    /// line naming it, and a short note for what isn't text (`[image: image/png, 68 bytes]`).
    pub fn to_model_text(&self) -> String {
        match self {
            ContentBlock::Text { text, .. } => text.clone(),
            ContentBlock::Image {
                data, mime_type, ..
            } => {
                format!("[image: {mime_type}, {} bytes]", decoded_len(data))
            }
            ContentBlock::Audio {
                data, mime_type, ..
            } => {
                format!("[audio: {mime_type}, {} bytes]", decoded_len(data))
            }
            ContentBlock::Resource(resource) => {
                let kind = resource.mime_type.as_deref().unwrap_or("unknown type");
                match &resource.body {
                    ResourceBody::Text { text } => {
                        format!("[resource: {} ({kind})]\n{text}", resource.uri)
                    }
                    ResourceBody::Blob { blob } => format!(
                        "[resource: {} ({kind}), {} bytes]",
                        resource.uri,
                        decoded_len(blob)
                    ),
                }
            }
        }
    }

    /// The text the model reads in this block, if it is text: a text block's, a text
    /// resource's. What the output cap counts.
    fn text_mut(&mut self) -> Option<&mut String> {
        match self {
            ContentBlock::Text { text, .. }
            | ContentBlock::Resource(Resource {
                body: ResourceBody::Text { text },
                ..
            }) => Some(text),
            _ => None,
        }
    }

    fn as_text(&self) -> Option<&str> {
        match self {
            ContentBlock::Text { text, .. }
            | ContentBlock::Resource(Resource {
                body: ResourceBody::Text { text },
                ..
            }) => Some(text),
            _ => None,
        }
    }
}

/// The size of the bytes a base64 text stands for.
pub(crate) fn decoded_len(base64: &str) -> usize {
    let padding = base64.bytes().rev().take_while(|&b| b == b'=').count();
    (base64.len() / 4 * 3).saturating_sub(padding.min(2))
}

/// Cuts the text of `blocks` to `max_bytes` in all, middles out as
/// [`ToolOutput::bounded`](super::ToolOutput::bounded) cuts text. Images, audio and blobs are
/// not model text and are kept whole.
///
/// Short texts are kept whole while they fit an even share of what is left, and the longer
/// ones split the rest. When those shares are too small to hold a marker each (many texts,
/// a small cap), the texts are kept in order while they fit and the ones after are replaced
/// by one marker that counts them, so the cap holds either way.
pub(crate) fn bounded(mut blocks: Vec<ContentBlock>, max_bytes: usize) -> Vec<ContentBlock> {
    let lens: Vec<usize> = blocks
        .iter()
        .filter_map(ContentBlock::as_text)
        .map(str::len)
        .collect();
    let total: usize = lens.iter().sum();
    if total <= max_bytes {
        return blocks;
    }
    let shares = shares(&lens, max_bytes);
    let each_cut_holds_its_marker = lens
        .iter()
        .zip(&shares)
        .all(|(&len, &share)| share >= len || share >= truncate::longest_marker(len));
    if !each_cut_holds_its_marker {
        return collapse(blocks, total, max_bytes);
    }
    for (text, share) in blocks
        .iter_mut()
        .filter_map(ContentBlock::text_mut)
        .zip(shares)
    {
        if let Some(cut) = truncate::truncate_middle(text, share) {
            *text = cut.text;
        }
    }
    blocks
}

/// Each text's share of `max`: from the shortest up, a text that fits an even share of what
/// is left keeps its length; the rest split what is left evenly.
fn shares(lens: &[usize], max: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..lens.len()).collect();
    order.sort_by_key(|&i| lens[i]);
    let mut shares = lens.to_vec();
    let mut budget = max;
    for (k, &i) in order.iter().enumerate() {
        let even = budget / (order.len() - k);
        if lens[i] > even {
            for &j in &order[k..] {
                shares[j] = even;
            }
            break;
        }
        budget -= lens[i];
    }
    shares
}

/// The texts in order while they fit, the first that doesn't cut to what is left (when its
/// marker fits), and every text after it replaced, where the first of them was, by one marker
/// that counts them. Room for that marker (counting at most `total`, the texts' bytes) is kept
/// from the start.
fn collapse(blocks: Vec<ContentBlock>, total: usize, max: usize) -> Vec<ContentBlock> {
    let mut budget = max.saturating_sub(truncate::longest_marker(total));
    let mut dropped = Truncation {
        original_bytes: 0,
        removed_bytes: 0,
        removed_lines: 0,
    };
    let mut dropped_at = None;
    let mut out = Vec::with_capacity(blocks.len());
    for mut block in blocks {
        let Some(text) = block.text_mut() else {
            out.push(block);
            continue;
        };
        if dropped_at.is_none() && text.len() <= budget {
            budget -= text.len();
            out.push(block);
            continue;
        }
        if dropped_at.is_none() && budget >= truncate::longest_marker(text.len()) {
            if let Some(cut) = truncate::truncate_middle(text, budget) {
                *text = cut.text;
            }
            budget = 0;
            out.push(block);
            continue;
        }
        dropped_at.get_or_insert(out.len());
        dropped.original_bytes += text.len();
        dropped.removed_bytes += text.len();
        dropped.removed_lines += memchr::memchr_iter(b'\n', text.as_bytes()).count();
    }
    if let Some(at) = dropped_at {
        out.insert(at, ContentBlock::text(truncate::marker(&dropped)));
    }
    out
}

/// What the output cap cut from `blocks`, summed over their texts.
pub(crate) fn truncation(blocks: &[ContentBlock]) -> Option<Truncation> {
    let mut sum: Option<Truncation> = None;
    let mut whole = 0;
    for text in blocks.iter().filter_map(ContentBlock::as_text) {
        match truncate::find(text) {
            Some(cut) => {
                let sum = sum.get_or_insert(Truncation {
                    original_bytes: 0,
                    removed_bytes: 0,
                    removed_lines: 0,
                });
                sum.original_bytes += cut.original_bytes;
                sum.removed_bytes += cut.removed_bytes;
                sum.removed_lines += cut.removed_lines;
            }
            None => whole += text.len(),
        }
    }
    sum.map(|mut sum| {
        sum.original_bytes += whole;
        sum
    })
}

/// Text as a block: what a prompt message or a content list most often holds.
impl From<String> for ContentBlock {
    fn from(text: String) -> ContentBlock {
        ContentBlock::text(text)
    }
}

/// Text as a block.
impl From<&str> for ContentBlock {
    fn from(text: &str) -> ContentBlock {
        ContentBlock::text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_have_a_tagged_wire_shape_that_round_trips() {
        let blocks = vec![
            ContentBlock::text("hi"),
            ContentBlock::image("image/png", [1u8, 2, 3]),
            ContentBlock::audio_base64("audio/wav", "UklGRg=="),
            ContentBlock::resource_text("test://a", "text/plain", "body"),
            ContentBlock::resource_blob("test://b", "application/pdf", b"%PDF"),
        ];
        let wire = serde_json::to_value(&blocks).unwrap();
        assert_eq!(
            wire,
            json!([
                {"type": "text", "text": "hi"},
                {"type": "image", "data": "AQID", "mime_type": "image/png"},
                {"type": "audio", "data": "UklGRg==", "mime_type": "audio/wav"},
                {"type": "resource", "uri": "test://a", "mime_type": "text/plain", "text": "body"},
                {"type": "resource", "uri": "test://b", "mime_type": "application/pdf", "blob": "JVBERg=="},
            ])
        );
        let back: Vec<ContentBlock> = serde_json::from_value(wire).unwrap();
        assert_eq!(back, blocks);
    }

    #[test]
    fn model_text_names_what_is_not_text() {
        let image = ContentBlock::image("image/png", [0u8; 68]);
        assert_eq!(image.to_model_text(), "[image: image/png, 68 bytes]");
        let resource = ContentBlock::resource_text("test://r", "application/json", "{}");
        assert_eq!(
            resource.to_model_text(),
            "[resource: test://r (application/json)]\n{}"
        );
        assert_eq!(decoded_len("AQID"), 3);
        assert_eq!(decoded_len("AQ=="), 1);
    }

    #[test]
    fn the_cap_cuts_text_and_keeps_binary_whole() {
        let blocks = vec![
            ContentBlock::text("a".repeat(3000)),
            ContentBlock::image("image/png", [7u8; 3000]),
            ContentBlock::resource_text("test://r", "text/plain", "b".repeat(1000)),
        ];
        let cut = bounded(blocks.clone(), 800);
        let texts: usize = cut
            .iter()
            .filter_map(ContentBlock::as_text)
            .map(str::len)
            .sum();
        assert!(texts <= 800, "{texts}");
        assert_eq!(cut[1], blocks[1]);
        let truncation = truncation(&cut).unwrap();
        assert_eq!(truncation.original_bytes, 4000);
        assert_eq!(bounded(blocks.clone(), 10_000), blocks);
        assert_eq!(super::truncation(&blocks), None);
    }
}
