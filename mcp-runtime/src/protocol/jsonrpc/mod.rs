//! JSON-RPC 2.0 framing: classifying what the client sent (here) and building what goes back.
//! `decode` reads a line in one pass into the members a message is classified by; `response`
//! writes answers straight into bytes.
//!
//! A line is decoded straight into the members a message is classified by (see
//! [`Decoded`]) rather than into a `serde_json::Value` tree, and responses are serialized
//! straight into bytes (see [`Response`]): no tree is built for the envelope either way.

mod check;
mod decode;
mod error;
mod response;

use std::borrow::Cow;

use serde_json::Value;

use decode::ParamsMember;
pub(crate) use decode::{
    Arguments, Decoded, JsonInput, Members, Message, MetaMember, Params, StringMember,
};
pub(crate) use error::{RpcError, code};
#[cfg(feature = "http")]
pub(crate) use response::failure;
pub(crate) use response::{RequestId, Response, UnknownId, write_success};

/// One message from the client, classified.
#[derive(Debug)]
pub(crate) enum Incoming<'a> {
    /// A request: it gets exactly one response.
    Request {
        id: RequestId,
        method: Cow<'a, str>,
        params: Params<'a>,
    },
    /// A notification: never answered.
    Notification {
        method: Cow<'a, str>,
        params: Params<'a>,
    },
    /// A response to a request the server sent: its result, or the client's error.
    Response {
        id: RequestId,
        outcome: Result<Value, RpcError>,
    },
    /// Not a valid JSON-RPC message. `id` is set when it could be read.
    Invalid {
        id: Option<RequestId>,
        error: RpcError,
    },
}

fn is_valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(number) => number.is_i64() || number.is_u64(),
        _ => false,
    }
}

impl<'a> Incoming<'a> {
    /// Classifies one decoded message (not a batch).
    #[inline]
    pub fn classify(message: Message<'a>) -> Incoming<'a> {
        let Message::Object(members) = message else {
            return invalid_request(None, "a JSON-RPC message must be a JSON object.");
        };
        let Members {
            is_jsonrpc_2_0,
            id,
            method,
            params,
            result,
            error,
        } = *members;
        // The id an error answers with: only a readable one, looked at only for an error,
        // since a request's own id is moved into it, not copied.
        let readable = |id: &Option<Value>| id.as_ref().filter(|id| is_valid_id(id)).cloned();
        if !is_jsonrpc_2_0 {
            return invalid_request(readable(&id), "`jsonrpc` must be \"2.0\".");
        }
        let params = match params {
            None => Params::default(),
            Some(ParamsMember::Object(params)) => params,
            Some(ParamsMember::NotObject) => {
                return match (readable(&id), &id, method) {
                    (Some(id), _, _) => Incoming::Invalid {
                        id: Some(id),
                        error: RpcError::invalid_params(
                            "Invalid params: `params` must be an object.",
                        ),
                    },
                    // A notification is never answered, not even with an error: its
                    // unreadable params are left out, and it is handled (or ignored) as is.
                    (None, None, Some(StringMember::Text(method))) => Incoming::Notification {
                        method,
                        params: Params::default(),
                    },
                    _ => invalid_request(None, "`params` must be an object."),
                };
            }
        };
        match (method, id) {
            (Some(StringMember::Text(method)), None) => Incoming::Notification { method, params },
            (Some(StringMember::Text(method)), Some(id)) if is_valid_id(&id) => {
                Incoming::Request { id, method, params }
            }
            (Some(StringMember::Text(_)), Some(_)) => {
                invalid_request(None, "`id` must be a string or an integer.")
            }
            (Some(StringMember::Other(_)), id) => {
                invalid_request(readable(&id), "`method` must be a string.")
            }
            // A response is never answered, not even one whose id is unreadable (`null`,
            // say): it matches no request the server sent, so it is ignored.
            (None, id) if result.is_some() || error.is_some() => {
                let id = id.filter(is_valid_id).unwrap_or(Value::Null);
                let outcome = match (result, error) {
                    (Some(result), None) => Ok(result),
                    (_, Some(error)) => Err(RpcError::from_json(&error)),
                    (None, None) => unreachable!("checked above"),
                };
                Incoming::Response { id, outcome }
            }
            (None, id) => invalid_request(readable(&id), "a request needs a `method`."),
        }
    }
}

/// A message that is not a valid request, notification or response.
#[cold]
fn invalid_request<'a>(id: Option<Value>, message: &str) -> Incoming<'a> {
    Incoming::Invalid {
        id,
        error: RpcError::new(code::INVALID_REQUEST, format!("Invalid request: {message}")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    impl Incoming<'static> {
        fn classify_value(message: Value) -> Self {
            Incoming::classify(Message::from_value(message))
        }
    }

    /// How a line is classified (or the parse error it gets), as text.
    fn described(line: &str) -> String {
        match Decoded::decode(JsonInput::Line(line)) {
            Ok(Decoded::Message(message)) => format!("{:?}", Incoming::classify(message)),
            Ok(Decoded::Batch(messages)) => {
                let classified: Vec<_> = messages.into_iter().map(Incoming::classify).collect();
                format!("batch {classified:?}")
            }
            Err(error) => format!("error {error}"),
        }
    }

    /// The same, by way of a `serde_json::Value` (as before lines were decoded directly).
    fn described_by_value(line: &str) -> String {
        match serde_json::from_str::<Value>(line) {
            Ok(value) => match Decoded::from_value(value) {
                Decoded::Message(message) => format!("{:?}", Incoming::classify(message)),
                Decoded::Batch(messages) => {
                    let classified: Vec<_> = messages.into_iter().map(Incoming::classify).collect();
                    format!("batch {classified:?}")
                }
            },
            Err(error) => format!("error {error}"),
        }
    }

    #[test]
    fn decoding_a_line_directly_matches_decoding_it_as_a_value() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let deep_member = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"ping","x":{}1{}}}"#,
            "[".repeat(130),
            "]".repeat(130)
        );
        let deep_params = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"a":{}1{}}}}}"#,
            "[".repeat(126),
            "]".repeat(126)
        );
        let deep_meta = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"_meta":{{"progressToken":{}1{}}}}}}}"#,
            "[".repeat(125),
            "]".repeat(125)
        );
        let call_with = |arguments: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{arguments}}}}}"#
            )
        };
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let empty = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        // Arguments of every kind the quick check passes or hands on to the full one.
        let calls = [
            call_with(r#"{"a":"\ud800"}"#),
            call_with(r#"{"a":"\ud83d\ude00","b":"\u00e9"}"#),
            call_with(r#"{"a":"x\ny\"z\\","b":[true,false,null,-0.5]}"#),
            call_with(r#"{"a":1.5E3,"b":2e-400}"#),
            call_with(&format!(r#"{{"a":{}}}"#, "9".repeat(300))),
            call_with(&format!(r#"{{"a":{}}}"#, "9".repeat(310))),
            call_with(&format!(r#"{{"a":-{}.5}}"#, "9".repeat(298))),
            call_with(&nested(124)),
            call_with(&nested(125)),
            call_with(&nested(126)),
            format!("[{}]", call_with(&nested(124))),
            format!("[{}]", call_with(&nested(125))),
            call_with(&empty(125)),
            call_with(&empty(126)),
            format!("[{}]", call_with(&empty(124))),
            format!("[{}]", call_with(&empty(125))),
        ];
        for line in calls.iter().map(String::as_str).chain([
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
            r#"{"method":"ping","id":"a","jsonrpc":"2.0"}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"1.0","jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":["2.0"],"id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}"#,
            r#"{"\u006aconrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":{"a":[1,2]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":null}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.0,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":-5,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/x","params":5}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b","arguments":{"x":1},"arguments":null,"_meta":{"progressToken":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e\u0063ho\n"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/logLevel":"debug","traceparent":"t"}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1,"progressToken":"two","x":1,"x":[2]}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progress\u0054oken":1},"\u005fmeta":{"y":null}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"a":1},"_meta":[1,{"b":2}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":"text"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":null}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1e400}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"v":1e400}}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"s":"\ud800"}}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientInfo":{"a":[1,2.5,{"b":null}],"a":"\u00e9"}}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientInfo":"c","io.modelcontextprotocol/clientInfo":{"n":1}}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1,}}}"#,
            &deep_meta,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":[1,{"a":null}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":{"x":true}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":2.5,"arguments":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":null,"\u006eame":"n"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"a":1e400}}}"#,
            r#"{"jsonrpc":"2.0","id":"a","result":null}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":1e400}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","extra":"\ud800"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping",}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping""#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},3,[],{"jsonrpc":"2.0"}]"#,
            "[]",
            "5",
            "\"text\"",
            "null",
            "1e400",
            "nope",
            "",
            &deep,
            &deep_member,
            &deep_params,
        ]) {
            assert_eq!(described(line), described_by_value(line), "{line}");
        }
    }

    #[test]
    fn params_give_back_the_object_as_sent() {
        for params in [
            json!({}),
            json!({"name": "echo", "arguments": {"text": "hi"}, "_meta": {"progressToken": "p"}}),
            json!({"_meta": {"io.modelcontextprotocol/clientInfo": {"name": "c"}, "traceparent": "t", "progressToken": 3}}),
            json!({"_meta": [1, 2], "x": 1}),
            json!({"_meta": null}),
            json!({"name": 5, "arguments": [1], "requestState": "s"}),
            json!({"name": {"a": [null]}, "other": {"b": 1}}),
            json!({"arguments": null}),
        ] {
            let line =
                json!({"jsonrpc": "2.0", "id": 1, "method": "m", "params": params}).to_string();
            let Ok(Decoded::Message(message)) = Decoded::decode(JsonInput::Line(&line)) else {
                panic!("{line} did not decode");
            };
            let Incoming::Request {
                params: decoded, ..
            } = Incoming::classify(message)
            else {
                panic!("{line} is not a request");
            };
            assert_eq!(Value::Object(decoded.into_map()), params, "{line}");
        }
    }

    #[test]
    fn classifies_requests_notifications_and_responses() {
        let request = Incoming::classify_value(json!({"jsonrpc":"2.0","id":7,"method":"ping"}));
        assert!(
            matches!(request, Incoming::Request { ref id, ref method, .. } if id == &json!(7) && method == "ping")
        );
        let note =
            Incoming::classify_value(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        assert!(matches!(note, Incoming::Notification { .. }));
        let response = Incoming::classify_value(json!({"jsonrpc":"2.0","id":"a","result":{}}));
        assert!(matches!(response, Incoming::Response { .. }));
        // Never answered, even when malformed: a response with an unreadable id, and a
        // notification with unreadable params.
        let response = Incoming::classify_value(
            json!({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}),
        );
        assert!(matches!(response, Incoming::Response { ref id, .. } if id.is_null()));
        let note = Incoming::classify_value(
            json!({"jsonrpc":"2.0","method":"notifications/x","params":5}),
        );
        assert!(matches!(
            note,
            Incoming::Notification { params: Params { name: None, arguments: None, meta: None, ref others }, .. }
                if others.is_empty()
        ));
    }

    #[test]
    fn rejects_bad_ids_versions_and_params() {
        for (message, expected_code, keeps_id) in [
            (
                json!({"jsonrpc":"2.0","id":1.5,"method":"ping"}),
                code::INVALID_REQUEST,
                false,
            ),
            (
                json!({"jsonrpc":"2.0","id":null,"method":"ping"}),
                code::INVALID_REQUEST,
                false,
            ),
            (
                json!({"jsonrpc":"2.0","id":{"a":1},"method":"ping"}),
                code::INVALID_REQUEST,
                false,
            ),
            (
                json!({"jsonrpc":"1.0","id":1,"method":"ping"}),
                code::INVALID_REQUEST,
                true,
            ),
            (json!({"id":1,"method":"ping"}), code::INVALID_REQUEST, true),
            (
                json!({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}),
                code::INVALID_PARAMS,
                true,
            ),
            (json!({"jsonrpc":"2.0","id":1}), code::INVALID_REQUEST, true),
            (json!([1]), code::INVALID_REQUEST, false),
            (json!("hello"), code::INVALID_REQUEST, false),
        ] {
            match Incoming::classify_value(message.clone()) {
                Incoming::Invalid { id, error } => {
                    assert_eq!(error.code, expected_code, "{message}");
                    assert_eq!(id.is_some(), keeps_id, "{message}");
                }
                other => panic!("{message} classified as {other:?}"),
            }
        }
    }
}
