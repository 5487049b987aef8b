//! [`HttpServer::verify_jwt`] and [`HttpServer::introspect_tokens`]: the built-in
//! verifiers of access tokens (feature `jwt`).

use super::http::HttpServer;
use crate::Error;
use crate::transport::http::{
    Authenticator, JwtVerifier, ProtectedResource, TokenClaims, TokenIntrospector, VerifierListing,
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
    pub fn verify_jwt(self, verifier: JwtVerifier) -> Self {
        let problem = verifier.problem().map(Error::InvalidJwtVerifier);
        let (listing, resource) = (verifier.listing(), verifier.resource().to_owned());
        self.resource_server(
            problem,
            listing,
            &resource,
            Authenticator::Jwt(verifier.start()),
        )
    }

    /// Verifies every request's bearer token as an opaque access token by asking its
    /// issuer (RFC 7662 introspection), in place of an
    /// [`authenticate`](HttpServer::authenticate) hook; otherwise just like
    /// [`verify_jwt`](HttpServer::verify_jwt): a token the issuer says is not active, or
    /// that is not for this server's resource, is answered `401` with an `invalid_token`
    /// challenge, the [`TokenClaims`] of one that passes (the introspection answer) are the
    /// request's principal, the issuer is listed in the protected-resource metadata, and
    /// the token's scopes open the tools that require them unless
    /// [`Server::scopes_of`](crate::Server::scopes_of) was given.
    ///
    /// ```no_run
    /// use mcp_runtime::{Server, TokenIntrospector};
    ///
    /// # async fn run() -> Result<(), mcp_runtime::Error> {
    /// Server::new("notes", "1.0.0")
    ///     .http()
    ///     .allow_host("mcp.example.com")
    ///     .introspect_tokens(TokenIntrospector::new(
    ///         "https://mcp.example.com/mcp",
    ///         "https://auth.example.com",
    ///         "mcp-server",
    ///         std::env::var("INTROSPECTION_SECRET").unwrap_or_default(),
    ///     ))
    ///     .serve("0.0.0.0:8080")
    ///     .await
    /// # }
    /// ```
    ///
    /// An introspector that cannot be used (an `http://` issuer without
    /// [`allow_http`](TokenIntrospector::allow_http)) makes the server refuse to start with
    /// [`Error::InvalidTokenIntrospector`].
    pub fn introspect_tokens(self, introspector: TokenIntrospector) -> Self {
        let problem = introspector.problem().map(Error::InvalidTokenIntrospector);
        let (listing, resource) = (introspector.listing(), introspector.resource().to_owned());
        self.resource_server(
            problem,
            listing,
            &resource,
            Authenticator::Introspection(introspector.start()),
        )
    }

    /// Makes this an OAuth resource server whose tokens `authenticator` checks: the
    /// verifier's `listing` in the metadata (made for `resource` if none was given), and the
    /// token's scopes opening tools unless the server maps them itself.
    fn resource_server(
        mut self,
        problem: Option<Error>,
        listing: VerifierListing,
        resource: &str,
        authenticator: Authenticator,
    ) -> Self {
        self.verifier_problem = problem;
        let resource = self
            .guard
            .resource
            .take()
            .unwrap_or_else(|| ProtectedResource::new(resource, listing.issuer.as_str()));
        // The guard lists the verifier in any metadata given, now or later.
        self.guard.listing = Some(listing);
        self.guard.protected_resource(resource);
        self.guard.authenticate(authenticator);
        if !self.server.access.reads_scopes() {
            self.server
                .access
                .set_scopes_of(|claims: &TokenClaims| claims.scopes().to_vec());
        }
        self
    }
}
