//! Content blocks: what a tool result shows the client (text, images, audio, resources).

use base64::Engine as _;
use serde::Serialize;

/// One block of a tool result's `content`.
///
/// Build one with the constructors ([`Content::text`], [`Content::image`], …) and refine it
/// with [`Content::with_annotations`]. When a client speaks an older protocol revision that
/// lacks a block type, the runtime sends the closest form that revision has (see
/// [`ContentBody`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    /// What the block carries.
    pub body: ContentBody,
    /// Hints for the client about audience, priority and freshness.
    pub annotations: Option<Annotations>,
}

/// The payload of a [`Content`] block.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ContentBody {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// Base64 of the image bytes.
        data: String,
        /// e.g. `image/png`.
        mime_type: String,
    },
    /// Audio, base64-encoded. Sent to 2024-11-05 clients as an embedded blob resource,
    /// the closest block that revision has.
    Audio {
        /// Base64 of the audio bytes.
        data: String,
        /// e.g. `audio/wav`.
        mime_type: String,
    },
    /// A link to a resource the client may read. Sent to clients older than 2025-06-18
    /// as a text block naming the URI.
    ResourceLink(ResourceLink),
    /// A resource embedded in the result.
    Resource(EmbeddedResource),
}

/// A link to a resource (`resource_link` block).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Programmatic name of the resource.
    pub name: String,
    /// Display name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resource is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Size in bytes, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

impl ResourceLink {
    /// A link with just a URI and a name.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
        }
    }
}

/// The contents of an embedded resource (`resource` block).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddedResource {
    /// The resource's URI.
    pub uri: String,
    /// MIME type, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Text or binary contents.
    #[serde(flatten)]
    pub contents: ResourceContents,
}

/// The contents of an embedded resource: text or base64 binary.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ResourceContents {
    /// Text contents.
    Text(String),
    /// Base64 of binary contents.
    Blob(String),
}

/// Who a content block is meant for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

/// Optional hints on a content block.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Who the block is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (least) to 1 (most).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// ISO 8601 time of the last change (sent from protocol revision 2025-06-18 on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

pub(crate) fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

impl Content {
    fn new(body: ContentBody) -> Self {
        Content {
            body,
            annotations: None,
        }
    }

    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::new(ContentBody::Text { text: text.into() })
    }

    /// A text block of text from outside the tool — a subprocess's output, a file, a web
    /// page — with ANSI escape sequences removed and other control characters (but `\n`
    /// and `\t`) escaped, so a client that prints it in a terminal is not steered by it.
    /// See [`sanitize`](crate::sanitize) for exactly what changes.
    ///
    /// ```
    /// use mcp_runtime::Content;
    ///
    /// let block = Content::text_sanitized("\x1b[32mok\x1b[0m\x07");
    /// assert_eq!(block.as_text(), Some("ok\\u{7}"));
    /// ```
    pub fn text_sanitized(text: impl AsRef<str>) -> Self {
        Content::text(crate::sanitize::text(text.as_ref()))
    }

    /// An image block from raw bytes (base64-encoded for you).
    pub fn image(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Content::image_base64(base64(bytes.as_ref()), mime_type)
    }

    /// An image block from data that is already base64.
    pub fn image_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::new(ContentBody::Image {
            data: data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// An audio block from raw bytes (base64-encoded for you).
    pub fn audio(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
        Content::audio_base64(base64(bytes.as_ref()), mime_type)
    }

    /// An audio block from data that is already base64.
    pub fn audio_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::new(ContentBody::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// A link to a resource.
    pub fn resource_link(link: ResourceLink) -> Self {
        Content::new(ContentBody::ResourceLink(link))
    }

    /// An embedded text resource.
    pub fn embedded_text(
        uri: impl Into<String>,
        text: impl Into<String>,
        mime_type: Option<&str>,
    ) -> Self {
        Content::new(ContentBody::Resource(EmbeddedResource {
            uri: uri.into(),
            mime_type: mime_type.map(str::to_owned),
            contents: ResourceContents::Text(text.into()),
        }))
    }

    /// An embedded binary resource from raw bytes (base64-encoded for you).
    pub fn embedded_blob(
        uri: impl Into<String>,
        bytes: impl AsRef<[u8]>,
        mime_type: Option<&str>,
    ) -> Self {
        Content::new(ContentBody::Resource(EmbeddedResource {
            uri: uri.into(),
            mime_type: mime_type.map(str::to_owned),
            contents: ResourceContents::Blob(base64(bytes.as_ref())),
        }))
    }

    /// Replaces the block's annotations.
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Marks who the block is for.
    pub fn with_audience(mut self, audience: impl IntoIterator<Item = Role>) -> Self {
        self.annotations
            .get_or_insert_with(Default::default)
            .audience = Some(audience.into_iter().collect());
        self
    }

    /// Sets the block's priority, from 0 (least important) to 1 (most).
    pub fn with_priority(mut self, priority: f64) -> Self {
        self.annotations
            .get_or_insert_with(Default::default)
            .priority = Some(priority);
        self
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match &self.body {
            ContentBody::Text { text } => Some(text),
            _ => None,
        }
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content::text(text)
    }
}
