/// Turns what curl and the server said into a ``TransferFailure`` a person understands,
/// and classifies it as transient (worth a retry) or permanent.
enum FailureClassification {
    /// What a message about a failed transfer needs to name the right thing.
    struct Context {
        /// The URL the manifest asked for.
        var url: String
        /// The URL curl last tried, after redirects: where a connection actually failed.
        var effectiveURL: String?
        /// The last redirect's `Location`, if any.
        var location: String?
        /// The proxy the request was meant to go through, as configured.
        var proxy: String?
        /// The response's `Content-Encoding`, if any.
        var contentEncoding: String?
        /// How long connecting (TCP, proxy, TLS handshake) may take.
        var connectTimeout: Duration?

        init(url: String, effectiveURL: String? = nil, location: String? = nil, proxy: String? = nil,
             contentEncoding: String? = nil, connectTimeout: Duration? = nil) {
            self.url = url
            self.effectiveURL = effectiveURL
            self.location = location
            self.proxy = proxy
            self.contentEncoding = contentEncoding
            self.connectTimeout = connectTimeout
        }
    }

    /// The encodings Debian's libcurl decodes; any other is refused by name.
    static let decodableEncodings: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd"]

    /// A transfer that failed before it could start (an option curl refused).
    static func failure(for error: CurlError, url: String) -> TransferFailure {
        failure(for: error, in: Context(url: url))
    }

    /// A transfer curl ended with an error.
    static func failure(for error: CurlError, in context: Context) -> TransferFailure {
        let host = serverName(context)
        switch error.kind {
        case .couldNotResolveHost:
            return TransferFailure(.nameNotResolved, "cannot find the server \(host) (\(error))")
        case .couldNotResolveProxy:
            return TransferFailure(.network, "cannot find the proxy \(context.proxy.map(hostName) ?? "") (\(error))")
        case .couldNotConnect:
            if let proxy = context.proxy, mentions(error, proxy: proxy) {
                return TransferFailure(.network, "cannot connect to the proxy \(hostName(of: proxy)) (\(error))")
            }
            return TransferFailure(.network, "cannot connect to \(host) (\(error))")
        case .timedOut where error.detail?.hasPrefix("SSL connection timeout") == true:
            let within = context.connectTimeout.map { " within \(describe($0))" } ?? ""
            return TransferFailure(.timeout, "\(host) did not finish the TLS handshake\(within)")
        case .timedOut:
            return TransferFailure(.timeout, "the transfer from \(host) timed out (\(error))")
        case .partialFile:
            return TransferFailure(.truncated, "the connection to \(host) closed before the whole file arrived")
        case .receiveFailed where error.detail?.hasPrefix("Too large response headers") == true:
            return TransferFailure(.badResponse, "the response header from \(host) is larger than the 300 KB accepted (\(error))")
        case .receiveFailed, .sendFailed, .gotNothing, .http2:
            return TransferFailure(.network, "the connection to \(host) was lost (\(error))")
        case .outOfMemory:
            // Memory never runs out for curl in practice; a header line over its 100 KB does.
            return TransferFailure(.badResponse, "the response from \(host) has a header field larger than the 100 KB accepted")
        case .badContentEncoding:
            let encoding = context.contentEncoding ?? "unknown"
            let known = encoding.split(separator: ",").allSatisfy { decodableEncodings.contains(String($0.trimmingSpaces())) }
            return known
                ? TransferFailure(.badResponse, "the file from \(host) is sent \(encoding)-encoded and does not decode (\(error))")
                : TransferFailure(.badResponse, "the file from \(host) is sent in the \"\(encoding)\" encoding, which syncagent cannot decode")
        case .tlsConnect, .tlsVerification:
            return TransferFailure(.tls, "the secure connection to \(host) could not be verified (\(error))")
        case .tooManyRedirects:
            return TransferFailure(.redirect, "the server redirected too many times")
        case .unsupportedProtocol where error.detail?.contains("HTTP/0.9") == true:
            // Bytes without a status line: curl takes them for the HTTP/0.9 it refuses.
            fallthrough
        case .weirdServerReply:
            return TransferFailure(.badResponse, "\(host) answered with something that is not an HTTP response (\(error))")
        case .unsupportedProtocol where context.url.lowercased().hasPrefix("https:") && context.location?.lowercased().hasPrefix("http:") == true:
            return TransferFailure(.redirect, "the server redirected from https to plain http, which is not safe")
        case .unsupportedProtocol:
            return TransferFailure(.redirect, "the server redirected to an address that is not http or https")
        case .writeFailed:
            return TransferFailure(.disk, "the file could not be written")
        case .multiHandle, .other:
            return TransferFailure(.network, "the transfer from \(host) failed (\(error))")
        }
    }

    /// The server a failed connection was to: the redirect's target when there was one,
    /// said together with the server that sent there.
    private static func serverName(_ context: Context) -> String {
        let origin = hostName(of: context.url)
        guard let effective = context.effectiveURL.map(hostName), effective != origin else { return origin }
        return "\(effective) (where \(origin) redirected)"
    }

    /// Whether curl's text names the proxy's host and port ("Failed to connect to 127.0.0.1
    /// port 3128 …"): the connection that failed was the one to the proxy.
    private static func mentions(_ error: CurlError, proxy: String) -> Bool {
        guard let detail = error.detail else { return false }
        let authority = hostName(of: proxy.contains("://") ? proxy : "http://" + proxy)
        guard let colon = authority.lastIndex(of: ":") else { return detail.contains("to \(authority) port ") }
        let host = String(authority[..<colon].filter { $0 != "[" && $0 != "]" })
        return detail.contains("to \(host) port \(authority[authority.index(after: colon)...]) ")
    }

    /// "1 s", "1.5 s".
    private static func describe(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }

    /// A response whose status is not a success.
    static func failure(forStatus status: Int, reason: String, retryAfter: Duration?) -> TransferFailure {
        let phrase = reason.isEmpty ? standardReason(status) : reason
        let answered = "the server answered \(status)" + (phrase.isEmpty ? "" : " \(phrase)")
        switch status {
        case 404:
            return TransferFailure(.notFound, answered)
        case 410:
            return TransferFailure(.gone, answered)
        case 429:
            return TransferFailure(.tooManyRequests, answered, retryAfter: retryAfter)
        case 408:
            return TransferFailure(.timeout, answered)
        case 500...599:
            return TransferFailure(.serverError, answered, retryAfter: retryAfter)
        default:
            return TransferFailure(.httpStatus, answered)
        }
    }

    /// Reason phrases for responses that carry none (HTTP/2).
    private static func standardReason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }

    /// The host part of an http(s) URL, for messages.
    static func hostName(of url: String) -> String {
        // Bytes, not characters: this runs twice per transfer, and every delimiter is ASCII.
        // Over the string's own buffer: the collection algorithms over its UTF-8 view cost
        // some 2,900 instructions a URL.
        var text = url
        let host = text.withUTF8 { bytes in
            hostRange(in: bytes).map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        }
        return host ?? url
    }

    /// Where the host ``hostName(of:)`` finds in `url` ends, as a count of bytes: at the end
    /// of the URL or at the `/`, `?` or `#` after it; `nil` when it finds none.
    static func hostEnd(of url: String) -> Int? {
        var text = url
        return text.withUTF8 { hostRange(in: $0)?.upperBound }
    }

    /// Where ``hostName(of:)`` finds the host in `bytes`, or `nil` when they have no `://`
    /// after their first colon: what follows `://` up to the first `/`, `?` or `#`, after its
    /// last `@`.
    private static func hostRange(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes.count - colon >= 3,
              bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        var start = colon + 3
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { start = end + 1 }
            end += 1
        }
        return start..<end
    }
}
