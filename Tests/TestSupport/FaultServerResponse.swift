import Foundation

/// How a ``FaultServer`` answers one request for a path: normally, or with a fault.
///
/// Every property left `nil` (or `false`) keeps the file's normal behaviour: 200 with the
/// whole file, 206 for a `Range` whose `If-Range` matches, 304 for a matching conditional
/// request. The static helpers name the faults tests use most.
public struct FaultResponse: Sendable {
    /// Answer with this status and a small HTML page instead of the file (unless 200 or 206).
    public var status: Int?
    /// Extra header fields, e.g. `Retry-After`; they replace the server's own of the same name.
    public var headers: [String: String] = [:]
    /// Send this text as the body instead of the file, with status 200 (or ``status``).
    public var page: String?
    /// The `Content-Type` of this answer.
    public var contentType: String?
    /// Answer with a redirect to this location.
    public var redirect: String?
    /// The redirect's status.
    public var redirectStatus = 302
    /// A different version of the file from this response on.
    public var contents: Data?
    /// The `ETag` of this answer, e.g. a new one for a changed file.
    public var etag: String?
    /// Answer a `Range` request with 200 and the whole file.
    public var ignoreRange = false
    /// Answer a `Range` request with 206 even when its `If-Range` no longer matches.
    public var ignoreIfRange = false
    /// The `Content-Range` a 206 carries instead of the right one.
    public var contentRange: String?
    /// The `Content-Length` announced instead of the right one.
    public var contentLength: Int64?
    /// Reset the connection after this many body bytes.
    public var cutAfter: Int?
    /// Close the connection cleanly after this many body bytes, the announced length unmet.
    public var sendOnly: Int?
    /// Stop sending for ``stallDuration`` after this many body bytes, then go on.
    public var stallAfter: Int?
    public var stallDuration: Duration = .seconds(3600)
    /// Wait this long before the status line.
    public var delayHeaders: Duration?
    /// No `Content-Length`: the body ends when the connection closes.
    public var withoutLength = false
    /// Send the body at about this rate.
    public var bytesPerSecond: Int?
    /// Header lines sent as written ("Content-Length: 2000") after the server's own, even
    /// when a field of that name is there already: contradictory framing.
    public var extraHeaderLines: [String] = []
    /// This many bytes ("x", no line break) sent right after the body, in the same write,
    /// beyond what `Content-Length` announced; the connection stays open.
    public var excessBytes: Int?
    /// This many bytes ("x", no line break) sent on the connection after the response, just
    /// before the next response on it: stray bytes that arrive long after the body.
    public var lateExcessBytes: Int?
    /// No `Content-Length`, and a body that never ends (until the client goes away).
    public var endless = false

    public init() {}

    /// The file as it is, no fault.
    public static var normal: FaultResponse { FaultResponse() }

    /// The connection reset after `bytes` body bytes.
    public static func cut(after bytes: Int) -> FaultResponse {
        var response = FaultResponse()
        response.cutAfter = bytes
        return response
    }

    /// Only `bytes` of the announced body, then a clean close.
    public static func short(sending bytes: Int) -> FaultResponse {
        var response = FaultResponse()
        response.sendOnly = bytes
        return response
    }

    /// `bytes` of the body, then nothing for `duration`.
    public static func stall(after bytes: Int, for duration: Duration = .seconds(3600)) -> FaultResponse {
        var response = FaultResponse()
        response.stallAfter = bytes
        response.stallDuration = duration
        return response
    }

    /// An error status, with `Retry-After` when given.
    public static func status(_ status: Int, retryAfter: String? = nil) -> FaultResponse {
        var response = FaultResponse()
        response.status = status
        if let retryAfter { response.headers["Retry-After"] = retryAfter }
        return response
    }

    /// A redirect to `location`.
    public static func redirect(to location: String, status: Int = 302) -> FaultResponse {
        var response = FaultResponse()
        response.redirect = location
        response.redirectStatus = status
        return response
    }

    /// A page of text sent with 200 instead of the file, such as a "soft 404".
    public static func page(_ text: String, contentType: String = "text/html; charset=utf-8") -> FaultResponse {
        var response = FaultResponse()
        response.page = text
        response.contentType = contentType
        return response
    }

    /// A new version of the file, with a new `ETag`.
    public static func changed(to contents: Data, etag: String) -> FaultResponse {
        var response = FaultResponse()
        response.contents = contents
        response.etag = etag
        return response
    }

    /// A `Range` request answered with 200 and the whole file.
    public static var ignoringRange: FaultResponse {
        var response = FaultResponse()
        response.ignoreRange = true
        return response
    }

    /// A 206 whose `Content-Range` says `value`.
    public static func contentRange(_ value: String) -> FaultResponse {
        var response = FaultResponse()
        response.contentRange = value
        return response
    }

    /// The settings the server script reads; `file` names this response's contents, if any.
    func settings(file: String?) -> [String: Any] {
        var settings: [String: Any] = [:]
        if let status { settings["status"] = status }
        if !headers.isEmpty { settings["headers"] = headers }
        if let page { settings["page"] = page }
        if let contentType { settings["content_type"] = contentType }
        if let redirect {
            settings["redirect"] = redirect
            settings["redirect_status"] = redirectStatus
        }
        if let file { settings["file"] = file }
        if let etag { settings["etag"] = etag }
        if ignoreRange { settings["ignore_range"] = true }
        if ignoreIfRange { settings["ignore_if_range"] = true }
        if let contentRange { settings["content_range"] = contentRange }
        if let contentLength { settings["content_length"] = contentLength }
        if let cutAfter { settings["cut_after"] = cutAfter }
        if let sendOnly { settings["send_only"] = sendOnly }
        if let stallAfter {
            settings["stall_after"] = stallAfter
            settings["stall_seconds"] = stallDuration.seconds
        }
        if let delayHeaders { settings["delay_headers"] = delayHeaders.seconds }
        if withoutLength { settings["without_length"] = true }
        if let bytesPerSecond { settings["bytes_per_second"] = bytesPerSecond }
        if !extraHeaderLines.isEmpty { settings["extra_header_lines"] = extraHeaderLines }
        if let excessBytes { settings["excess_bytes"] = excessBytes }
        if let lateExcessBytes { settings["late_excess_bytes"] = lateExcessBytes }
        if endless { settings["endless"] = true }
        return settings
    }
}

extension Duration {
    /// The duration in seconds, for the server script.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
