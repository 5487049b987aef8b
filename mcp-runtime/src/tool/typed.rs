//! Which tools have their calls' arguments decoded straight into their parameters.
//!
//! The general path builds a call's `arguments` as a `serde_json::Map`, drops the `null`s
//! of optional parameters, checks the map against the tool's `inputSchema` (`jsonschema`),
//! then decodes each parameter from its member. A tool whose every argument is of a type
//! whose serde decoding accepts exactly what its generated schema accepts — text, booleans,
//! numbers, and lists and options of them — has its arguments decoded by those types in the
//! same pass as the message instead (`protocol::jsonrpc::typed_arguments`): a value they
//! decode is one the schema check would have let through and the extraction would have
//! decoded the same, and anything they refuse goes back to the general path, which answers
//! it. A tool with an argument of any other type, or an extractor of the user's (which may
//! read the arguments itself), keeps the general path; so does a tool behind a layer, which
//! sees the arguments as a map.

use std::fmt;

use crate::protocol::jsonrpc::{ArgumentShape, TypedKind};
use crate::tool::descriptor::ParamDescriptor;
use crate::tool::extract::Extract;

/// How a parameter's type takes part in typed decoding.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgumentKind {
    /// An argument whose decoding matches its schema.
    Typed(TypedKind),
    /// A value the runtime supplies (`Context`, `State<T>`, ...): never in the arguments.
    Supplied,
    /// Anything else: an argument of another type, or an extractor of the user's. Its tool
    /// takes the general path.
    Other,
}

/// One parameter's share of typed decoding: its type's kind.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct TypedParam {
    kind: fn() -> ArgumentKind,
}

impl TypedParam {
    /// The typed decoding of a parameter of type `T`.
    pub const fn of<T: Extract>() -> TypedParam {
        TypedParam {
            kind: T::argument_kind,
        }
    }

    /// A `#[mcp_tools]` method's `&self`: supplied by the runtime.
    pub const RECEIVER: TypedParam = TypedParam {
        kind: || ArgumentKind::Supplied,
    };
}

impl fmt::Debug for TypedParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TypedParam").field(&(self.kind)()).finish()
    }
}

/// The shape typed decoding gives these parameters' arguments, if every one is typed or
/// supplied.
pub(crate) fn argument_shape(params: &'static [ParamDescriptor]) -> Option<ArgumentShape> {
    let mut kinds = Vec::with_capacity(params.len());
    for param in params {
        kinds.push(match (param.typed.kind)() {
            ArgumentKind::Typed(kind) => Some(kind),
            ArgumentKind::Supplied => None,
            ArgumentKind::Other => return None,
        });
    }
    ArgumentShape::new(
        params
            .iter()
            .zip(kinds)
            .map(|(param, kind)| (param.name, kind, param.required)),
    )
}
