//! Parsing the attribute's options, `#[mcp_tool(read_only, name = "add", ...)]`,
//! `#[mcp_resource(uri = "...", ...)]`, `#[mcp_prompt(...)]`, and the parameters' own,
//! `#[mcp(default = 10)]`; and, for `#[mcp_tools]`, taking each method's `#[mcp_tool(...)]`
//! off it. The values of `icon` and of a resource's annotations are read in the child
//! modules `icon` and `annotations`; strings, tags, numbers, durations, rates and hints in
//! `values`.
mod annotations;

mod icon;
mod values;

use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, LitStr, Meta, Path, Token};

pub use self::annotations::Audience;
pub use self::icon::Icon;
pub use self::values::{Hint, Rate, RatePeriod, TaskSupport, Visibility};
use self::values::{
    hint_value, integer_value, layer_value, parse_duration_ms, parse_rate, scopes_value, set,
    string_value, tags_value, task_value, u64_value, ui_value, visibility_value,
};
use crate::errors::Errors;

/// Which attribute the options belong to: each accepts options of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Tool,
    Resource,
    Prompt,
}

impl Kind {
    /// Every option the attribute accepts, as listed in error messages.
    fn options(self) -> &'static [&'static str] {
        match self {
            Kind::Tool => &TOOL_OPTIONS,
            Kind::Resource => &RESOURCE_OPTIONS,
            Kind::Prompt => &PROMPT_OPTIONS,
        }
    }

    /// The word messages use for what the attribute makes: "tool", "resource", "prompt".
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Resource => "resource",
            Kind::Prompt => "prompt",
        }
    }

    /// The attribute as users write it: `mcp_tool`, `mcp_resource`, `mcp_prompt`.
    pub fn attribute(self) -> &'static str {
        match self {
            Kind::Tool => "mcp_tool",
            Kind::Resource => "mcp_resource",
            Kind::Prompt => "mcp_prompt",
        }
    }
}

const TOOL_OPTIONS: [&str; 19] = [
    "name",
    "title",
    "description",
    "tags",
    "scopes",
    "layer",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "timeout",
    "max_concurrency",
    "rate",
    "task",
    "input_before_task",
    "icon",
    "ui",
    "visibility",
    "crate",
];

const RESOURCE_OPTIONS: [&str; 12] = [
    "uri",
    "scopes",
    "name",
    "title",
    "description",
    "mime_type",
    "size",
    "audience",
    "priority",
    "last_modified",
    "icon",
    "crate",
];

const PROMPT_OPTIONS: [&str; 6] = ["name", "title", "description", "scopes", "icon", "crate"];

/// The attribute's options, each `None` unless stated.
#[derive(Default)]
pub struct Options {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    /// `tags = ["admin", "files"]`, each checked.
    pub tags: Option<Vec<LitStr>>,
    /// `scopes = ["notes:write"]`, each an OAuth scope token.
    pub scopes: Option<Vec<LitStr>>,
    /// Each `layer = <expression>`, in order: the tool's own middleware.
    pub layers: Vec<syn::Expr>,
    pub read_only: Option<Hint>,
    pub destructive: Option<Hint>,
    pub idempotent: Option<Hint>,
    pub open_world: Option<Hint>,
    pub krate: Option<syn::Path>,
    /// `timeout = "30s"`, in milliseconds.
    pub timeout_ms: Option<u64>,
    /// `max_concurrency = 4`.
    pub max_concurrency: Option<u32>,
    /// `rate = "10/s"`.
    pub rate: Option<Rate>,
    /// `task = "optional"`.
    pub task: Option<TaskSupport>,
    /// `input_before_task`: input asked in rounds before the call becomes a task.
    pub input_before_task: Option<Hint>,
    /// Each `icon = "..."` or `icon(src = "...", ...)`, in order.
    pub icons: Vec<Icon>,
    /// `ui = "ui://..."`: the tool's MCP Apps view.
    pub ui: Option<LitStr>,
    /// `visibility = ["app"]`: who may call the tool.
    pub visibility: Option<Visibility>,
    /// A resource's `uri = "..."`, checked by the model (it decides fixed or template).
    pub uri: Option<LitStr>,
    /// A resource's `mime_type = "..."`.
    pub mime_type: Option<LitStr>,
    /// A resource's `size = N`, with its literal: a template cannot have one.
    pub size: Option<(u64, Span)>,
    /// A resource's `audience = ["user", "assistant"]`, each role once.
    pub audience: Option<Vec<Audience>>,
    /// A resource's `priority = 0.5`, from 0 to 1.
    pub priority: Option<f64>,
    /// A resource's `last_modified = "2025-01-12T15:00:58Z"`, checked as ISO 8601.
    pub last_modified: Option<LitStr>,
}

impl Options {
    /// The scopes stated (`scopes = [...]`), none when unstated.
    pub fn scope_names(&self) -> Vec<String> {
        self.scopes.iter().flatten().map(LitStr::value).collect()
    }

    /// The options of a method's `#[mcp_tool]`, `#[mcp_tool]` alone or
    /// `#[mcp_tool(option, ...)]`, as `#[mcp_tools]` finds it.
    fn from_attribute(attribute: &Attribute, errors: &mut Errors) -> Options {
        match &attribute.meta {
            Meta::Path(_) => Options::default(),
            Meta::List(list) => Options::parse(list.tokens.clone(), Kind::Tool, errors),
            Meta::NameValue(pair) => {
                errors.push(syn::Error::new(
                    pair.eq_token.span,
                    "write the options in parentheses: `#[mcp_tool(name = \"...\", ...)]`",
                ));
                Options::default()
            }
        }
    }

    /// Parses the options of a `kind` attribute, recording every problem in `errors` and
    /// keeping what is valid.
    pub fn parse(tokens: TokenStream, kind: Kind, errors: &mut Errors) -> Options {
        let mut options = Options::default();
        let metas = match Punctuated::<Meta, Token![,]>::parse_terminated.parse2(tokens) {
            Ok(metas) => metas,
            Err(error) => {
                errors.push(error);
                return options;
            }
        };
        for meta in metas {
            options.apply(meta, kind, errors);
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
        if let Some(flag) = options.input_before_task
            && flag.value
            && matches!(options.task, None | Some(TaskSupport::Forbidden))
        {
            errors.push(syn::Error::new(
                flag.span,
                "`input_before_task` is for a tool that runs as a task: add \
                 `task = \"optional\"` or `task = \"required\"`, or remove it",
            ));
        }
        options
    }

    fn apply(&mut self, meta: Meta, kind: Kind, errors: &mut Errors) {
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
            errors.push(unknown_option(&meta, "a path", kind));
            return;
        };
        // An option of another attribute (`read_only` on a resource) is unknown here too.
        if !kind.options().contains(&key.as_str()) {
            errors.push(unknown_option(&meta, &key, kind));
            return;
        }
        match key.as_str() {
            "name" => set(&mut self.name, string_value(&meta, errors), &meta, errors),
            "title" => set(&mut self.title, string_value(&meta, errors), &meta, errors),
            "description" => set(
                &mut self.description,
                string_value(&meta, errors),
                &meta,
                errors,
            ),
            "tags" => set(&mut self.tags, tags_value(&meta, errors), &meta, errors),
            "scopes" => set(&mut self.scopes, scopes_value(&meta, errors), &meta, errors),
            // Repeatable: each occurrence adds one layer, inner to the ones before it.
            "layer" => self.layers.extend(layer_value(&meta, errors)),
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
            "rate" => {
                let rate = string_value(&meta, errors).and_then(|literal| {
                    let rate = parse_rate(&literal.value());
                    if let Err(problem) = &rate {
                        errors.push(syn::Error::new(literal.span(), problem));
                    }
                    rate.ok()
                });
                set(&mut self.rate, rate, &meta, errors)
            }
            "task" => set(&mut self.task, task_value(&meta, errors), &meta, errors),
            "input_before_task" => set(
                &mut self.input_before_task,
                hint_value(&meta, errors),
                &meta,
                errors,
            ),
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
            // Repeatable: each occurrence adds one icon.
            "icon" => self.icons.extend(icon::icon_value(&meta, errors)),
            "ui" => set(&mut self.ui, ui_value(&meta, errors), &meta, errors),
            "visibility" => set(
                &mut self.visibility,
                visibility_value(&meta, errors),
                &meta,
                errors,
            ),
            "uri" => set(&mut self.uri, string_value(&meta, errors), &meta, errors),
            "mime_type" => set(
                &mut self.mime_type,
                string_value(&meta, errors),
                &meta,
                errors,
            ),
            "size" => {
                let size = u64_value(&meta, errors).map(|size| (size, meta.span()));
                set(&mut self.size, size, &meta, errors)
            }
            "audience" => set(
                &mut self.audience,
                annotations::audience_value(&meta, errors),
                &meta,
                errors,
            ),
            "priority" => set(
                &mut self.priority,
                annotations::priority_value(&meta, errors),
                &meta,
                errors,
            ),
            "last_modified" => set(
                &mut self.last_modified,
                annotations::last_modified_value(&meta, errors),
                &meta,
                errors,
            ),
            other => errors.push(unknown_option(&meta, other, kind)),
        }
    }
}

fn unknown_option(meta: &Meta, key: &str, kind: Kind) -> syn::Error {
    let options = kind.options();
    let listed = options
        .iter()
        .map(|option| format!("`{option}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let attribute = kind.attribute();
    let message = match closest_option(key, options) {
        Some(suggestion) => {
            format!(
                "unknown option `{key}`; did you mean `{suggestion}`?\nthe options of \
                 #[{attribute}] are: {listed}"
            )
        }
        None => format!("unknown option `{key}`; the options of #[{attribute}] are: {listed}"),
    };
    syn::Error::new(meta.path().span(), message)
}

/// The valid option most like `key`, if any is close enough to be a likely typo.
fn closest_option(key: &str, options: &[&'static str]) -> Option<&'static str> {
    let normalized = key.to_ascii_lowercase().replace('-', "_");
    options
        .iter()
        .copied()
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

/// Whether an attribute is `#[mcp_tool]`, however its path is spelled (`mcp_tool`,
/// `mcp_runtime::mcp_tool`, `mcp::mcp_tool`).
fn is_tool_attribute(attribute: &Attribute) -> bool {
    let last = attribute.path().segments.last();
    last.is_some_and(|last| last.ident == "mcp_tool")
}

/// Takes a method's `#[mcp_tool(...)]` off it, so that the attribute does not expand again
/// inside the impl block, and returns its path and its options: `None` for a method that is
/// no tool.
pub fn take_tool_attribute(
    attributes: &mut Vec<Attribute>,
    errors: &mut Errors,
) -> Option<(Path, Options)> {
    let mut tool = None;
    let mut kept = Vec::with_capacity(attributes.len());
    for attribute in attributes.drain(..) {
        if !is_tool_attribute(&attribute) {
            kept.push(attribute);
            continue;
        }
        if tool.is_some() {
            errors.push(syn::Error::new_spanned(
                &attribute,
                "#[mcp_tool] is given twice on this method; keep one",
            ));
        } else {
            let options = Options::from_attribute(&attribute, errors);
            tool = Some((attribute.path().clone(), options));
        }
    }
    *attributes = kept;
    tool
}

/// What a parameter's `#[mcp(...)]` attributes say.
#[derive(Default)]
pub struct ParamOptions {
    pub default: Option<DefaultValue>,
    /// `#[mcp(rename = "units")]`: the name clients see, in place of the Rust name.
    pub rename: Option<LitStr>,
    /// `#[mcp(complete = languages)]`: the function completing a prompt argument or a
    /// template variable (the model refuses it elsewhere).
    pub complete: Option<Path>,
    /// `#[mcp(header = "Region")]`: the tool argument is mirrored into the HTTP header
    /// `Mcp-Param-Region` (the model refuses it elsewhere).
    pub header: Option<LitStr>,
}

/// `#[mcp(default = expr)]` or `#[mcp(default)]`.
pub struct DefaultValue {
    /// The `default` key, where errors about the option itself go.
    pub key: Span,
    /// The expression, evaluated whenever the default is needed; `None` for
    /// `Default::default()`.
    pub expr: Option<Expr>,
}

/// Every option `#[mcp(...)]` on a parameter accepts.
const PARAM_OPTIONS: [&str; 4] = ["default", "rename", "complete", "header"];

/// Whether an attribute is a parameter's `#[mcp(...)]` (stripped from the function: it
/// means nothing to rustc).
pub fn is_param_attribute(attribute: &Attribute) -> bool {
    attribute.path().is_ident("mcp")
}

impl ParamOptions {
    /// Reads every `#[mcp(...)]` of one parameter, recording every problem in `errors`.
    pub fn parse(attributes: &[Attribute], errors: &mut Errors) -> ParamOptions {
        let mut options = ParamOptions::default();
        for attribute in attributes.iter().filter(|a| is_param_attribute(a)) {
            let metas =
                match attribute.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated) {
                    Ok(metas) => metas,
                    Err(error) => {
                        errors.push(syn::Error::new(
                            error.span(),
                            format!(
                                "{error}; write `#[mcp(default = value)]`, `#[mcp(default)]`, \
                                 `#[mcp(rename = \"name\")]`, `#[mcp(complete = function)]` or \
                                 `#[mcp(header = \"Name\")]`"
                            ),
                        ));
                        continue;
                    }
                };
            for meta in metas {
                options.apply(meta, errors);
            }
        }
        options
    }

    fn apply(&mut self, meta: Meta, errors: &mut Errors) {
        let key = quote::ToTokens::to_token_stream(meta.path()).to_string();
        match key.as_str() {
            "default" => self.apply_default(meta, errors),
            "rename" => {
                let name = string_value(&meta, errors);
                set(&mut self.rename, name, &meta, errors);
            }
            "header" => {
                let name = string_value(&meta, errors);
                set(&mut self.header, name, &meta, errors);
            }
            "complete" => {
                let function = match &meta {
                    Meta::NameValue(pair) => match &pair.value {
                        Expr::Path(path) if path.qself.is_none() => Some(path.path.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                if function.is_none() {
                    errors.push(syn::Error::new(
                        meta.span(),
                        "`complete` takes the path of a completion function: \
                         `#[mcp(complete = languages)]`",
                    ));
                }
                set(&mut self.complete, function, &meta, errors);
            }
            _ => {
                let listed = PARAM_OPTIONS.map(|option| format!("`{option}`")).join(", ");
                let message = match closest_option(&key, &PARAM_OPTIONS) {
                    Some(suggestion) => format!(
                        "unknown parameter option `{key}`; did you mean `{suggestion}`?\n\
                         the options of `#[mcp(...)]` on a parameter are: {listed}"
                    ),
                    None => format!(
                        "unknown parameter option `{key}`; the options of `#[mcp(...)]` on a \
                         parameter are: {listed}"
                    ),
                };
                errors.push(syn::Error::new(meta.path().span(), message));
            }
        }
    }

    fn apply_default(&mut self, meta: Meta, errors: &mut Errors) {
        let key = meta.path().span();
        let value = match meta {
            Meta::Path(_) => Some(DefaultValue { key, expr: None }),
            Meta::NameValue(pair) => Some(DefaultValue {
                key,
                expr: Some(pair.value),
            }),
            Meta::List(list) => {
                errors.push(syn::Error::new(
                    list.delimiter.span().join(),
                    "`default` takes a value, `#[mcp(default = 10)]`, or none, \
                     `#[mcp(default)]` for `Default::default()`",
                ));
                None
            }
        };
        if value.is_some() && self.default.is_some() {
            errors.push(syn::Error::new(
                key,
                "`default` is set more than once for this parameter; keep one",
            ));
            return;
        }
        if value.is_some() {
            self.default = value;
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
    fn reads_rates() {
        let rate = |calls, per| Ok(Rate { calls, per });
        assert_eq!(parse_rate("10/s"), rate(10, RatePeriod::Second));
        assert_eq!(parse_rate("100 / min"), rate(100, RatePeriod::Minute));
        assert_eq!(parse_rate("1000/h"), rate(1000, RatePeriod::Hour));
        for bad in [
            "10",
            "0/s",
            "10/sec",
            "10/m",
            "ten/s",
            "-1/s",
            "4294967296/s",
            "10/day",
        ] {
            assert!(parse_rate(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn suggests_the_closest_option() {
        assert_eq!(closest_option("readonly", &TOOL_OPTIONS), Some("read_only"));
        assert_eq!(
            closest_option("read-only", &TOOL_OPTIONS),
            Some("read_only")
        );
        assert_eq!(
            closest_option("idempotnet", &TOOL_OPTIONS),
            Some("idempotent")
        );
        assert_eq!(closest_option("titel", &TOOL_OPTIONS), Some("title"));
        assert_eq!(
            closest_option("openworld", &TOOL_OPTIONS),
            Some("open_world")
        );
        assert_eq!(closest_option("tag", &TOOL_OPTIONS), Some("tags"));
        assert_eq!(closest_option("tasks", &TOOL_OPTIONS), Some("task"));
        assert_eq!(closest_option("Task", &TOOL_OPTIONS), Some("task"));
        assert_eq!(closest_option("banana", &TOOL_OPTIONS), None);
        assert_eq!(closest_option("defualt", &PARAM_OPTIONS), Some("default"));
        assert_eq!(closest_option("default_value", &PARAM_OPTIONS), None);
    }
}
