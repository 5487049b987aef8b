//! What the endpoint checks of a POST once its body is decoded, before a session answers
//! it: whether it speaks the stateless revision, whether its 2026-07-28 routing headers
//! (`Mcp-Method`, `Mcp-Name`, a tool's `Mcp-Param-*`) agree with the body.

use axum::http::header::AsHeaderName;
use axum::http::{HeaderMap, HeaderName, StatusCode};
use axum::response::Response;
use serde_json::Value;

use super::response::{bad_request, refusal};
use crate::protocol::jsonrpc::{Decoded, Members, RpcError, code};
use crate::protocol::meta;
use crate::protocol::version::ProtocolVersion;
use crate::session::ServerCore;
use crate::tool::header;

// Names made once: a lookup by `&str` parses the name each time.
pub(super) const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const METHOD: HeaderName = HeaderName::from_static("mcp-method");
const NAME: HeaderName = HeaderName::from_static("mcp-name");
/// 2026-07-28: a header that disagrees with the body, or is missing.
const HEADER_MISMATCH: i64 = -32020;

/// A header's value, when it is visible ASCII.
pub(super) fn header_text(headers: &HeaderMap, name: impl AsHeaderName) -> Option<&str> {
    headers.get(name).and_then(|value| value.to_str().ok())
}

/// Whether this request speaks the stateless revision: its header or its `_meta` says so.
pub(super) fn is_stateless(headers: &HeaderMap, message: Option<&Members<'_>>) -> bool {
    let named_in_meta = message
        .and_then(Members::params)
        .and_then(|params| params.meta())
        .is_some_and(|meta| meta.contains_key(meta::PROTOCOL_VERSION));
    named_in_meta
        || header_text(headers, PROTOCOL_VERSION)
            .and_then(ProtocolVersion::parse)
            .is_some_and(ProtocolVersion::is_stateless)
}

/// 2026-07-28: the routing headers must repeat what the body says (-32020 otherwise), so
/// proxies and load balancers can route on them without reading the body.
#[allow(clippy::result_large_err)]
pub(super) fn check_stateless_headers(
    headers: &HeaderMap,
    message: &Decoded<'_>,
) -> Result<(), Response> {
    if let Decoded::Batch(_) = message {
        return Err(bad_request(
            code::INVALID_REQUEST,
            "Invalid request: JSON-RPC batches are not part of protocol revision 2026-07-28.",
        ));
    }
    let message = message.single();
    let Some(method) = message.and_then(Members::method) else {
        // Responses are never sent to a 2026-07-28 server; the session answers -32600.
        return Ok(());
    };
    let params = message.and_then(Members::params);
    let id = message.and_then(Members::id);
    let meta_version = params
        .and_then(|params| params.meta())
        .and_then(|meta| meta.get(meta::PROTOCOL_VERSION))
        .and_then(Value::as_str);
    let Some(meta_version) = meta_version else {
        return Err(refusal(
            StatusCode::BAD_REQUEST,
            &RpcError::invalid_params(format!(
                "Invalid params: params._meta[\"{}\"] is required with MCP-Protocol-Version 2026-07-28.",
                meta::PROTOCOL_VERSION
            )),
            id,
        ));
    };
    let mismatch = |message: String| mismatch(&message, id);
    let expect = |header: HeaderName, wanted: &str, encoded: bool| -> Result<(), Response> {
        let Some(sent) = header_text(headers, &header) else {
            return Err(mismatch(format!(
                "the {header} header is required (the body says `{wanted}`)."
            )));
        };
        // `Mcp-Name` carries a name or URI that is not plain ASCII Base64-encoded.
        let decoded = if encoded {
            header::decode(sent)
                .map_err(|problem| mismatch(format!("the {header} header: {problem}.")))?
        } else {
            sent.into()
        };
        if decoded == wanted {
            Ok(())
        } else {
            Err(mismatch(format!(
                "the {header} header says `{sent}`, the body `{wanted}`."
            )))
        }
    };
    expect(PROTOCOL_VERSION, meta_version, false)?;
    expect(METHOD, method, false)?;
    let named = match method {
        "tools/call" | "prompts/get" => params.and_then(|params| params.string("name")),
        "resources/read" => params.and_then(|params| params.string("uri")),
        // The tasks extension routes a task's requests on its id.
        "tasks/get" | "tasks/update" | "tasks/cancel" => {
            params.and_then(|params| params.string("taskId"))
        }
        _ => None,
    };
    if let Some(name) = named {
        expect(NAME, name, true)?;
    }
    Ok(())
}

/// 2026-07-28: each parameter the called tool mirrors into a header (`x-mcp-header`) must
/// be sent as `Mcp-Param-{name}` and say what the body says (-32020 otherwise); a value
/// absent or `null` in the body has no header.
#[allow(clippy::result_large_err)]
pub(super) fn check_param_headers(
    core: &ServerCore,
    headers: &HeaderMap,
    message: Option<&Members<'_>>,
) -> Result<(), Response> {
    let Some(message) = message.filter(|message| message.method() == Some("tools/call")) else {
        return Ok(());
    };
    let catalog = core.tools.catalog();
    if !catalog.has_mirrored_headers() {
        // The common server: no tool mirrors a parameter, so no lookup per call.
        return Ok(());
    }
    let Some(params) = message.params() else {
        return Ok(());
    };
    let Some(tool) = params.string("name").and_then(|name| catalog.get(name)) else {
        return Ok(());
    };
    let mirrored = tool.header_params();
    if mirrored.is_empty() {
        return Ok(());
    }
    let arguments = params.arguments_value();
    for param in mirrored {
        let name = param.header();
        let value = arguments
            .as_deref()
            .and_then(|arguments| param.value(arguments));
        let mut sent = headers.get_all(name.as_str()).iter();
        let problem = match (sent.next(), sent.next(), value) {
            (None, _, None) => None,
            (None, _, Some(value)) => Some(format!(
                "the {name} header is required: the tool mirrors `{}` into it, and the body \
                 gives it {value}.",
                param.path.join(".")
            )),
            (Some(_), Some(_), _) => Some(format!("the {name} header is sent more than once.")),
            (Some(raw), None, value) => match raw.to_str() {
                Err(_) => Some(format!(
                    "the {name} header holds characters a header value cannot (send them \
                     Base64-encoded, `=?base64?...?=`)."
                )),
                Ok(raw) => match (header::decode(raw), value) {
                    (Err(problem), _) => Some(format!("the {name} header: {problem}.")),
                    (Ok(_), None) => Some(format!(
                        "the {name} header is sent, but the body gives `{}` no value.",
                        param.path.join(".")
                    )),
                    (Ok(decoded), Some(value)) if !header::agrees(value, &decoded) => {
                        Some(format!("the {name} header says `{raw}`, the body {value}."))
                    }
                    (Ok(_), Some(_)) => None,
                },
            },
        };
        if let Some(problem) = problem {
            return Err(mismatch(&problem, message.id()));
        }
    }
    Ok(())
}

/// 400 with -32020: a header that disagrees with the body, is missing or is malformed.
fn mismatch(problem: &str, id: Option<&Value>) -> Response {
    refusal(
        StatusCode::BAD_REQUEST,
        &RpcError::new(HEADER_MISMATCH, format!("Header mismatch: {problem}")),
        id,
    )
}
