//! A resource's annotations: `audience = ["user", "assistant"]`, `priority = 0.5` and
//! `last_modified = "2025-01-12T15:00:58Z"`, each checked on its literal.

use syn::spanned::Spanned;
use syn::{Expr, ExprArray, ExprLit, Lit, LitStr, Meta};

use super::values::string_value;
use crate::errors::Errors;

/// A role of `audience`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    User,
    Assistant,
}

const AUDIENCE: &str =
    "`audience` takes a list of roles: `audience = [\"user\"]`, `[\"assistant\"]` or both";

/// `audience = ["user", "assistant"]`: known roles, each once.
pub fn audience_value(meta: &Meta, errors: &mut Errors) -> Option<Vec<Audience>> {
    let Meta::NameValue(pair) = meta else {
        errors.push(syn::Error::new(meta.span(), AUDIENCE));
        return None;
    };
    let Expr::Array(ExprArray { elems, .. }) = &pair.value else {
        errors.push(syn::Error::new(pair.value.span(), AUDIENCE));
        return None;
    };
    let mut roles = Vec::new();
    for element in elems {
        let Expr::Lit(ExprLit {
            lit: Lit::Str(role),
            ..
        }) = element
        else {
            errors.push(syn::Error::new(element.span(), AUDIENCE));
            continue;
        };
        let audience = match role.value().as_str() {
            "user" => Audience::User,
            "assistant" => Audience::Assistant,
            other => {
                errors.push(syn::Error::new(
                    role.span(),
                    format!("`{other}` is not a role: the audience is `\"user\"`, `\"assistant\"` or both"),
                ));
                continue;
            }
        };
        if roles.contains(&audience) {
            errors.push(syn::Error::new(
                role.span(),
                format!("`{}` is listed twice in `audience`; keep one", role.value()),
            ));
            continue;
        }
        roles.push(audience);
    }
    Some(roles)
}

/// `priority = 0.5`: from 0 (least important) to 1 (most important, effectively required).
pub fn priority_value(meta: &Meta, errors: &mut Errors) -> Option<f64> {
    const PRIORITY: &str = "`priority` takes a number from 0 (least important) to 1 (most \
                            important): `priority = 0.5`";
    let value = match meta {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(ExprLit {
                lit: Lit::Float(literal),
                ..
            }) => literal.base10_parse::<f64>().ok(),
            Expr::Lit(ExprLit {
                lit: Lit::Int(literal),
                ..
            }) => literal.base10_parse::<u8>().ok().map(f64::from),
            _ => None,
        },
        _ => None,
    };
    let value = value.filter(|value| (0.0..=1.0).contains(value));
    if value.is_none() {
        let span = match meta {
            Meta::NameValue(pair) => pair.value.span(),
            _ => meta.span(),
        };
        errors.push(syn::Error::new(span, PRIORITY));
    }
    value
}

/// `last_modified = "2025-01-12T15:00:58Z"`: an ISO 8601 date and time, as clients parse it.
pub fn last_modified_value(meta: &Meta, errors: &mut Errors) -> Option<LitStr> {
    let literal = string_value(meta, errors)?;
    if is_timestamp(&literal.value()) {
        return Some(literal);
    }
    errors.push(syn::Error::new(
        literal.span(),
        format!(
            "`{}` is not an ISO 8601 timestamp: write the date, `T`, the time and the offset, \
             `\"2025-01-12T15:00:58Z\"` (seconds may have a fraction, `Z` may be an offset \
             such as `+02:00`)",
            literal.value()
        ),
    ));
    None
}

/// `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or `±HH:MM`, with each field in range.
fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>, max: u32| {
        text.get(range)
            .filter(|part| part.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|part| part.parse::<u32>().ok())
            .is_some_and(|value| value <= max)
    };
    let at = |index: usize, expected: u8| bytes.get(index) == Some(&expected);
    let date = number(0..4, 9999)
        && at(4, b'-')
        && number(5..7, 12)
        && text.get(5..7) != Some("00")
        && at(7, b'-')
        && number(8..10, 31)
        && text.get(8..10) != Some("00");
    let time = (at(10, b'T') || at(10, b't'))
        && number(11..13, 23)
        && at(13, b':')
        && number(14..16, 59)
        && at(16, b':')
        && number(17..19, 60);
    if !(date && time) {
        return false;
    }
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return false;
        }
        rest = &fraction[digits..];
    }
    match rest {
        "Z" | "z" => true,
        offset => {
            let offset = offset.as_bytes();
            offset.len() == 6
                && matches!(offset[0], b'+' | b'-')
                && offset[3] == b':'
                && [1, 2, 4, 5].iter().all(|&i| offset[i].is_ascii_digit())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_timestamp;

    #[test]
    fn reads_timestamps() {
        for good in [
            "2025-01-12T15:00:58Z",
            "2025-01-12T15:00:58.123Z",
            "2025-01-12T15:00:58+02:00",
            "2025-01-12T15:00:58.5-05:30",
        ] {
            assert!(is_timestamp(good), "{good}");
        }
        for bad in [
            "2025-01-12",
            "2025-01-12 15:00:58Z",
            "2025-13-12T15:00:58Z",
            "2025-00-12T15:00:58Z",
            "2025-01-12T25:00:58Z",
            "2025-01-12T15:00:58",
            "2025-01-12T15:00:58.Z",
            "2025-01-12T15:00:58+0200",
            "yesterday",
        ] {
            assert!(!is_timestamp(bad), "{bad}");
        }
    }
}
