//! A request's result before its JSON-RPC envelope, in the form it is serialized from, and
//! how it is written into a response.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::protocol::jsonrpc::{RequestId, Response, RpcError, UnknownId, write_success};
use crate::protocol::meta;
use crate::tool::catalog::ListPage;
use crate::tool::shape::ShapedResult;

/// A result, in the form it is serialized from.
pub(crate) enum Body {
    Json(Value),
    /// A tool's result, serialized without building a `Value`.
    ToolResult(ShapedResult),
    /// A `tools/list` page: the tools from their prepared JSON, and the members around
    /// them written as they are, not built into a map, which would copy every tool and the
    /// server's identity into it for one serialization (`bench/results/call-path.md`).
    Page {
        page: ListPage,
        /// 2026-07-28: how long the list may be kept (`ttlMs`; `cacheScope` is `public`).
        ttl_ms: Option<u64>,
        /// 2026-07-28: the server's identity (`_meta`), with `resultType` `complete`.
        server_info: Option<Arc<Value>>,
    },
    /// An error found only once the work ran: a resource read or a prompt that failed, a
    /// variable or argument that did not parse. Answered as a JSON-RPC error.
    Failure(RpcError),
}

impl Body {
    /// The result as 2026-07-28 gives it: `resultType` and the server's identity in `_meta`.
    pub(crate) fn decorated(self, server_info: &Arc<Value>) -> Body {
        match self {
            Body::Json(Value::Object(mut members)) => {
                decorate_members(&mut members, (**server_info).clone());
                Body::Json(Value::Object(members))
            }
            Body::Page { page, ttl_ms, .. } => Body::Page {
                page,
                ttl_ms,
                server_info: Some(Arc::clone(server_info)),
            },
            Body::ToolResult(mut result) => {
                result.set_server_info(meta::SERVER_INFO, Arc::clone(server_info));
                Body::ToolResult(result)
            }
            other @ (Body::Json(_) | Body::Failure(_)) => other,
        }
    }

    /// The success response carrying this result: the same bytes as serializing it, a
    /// tool's result written by its own faster path.
    pub(crate) fn response(&self, id: &RequestId) -> Response {
        if let Body::Failure(error) = self {
            // The id is known, so how an unknown one is written does not matter.
            return Response::failure(Some(id), error, UnknownId::Null);
        }
        Response::success(id, |out| self.write_result(out))
    }

    /// [`response`](Self::response)'s JSON, appended to `out`.
    pub(crate) fn write_response(&self, id: &RequestId, out: &mut Vec<u8>) {
        match self {
            Body::Failure(error) => {
                out.extend_from_slice(Response::failure(Some(id), error, UnknownId::Null).json())
            }
            _ => write_success(id, |out| self.write_result(out), out),
        }
    }

    fn write_result(&self, out: &mut Vec<u8>) {
        match self {
            Body::ToolResult(result) => result.write_json(out),
            body => serde_json::to_writer(out, body).expect("a result always serializes"),
        }
    }
}

impl serde::Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Body::Json(result) => result.serialize(serializer),
            // Never a result: `response` answers it as an error.
            Body::Failure(error) => serializer.serialize_str(&error.message),
            Body::ToolResult(result) => result.serialize(serializer),
            Body::Page {
                page,
                ttl_ms,
                server_info,
            } => {
                // Members in the order a `serde_json::Map` writes them (by name).
                let mut map = serializer.serialize_map(None)?;
                if let Some(server_info) = server_info {
                    map.serialize_entry("_meta", &ServerInfoMeta(server_info))?;
                }
                if ttl_ms.is_some() {
                    map.serialize_entry("cacheScope", "public")?;
                }
                if let Some(next) = &page.next_cursor {
                    map.serialize_entry("nextCursor", next)?;
                }
                if server_info.is_some() {
                    map.serialize_entry("resultType", "complete")?;
                }
                map.serialize_entry("tools", page)?;
                if let Some(ttl_ms) = ttl_ms {
                    map.serialize_entry("ttlMs", ttl_ms)?;
                }
                map.end()
            }
        }
    }
}

/// A 2026-07-28 result's `_meta`: the server's identity.
struct ServerInfoMeta<'a>(&'a Value);

impl serde::Serialize for ServerInfoMeta<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(meta::SERVER_INFO, self.0)?;
        map.end()
    }
}

fn decorate_members(members: &mut Map<String, Value>, server_info: Value) {
    // `input_required` results say so themselves.
    members
        .entry("resultType")
        .or_insert_with(|| "complete".into());
    let meta = members.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.insert(meta::SERVER_INFO.into(), server_info);
    }
}
