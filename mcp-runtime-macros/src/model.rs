//! The typed model of one tool, read from the user's function and the attribute's options,
//! with the checks of the signature and the parameters; and of a `#[mcp_tools]` impl block,
//! its type and its tools. Resources and prompts (`model::resource`, `model::prompt`) share
//! the function's model, [`Function`]: signature, parameters and their checks. Every problem
//! found is recorded; the model keeps whatever is valid. It holds values, not tokens:
//! `expand` decides how they are spelled in the generated code.

mod header;
pub mod prompt;
pub mod resource;

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{
    Attribute, FnArg, GenericArgument, Ident, ImplItem, ItemImpl, LitStr, Pat, PathArguments,
    Receiver, Signature, Type,
};

use crate::attr::{
    DefaultValue, Hint, Icon, Kind, Options, ParamOptions, Rate, TaskSupport, Visibility,
};
use crate::docs;
use crate::errors::Errors;

/// Tool names every revision and the conformance suite accept.
const NAME_RULE: &str = "1 to 64 characters, each an ASCII letter, digit, `_`, `.` or `-`";

/// One argument of the tool.
pub struct Param<'a> {
    /// The property name in `inputSchema`: the Rust name without `r#`, or `rename`.
    pub name: String,
    /// The Rust name without `r#`, which `# Arguments` entries may use too.
    rust_name: String,
    pub ty: &'a Type,
    pub description: Option<String>,
    /// `Option<T>`: not required.
    pub optional: bool,
    /// `#[mcp(default = ...)]`: not required either; the tool gets this when it is absent.
    pub default: Option<DefaultValue>,
    /// `#[mcp(rename = "...")]`, where a clash of names is reported.
    rename: Option<LitStr>,
    /// `#[mcp(complete = f)]`: kept by resources and prompts, refused by tools.
    pub complete: Option<syn::Path>,
    /// `#[mcp(header = "Region")]`: kept by tools, refused by resources and prompts.
    pub header: Option<LitStr>,
}

impl Param<'_> {
    /// Whether the property is listed in `required`.
    pub fn required(&self) -> bool {
        !self.optional && self.default.is_none()
    }
}

/// `#[mcp(complete = f)]` on a prompt argument or a template variable.
pub struct Completion {
    /// The published name of the argument or variable.
    pub argument: String,
    /// The completion function, as written.
    pub function: syn::Path,
}

/// The completions the parameters name, for the parameters that may have one.
fn completions(params: &[Param<'_>]) -> Vec<Completion> {
    params
        .iter()
        .filter_map(|param| {
            Some(Completion {
                argument: param.name.clone(),
                function: param.complete.clone()?,
            })
        })
        .collect()
}

/// Where the tool's function is written.
pub enum Place<'a> {
    /// A free function, `#[mcp_tool]` alone.
    Free,
    /// A method of a `#[mcp_tools]` impl block for `self_ty`, marked with the `#[mcp_tool]`
    /// of this path.
    Method {
        self_ty: &'a Type,
        attribute: syn::Path,
    },
}

/// The function behind a tool, a resource or a prompt: its signature and parameters, read
/// and checked alike for the three.
pub struct Function<'a> {
    pub signature: &'a Signature,
    /// The impl block's type, for a method; `None` for a free function.
    pub self_ty: Option<&'a Type>,
    /// A method's `&self`: the tool is served from the server's `State<Self>`.
    pub receiver: Option<&'a Receiver>,
    pub params: Vec<Param<'a>>,
    /// The function's `#[cfg(...)]` attributes, which its registration needs too.
    pub cfgs: Vec<&'a Attribute>,
}

impl<'a> Function<'a> {
    /// Reads the function of a `kind` attribute, where it is written; returns it with the
    /// description its doc comment gives (less the `# Arguments` section, whose entries
    /// describe the parameters). The caller has checked the signature and the name first,
    /// so that errors come in the order of the source.
    fn new(
        kind: Kind,
        attributes: &'a [Attribute],
        signature: &'a Signature,
        place: &Place<'a>,
        errors: &mut Errors,
    ) -> (Function<'a>, Option<String>) {
        let docs = docs::function_docs(attributes);
        let mut receiver = None;
        let mut params: Vec<Param<'a>> = Vec::new();
        for input in &signature.inputs {
            match input {
                FnArg::Receiver(self_param) => {
                    receiver = checked_receiver(kind, self_param, place, errors);
                }
                FnArg::Typed(typed) => params.extend(param(kind, typed, errors)),
            }
        }
        check_unique_names(&params, errors);
        let headers: Vec<_> = params
            .iter()
            .filter_map(|param| Some((param.name.as_str(), param.header.as_ref()?)))
            .collect();
        header::check_unique(&headers, errors);
        describe_from_arguments_section(&mut params, docs.arguments, signature, errors);
        let self_ty = match place {
            Place::Free => None,
            Place::Method { self_ty, .. } => Some(*self_ty),
        };
        let function = Function {
            signature,
            self_ty,
            receiver,
            params,
            cfgs: attributes
                .iter()
                .filter(|attribute| attribute.path().is_ident("cfg"))
                .collect(),
        };
        (function, docs.description)
    }

    pub fn is_async(&self) -> bool {
        self.signature.asyncness.is_some()
    }
}

/// A tool: the function and everything the attribute says about it.
pub struct Tool<'a> {
    pub function: Function<'a>,
    /// A method's `#[mcp_tool]` path, as written (`mcp_tool`, `mcp_runtime::mcp_tool`):
    /// `#[mcp_tools]` took the attribute off the method. `None` for a free function.
    pub attribute: Option<syn::Path>,
    pub name: String,
    /// The name's literal, or the function's name: where a duplicate name is reported.
    pub name_span: Span,
    pub tags: Vec<String>,
    /// `scopes = [...]`: what a caller must hold.
    pub scopes: Vec<String>,
    /// Each `layer = ...`, in order.
    pub layers: Vec<syn::Expr>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
    pub timeout_ms: Option<u64>,
    pub max_concurrency: Option<u32>,
    pub rate: Option<Rate>,
    /// `task = "..."`: `None` when not stated (forbidden, the runtime's default).
    pub task: Option<TaskSupport>,
    /// `input_before_task`: input asked in rounds before the call becomes a task.
    pub input_before_task: bool,
    pub icons: Vec<Icon>,
    /// `ui = "ui://..."`: its MCP Apps view.
    pub ui: Option<String>,
    /// `visibility = [...]`: `None` when not stated (model and app, the spec's default).
    pub visibility: Option<Visibility>,
    /// `crate = "..."`: the runtime crate's path; `None` to find it in the `Cargo.toml`.
    pub krate: Option<syn::Path>,
}

impl<'a> Tool<'a> {
    /// Reads the tool from the function (its attributes and signature), where it is written
    /// and its parsed options, recording every problem.
    pub fn new(
        attributes: &'a [Attribute],
        signature: &'a Signature,
        place: Place<'a>,
        options: Options,
        errors: &mut Errors,
    ) -> Tool<'a> {
        check_signature(Kind::Tool, signature, errors);
        let (name, name_span) = checked_name(Kind::Tool, &options, signature, errors);
        let (function, docs_description) =
            Function::new(Kind::Tool, attributes, signature, &place, errors);
        let description = description(&options, docs_description);
        let attribute = match place {
            Place::Free => None,
            Place::Method { attribute, .. } => Some(attribute),
        };
        Tool {
            function,
            attribute,
            name,
            name_span,
            tags: options.tags.iter().flatten().map(LitStr::value).collect(),
            scopes: options.scope_names(),
            layers: options.layers.clone(),
            title: options.title.as_ref().map(LitStr::value),
            description,
            read_only: options.read_only.map(hint),
            destructive: options.destructive.map(hint),
            idempotent: options.idempotent.map(hint),
            open_world: options.open_world.map(hint),
            timeout_ms: options.timeout_ms,
            max_concurrency: options.max_concurrency,
            rate: options.rate,
            task: options.task,
            input_before_task: options.input_before_task.is_some_and(|flag| flag.value),
            icons: options.icons,
            ui: options.ui.as_ref().map(LitStr::value),
            visibility: options.visibility,
            krate: options.krate,
        }
    }
}

/// The description: `description = "..."` (trimmed; empty means none), else the doc comment.
fn description(options: &Options, docs: Option<String>) -> Option<String> {
    match &options.description {
        Some(literal) => Some(literal.value().trim().to_owned()).filter(|text| !text.is_empty()),
        None => docs,
    }
}

/// The tools of a `#[mcp_tools]` impl block: its methods marked `#[mcp_tool]`.
pub struct ToolBlock<'a> {
    pub tools: Vec<Tool<'a>>,
}

impl<'a> ToolBlock<'a> {
    /// Reads the block's tools. `marked` holds, for each item of the block, its
    /// `#[mcp_tool]` (already taken off it): the attribute's path and its options; `None`
    /// for an item that is no tool.
    pub fn new(
        block: &'a ItemImpl,
        marked: Vec<Option<(syn::Path, Options)>>,
        errors: &mut Errors,
    ) -> ToolBlock<'a> {
        check_block(block, errors);
        let mut tools = Vec::new();
        for (item, marked) in block.items.iter().zip(marked) {
            let Some((attribute, options)) = marked else {
                continue;
            };
            let ImplItem::Fn(method) = item else {
                errors.push(syn::Error::new_spanned(
                    attribute,
                    "#[mcp_tool] goes on a method: `async fn name(&self, arg: Type, ...) -> \
                     Output` or a plain `fn`",
                ));
                continue;
            };
            let self_ty = &*block.self_ty;
            let place = Place::Method { self_ty, attribute };
            tools.push(Tool::new(
                &method.attrs,
                &method.sig,
                place,
                options,
                errors,
            ));
        }
        ToolBlock { tools }
    }
}

/// An impl block whose methods can be tools: inherent, for one concrete type, since each
/// tool is registered once and served from that type's `State<Self>`.
fn check_block(block: &ItemImpl, errors: &mut Errors) {
    if let Some((_, path, for_token)) = &block.trait_ {
        errors.push(syn::Error::new_spanned(
            quote::quote!(#path #for_token),
            "#[mcp_tools] goes on an inherent impl block, `impl Type { ... }`, not on an impl \
             of a trait: the trait decides its methods' signatures; write the tools in an \
             `impl Type` block of their own",
        ));
    }
    let generics = &block.generics;
    if !generics.params.is_empty() || generics.where_clause.is_some() {
        let message = "#[mcp_tools] cannot go on a generic impl block: each tool is \
                       registered once, with concrete types for its schema and one value of \
                       the type to serve it from; write the block for a concrete type \
                       (`impl Store<Memory> { ... }`)";
        let error = if generics.params.is_empty() {
            syn::Error::new_spanned(&generics.where_clause, message)
        } else {
            syn::Error::new_spanned(generics, message)
        };
        errors.push(error);
    }
}

/// A method's `self`, which the tool is served with: `&self` is the server's `State<Self>`.
/// A free function cannot take `self`, and a method cannot take it mutably or by value.
fn checked_receiver<'a>(
    kind: Kind,
    receiver: &'a Receiver,
    place: &Place<'_>,
    errors: &mut Errors,
) -> Option<&'a Receiver> {
    let Place::Method { self_ty, .. } = place else {
        let message = match kind {
            Kind::Tool => "a tool that takes `self` must be a method of an impl block marked \
                           #[mcp_tools]: add #[mcp_tools] to the impl block, and the server \
                           calls the method on the value registered with `Server::state`; or \
                           make it a free function that takes the shared data as a `State<T>` \
                           parameter"
                .to_owned(),
            Kind::Resource | Kind::Prompt => format!(
                "a {} is a free function and cannot take `self`; take the shared data as a \
                 `State<T>` parameter, the value registered with `Server::state`",
                kind.noun()
            ),
        };
        errors.push(syn::Error::new_spanned(receiver, message));
        return None;
    };
    let borrowed = match (&receiver.reference, &*receiver.ty) {
        (Some(_), _) => Some(receiver.mutability.is_some()),
        // `self: &Self` and `self: &mut Self`, `&self` written out.
        (None, Type::Reference(reference)) if matches!(&*reference.elem, Type::Path(path) if path.path.is_ident("Self")) => {
            Some(reference.mutability.is_some())
        }
        (None, _) => None,
    };
    let self_ty = type_text(self_ty);
    let message = match borrowed {
        Some(false) => return Some(receiver),
        Some(true) => format!(
            "a tool method cannot take `&mut self`: calls run at the same time and share one \
             `{self_ty}`, the value registered with `Server::state`; take `&self` and keep what \
             changes behind a `Mutex`, an `RwLock` or an atomic"
        ),
        None => format!(
            "a tool method takes `&self`: the server keeps one `{self_ty}`, the value \
             registered with `Server::state`, and lends it to every call, so it cannot give \
             the method `self` by value or in a wrapper"
        ),
    };
    errors.push(syn::Error::new_spanned(receiver, message));
    None
}

/// A type as the user would write it in a message: `Store<Memory>`, not `Store < Memory >`.
fn type_text(ty: &Type) -> String {
    let text = quote::ToTokens::to_token_stream(ty).to_string();
    ["< ", " <", " >", ":: ", " ::", "& ", " ,"]
        .iter()
        .fold(text, |text, spaced| text.replace(spaced, spaced.trim()))
}

fn hint(hint: Hint) -> bool {
    hint.value
}

fn unraw(ident: &Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map(str::to_owned).unwrap_or(text)
}

/// Whether `name` follows [`NAME_RULE`], as tool names and published argument names must.
fn follows_name_rule(name: &str) -> bool {
    let valid_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    !name.is_empty() && name.len() <= 64 && valid_chars
}

/// The name, `name = "..."` or the function's, with the span a problem with it goes on.
fn checked_name(
    kind: Kind,
    options: &Options,
    signature: &Signature,
    errors: &mut Errors,
) -> (String, Span) {
    let (name, span) = match &options.name {
        Some(literal) => (literal.value(), literal.span()),
        None => (unraw(&signature.ident), signature.ident.span()),
    };
    if !follows_name_rule(&name) {
        let (noun, attribute) = (kind.noun(), kind.attribute());
        errors.push(syn::Error::new(
            span,
            format!(
                "`{name}` is not a valid {noun} name: use {NAME_RULE}; \
                 set one with #[{attribute}(name = \"...\")]"
            ),
        ));
    }
    (name, span)
}

/// Rejects what the function of a `kind` attribute cannot be, each error on the offending
/// tokens.
fn check_signature(kind: Kind, signature: &Signature, errors: &mut Errors) {
    let noun = kind.noun();
    if let Some(unsafety) = &signature.unsafety {
        errors.push(syn::Error::new(
            unsafety.span(),
            format!(
                "a {noun} cannot be an `unsafe fn`: clients call it with arbitrary arguments; \
                 make the function safe and keep the `unsafe` block inside it"
            ),
        ));
    }
    if let Some(abi) = &signature.abi {
        errors.push(syn::Error::new(
            abi.span(),
            format!("a {noun} cannot have an `extern` ABI; remove it"),
        ));
    }
    if !signature.generics.params.is_empty() || signature.generics.where_clause.is_some() {
        errors.push(syn::Error::new(
            signature.generics.span(),
            format!(
                "a {noun} cannot be generic: each {noun} needs concrete parameter types for its \
                 schema; write a non-generic function (it may call a generic one)"
            ),
        ));
    }
    if let Some(variadic) = &signature.variadic {
        errors.push(syn::Error::new(
            variadic.span(),
            format!("a {noun} cannot be variadic"),
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
        // The Rust name first: it is what the signature next to the docs shows.
        let index = params
            .iter()
            .position(|param| param.rust_name == entry.name)
            .or_else(|| params.iter().position(|param| param.name == entry.name));
        let Some(param) = index.map(|index| &mut params[index]) else {
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
        if described.contains(&param.rust_name) {
            errors.push(syn::Error::new(
                entry.span,
                format!(
                    "`# Arguments` describes `{}` twice; keep one entry",
                    entry.name
                ),
            ));
            continue;
        }
        described.push(param.rust_name.clone());
        if param.description.is_none() && !entry.text.is_empty() {
            param.description = Some(entry.text);
        }
    }
}

/// What the parameters of each kind are, for the messages about their shape.
struct ParamWords {
    /// Why a parameter needs a plain name.
    named: &'static str,
    /// Why it needs a concrete type.
    concrete: &'static str,
    /// Where its value comes from.
    decoded: &'static str,
}

fn param_words(kind: Kind) -> ParamWords {
    match kind {
        Kind::Tool => ParamWords {
            named: "tool parameters must be plain names, because each name becomes an \
                    argument in the tool's input schema",
            concrete: "tool parameters need a concrete type for the input schema",
            decoded: "tool parameters must be owned values, decoded from the call's JSON \
                      arguments",
        },
        Kind::Resource => ParamWords {
            named: "resource parameters must be plain names, because each name is matched \
                    with a variable of the uri",
            concrete: "resource parameters need a concrete type, which the variable's text \
                       is parsed into",
            decoded: "resource parameters must be owned values, parsed from the requested uri",
        },
        Kind::Prompt => ParamWords {
            named: "prompt parameters must be plain names, because each name becomes an \
                    argument of the prompt",
            concrete: "prompt parameters need a concrete type for the argument's schema",
            decoded: "prompt parameters must be owned values, parsed from the request's \
                      arguments",
        },
    }
}

fn param<'a>(kind: Kind, typed: &'a syn::PatType, errors: &mut Errors) -> Option<Param<'a>> {
    let words = param_words(kind);
    let ident = match &*typed.pat {
        Pat::Ident(binding) if binding.by_ref.is_none() && binding.subpat.is_none() => {
            &binding.ident
        }
        other => {
            errors.push(syn::Error::new(
                other.span(),
                format!(
                    "{}; bind the value to a name and destructure it in the body",
                    words.named
                ),
            ));
            return None;
        }
    };
    match not_owned(&typed.ty) {
        Some(Type::ImplTrait(impl_trait)) => {
            errors.push(syn::Error::new(
                impl_trait.span(),
                format!("{}; replace `impl Trait` with a type", words.concrete),
            ));
            return None;
        }
        Some(borrowed) => {
            errors.push(syn::Error::new(
                borrowed.span(),
                format!(
                    "{}: use `String` instead of `&str`, `Vec<T>` instead of `&[T]`, `T` \
                     instead of `&T`",
                    words.decoded
                ),
            ));
            return None;
        }
        None => {}
    }
    let rust_name = unraw(ident);
    let name = &rust_name;
    let optional = is_option(&typed.ty);
    let ParamOptions {
        default,
        rename,
        complete,
        header,
    } = ParamOptions::parse(&typed.attrs, errors);
    let extractor = server_supplied(&typed.ty);
    let header =
        header.filter(|header| header::checked(kind, name, &typed.ty, extractor, header, errors));
    let rename = rename.filter(|rename| checked_rename(name, &typed.ty, rename, errors));
    let complete =
        complete.filter(|complete| checked_complete(kind, name, &typed.ty, complete, errors));
    // A resource refuses every default (`model::resource`), so only the others check theirs.
    if let Some(default) = default.as_ref().filter(|_| kind != Kind::Resource) {
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
        name: rename
            .as_ref()
            .map_or_else(|| rust_name.clone(), LitStr::value),
        rust_name,
        rename,
        ty: &typed.ty,
        description: docs::collect(&typed.attrs),
        optional,
        default,
        complete,
        header,
    })
}

/// Whether `#[mcp(complete = f)]` is on a parameter that can be completed: an argument of a
/// prompt or a resource's (the resource's model then checks it is a variable of the uri).
fn checked_complete(
    kind: Kind,
    name: &str,
    ty: &Type,
    complete: &syn::Path,
    errors: &mut Errors,
) -> bool {
    let message = if kind == Kind::Tool {
        "completions are for prompt arguments and resource template variables; a tool's \
         arguments have none (clients complete against a tool's input schema); remove \
         `#[mcp(complete = ...)]`"
            .to_owned()
    } else if let Some(extractor) = server_supplied(ty) {
        format!(
            "`{name}` is a `{extractor}`, supplied by the server, not an argument the client \
             types, so it has nothing to complete; completions are for prompt arguments and \
             resource template variables: remove `#[mcp(complete = ...)]`"
        )
    } else {
        return true;
    };
    errors.push(syn::Error::new_spanned(complete, message));
    false
}

/// Whether `#[mcp(rename = "...")]` gives an argument a name clients accept: one a tool
/// name could have, on a parameter the client sends.
fn checked_rename(name: &str, ty: &Type, rename: &LitStr, errors: &mut Errors) -> bool {
    if let Some(extractor) = server_supplied(ty) {
        errors.push(syn::Error::new(
            rename.span(),
            format!(
                "`{name}` is a `{extractor}`, supplied by the server, not an argument the \
                 client sends, so it has no name to rename; remove `#[mcp(rename ...)]`"
            ),
        ));
        return false;
    }
    let value = rename.value();
    if !follows_name_rule(&value) {
        errors.push(syn::Error::new(
            rename.span(),
            format!("`{value}` is not a valid argument name: use {NAME_RULE}"),
        ));
        return false;
    }
    true
}

/// Two parameters published under one name would take the same argument: after renaming,
/// every name must be distinct (the error goes on the `rename` that made the clash).
fn check_unique_names(params: &[Param<'_>], errors: &mut Errors) {
    for (index, param) in params.iter().enumerate() {
        let Some(rename) = &param.rename else {
            continue;
        };
        // A clash with a name as written, or with an earlier rename: one error per clash.
        let Some((_, other)) = params.iter().enumerate().find(|(position, other)| {
            *position != index
                && other.name == param.name
                && (other.rename.is_none() || *position < index)
        }) else {
            continue;
        };
        errors.push(syn::Error::new(
            rename.span(),
            format!(
                "`{}` is renamed to `{}`, the name of parameter `{}` too; clients would send \
                 one argument for both: give each parameter its own name",
                param.rust_name, param.name, other.rust_name
            ),
        ));
    }
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
