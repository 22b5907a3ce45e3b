import CCurl

/// Receives what a ``CurlEasy`` transfer delivers, on the thread that drives it.
protocol CurlEasyDelegate: AnyObject {
    /// One header line, CRLF included; status lines of redirects and interim responses too.
    /// Return `false` to abort the transfer.
    func curlEasy(_ easy: CurlEasy, receivedHeaderLine line: UnsafeRawBufferPointer) -> Bool
    /// A chunk of the response body. Return `false` to abort the transfer.
    func curlEasy(_ easy: CurlEasy, receivedBody chunk: UnsafeRawBufferPointer) -> Bool
}

/// One libcurl easy handle: a transfer's options and callbacks.
///
/// Owns the `CURL *`, its error buffer and the header list curl points at, and frees them in
/// `deinit`. Not thread-safe (curl handles are not): touch it from one thread only.
/// - SeeAlso: https://curl.se/libcurl/c/libcurl-easy.html
final class CurlEasy {
    /// The raw handle, for ``CurlMulti`` only.
    let rawHandle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// Who gets headers and body. Weak: the delegate owns this handle, not the other way round.
    weak var delegate: CurlEasyDelegate?

    init() {
        CurlGlobal.ensureInitialized()
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        rawHandle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        installCallbacks()
    }

    deinit {
        curl_easy_cleanup(rawHandle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Makes the handle as new for another transfer: every option back to its default, the
    /// callbacks installed again. Setting up a handle costs about as much as a small
    /// transfer's own work in libcurl; connections are pooled by the multi handle either way.
    ///
    /// Only for a handle whose transfer succeeded: after some failures (a name lookup that
    /// failed) libcurl refuses options on the reset handle.
    func resetForReuse() {
        curl_easy_reset(rawHandle)
        curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer[0] = 0
        delegate = nil
        installCallbacks()
    }

    private func installCallbacks() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Unretained: this object owns the handle, so it outlives every callback.
        syncagent_easy_setopt_pointer(rawHandle, CURLOPT_ERRORBUFFER, errorBuffer)
        syncagent_easy_setopt_write_callback(rawHandle, CURLOPT_WRITEFUNCTION, curlBodyCallback)
        syncagent_easy_setopt_pointer(rawHandle, CURLOPT_WRITEDATA, context)
        syncagent_easy_setopt_write_callback(rawHandle, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        syncagent_easy_setopt_pointer(rawHandle, CURLOPT_HEADERDATA, context)
    }

    // MARK: Options

    /// - SeeAlso: https://curl.se/libcurl/c/curl_easy_setopt.html
    func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(syncagent_easy_setopt_long(rawHandle, option, value))
    }

    /// A `curl_off_t` option such as `CURLOPT_MAX_RECV_SPEED_LARGE`.
    func set(_ option: CURLoption, large value: Int64) throws(CurlError) {
        try check(syncagent_easy_setopt_off(rawHandle, option, curl_off_t(value)))
    }

    /// A string option; libcurl copies the string.
    func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try check(syncagent_easy_setopt_string(rawHandle, option, value))
    }

    /// The request's extra header lines (`"Range: bytes=10-"`), replacing any set before.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_HTTPHEADER.html
    func setHeaders(_ lines: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw CurlError(easy: CURLE_OUT_OF_MEMORY)
            }
            list = appended
        }
        try check(syncagent_easy_setopt_pointer(rawHandle, CURLOPT_HTTPHEADER, list))
        curl_slist_free_all(headerList)
        headerList = list
    }

    // MARK: Information

    /// The last response's status code; 0 before any response.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_RESPONSE_CODE.html
    var responseCode: Int {
        var code = 0
        syncagent_easy_getinfo_long(rawHandle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The URL of the last request, after redirects.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLINFO_EFFECTIVE_URL.html
    var effectiveURL: String? {
        var url: UnsafeMutablePointer<CChar>?
        syncagent_easy_getinfo_string(rawHandle, CURLINFO_EFFECTIVE_URL, &url)
        return url.map { String(cString: $0) }
    }

    /// The error for a finished transfer's code, with this handle's error-buffer text.
    func error(for code: CURLcode) -> CurlError {
        CurlError(easy: code, detail: String(cString: errorBuffer))
    }

    private func check(_ code: CURLcode) throws(CurlError) {
        guard code == CURLE_OK else { throw error(for: code) }
    }

    // MARK: Callbacks

    fileprivate func deliverHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        delegate?.curlEasy(self, receivedHeaderLine: line) ?? false
    }

    fileprivate func deliverBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        delegate?.curlEasy(self, receivedBody: chunk) ?? false
    }
}

/// Returning anything but the size handed in makes curl abort with `CURLE_WRITE_ERROR`.
private let curlBodyCallback: curl_write_callback = { data, size, count, context in
    let easy = Unmanaged<CurlEasy>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    return easy.deliverBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let curlHeaderCallback: curl_write_callback = { data, size, count, context in
    let easy = Unmanaged<CurlEasy>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    return easy.deliverHeader(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}
