//! `#[mcp(header = "Region")]`: a tool argument mirrored into the HTTP header
//! `Mcp-Param-Region` (2026-07-28). Checked here as the specification's clients check the
//! published `x-mcp-header` (they drop a tool whose annotation breaks a rule): a header
//! name, unique among the tool's ignoring case, on an argument of a tool; the runtime
//! checks at start that the argument's schema is a string, an integer or a boolean.

use syn::{GenericArgument, LitStr, PathArguments, Type};

use crate::attr::Kind;
use crate::errors::Errors;

/// The characters of a header name (`tchar`, RFC 9110 section 5.6.2) besides letters and
/// digits.
const TOKEN_PUNCTUATION: &[u8] = b"!#$%&'*+-.^_`|~";

/// Whether `#[mcp(header = ...)]` names a header a client can send, on an argument of a
/// tool whose type can be a header's value. `extractor` names the parameter's type when the
/// server supplies it (`Context`, `State<T>`).
pub fn checked(
    kind: Kind,
    name: &str,
    ty: &Type,
    extractor: Option<&str>,
    header: &LitStr,
    errors: &mut Errors,
) -> bool {
    let value = header.value();
    let problem = if kind != Kind::Tool {
        Some(
            "`header` mirrors a tool argument into an HTTP header for gateways to route on; \
             prompts and resources have none: remove `#[mcp(header = ...)]`"
                .to_owned(),
        )
    } else if let Some(extractor) = extractor {
        Some(format!(
            "`{name}` is a `{extractor}`, supplied by the server, not an argument the client \
             sends, so it has no value to mirror into a header; remove `#[mcp(header = ...)]`"
        ))
    } else if value.is_empty()
        || !value
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || TOKEN_PUNCTUATION.contains(&byte))
    {
        Some(format!(
            "`{value}` cannot be a header name: use ASCII letters, digits, `-` or `_` (no \
             space, colon or accent), e.g. `#[mcp(header = \"Region\")]` for `Mcp-Param-Region`"
        ))
    } else {
        not_mirrorable(ty).map(|what| {
            format!(
                "`{name}` is {what}, which a header cannot carry: only string, integer and bool \
                 arguments (or an `Option` of one) can be mirrored into a header"
            )
        })
    };
    match problem {
        Some(problem) => {
            errors.push(syn::Error::new(header.span(), problem));
            false
        }
        None => true,
    }
}

/// Two arguments mirrored into one header (names compare ignoring case, as HTTP's do):
/// `headers` are the published argument names with their `header`, in order.
pub fn check_unique(headers: &[(&str, &LitStr)], errors: &mut Errors) {
    for (index, (name, header)) in headers.iter().enumerate() {
        let value = header.value();
        let Some((other, _)) = headers[..index]
            .iter()
            .find(|(_, earlier)| earlier.value().eq_ignore_ascii_case(&value))
        else {
            continue;
        };
        errors.push(syn::Error::new(
            header.span(),
            format!(
                "`{other}` and `{name}` are both mirrored into the header `Mcp-Param-{value}` \
                 (header names ignore case); give each its own header"
            ),
        ));
    }
}

/// What the type is when it is plainly not a string, an integer or a bool: a float, a
/// sequence, a map or a tuple (`Option` looked through). Other types are checked at start
/// from their schema.
fn not_mirrorable(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Array(_) | Type::Slice(_) => Some("an array"),
        Type::Tuple(_) => Some("a tuple"),
        Type::Paren(inner) => not_mirrorable(&inner.elem),
        Type::Group(inner) => not_mirrorable(&inner.elem),
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            match last.ident.to_string().as_str() {
                "f32" | "f64" => Some("a floating-point number"),
                "Vec" | "VecDeque" | "HashSet" | "BTreeSet" => Some("a sequence"),
                "HashMap" | "BTreeMap" | "Map" | "Value" => Some("a map or any JSON value"),
                "Option" => match &last.arguments {
                    PathArguments::AngleBracketed(arguments) => match arguments.args.first() {
                        Some(GenericArgument::Type(inner)) => not_mirrorable(inner),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}
