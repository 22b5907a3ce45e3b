import Glibc

/// The proxy libcurl takes from the environment for a URL, when no proxy is configured: so a
/// message can say the proxy was what failed. curl reads `http_proxy` only in lower case (an
/// upper-case `HTTP_PROXY` can be set by a CGI request), the others in either case.
///
/// `no_proxy` is left to curl: a message calls the proxy what failed only when curl's own
/// text names the proxy's host and port, so a host curl reached directly is never mistaken
/// for it.
/// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_PROXY.html
enum ProxyEnvironment {
    /// Whether the environment names a proxy curl may take for any URL (a redirect can change
    /// the scheme). Read once: syncagent never changes its own environment.
    static let namesAny = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"].contains { (name: String) in
        getenv(name).map { $0.pointee != 0 } ?? false
    }

    /// The proxy named for `url`'s scheme, else `all_proxy`; `nil` when none is set.
    static func proxy(for url: String) -> String? {
        let scheme = url.lowercased().hasPrefix("https:") ? "https" : "http"
        let names = scheme == "http" ? ["http_proxy"] : ["https_proxy", "HTTPS_PROXY"]
        for name in names + ["all_proxy", "ALL_PROXY"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
        }
        return nil
    }
}
