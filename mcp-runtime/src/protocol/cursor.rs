//! Pagination cursors, shared by every list method: a cursor names the first item of the
//! next page (its name or URI, under a prefix saying which list it belongs to), so pages stay
//! consistent even when the list changes between two requests. Opaque to clients: base64.

use std::ops::Range;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value};

use crate::protocol::jsonrpc::RpcError;

/// The cursor of a page that starts at the item keyed `first`, in the list `list`.
pub(crate) fn encode(list: &str, first: &str) -> String {
    URL_SAFE_NO_PAD.encode(format!("{list}:{first}"))
}

/// The key of the first item of the page `cursor` names, if this server issued it for `list`.
pub(crate) fn decode(list: &str, cursor: &str) -> Option<String> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor).ok()?;
    String::from_utf8(bytes)
        .ok()?
        .strip_prefix(list)?
        .strip_prefix(':')
        .map(str::to_owned)
}

/// The `cursor` member of a list request's params, if any.
pub(crate) fn from_params(params: &Map<String, Value>) -> Result<Option<&str>, RpcError> {
    match params.get("cursor") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(cursor)) => Ok(Some(cursor.as_str())),
        Some(_) => Err(RpcError::invalid_params(
            "Invalid params: `cursor` must be a string.",
        )),
    }
}

/// The page of `keys` (sorted) that `cursor` starts, at most `page_size` long, and the cursor
/// of the page after it.
pub(crate) fn page<'a>(
    list: &str,
    keys: impl ExactSizeIterator<Item = &'a str> + Clone,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<(Range<usize>, Option<String>), RpcError> {
    let len = keys.len();
    let start = match cursor {
        None => 0,
        Some(cursor) => {
            let first = decode(list, cursor).ok_or_else(|| invalid_cursor(cursor))?;
            keys.clone().take_while(|key| *key < first.as_str()).count()
        }
    };
    let end = start.saturating_add(page_size.max(1)).min(len);
    let next = keys.clone().nth(end).map(|next| encode(list, next));
    Ok((start..end, next))
}

/// The error for a cursor this server did not issue.
pub(crate) fn invalid_cursor(cursor: &str) -> RpcError {
    RpcError::invalid_params(format!(
        "Invalid cursor: {cursor:?} was not issued by this server."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_belong_to_one_list() {
        let cursor = encode("prompt", "review");
        assert_eq!(decode("prompt", &cursor).as_deref(), Some("review"));
        assert_eq!(decode("resource", &cursor), None);
        assert_eq!(decode("prompt", "not base64 !"), None);
    }

    #[test]
    fn pages_follow_one_another() {
        let keys = ["a", "b", "c", "d", "e"];
        let (first, next) = page("x", keys.iter().copied(), None, 2).unwrap();
        assert_eq!(first, 0..2);
        let (second, next) = page("x", keys.iter().copied(), next.as_deref(), 2).unwrap();
        assert_eq!(second, 2..4);
        let (third, next) = page("x", keys.iter().copied(), next.as_deref(), 2).unwrap();
        assert_eq!((third, next), (4..5, None));
        assert!(page("x", keys.iter().copied(), Some("garbage"), 2).is_err());
    }
}
