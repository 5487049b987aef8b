//! [`HttpServer::verify_jwt`]: the built-in verifier of JWT access tokens (feature `jwt`).

use super::http::HttpServer;
use crate::transport::http::{
    Authenticator, JwtVerifier, ProtectedResource, TokenClaims, VerifierListing,
};

impl HttpServer {
    /// Verifies every request's bearer token as a JWT access token (RFC 9068) issued for
    /// this server, in place of an [`authenticate`](HttpServer::authenticate) hook: a
    /// token that fails is answered `401` with an `invalid_token` challenge, and the
    /// [`TokenClaims`] of one that passes are the request's principal.
    ///
    /// It also makes this an OAuth resource server: the verifier's issuer is listed as
    /// authorization server in the [protected-resource metadata](HttpServer::protected_resource)
    /// (made from the verifier's resource if none was given), and unless
    /// [`Server::scopes_of`](crate::Server::scopes_of) was given, the token's scopes
    /// ([`TokenClaims::scopes`]) open the tools that require them.
    ///
    /// ```no_run
    /// use mcp_runtime::{JwtVerifier, Server};
    ///
    /// # async fn run() -> Result<(), mcp_runtime::Error> {
    /// Server::new("notes", "1.0.0")
    ///     .http()
    ///     .allow_host("mcp.example.com")
    ///     .verify_jwt(JwtVerifier::new("https://mcp.example.com/mcp", "https://auth.example.com"))
    ///     .serve("0.0.0.0:8080")
    ///     .await
    /// # }
    /// ```
    ///
    /// A verifier that cannot be used (an `http://` issuer without
    /// [`allow_http`](JwtVerifier::allow_http)) makes the server refuse to start with
    /// [`Error::InvalidJwtVerifier`](crate::Error::InvalidJwtVerifier).
    pub fn verify_jwt(mut self, verifier: JwtVerifier) -> Self {
        self.jwt_problem = verifier.problem();
        let issuer = verifier.issuer().to_owned();
        let resource = self
            .guard
            .resource
            .take()
            .unwrap_or_else(|| ProtectedResource::new(verifier.resource(), issuer.as_str()));
        // The guard lists the verifier in any metadata given, now or later.
        self.guard.listing = Some(VerifierListing {
            issuer,
            dpop_required: verifier.requires_dpop(),
        });
        self.guard.protected_resource(resource);
        self.guard
            .authenticate(Authenticator::Jwt(verifier.start()));
        if !self.server.access.reads_scopes() {
            self.server
                .access
                .set_scopes_of(|claims: &TokenClaims| claims.scopes().to_vec());
        }
        self
    }
}
