import CCurl

/// Turns what curl and the server said into a ``TransferFailure`` a person understands,
/// and classifies it as transient (worth a retry) or permanent.
enum FailureClassification {
    /// A transfer curl ended with an error; `location` is the last redirect's target, if any.
    static func failure(for error: CurlError, url: String, location: String? = nil) -> TransferFailure {
        let host = hostName(of: url)
        let code = CURLcode(rawValue: UInt32(error.code))
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return TransferFailure(.network, "cannot find the server \(host) (\(error))")
        case CURLE_COULDNT_CONNECT:
            return TransferFailure(.network, "cannot connect to \(host) (\(error))")
        case CURLE_OPERATION_TIMEDOUT:
            return TransferFailure(.timeout, "the transfer timed out (\(error))")
        case CURLE_PARTIAL_FILE:
            return TransferFailure(.truncated, "the connection closed before the whole file arrived")
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return TransferFailure(.network, "the connection to \(host) was lost (\(error))")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return TransferFailure(.tls, "the secure connection to \(host) could not be verified (\(error))")
        case CURLE_TOO_MANY_REDIRECTS:
            return TransferFailure(.redirect, "the server redirected too many times")
        case CURLE_UNSUPPORTED_PROTOCOL where url.lowercased().hasPrefix("https:") && location?.lowercased().hasPrefix("http:") == true:
            return TransferFailure(.redirect, "the server redirected from https to plain http, which is not safe")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return TransferFailure(.redirect, "the server redirected to an address that is not http or https")
        case CURLE_WRITE_ERROR:
            return TransferFailure(.disk, "the file could not be written")
        default:
            return TransferFailure(.network, "the transfer from \(host) failed (\(error))")
        }
    }

    /// A response whose status is not a success.
    static func failure(forStatus status: Int, reason: String, retryAfter: Duration?) -> TransferFailure {
        let phrase = reason.isEmpty ? standardReason(status) : reason
        let answered = "the server answered \(status)" + (phrase.isEmpty ? "" : " \(phrase)")
        switch status {
        case 404, 410:
            return TransferFailure(.notFound, answered)
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
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes[colon...].starts(with: "://".utf8)
        else { return url }
        let rest = bytes[bytes.index(colon, offsetBy: 3)...]
        let authority = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let host = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[authority.index(after: $0)...] } ?? authority
        return String(Substring(host))
    }
}
