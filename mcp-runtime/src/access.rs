//! Per-tool authorization: the scopes a tool requires (`#[mcp_tool(scopes = [...])]`)
//! against those the caller's principal holds (`Server::scopes_of`).

use std::any::Any;
use std::sync::Arc;

/// A verified principal, its type erased.
pub(crate) type AnyPrincipal = Arc<dyn Any + Send + Sync>;

/// Reads the scopes of a principal of the type `Server::scopes_of` names; `None` for a
/// principal of another type.
type ScopesOf = Arc<dyn Fn(&(dyn Any + Send + Sync)) -> Option<Vec<String>> + Send + Sync>;

/// The server's authorization settings.
#[derive(Clone)]
pub(crate) struct Access {
    scopes_of: Option<ScopesOf>,
    /// The type `scopes_of` reads, for the message when a principal is of another.
    principal_type: &'static str,
    /// Whether `tools/list` leaves out the tools the caller may not call.
    pub hide_forbidden_tools: bool,
    /// The principal of connections that carry no credentials: stdio, in-process clients.
    pub local_principal: Option<AnyPrincipal>,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access")
            .field(
                "scopes_of",
                &self.scopes_of.as_ref().map(|_| self.principal_type),
            )
            .field("hide_forbidden_tools", &self.hide_forbidden_tools)
            .field("local_principal", &self.local_principal.is_some())
            .finish()
    }
}

impl Default for Access {
    fn default() -> Self {
        Access {
            scopes_of: None,
            principal_type: "",
            hide_forbidden_tools: true,
            local_principal: None,
        }
    }
}

impl Access {
    pub fn set_scopes_of<P, I>(&mut self, scopes_of: impl Fn(&P) -> I + Send + Sync + 'static)
    where
        P: Send + Sync + 'static,
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.principal_type = std::any::type_name::<P>();
        self.scopes_of = Some(Arc::new(move |principal: &(dyn Any + Send + Sync)| {
            let principal = principal.downcast_ref::<P>()?;
            Some(scopes_of(principal).into_iter().map(Into::into).collect())
        }));
    }

    /// Whether `Server::scopes_of` was given.
    #[cfg(feature = "jwt")]
    pub fn reads_scopes(&self) -> bool {
        self.scopes_of.is_some()
    }

    /// The scopes `principal` holds: none without a principal, without
    /// `Server::scopes_of`, or for a principal of another type than it reads.
    pub fn granted(&self, principal: Option<&AnyPrincipal>) -> Vec<String> {
        let (Some(principal), Some(scopes_of)) = (principal, &self.scopes_of) else {
            return Vec::new();
        };
        match scopes_of(principal.as_ref()) {
            Some(scopes) => scopes,
            None => {
                tracing::warn!(
                    expected = self.principal_type,
                    "the principal is not of the type `Server::scopes_of` reads, so it holds no scopes"
                );
                Vec::new()
            }
        }
    }

    /// The JSON-RPC error of a read or a prompt refused for lacking scopes (a tool call's
    /// refusal is an `isError` result instead).
    pub fn refusal(
        &self,
        what: &str,
        required: impl Iterator<Item = impl AsRef<str>>,
        principal: Option<&AnyPrincipal>,
    ) -> Result<(), crate::protocol::jsonrpc::RpcError> {
        let required: Vec<String> = required.map(|scope| scope.as_ref().to_owned()).collect();
        let missing = self.missing(required.iter().map(String::as_str), principal);
        if missing.is_empty() {
            return Ok(());
        }
        Err(crate::protocol::jsonrpc::RpcError::new(
            crate::protocol::jsonrpc::code::INVALID_REQUEST,
            format!(
                "Forbidden: {}",
                refusal_message(what, &missing, principal.is_some())
            ),
        ))
    }

    /// Which of `required` the principal lacks, in the order required.
    #[inline]
    pub fn missing<'a>(
        &self,
        required: impl Iterator<Item = &'a str>,
        principal: Option<&AnyPrincipal>,
    ) -> Vec<&'a str> {
        let mut required = required.peekable();
        if required.peek().is_none() {
            return Vec::new();
        }
        let granted = self.granted(principal);
        required
            .filter(|scope| !granted.iter().any(|held| held == scope))
            .collect()
    }
}

/// The scopes something requires: those its attribute states (`fixed`), or those added to
/// its dynamic form (`owned`).
pub(crate) fn required<'a>(
    fixed: &'static [&'static str],
    owned: &'a [String],
) -> impl Iterator<Item = &'a str> + 'a {
    fixed
        .iter()
        .copied()
        .chain(owned.iter().map(String::as_str))
}

/// The text of a request refused for lacking scopes; `what` is "Tool `x`", "Resource `u`"
/// or "Prompt `p`".
pub(crate) fn refusal_message(what: &str, missing: &[&str], has_principal: bool) -> String {
    let scopes = missing
        .iter()
        .map(|scope| format!("`{scope}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let plural = if missing.len() == 1 { "" } else { "s" };
    if has_principal {
        format!("{what} needs the scope{plural} {scopes}, which the caller does not hold.")
    } else {
        format!(
            "{what} needs the scope{plural} {scopes}, and this connection has no principal \
             that could hold them."
        )
    }
}
