internal import CCurl

extension CurlError {
    /// curl's result codes that syncagent tells apart, as a Swift enum: the rest of the
    /// program classifies failures on these, never on `CURLE_*` values.
    /// - SeeAlso: https://curl.se/libcurl/c/libcurl-errors.html
    enum Kind: Equatable, Sendable {
        case couldNotResolveHost
        case couldNotResolveProxy
        case couldNotConnect
        case timedOut
        /// The body ended before its announced length.
        case partialFile
        case receiveFailed
        case sendFailed
        /// The server closed the connection without sending a response.
        case gotNothing
        case http2
        /// The TLS handshake failed.
        case tlsConnect
        /// The server's certificate or key could not be verified or used.
        case tlsVerification
        case tooManyRedirects
        case unsupportedProtocol
        /// A write callback refused the data (syncagent aborts transfers this way).
        case writeFailed
        /// A reply that is not HTTP as curl knows it.
        case weirdServerReply
        /// curl ran out of memory — in practice, a response header line over curl's limit.
        case outOfMemory
        /// A `Content-Encoding` curl cannot decode, or a body that is not valid in its encoding.
        case badContentEncoding
        /// An error of the multi handle, not of one transfer.
        case multiHandle
        /// Any other code.
        case other

        init(_ code: CURLcode) {
            switch code {
            case CURLE_COULDNT_RESOLVE_HOST: self = .couldNotResolveHost
            case CURLE_COULDNT_RESOLVE_PROXY: self = .couldNotResolveProxy
            case CURLE_COULDNT_CONNECT: self = .couldNotConnect
            case CURLE_OPERATION_TIMEDOUT: self = .timedOut
            case CURLE_PARTIAL_FILE: self = .partialFile
            case CURLE_RECV_ERROR: self = .receiveFailed
            case CURLE_SEND_ERROR: self = .sendFailed
            case CURLE_GOT_NOTHING: self = .gotNothing
            case CURLE_HTTP2, CURLE_HTTP2_STREAM: self = .http2
            case CURLE_SSL_CONNECT_ERROR: self = .tlsConnect
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE,
                 CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
                self = .tlsVerification
            case CURLE_TOO_MANY_REDIRECTS: self = .tooManyRedirects
            case CURLE_UNSUPPORTED_PROTOCOL: self = .unsupportedProtocol
            case CURLE_WRITE_ERROR: self = .writeFailed
            case CURLE_OUT_OF_MEMORY: self = .outOfMemory
            case CURLE_WEIRD_SERVER_REPLY: self = .weirdServerReply
            case CURLE_BAD_CONTENT_ENCODING: self = .badContentEncoding
            default: self = .other
            }
        }
    }
}
