internal import CCurl

/// A libcurl failure, with everything curl said about it.
///
/// Keeps curl's code (as a ``Kind`` the rest of the program can switch on without CCurl), its
/// generic `curl_easy_strerror` text and the specific `CURLOPT_ERRORBUFFER` text together, so a
/// message can be as precise as curl was.
struct CurlError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, in curl's terms.
    let kind: Kind
    /// The `CURLcode` or `CURLMcode` value.
    let code: Int
    /// curl's generic text for the code, e.g. "Couldn't connect to server".
    let summary: String
    /// curl's specific text for this transfer, e.g. "Failed to connect to 127.0.0.1 port 9: Connection refused".
    let detail: String?

    init(easy code: CURLcode, detail: String? = nil) {
        self.kind = Kind(code)
        self.code = Int(code.rawValue)
        self.summary = String(cString: curl_easy_strerror(code))
        self.detail = detail.flatMap { $0.isEmpty ? nil : $0 }
    }

    init(multi code: CURLMcode) {
        self.kind = .multiHandle
        self.code = Int(code.rawValue)
        self.summary = String(cString: curl_multi_strerror(code))
        self.detail = nil
    }

    var description: String { detail ?? summary }
}
