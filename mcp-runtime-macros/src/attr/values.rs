//! The values options take: strings, lists of tags, whole numbers, durations (`"30s"`),
//! rates (`"10/s"`), task support (`"optional"`) and behaviour hints (`read_only` or
//! `read_only = false`), each checked on its own token.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Expr, ExprArray, ExprLit, Lit, LitBool, LitStr, Meta};

use crate::errors::Errors;

/// A behaviour hint as the user stated it.
#[derive(Clone, Copy)]
pub struct Hint {
    pub value: bool,
    pub span: Span,
}

/// `rate = "10/s"`: calls per second, minute or hour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    pub calls: u32,
    pub per: RatePeriod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatePeriod {
    Second,
    Minute,
    Hour,
}

/// `task = "optional"`: whether calls may, must or may not run as tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskSupport {
    Forbidden,
    Optional,
    Required,
}

/// Stores an option's value, refusing a second one.
pub(super) fn set<T>(slot: &mut Option<T>, value: Option<T>, meta: &Meta, errors: &mut Errors) {
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

pub(super) fn string_value(meta: &Meta, errors: &mut Errors) -> Option<LitStr> {
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

/// `scopes = ["notes:read", "notes:write"]`: string literals, each an OAuth scope token
/// (RFC 6749 §3.3: printable ASCII without space, `"` and `\`), none twice.
pub(super) fn scopes_value(meta: &Meta, errors: &mut Errors) -> Option<Vec<LitStr>> {
    let list = DistinctList {
        option: "scopes",
        noun: "scope",
        example: "[\"notes:read\", \"notes:write\"]",
    };
    let (array, scopes) = list.parse(meta, errors, |value| {
        let valid = !value.is_empty()
            && value
                .bytes()
                .all(|byte| (0x21..=0x7e).contains(&byte) && byte != b'"' && byte != b'\\');
        (!valid).then(|| {
            format!(
                "`{value}` is not a valid scope: a scope is printable ASCII without spaces, \
                 `\"` or `\\`, e.g. `\"notes:write\"`"
            )
        })
    })?;
    if array.elems.is_empty() {
        errors.push(syn::Error::new(
            array.span(),
            "`scopes = []` requires nothing; remove it, or name the scopes a caller must hold",
        ));
        return None;
    }
    Some(scopes)
}

/// An option taking a list of string literals, each checked and none twice: `tags`,
/// `scopes`.
struct DistinctList {
    option: &'static str,
    /// One item, for messages: "tag".
    noun: &'static str,
    /// A valid list, for messages.
    example: &'static str,
}

impl DistinctList {
    /// The array and its valid literals. Every element that is no string literal, fails
    /// `problem` (which says why) or repeats one before it is reported; `None` when the
    /// value is not an array at all.
    fn parse<'a>(
        &self,
        meta: &'a Meta,
        errors: &mut Errors,
        problem: impl Fn(&str) -> Option<String>,
    ) -> Option<(&'a ExprArray, Vec<LitStr>)> {
        let usage = format!(
            "`{}` takes a list of string literals: `{} = {}`",
            self.option, self.option, self.example
        );
        let Meta::NameValue(pair) = meta else {
            errors.push(syn::Error::new(meta.span(), usage));
            return None;
        };
        let Expr::Array(array) = &pair.value else {
            errors.push(syn::Error::new(pair.value.span(), usage));
            return None;
        };
        let mut kept: Vec<LitStr> = Vec::new();
        for element in &array.elems {
            let Expr::Lit(ExprLit {
                lit: Lit::Str(literal),
                ..
            }) = element
            else {
                errors.push(syn::Error::new(element.span(), &usage));
                continue;
            };
            let value = literal.value();
            if let Some(problem) = problem(&value) {
                errors.push(syn::Error::new(literal.span(), problem));
            } else if kept.iter().any(|seen| seen.value() == value) {
                errors.push(syn::Error::new(
                    literal.span(),
                    format!(
                        "{} `{value}` is listed twice in `{}`; keep one",
                        self.noun, self.option
                    ),
                ));
            } else {
                kept.push(literal.clone());
            }
        }
        Some((array, kept))
    }
}

/// `layer = <expression>`: any expression whose value is a layer (checked by the type
/// system where the expansion uses it), e.g. `layer = ResponseCache::new(100, ttl())`.
pub(super) fn layer_value(meta: &Meta, errors: &mut Errors) -> Option<Expr> {
    match meta {
        Meta::NameValue(pair) => Some(pair.value.clone()),
        _ => {
            errors.push(syn::Error::new(
                meta.span(),
                "`layer` takes an expression that makes a layer: `layer = my_layer()` \
                 (see `mcp_runtime::middleware`)",
            ));
            None
        }
    }
}

/// `tags = ["admin", "files"]`: string literals, each a valid tag, none twice. Every bad
/// literal is reported; the valid ones are kept.
pub(super) fn tags_value(meta: &Meta, errors: &mut Errors) -> Option<Vec<LitStr>> {
    let list = DistinctList {
        option: "tags",
        noun: "tag",
        example: "[\"admin\", \"files\"]",
    };
    let (_, tags) = list.parse(meta, errors, |value| {
        if value.is_empty() {
            Some("a tag cannot be empty; remove `\"\"` from `tags`".to_owned())
        } else if !value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        {
            Some(format!(
                "`{value}` is not a valid tag: use one or more ASCII letters, digits, \
                 `_`, `.` or `-`, e.g. `tags = [\"admin\", \"files.read\"]`"
            ))
        } else {
            None
        }
    })?;
    Some(tags)
}

pub(super) fn integer_value(meta: &Meta, errors: &mut Errors) -> Option<u32> {
    whole_number(meta, "4", errors)
}

/// `size = 1024`: a whole number of bytes.
pub(super) fn u64_value(meta: &Meta, errors: &mut Errors) -> Option<u64> {
    whole_number(meta, "1024", errors)
}

/// `key = N`, a whole number that fits `N`'s type; `example` shows one in the error.
pub(super) fn whole_number<N>(meta: &Meta, example: &str, errors: &mut Errors) -> Option<N>
where
    N: std::str::FromStr,
    N::Err: std::fmt::Display,
{
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
    match literal.map(syn::LitInt::base10_parse::<N>) {
        Some(Ok(value)) => Some(value),
        _ => {
            errors.push(syn::Error::new(
                meta.span(),
                format!("`{key}` takes a whole number: `{key} = {example}`"),
            ));
            None
        }
    }
}

/// `"30s"`, `"500ms"`, `"2m"`, `"1h"` in milliseconds.
pub(super) fn parse_duration_ms(text: &str) -> Option<u64> {
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

/// `"10/s"`, `"100/min"`, `"1000/h"`; the error says what is wrong and how to write it.
pub(super) fn parse_rate(text: &str) -> Result<Rate, String> {
    const USAGE: &str =
        "write calls per `s`, `min` or `h`: `rate = \"10/s\"`, `\"100/min\"` or `\"1000/h\"`";
    let Some((calls, unit)) = text.split_once('/') else {
        return Err(format!("`{text}` is not a rate; {USAGE}"));
    };
    let per = match unit.trim() {
        "s" => RatePeriod::Second,
        "min" => RatePeriod::Minute,
        "h" => RatePeriod::Hour,
        "sec" | "second" => return Err(format!("unknown unit `{unit}`; write `/s`")),
        "m" | "minute" => return Err(format!("unknown unit `{unit}`; write `/min`")),
        "hour" => return Err(format!("unknown unit `{unit}`; write `/h`")),
        _ => return Err(format!("unknown unit `{unit}`; {USAGE}")),
    };
    let calls = match calls.trim().parse::<u32>() {
        Ok(0) => {
            return Err(format!(
                "a rate of 0 would refuse every call; allow at least 1, or disable the tool \
                 with `ToolSet::disable`; {USAGE}"
            ));
        }
        Ok(calls) => calls,
        Err(_) => {
            return Err(format!(
                "`{}` is not a number of calls (a whole number from 1 to {}); {USAGE}",
                calls.trim(),
                u32::MAX
            ));
        }
    };
    Ok(Rate { calls, per })
}

/// `task = "optional"`, `"required"` or `"forbidden"`; anything else is reported on the
/// value (on the option when there is none).
pub(super) fn task_value(meta: &Meta, errors: &mut Errors) -> Option<TaskSupport> {
    const USAGE: &str = "`task` takes \"optional\", \"required\" or \"forbidden\" (the default): \
                         `task = \"optional\"`";
    let value = match meta {
        Meta::NameValue(pair) => &pair.value,
        Meta::Path(path) => {
            errors.push(syn::Error::new(path.span(), USAGE));
            return None;
        }
        Meta::List(list) => {
            errors.push(syn::Error::new(list.delimiter.span().join(), USAGE));
            return None;
        }
    };
    let support = match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(literal),
            ..
        }) => match literal.value().as_str() {
            "optional" => Some(TaskSupport::Optional),
            "required" => Some(TaskSupport::Required),
            "forbidden" => Some(TaskSupport::Forbidden),
            _ => None,
        },
        _ => None,
    };
    if support.is_none() {
        errors.push(syn::Error::new(value.span(), USAGE));
    }
    support
}

pub(super) fn hint_value(meta: &Meta, errors: &mut Errors) -> Option<Hint> {
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

/// `visibility = ["app"]`: who may call a tool (MCP Apps `_meta.ui.visibility`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    ModelAndApp,
    Model,
    App,
}

/// `ui = "ui://weather/view"`: the tool's view, a URI with the `ui://` scheme the spec
/// requires of views, and something after it.
pub(super) fn ui_value(meta: &Meta, errors: &mut Errors) -> Option<LitStr> {
    let literal = string_value(meta, errors)?;
    let value = literal.value();
    match value.strip_prefix("ui://") {
        Some(rest) if !rest.is_empty() && !rest.contains(char::is_whitespace) => Some(literal),
        _ => {
            errors.push(syn::Error::new(
                literal.span(),
                format!(
                    "`ui` names the tool's view, a resource whose URI starts with `ui://`, \
                     not `{value}`: `ui = \"ui://weather/view\"`"
                ),
            ));
            None
        }
    }
}

/// `visibility = ["model", "app"]`: `"model"`, `"app"` or both, each once.
pub(super) fn visibility_value(meta: &Meta, errors: &mut Errors) -> Option<Visibility> {
    let list = DistinctList {
        option: "visibility",
        noun: "entry",
        example: "[\"app\"]",
    };
    let (array, names) = list.parse(meta, errors, |value| {
        (!matches!(value, "model" | "app")).then(|| {
            format!(
                "`{value}` is no visibility: write `\"model\"` (the model may call the tool), \
                 `\"app\"` (its view may) or both, e.g. `visibility = [\"app\"]`"
            )
        })
    })?;
    let model = names.iter().any(|name| name.value() == "model");
    let app = names.iter().any(|name| name.value() == "app");
    let visibility = match (model, app) {
        (true, true) => Visibility::ModelAndApp,
        (true, false) => Visibility::Model,
        (false, true) => Visibility::App,
        (false, false) => {
            if array.elems.is_empty() {
                errors.push(syn::Error::new(
                    array.span(),
                    "`visibility = []` would hide the tool from everyone; write `[\"app\"]`, \
                     `[\"model\"]` or remove it (the default is both)",
                ));
            }
            return None;
        }
    };
    Some(visibility)
}
