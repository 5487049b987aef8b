//! Parsing the attribute's options: `#[mcp_tool(read_only, name = "add", ...)]`.

use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit, LitBool, LitStr, Meta, Token};

use crate::model::Errors;

/// Every option the attribute accepts, as listed in error messages.
const OPTIONS: [&str; 10] = [
    "name",
    "title",
    "description",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "timeout",
    "max_concurrency",
    "crate",
];

/// A behaviour hint as the user stated it.
#[derive(Clone, Copy)]
pub struct Hint {
    pub value: bool,
    pub span: Span,
}

/// The attribute's options, each `None` unless stated.
#[derive(Default)]
pub struct Options {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub read_only: Option<Hint>,
    pub destructive: Option<Hint>,
    pub idempotent: Option<Hint>,
    pub open_world: Option<Hint>,
    pub krate: Option<syn::Path>,
    /// `timeout = "30s"`, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// `max_concurrency = 4`.
    pub max_concurrency: Option<u32>,
}

impl Options {
    /// Parses the options, recording every problem in `errors` and keeping what is valid.
    pub fn parse(tokens: TokenStream, errors: &mut Errors) -> Options {
        let mut options = Options::default();
        let metas = match Punctuated::<Meta, Token![,]>::parse_terminated.parse2(tokens) {
            Ok(metas) => metas,
            Err(error) => {
                errors.push(error);
                return options;
            }
        };
        for meta in metas {
            options.apply(meta, errors);
        }
        if let (Some(read_only), Some(destructive)) = (options.read_only, options.destructive)
            && read_only.value
            && destructive.value
        {
            errors.push(syn::Error::new(
                destructive.span,
                "a tool cannot be both `read_only` and `destructive`: a read-only tool does not \
                 modify its environment, so it cannot destroy anything; remove one of the two",
            ));
        }
        options
    }

    fn apply(&mut self, meta: Meta, errors: &mut Errors) {
        let Some(key) = meta
            .path()
            .get_ident()
            .map(ToString::to_string)
            .or_else(|| {
                // `crate` is a keyword, so it is a path of one segment but not an `Ident` to syn.
                meta.path()
                    .segments
                    .first()
                    .filter(|_| meta.path().segments.len() == 1)
                    .map(|segment| segment.ident.to_string())
            })
        else {
            errors.push(unknown_option(&meta, "a path"));
            return;
        };
        match key.as_str() {
            "name" => set(&mut self.name, string_value(&meta, errors), &meta, errors),
            "title" => set(&mut self.title, string_value(&meta, errors), &meta, errors),
            "description" => set(
                &mut self.description,
                string_value(&meta, errors),
                &meta,
                errors,
            ),
            "read_only" => set(
                &mut self.read_only,
                hint_value(&meta, errors),
                &meta,
                errors,
            ),
            "destructive" => set(
                &mut self.destructive,
                hint_value(&meta, errors),
                &meta,
                errors,
            ),
            "idempotent" => set(
                &mut self.idempotent,
                hint_value(&meta, errors),
                &meta,
                errors,
            ),
            "open_world" => set(
                &mut self.open_world,
                hint_value(&meta, errors),
                &meta,
                errors,
            ),
            "timeout" => {
                let timeout =
                    string_value(&meta, errors).and_then(|literal| {
                        match parse_duration_ms(&literal.value()) {
                            Some(ms) if ms > 0 => Some(ms),
                            _ => {
                                errors.push(syn::Error::new(
                                    literal.span(),
                                    "`timeout` takes a positive duration with a unit: \
                                 `timeout = \"30s\"`, `\"500ms\"`, `\"2m\"` or `\"1h\"`",
                                ));
                                None
                            }
                        }
                    });
                set(&mut self.timeout_ms, timeout, &meta, errors)
            }
            "max_concurrency" => {
                let limit = integer_value(&meta, errors).filter(|limit| {
                    let positive = *limit > 0;
                    if !positive {
                        errors.push(syn::Error::new(
                            meta.span(),
                            "`max_concurrency` must be at least 1",
                        ));
                    }
                    positive
                });
                set(&mut self.max_concurrency, limit, &meta, errors)
            }
            "crate" => {
                let path = string_value(&meta, errors).and_then(|literal| match literal.parse() {
                    Ok(path) => Some(path),
                    Err(_) => {
                        errors.push(syn::Error::new(
                            literal.span(),
                            "`crate` takes the path of the renamed `mcp-runtime` dependency, e.g. `crate = \"mcp\"`",
                        ));
                        None
                    }
                });
                set(&mut self.krate, path, &meta, errors)
            }
            other => errors.push(unknown_option(&meta, other)),
        }
    }
}

/// Stores an option's value, refusing a second one.
fn set<T>(slot: &mut Option<T>, value: Option<T>, meta: &Meta, errors: &mut Errors) {
    let Some(value) = value else { return };
    if slot.is_some() {
        let key = quote::ToTokens::to_token_stream(meta.path()).to_string();
        errors.push(syn::Error::new(
            meta.path().span(),
            format!("`{key}` is set more than once; keep one"),
        ));
        return;
    }
    *slot = Some(value);
}

fn unknown_option(meta: &Meta, key: &str) -> syn::Error {
    let listed = OPTIONS.map(|option| format!("`{option}`")).join(", ");
    let message = match closest_option(key) {
        Some(suggestion) => {
            format!(
                "unknown option `{key}`; did you mean `{suggestion}`?\nthe options are: {listed}"
            )
        }
        None => format!("unknown option `{key}`; the options are: {listed}"),
    };
    syn::Error::new(meta.path().span(), message)
}

/// The valid option most like `key`, if any is close enough to be a likely typo.
fn closest_option(key: &str) -> Option<&'static str> {
    let normalized = key.to_ascii_lowercase().replace('-', "_");
    OPTIONS
        .into_iter()
        .map(|option| (edit_distance(&normalized, option), option))
        .filter(|(distance, option)| {
            *distance <= option.len().div_ceil(3)
                || option.replace('_', "") == normalized.replace('_', "")
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, option)| option)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substituted = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

fn string_value(meta: &Meta, errors: &mut Errors) -> Option<LitStr> {
    let key = quote::ToTokens::to_token_stream(meta.path()).to_string();
    match meta {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(literal),
                ..
            }) => Some(literal.clone()),
            other => {
                errors.push(syn::Error::new(
                    other.span(),
                    format!("`{key}` takes a string literal: `{key} = \"...\"`"),
                ));
                None
            }
        },
        _ => {
            errors.push(syn::Error::new(
                meta.span(),
                format!("`{key}` takes a string literal: `{key} = \"...\"`"),
            ));
            None
        }
    }
}

fn integer_value(meta: &Meta, errors: &mut Errors) -> Option<u32> {
    let key = quote::ToTokens::to_token_stream(meta.path()).to_string();
    let literal = match meta {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(ExprLit {
                lit: Lit::Int(literal),
                ..
            }) => Some(literal),
            _ => None,
        },
        _ => None,
    };
    match literal.map(syn::LitInt::base10_parse::<u32>) {
        Some(Ok(value)) => Some(value),
        _ => {
            errors.push(syn::Error::new(
                meta.span(),
                format!("`{key}` takes a whole number: `{key} = 4`"),
            ));
            None
        }
    }
}

/// `"30s"`, `"500ms"`, `"2m"`, `"1h"` in milliseconds.
fn parse_duration_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(split);
    let number: u64 = number.parse().ok()?;
    let factor = match unit.trim() {
        "ms" => 1,
        "s" => 1_000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        _ => return None,
    };
    number.checked_mul(factor)
}

fn hint_value(meta: &Meta, errors: &mut Errors) -> Option<Hint> {
    let key = quote::ToTokens::to_token_stream(meta.path()).to_string();
    match meta {
        Meta::Path(path) => Some(Hint {
            value: true,
            span: path.span(),
        }),
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(ExprLit {
                lit: Lit::Bool(LitBool { value, span }),
                ..
            }) => Some(Hint {
                value: *value,
                span: *span,
            }),
            other => {
                errors.push(syn::Error::new(
                    other.span(),
                    format!("`{key}` is a hint: write `{key}`, `{key} = true` or `{key} = false`"),
                ));
                None
            }
        },
        Meta::List(list) => {
            errors.push(syn::Error::new(
                list.delimiter.span().join(),
                format!("`{key}` is a hint: write `{key}`, `{key} = true` or `{key} = false`"),
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_durations() {
        assert_eq!(parse_duration_ms("30s"), Some(30_000));
        assert_eq!(parse_duration_ms("500ms"), Some(500));
        assert_eq!(parse_duration_ms("2m"), Some(120_000));
        assert_eq!(parse_duration_ms("1h"), Some(3_600_000));
        assert_eq!(parse_duration_ms("30"), None);
        assert_eq!(parse_duration_ms("s"), None);
        assert_eq!(parse_duration_ms("3 days"), None);
    }

    #[test]
    fn suggests_the_closest_option() {
        assert_eq!(closest_option("readonly"), Some("read_only"));
        assert_eq!(closest_option("read-only"), Some("read_only"));
        assert_eq!(closest_option("idempotnet"), Some("idempotent"));
        assert_eq!(closest_option("titel"), Some("title"));
        assert_eq!(closest_option("openworld"), Some("open_world"));
        assert_eq!(closest_option("banana"), None);
    }
}
