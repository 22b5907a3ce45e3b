/// Where the certificate authorities a TLS connection trusts come from: the user's, named as
/// for curl, or the system's.
///
/// Debian's libcurl trusts two copies of the system's authorities: the bundle
/// `/etc/ssl/certs/ca-certificates.crt` and the folder `/etc/ssl/certs`, both written by
/// `update-ca-certificates` from the same certificates. OpenSSL reads a bundle whole for every
/// connection — 139 certificates, about 233 M instructions or 20 ms of CPU, the most of a
/// small HTTPS re-check — but looks a folder up only for the issuer it needs. So where the user
/// names neither, and libcurl has a folder of its own, the folder alone is trusted: the same
/// authorities, none of them parsed in vain. Every certificate is verified either way.
struct CertificateAuthorities: Equatable, Sendable {
    /// A bundle file to trust (`CURL_CA_BUNDLE`, else `SSL_CERT_FILE`), or `nil`.
    let file: String?
    /// A folder of hashed certificates to trust (`SSL_CERT_DIR`), or `nil`.
    let folder: String?
    /// Whether libcurl's own bundle file is left out, its own folder holding the same.
    let withoutBuiltInFile: Bool
}

extension CertificateAuthorities {
    /// What to trust, given the environment's variables (a variable set but empty counts as
    /// unset) and libcurl's own folder (`curl_version_info`'s `capath`) if it has one and it
    /// is there.
    init(environment: (String) -> String?, builtInFolder: String?) {
        func named(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        let file = named("CURL_CA_BUNDLE") ?? named("SSL_CERT_FILE")
        let folder = named("SSL_CERT_DIR")
        // What the user names is used as curl uses it, beside libcurl's own authorities.
        self.init(file: file, folder: folder, withoutBuiltInFile: file == nil && folder == nil && builtInFolder != nil)
    }
}
