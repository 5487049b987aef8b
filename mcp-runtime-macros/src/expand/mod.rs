//! Code generation, the only phase that builds output tokens: the user's function, untouched
//! but for parameter doc comments and `#[mcp(...)]`, and beside it one `inventory::submit!`
//! of the tool's (resource's, prompt's) descriptor; for `#[mcp_tools]`, the impl block, its
//! methods as untouched, and beside the block one registration per tool method.
//!
//! This module runs the phases and assembles the descriptor; each part of it is built by a
//! step of its own:
//!
//! - `runtime_path`: where the generated code finds `mcp-runtime`;
//! - `hints`: the behaviour hints (`read_only`, `destructive`, ...);
//! - `policy`: the timeout, concurrency and rate limits, task support, and the tags;
//! - `parameters`: the parameter descriptors (schemas, defaults) and their extraction;
//! - `invoke`: the call of the function, async or blocking, and the output schema;
//! - `icons`: the icons of a tool, a resource or a prompt;
//! - `completions`: the completion functions of prompt arguments and template variables;
//! - `resource` and `prompt`: the registrations of `#[mcp_resource]` and `#[mcp_prompt]`,
//!   from the steps above and their own fields (a resource's annotations and the checks
//!   that its other parameters are extractors);
//! - `unique_name`: the guard against two tools (or two prompts) of one name in one crate;
//! - `skill`: the registration of a `skill!("folder")`, its files embedded;
//! - `linking`: the crate's dependencies of tools, which the runtime checks are linked in;
//! - `tokens`: helpers the steps share.

mod completions;
mod hints;
mod icons;
mod invoke;
mod linking;
mod parameters;
mod policy;
mod prompt;
mod resource;
mod runtime_path;
mod skill;
mod tokens;
mod unique_name;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::{Attribute, FnArg, ImplItem, ItemFn, ItemImpl, Signature};

use self::hints::hints;
use self::icons::icons;
use self::invoke::{TOOL_RUNNERS, invoke, output_schema};
use self::linking::dependency_check;
use self::parameters::{Parameters, parameters};
use self::policy::{layers, policy, tags, ui};
use self::runtime_path::runtime_path;
pub use self::skill::skill;
use self::tokens::{location, option};
use self::unique_name::unique_name_guard;
use crate::attr::{self, Kind, Options, is_param_attribute};
use crate::docs;
use crate::errors::Errors;
use crate::model::prompt::Prompt;
use crate::model::resource::Resource;
use crate::model::{Place, Tool, ToolBlock};

/// `#[mcp_tool]`'s entry point: a free function.
pub fn mcp_tool(attribute: TokenStream, item: TokenStream) -> TokenStream {
    free_function(Kind::Tool, attribute, item, |function, options, errors| {
        let tool = Tool::new(&function.attrs, &function.sig, Place::Free, options, errors);
        errors.is_empty().then(|| registration(&tool))
    })
}

/// `#[mcp_resource]`'s entry point: a free function.
pub fn mcp_resource(attribute: TokenStream, item: TokenStream) -> TokenStream {
    free_function(
        Kind::Resource,
        attribute,
        item,
        |function, options, errors| {
            let resource = Resource::new(&function.attrs, &function.sig, options, errors);
            errors.is_empty().then(|| resource::registration(&resource))
        },
    )
}

/// `#[mcp_prompt]`'s entry point: a free function.
pub fn mcp_prompt(attribute: TokenStream, item: TokenStream) -> TokenStream {
    free_function(
        Kind::Prompt,
        attribute,
        item,
        |function, options, errors| {
            let prompt = Prompt::new(&function.attrs, &function.sig, options, errors);
            errors.is_empty().then(|| prompt::registration(&prompt))
        },
    )
}

/// The expansion of an attribute on a free function: the function as written (less its
/// parameters' attributes), and beside it the registration `model_and_registration` builds
/// from the function and the options, or every error recorded.
fn free_function(
    kind: Kind,
    attribute: TokenStream,
    item: TokenStream,
    model_and_registration: impl FnOnce(&ItemFn, Options, &mut Errors) -> Option<TokenStream>,
) -> TokenStream {
    let mut errors = Errors::default();
    let options = Options::parse(attribute, kind, &mut errors);
    let function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(_) => {
            let error = syn::Error::new(
                first_token_span(&item),
                format!(
                    "#[{}] goes on a function: `async fn name(arg: Type, ...) -> Output` or a \
                     plain `fn`",
                    kind.attribute()
                ),
            );
            let error = error.to_compile_error();
            // Keep the item so the rest of the crate still type-checks.
            return quote!(#item #error);
        }
    };
    let registration = model_and_registration(&function, options, &mut errors);
    let mut user_function = function.clone();
    without_param_attributes(&mut user_function.sig);
    let Some(registration) = registration.filter(|_| errors.is_empty()) else {
        let errors = errors.to_compile_errors();
        return quote!(#user_function #errors);
    };
    let registration = free_registration(kind, &function, registration);
    quote! {
        #user_function
        #registration
    }
}

/// `#[mcp_tools]`'s entry point: an impl block whose methods marked `#[mcp_tool]` are tools.
pub fn mcp_tools(attribute: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    if !attribute.is_empty() {
        errors.push(syn::Error::new_spanned(
            &attribute,
            "#[mcp_tools] takes no options; give each tool its own in the #[mcp_tool(...)] on \
             its method",
        ));
    }
    let mut block: ItemImpl = match syn::parse2(item.clone()) {
        Ok(block) => block,
        Err(_) => {
            let error = syn::Error::new(
                first_token_span(&item),
                "#[mcp_tools] goes on an impl block, `impl Type { ... }`, whose methods marked \
                 #[mcp_tool] become tools; on a free function, write #[mcp_tool] alone",
            );
            let error = error.to_compile_error();
            return quote!(#item #error);
        }
    };
    // Each `#[mcp_tool]` comes off its method first: left on, it would expand again inside
    // the block, as a function that is not in an `#[mcp_tools]` block.
    let marked: Vec<_> = block
        .items
        .iter_mut()
        .map(|item| attr::take_tool_attribute(attributes_mut(item)?, &mut errors))
        .collect();
    let mut user_block = block.clone();
    for (item, marked) in user_block.items.iter_mut().zip(&marked) {
        if let (ImplItem::Fn(method), Some(_)) = (item, marked) {
            without_param_attributes(&mut method.sig);
        }
    }
    let attributes: Vec<syn::Path> = marked
        .iter()
        .flatten()
        .map(|(path, _)| path.clone())
        .collect();
    let tools = ToolBlock::new(&block, marked, &mut errors);
    if !errors.is_empty() {
        let errors = errors.to_compile_errors();
        // The attributes' imports still, so that errors are all the user sees.
        let attributes = (!attributes.is_empty()).then(|| {
            let imports = attribute_imports(&attributes);
            quote!(const _: () = { #imports };)
        });
        return quote! {
            #user_block
            #attributes
            #errors
        };
    }
    let registrations = tools.tools.iter().map(method_registration);
    quote! {
        #user_block
        #(#registrations)*
    }
}

/// The attributes of an item of an impl block, if it can have any.
fn attributes_mut(item: &mut ImplItem) -> Option<&mut Vec<Attribute>> {
    match item {
        ImplItem::Const(item) => Some(&mut item.attrs),
        ImplItem::Fn(item) => Some(&mut item.attrs),
        ImplItem::Type(item) => Some(&mut item.attrs),
        ImplItem::Macro(item) => Some(&mut item.attrs),
        _ => None,
    }
}

/// The span of the item's first token after its attributes (doc comments included), so
/// the error underlines `struct`/`enum`/... rather than a doc comment.
fn first_token_span(item: &TokenStream) -> Span {
    let mut tokens = item.clone().into_iter().peekable();
    while let Some(TokenTree::Punct(pound)) = tokens.peek() {
        if pound.as_char() != '#' {
            break;
        }
        tokens.next();
        tokens.next();
    }
    tokens
        .next()
        .map_or_else(Span::call_site, |token| token.span())
}

/// Takes the doc comments and `#[mcp(...)]` off the parameters (rustc rejects those; the
/// attribute has already read them), leaving the function otherwise exactly as written.
fn without_param_attributes(signature: &mut Signature) {
    for input in &mut signature.inputs {
        if let FnArg::Typed(typed) = input {
            typed
                .attrs
                .retain(|attribute| !docs::is_doc(attribute) && !is_param_attribute(attribute));
        }
    }
}

/// A free function's registration: a `const` holding the items of [`registration`], under
/// the function's `#[cfg(...)]` (those written below `#[mcp_tool]`, which rustc has not
/// applied yet).
///
/// The constant is named, and names itself, so that a function that is in fact an
/// associated function of an impl block without `#[mcp_tools]` (which `#[mcp_tool]` cannot
/// tell from a free function) fails with one error that says what to do: the registration
/// then sits in the impl block, where an unnamed `const _` does not parse, and where the
/// constant, now an associated one, is not in scope by its name:
/// "cannot find value `__mcp_tool_NAME__needs_mcp_tools_on_its_impl_block`". A resource
/// or a prompt, which cannot be a method, says so in its constant's name:
/// "`__mcp_resource_NAME__must_be_a_free_function_outside_any_impl_block`".
fn free_registration(kind: Kind, function: &ItemFn, items: TokenStream) -> TokenStream {
    let name = function.sig.ident.to_string();
    let name = name.strip_prefix("r#").unwrap_or(&name);
    let marker = match kind {
        Kind::Tool => format_ident!("__mcp_tool_{name}__needs_mcp_tools_on_its_impl_block"),
        Kind::Resource | Kind::Prompt => format_ident!(
            "__mcp_{}_{name}__must_be_a_free_function_outside_any_impl_block",
            kind.noun()
        ),
    };
    let cfgs = function
        .attrs
        .iter()
        .filter(|attribute| attribute.path().is_ident("cfg"));
    quote! {
        #(#cfgs)*
        #[allow(non_upper_case_globals)]
        const #marker: () = {
            const _: () = #marker;
            #items
        };
    }
}

/// A method's registration, beside its impl block (an item cannot go in it), under the
/// method's `#[cfg(...)]`, since rustc has not applied those yet. It imports
/// the path of the `#[mcp_tool]` that `#[mcp_tools]` took off the method, so that the path
/// resolves as the attribute's would have, and the user's `use mcp_runtime::mcp_tool;` is
/// not reported unused.
fn method_registration(tool: &Tool<'_>) -> TokenStream {
    let attribute = attribute_imports(tool.attribute.as_slice());
    let items = registration(tool);
    let cfgs = &tool.function.cfgs;
    quote! {
        #(#cfgs)*
        const _: () = {
            #attribute
            #items
        };
    }
}

/// `use mcp_tool as _;` for each `#[mcp_tool]` path that `#[mcp_tools]` took off a method.
fn attribute_imports(paths: &[syn::Path]) -> TokenStream {
    quote! {
        #(
            #[allow(unused_imports)]
            use #paths as _;
        )*
    }
}

/// The registration's items: the default functions, the unique-name guard and the
/// `inventory::submit!` of the descriptor, each field from the step that owns it.
fn registration(tool: &Tool<'_>) -> TokenStream {
    let krate = runtime_path(tool.krate.as_ref());
    let private = quote!(#krate::__private);

    let name = &tool.name;
    let title = option(tool.title.as_deref());
    let description = option(tool.description.as_deref());
    let hints = hints(tool, &private);
    let tags = tags(tool);
    let icons = icons(&tool.icons, &private);
    let parameters = parameters(&tool.function, &private);
    let output_schema = output_schema(&tool.function, &private);
    let policy = policy(tool, &private);
    let ui = ui(tool, &private);
    let layers = layers(tool, &private);
    let invoke = invoke(&tool.function, &private, &parameters, &TOOL_RUNNERS);
    let unique_name = unique_name_guard(Kind::Tool, &tool.name, tool.name_span);
    // Spanned at a method's own attribute, so that its location is its own line, not the
    // impl block's.
    let attribute_span = tool
        .attribute
        .as_ref()
        .map_or_else(Span::call_site, |path| {
            path.segments
                .last()
                .map_or_else(Span::call_site, |last| last.ident.span())
        });
    let location = location(&private, attribute_span);
    let Parameters {
        default_fns,
        descriptors,
        ..
    } = &parameters;
    let dependency_check = dependency_check(&private);

    quote! {
        // `__mcp_` names cannot clash with the user's function or parameters.
        #default_fns
        #unique_name
        #dependency_check
        #private::inventory::submit! {
            #private::ToolDescriptor {
                name: #name,
                title: #title,
                description: #description,
                hints: #hints,
                icons: #icons,
                tags: #tags,
                ui: #ui,
                params: #descriptors,
                output_schema: #output_schema,
                policy: #policy,
                layers: #layers,
                invoke: #invoke,
                location: #location,
            }
        }
    }
}
