//! [`JwtAlgorithm`]: the signature algorithms a verifier may accept.

use jsonwebtoken::Algorithm;

/// A signature algorithm a [`JwtVerifier`](crate::JwtVerifier) may accept. Only asymmetric ones exist here: a
/// resource server holds public keys, so an HMAC (`HS256`) token could only be verified
/// with a public key as its secret — the algorithm-confusion attack — and `none` is no
/// signature at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JwtAlgorithm {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    RS256,
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    RS384,
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    RS512,
    /// RSASSA-PSS with SHA-256.
    PS256,
    /// RSASSA-PSS with SHA-384.
    PS384,
    /// RSASSA-PSS with SHA-512.
    PS512,
    /// ECDSA on P-256 with SHA-256.
    ES256,
    /// ECDSA on P-384 with SHA-384.
    ES384,
    /// Ed25519.
    EdDSA,
}

impl JwtAlgorithm {
    const ALL: [JwtAlgorithm; 9] = [
        JwtAlgorithm::RS256,
        JwtAlgorithm::RS384,
        JwtAlgorithm::RS512,
        JwtAlgorithm::PS256,
        JwtAlgorithm::PS384,
        JwtAlgorithm::PS512,
        JwtAlgorithm::ES256,
        JwtAlgorithm::ES384,
        JwtAlgorithm::EdDSA,
    ];

    /// Its JOSE name (RFC 7518), as metadata and challenges list it.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            JwtAlgorithm::RS256 => "RS256",
            JwtAlgorithm::RS384 => "RS384",
            JwtAlgorithm::RS512 => "RS512",
            JwtAlgorithm::PS256 => "PS256",
            JwtAlgorithm::PS384 => "PS384",
            JwtAlgorithm::PS512 => "PS512",
            JwtAlgorithm::ES256 => "ES256",
            JwtAlgorithm::ES384 => "ES384",
            JwtAlgorithm::EdDSA => "EdDSA",
        }
    }

    /// The same algorithm as jsonwebtoken names it.
    pub(super) fn jsonwebtoken(self) -> Algorithm {
        match self {
            JwtAlgorithm::RS256 => Algorithm::RS256,
            JwtAlgorithm::RS384 => Algorithm::RS384,
            JwtAlgorithm::RS512 => Algorithm::RS512,
            JwtAlgorithm::PS256 => Algorithm::PS256,
            JwtAlgorithm::PS384 => Algorithm::PS384,
            JwtAlgorithm::PS512 => Algorithm::PS512,
            JwtAlgorithm::ES256 => Algorithm::ES256,
            JwtAlgorithm::ES384 => Algorithm::ES384,
            JwtAlgorithm::EdDSA => Algorithm::EdDSA,
        }
    }

    /// The accepted algorithm jsonwebtoken names `algorithm` (none for HMAC, and any the
    /// crate adds).
    pub(super) fn of(algorithm: Algorithm) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|accepted| accepted.jsonwebtoken() == algorithm)
    }
}
