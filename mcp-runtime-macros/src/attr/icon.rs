//! `icon = "https://..."` and `icon(src = "...", mime_type = "...", sizes = [...], theme =
//! "...")`: one icon per occurrence, each checked on its literal.

use proc_macro2::TokenStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprArray, ExprLit, Lit, LitStr, Meta, Token};

use super::values::{set, string_value};
use crate::errors::Errors;

/// One icon, as the descriptor's `IconDescriptor` will hold it.
pub struct Icon {
    pub src: String,
    /// As stated, or guessed from the source (`.png`, `data:image/png;...`).
    pub mime_type: Option<String>,
    pub sizes: Vec<String>,
    pub theme: Option<String>,
}

const USAGE: &str = "write `icon = \"https://...\"` or `icon(src = \"https://...\", mime_type = \
                     \"image/png\", sizes = [\"48x48\"], theme = \"dark\")`";

/// The options of `icon(...)`, as listed in error messages.
const ICON_OPTIONS: [&str; 4] = ["src", "mime_type", "sizes", "theme"];

/// The icon one `icon` option states, `None` (with the problems recorded) if it is not valid.
pub fn icon_value(meta: &Meta, errors: &mut Errors) -> Option<Icon> {
    match meta {
        Meta::NameValue(_) => {
            let src = string_value(meta, errors)?;
            let src = checked_src(&src, errors)?;
            let mime_type = guessed_mime_type(&src);
            Some(Icon {
                src,
                mime_type,
                sizes: Vec::new(),
                theme: None,
            })
        }
        Meta::List(list) => from_list(list.tokens.clone(), meta, errors),
        Meta::Path(path) => {
            errors.push(syn::Error::new(path.span(), USAGE));
            None
        }
    }
}

fn from_list(tokens: TokenStream, meta: &Meta, errors: &mut Errors) -> Option<Icon> {
    let metas =
        match syn::parse::Parser::parse2(Punctuated::<Meta, Token![,]>::parse_terminated, tokens) {
            Ok(metas) => metas,
            Err(error) => {
                errors.push(syn::Error::new(error.span(), format!("{error}; {USAGE}")));
                return None;
            }
        };
    let mut src: Option<LitStr> = None;
    let mut mime_type: Option<LitStr> = None;
    let mut sizes: Option<Vec<String>> = None;
    let mut theme: Option<LitStr> = None;
    let mut valid = true;
    for inner in &metas {
        let key = quote::ToTokens::to_token_stream(inner.path()).to_string();
        match key.as_str() {
            "src" => set(&mut src, string_value(inner, errors), inner, errors),
            "mime_type" => set(&mut mime_type, string_value(inner, errors), inner, errors),
            "sizes" => set(&mut sizes, sizes_value(inner, errors), inner, errors),
            "theme" => {
                let value = string_value(inner, errors).filter(|literal| {
                    let known = matches!(literal.value().as_str(), "light" | "dark");
                    if !known {
                        errors.push(syn::Error::new(
                            literal.span(),
                            "`theme` is `\"light\"` or `\"dark\"`: the theme the icon is drawn for",
                        ));
                    }
                    known
                });
                set(&mut theme, value, inner, errors)
            }
            _ => {
                let listed = ICON_OPTIONS.map(|option| format!("`{option}`")).join(", ");
                errors.push(syn::Error::new(
                    inner.path().span(),
                    format!(
                        "unknown icon option `{key}`; the options of `icon(...)` are: {listed}"
                    ),
                ));
                valid = false;
            }
        }
    }
    let Some(src) = src else {
        errors.push(syn::Error::new(
            meta.path().span(),
            format!("an icon needs its image: `src = \"https://...\"`; {USAGE}"),
        ));
        return None;
    };
    let src = checked_src(&src, errors)?;
    let mime_type = mime_type
        .map(|literal| literal.value())
        .or_else(|| guessed_mime_type(&src));
    valid.then(|| Icon {
        src,
        mime_type,
        sizes: sizes.unwrap_or_default(),
        theme: theme.map(|literal| literal.value()),
    })
}

/// The icon's URL: clients must refuse any scheme but `https:` and `data:` (the spec's
/// security considerations), so any other would never be shown.
fn checked_src(literal: &LitStr, errors: &mut Errors) -> Option<String> {
    let src = literal.value();
    if src.starts_with("https://") || src.starts_with("data:") {
        return Some(src);
    }
    errors.push(syn::Error::new(
        literal.span(),
        format!(
            "`{src}` cannot be an icon's `src`: clients must refuse icons from any scheme but \
             `https:` and `data:` (the MCP specification's security rule), so this one would \
             never be shown; serve it over `https://` or inline it as a `data:` URI"
        ),
    ));
    None
}

/// `sizes = ["48x48", "any"]`: each `any` or `<width>x<height>` in pixels.
fn sizes_value(meta: &Meta, errors: &mut Errors) -> Option<Vec<String>> {
    const SIZES: &str = "`sizes` takes a list of sizes: `sizes = [\"48x48\", \"any\"]`";
    let Meta::NameValue(pair) = meta else {
        errors.push(syn::Error::new(meta.span(), SIZES));
        return None;
    };
    let Expr::Array(ExprArray { elems, .. }) = &pair.value else {
        errors.push(syn::Error::new(pair.value.span(), SIZES));
        return None;
    };
    let mut sizes = Vec::new();
    for element in elems {
        let Expr::Lit(ExprLit {
            lit: Lit::Str(size),
            ..
        }) = element
        else {
            errors.push(syn::Error::new(element.span(), SIZES));
            continue;
        };
        let value = size.value();
        if is_size(&value) {
            sizes.push(value);
        } else {
            errors.push(syn::Error::new(
                size.span(),
                format!(
                    "`{value}` is not an icon size: write `\"any\"` (for a scalable image) or \
                     the width and height in pixels, `\"48x48\"`"
                ),
            ));
        }
    }
    Some(sizes)
}

fn is_size(text: &str) -> bool {
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    text == "any"
        || text
            .split_once('x')
            .is_some_and(|(width, height)| digits(width) && digits(height))
}

/// The MIME type a source shows: a `data:` URI's own, or an `https:` URL's extension.
fn guessed_mime_type(src: &str) -> Option<String> {
    if let Some(data) = src.strip_prefix("data:") {
        let media_type = data.split([';', ',']).next().unwrap_or_default();
        return (!media_type.is_empty()).then(|| media_type.to_owned());
    }
    let path = src.split(['?', '#']).next().unwrap_or_default();
    let file = path.rsplit('/').next().unwrap_or_default();
    let extension = file.rsplit_once('.')?.1.to_ascii_lowercase();
    let mime_type = match extension.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        _ => return None,
    };
    Some(mime_type.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guesses_the_mime_type() {
        let guess = guessed_mime_type;
        assert_eq!(guess("https://a.com/i.png").as_deref(), Some("image/png"));
        assert_eq!(
            guess("https://a.com/i.JPG?v=2").as_deref(),
            Some("image/jpeg")
        );
        assert_eq!(
            guess("https://a.com/i.svg#x").as_deref(),
            Some("image/svg+xml")
        );
        assert_eq!(guess("https://a.com/icon").as_deref(), None);
        assert_eq!(guess("https://a.com.png/icon").as_deref(), None);
        assert_eq!(
            guess("data:image/png;base64,AAAA").as_deref(),
            Some("image/png")
        );
        assert_eq!(guess("data:,hello").as_deref(), None);
    }

    #[test]
    fn reads_sizes() {
        for good in ["any", "48x48", "1024x768"] {
            assert!(is_size(good), "{good}");
        }
        for bad in ["", "48", "48x", "x48", "48X48", "48x48x2", "big"] {
            assert!(!is_size(bad), "{bad}");
        }
    }
}
