//! Icons (2025-11-25 on): small images a client may show beside a tool, a resource, a
//! prompt or the server itself. Older revisions have no `icons` member and never see them.

use serde::Serialize;

/// An icon as an attribute states it (`icon = "..."` or `icon(src = "...", ...)`, once per icon): built by the macros.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IconDescriptor {
    /// URL of the image (`https:` or a `data:` URI).
    pub src: &'static str,
    /// MIME type, when the attribute states it.
    pub mime_type: Option<&'static str>,
    /// Sizes such as `"48x48"` or `"any"`.
    pub sizes: &'static [&'static str],
    /// `"light"` or `"dark"`: the theme the icon is drawn for.
    pub theme: Option<&'static str>,
}

/// An icon a client may show (`Icon` in the 2025-11-25 schema).
///
/// ```
/// use mcp_runtime::Icon;
///
/// let icon = Icon::new("https://example.com/logo.png")
///     .mime_type("image/png")
///     .sizes(["48x48"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// URL of the image (`https:` or a `data:` URI).
    pub src: String,
    /// MIME type, if known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes such as `"48x48"` or `"any"` (for scalable formats).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// `"light"` or `"dark"`: the theme the icon is drawn for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
}

impl Icon {
    /// An icon with just its source.
    pub fn new(src: impl Into<String>) -> Self {
        Icon {
            src: src.into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }

    /// Sets the MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the sizes (`"48x48"`, `"any"`).
    pub fn sizes(mut self, sizes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.sizes = sizes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the theme (`"light"` or `"dark"`).
    pub fn theme(mut self, theme: impl Into<String>) -> Self {
        self.theme = Some(theme.into());
        self
    }
}

impl From<&IconDescriptor> for Icon {
    fn from(icon: &IconDescriptor) -> Self {
        Icon {
            src: icon.src.to_owned(),
            mime_type: icon.mime_type.map(str::to_owned),
            sizes: icon.sizes.iter().map(|size| (*size).to_owned()).collect(),
            theme: icon.theme.map(str::to_owned),
        }
    }
}

/// The `icons` member of a listing, or nothing when there are none.
pub(crate) fn icons_json(icons: &[Icon]) -> Option<serde_json::Value> {
    (!icons.is_empty()).then(|| serde_json::to_value(icons).expect("icons serialize"))
}
