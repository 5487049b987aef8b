//! The typed model of one tool, read from the user's function and the attribute's options,
//! with the checks of the signature and the parameters. Every problem found is recorded;
//! the model keeps whatever is valid. It holds values, not tokens: `expand` decides how
//! they are spelled in the generated code.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{FnArg, GenericArgument, Ident, ItemFn, LitStr, Pat, PathArguments, Type};

use crate::attr::{DefaultValue, Hint, Options, ParamOptions, Rate};
use crate::docs;
use crate::errors::Errors;

/// Tool names every revision and the conformance suite accept.
const NAME_RULE: &str = "1 to 64 characters, each an ASCII letter, digit, `_`, `.` or `-`";

/// One argument of the tool.
pub struct Param<'a> {
    /// The property name in `inputSchema`.
    pub name: String,
    pub ty: &'a Type,
    pub description: Option<String>,
    /// `Option<T>`: not required.
    pub optional: bool,
    /// `#[mcp(default = ...)]`: not required either; the tool gets this when it is absent.
    pub default: Option<DefaultValue>,
}

impl Param<'_> {
    /// Whether the property is listed in `required`.
    pub fn required(&self) -> bool {
        !self.optional && self.default.is_none()
    }
}

/// A tool: the function and everything the attribute says about it.
pub struct Tool<'a> {
    pub function: &'a ItemFn,
    pub name: String,
    /// The name's literal, or the function's name: where a duplicate name is reported.
    pub name_span: Span,
    pub tags: Vec<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
    pub params: Vec<Param<'a>>,
    pub timeout_ms: Option<u64>,
    pub max_concurrency: Option<u32>,
    pub rate: Option<Rate>,
    /// `crate = "..."`: the path of the renamed runtime crate; `None` for `::mcp_runtime`.
    pub krate: Option<syn::Path>,
}

impl<'a> Tool<'a> {
    /// Reads the tool from the function and its parsed options, recording every problem.
    pub fn new(function: &'a ItemFn, options: Options, errors: &mut Errors) -> Tool<'a> {
        check_signature(function, errors);
        let (name, name_span) = match &options.name {
            Some(literal) => (literal.value(), literal.span()),
            None => (unraw(&function.sig.ident), function.sig.ident.span()),
        };
        let name = checked_name(name, name_span, errors);
        let docs = docs::function_docs(&function.attrs);
        let description = match &options.description {
            Some(literal) => {
                Some(literal.value().trim().to_owned()).filter(|text| !text.is_empty())
            }
            None => docs.description,
        };
        let mut params: Vec<Param<'a>> = function
            .sig
            .inputs
            .iter()
            .filter_map(|input| param(input, errors))
            .collect();
        describe_from_arguments_section(&mut params, docs.arguments, &function.sig, errors);
        Tool {
            function,
            name,
            name_span,
            tags: options.tags.iter().flatten().map(LitStr::value).collect(),
            title: options.title.as_ref().map(LitStr::value),
            description,
            read_only: options.read_only.map(hint),
            destructive: options.destructive.map(hint),
            idempotent: options.idempotent.map(hint),
            open_world: options.open_world.map(hint),
            params,
            timeout_ms: options.timeout_ms,
            max_concurrency: options.max_concurrency,
            rate: options.rate,
            krate: options.krate,
        }
    }

    pub fn is_async(&self) -> bool {
        self.function.sig.asyncness.is_some()
    }
}

fn hint(hint: Hint) -> bool {
    hint.value
}

fn unraw(ident: &Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map(str::to_owned).unwrap_or(text)
}

fn checked_name(name: String, span: Span, errors: &mut Errors) -> String {
    let valid_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if name.is_empty() || name.len() > 64 || !valid_chars {
        errors.push(syn::Error::new(
            span,
            format!(
                "`{name}` is not a valid tool name: use {NAME_RULE}; \
                 set one with #[mcp_tool(name = \"...\")]"
            ),
        ));
    }
    name
}

/// Rejects what a tool function cannot be, each error on the offending tokens.
fn check_signature(function: &ItemFn, errors: &mut Errors) {
    let signature = &function.sig;
    if let Some(unsafety) = &signature.unsafety {
        errors.push(syn::Error::new(
            unsafety.span(),
            "a tool cannot be an `unsafe fn`: clients call it with arbitrary arguments; \
             make the function safe and keep the `unsafe` block inside it",
        ));
    }
    if let Some(abi) = &signature.abi {
        errors.push(syn::Error::new(
            abi.span(),
            "a tool cannot have an `extern` ABI; remove it",
        ));
    }
    if !signature.generics.params.is_empty() || signature.generics.where_clause.is_some() {
        errors.push(syn::Error::new(
            signature.generics.span(),
            "a tool cannot be generic: each tool needs concrete parameter types for its \
             schema; write a non-generic function (it may call a generic one)",
        ));
    }
    if let Some(variadic) = &signature.variadic {
        errors.push(syn::Error::new(
            variadic.span(),
            "a tool cannot be variadic",
        ));
    }
}

/// Fills the descriptions the parameters' own `///` comments leave out from the function's
/// `# Arguments` list; an entry naming no parameter is an error on its doc line.
fn describe_from_arguments_section(
    params: &mut [Param<'_>],
    entries: Vec<docs::ArgumentDoc>,
    signature: &syn::Signature,
    errors: &mut Errors,
) {
    let mut described: Vec<String> = Vec::new();
    for entry in entries {
        let Some(param) = params.iter_mut().find(|param| param.name == entry.name) else {
            let names: Vec<String> = signature
                .inputs
                .iter()
                .filter_map(|input| match input {
                    FnArg::Typed(typed) => match &*typed.pat {
                        Pat::Ident(binding) => Some(format!("`{}`", unraw(&binding.ident))),
                        _ => None,
                    },
                    FnArg::Receiver(_) => None,
                })
                .collect();
            let listed = if names.is_empty() {
                "it has none".to_owned()
            } else {
                format!("its parameters are {}", names.join(", "))
            };
            errors.push(syn::Error::new(
                entry.span,
                format!(
                    "`# Arguments` describes `{}`, which is not a parameter of `{}` ({listed}); \
                     correct the name or remove the entry",
                    entry.name, signature.ident
                ),
            ));
            continue;
        };
        if described.contains(&entry.name) {
            errors.push(syn::Error::new(
                entry.span,
                format!(
                    "`# Arguments` describes `{}` twice; keep one entry",
                    entry.name
                ),
            ));
            continue;
        }
        described.push(entry.name);
        if param.description.is_none() && !entry.text.is_empty() {
            param.description = Some(entry.text);
        }
    }
}

fn param<'a>(input: &'a FnArg, errors: &mut Errors) -> Option<Param<'a>> {
    let typed = match input {
        FnArg::Receiver(receiver) => {
            errors.push(syn::Error::new(
                receiver.span(),
                "a tool cannot take `self`: #[mcp_tool] goes on a free function; \
                 reach shared data through a `static` or the function's arguments",
            ));
            return None;
        }
        FnArg::Typed(typed) => typed,
    };
    let ident = match &*typed.pat {
        Pat::Ident(binding) if binding.by_ref.is_none() && binding.subpat.is_none() => {
            &binding.ident
        }
        other => {
            errors.push(syn::Error::new(
                other.span(),
                "tool parameters must be plain names, because each name becomes an argument \
                 in the tool's input schema; bind the value to a name and destructure it in the body",
            ));
            return None;
        }
    };
    match not_owned(&typed.ty) {
        Some(Type::ImplTrait(impl_trait)) => {
            errors.push(syn::Error::new(
                impl_trait.span(),
                "tool parameters need a concrete type for the input schema; \
                 replace `impl Trait` with a type",
            ));
            return None;
        }
        Some(borrowed) => {
            errors.push(syn::Error::new(
                borrowed.span(),
                "tool parameters must be owned values, decoded from the call's JSON arguments: \
                 use `String` instead of `&str`, `Vec<T>` instead of `&[T]`, `T` instead of `&T`",
            ));
            return None;
        }
        None => {}
    }
    let name = unraw(ident);
    let optional = is_option(&typed.ty);
    let default = ParamOptions::parse(&typed.attrs, errors).default;
    if let Some(default) = &default {
        if optional {
            errors.push(syn::Error::new(
                default.key,
                format!(
                    "`{name}` is an `Option`, which is already optional (absent or `null` means \
                     `None`), so a default would make `None` unreachable; give the parameter \
                     the inner type instead: `#[mcp(default = ...)] {name}: T`"
                ),
            ));
        } else if let Some(extractor) = server_supplied(&typed.ty) {
            errors.push(syn::Error::new(
                default.key,
                format!(
                    "`{name}` is a `{extractor}`, supplied by the server, not an argument the \
                     client sends, so it cannot have a default; remove `#[mcp(default ...)]`"
                ),
            ));
        }
    }
    Some(Param {
        name,
        ty: &typed.ty,
        description: docs::collect(&typed.attrs),
        optional,
        default,
    })
}

/// `Context` or `State<T>` as written: the extractors known by name. (Others are caught by
/// the type check: a default needs `Serialize + Deserialize + JsonSchema`.)
fn server_supplied(ty: &Type) -> Option<&'static str> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident == "Context" && last.arguments.is_none() {
        Some("Context")
    } else if last.ident == "State" {
        Some("State<T>")
    } else {
        None
    }
}

/// A reference or `impl Trait` anywhere in `ty` (`&str`, `Option<&str>`, `Vec<impl Trait>`):
/// arguments are decoded into owned values, and need a concrete type for their schema.
fn not_owned(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Reference(_) | Type::ImplTrait(_) => Some(ty),
        Type::Paren(inner) => not_owned(&inner.elem),
        Type::Group(inner) => not_owned(&inner.elem),
        Type::Array(array) => not_owned(&array.elem),
        Type::Slice(slice) => not_owned(&slice.elem),
        Type::Tuple(tuple) => tuple.elems.iter().find_map(not_owned),
        Type::Path(path) => {
            path.path
                .segments
                .iter()
                .find_map(|segment| match &segment.arguments {
                    PathArguments::AngleBracketed(arguments) => {
                        arguments.args.iter().find_map(|argument| match argument {
                            GenericArgument::Type(ty) => not_owned(ty),
                            _ => None,
                        })
                    }
                    _ => None,
                })
        }
        _ => None,
    }
}

/// `Option<T>`, however the path is spelled (`Option`, `std::option::Option`, …).
fn is_option(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    last.ident == "Option"
        && matches!(&last.arguments, PathArguments::AngleBracketed(arguments)
            if arguments.args.len() == 1 && matches!(arguments.args[0], GenericArgument::Type(_)))
}
