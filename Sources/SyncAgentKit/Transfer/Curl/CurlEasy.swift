internal import CCurl
import Glibc

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
    /// Asked before each body chunk reaches the delegate: whether that many bytes may be
    /// taken now. `false` pauses the transfer (curl keeps the chunk) until ``unpause()``.
    var bodyGate: ((Int) -> Bool)?

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
    /// Keeping the options instead would save about 7,000 instructions a transfer, but
    /// `curl_easy_reset` is also the only thing in libcurl 7.88 that puts back what a handle
    /// remembers across transfers besides its options: its count of "connection died" retries
    /// (`state.retrycount`, zeroed only here and when it gives up after five), and its
    /// authentication state. A handle kept for days by the agent would one day fail a transfer
    /// on its first such retry.
    ///
    /// The reset also puts the receive buffer's size back to curl's default 16 KiB, for
    /// ``receiveBuffer(_:)`` to size again. The header list stays, unused by curl until
    /// ``setHeaders(_:)`` sets it again, which makes only the lines that differ.
    func resetForReuse() {
        curl_easy_reset(rawHandle)
        errorBuffer[0] = 0
        delegate = nil
        installCallbacks()
    }

    /// The size of the buffer curl receives into: the most one read from the connection
    /// takes (body callbacks still come in pieces of at most 16 KiB). For a transfer whose
    /// handle has none yet, curl allocates it when the transfer starts.
    ///
    /// libcurl 7.88 keeps the receive buffer of a transfer that ended while others still used
    /// its HTTP/2 connection (`multi_done` returns before freeing it), and refuses to size a
    /// buffer it keeps (`CURLE_BAD_FUNCTION_ARGUMENT`). The handle is sound all the same: the
    /// reset put the size curl reads with back to its default 16 KiB, no more than the buffer
    /// kept, so the next transfer reads 16 KiB at a time until one frees the buffer and the
    /// next transfer sizes it again. The refusal is therefore not an error. (Taking it for a
    /// failed transfer, as an earlier version did, failed one HTTP/2 transfer in ten.)
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_BUFFERSIZE.html
    func receiveBuffer(_ bytes: Int) {
        _ = syncagent_easy_setopt_long(rawHandle, CURLOPT_BUFFERSIZE, bytes)
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

    /// The URL to fetch.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_URL.html
    func url(_ url: String) throws(CurlError) {
        try set(CURLOPT_URL, url)
    }

    /// The URL schemes the request, and any redirect it follows, may use, as curl lists them:
    /// comma-separated ("http,https").
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_PROTOCOLS_STR.html
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_REDIR_PROTOCOLS_STR.html
    func allowedProtocols(_ list: String) throws(CurlError) {
        try set(CURLOPT_PROTOCOLS_STR, list)
        try set(CURLOPT_REDIR_PROTOCOLS_STR, list)
    }

    /// Follows `Location` redirects, at most `max` of them.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_FOLLOWLOCATION.html
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_MAXREDIRS.html
    func followRedirects(max: Int) throws(CurlError) {
        try set(CURLOPT_FOLLOWLOCATION, 1)
        try set(CURLOPT_MAXREDIRS, max)
    }

    /// Verifies the server's certificate chain and that it names the host.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_SSL_VERIFYPEER.html
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_SSL_VERIFYHOST.html
    func verifyPeer() throws(CurlError) {
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
    }

    /// The CA certificates to trust: a bundle file, a hashed folder, and whether libcurl's own
    /// bundle file is left out (see ``CertificateAuthorities``).
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_CAINFO.html
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_CAPATH.html
    func trust(_ authorities: CertificateAuthorities) throws(CurlError) {
        if let file = authorities.file { try set(CURLOPT_CAINFO, file) }
        if let folder = authorities.folder { try set(CURLOPT_CAPATH, folder) }
        // A null file turns the built-in one off (a reset handle has it again).
        if authorities.withoutBuiltInFile { try check(syncagent_easy_setopt_string(rawHandle, CURLOPT_CAINFO, nil)) }
    }

    /// Keeps curl away from signals (`SIGALRM` for name lookups): this runs on a thread of a
    /// process that handles its own signals.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_NOSIGNAL.html
    func withoutSignals() throws(CurlError) {
        try set(CURLOPT_NOSIGNAL, 1)
    }

    /// Waits for a connection being set up to the same host to say whether it multiplexes
    /// (HTTP/2, learnt in the TLS handshake) before opening another: transfers that start
    /// together then share one connection and one handshake instead of racing to open one
    /// each.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_PIPEWAIT.html
    func waitForMultiplexing() throws(CurlError) {
        try set(CURLOPT_PIPEWAIT, 1)
    }

    /// The `User-Agent` header every request sends, a proxy's `CONNECT` included.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_USERAGENT.html
    func userAgent(_ agent: String) throws(CurlError) {
        try set(CURLOPT_USERAGENT, agent)
    }

    /// The longest the connection may take to set up: TCP connect, proxy and TLS handshake.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_CONNECTTIMEOUT_MS.html
    func connectTimeout(_ timeout: Duration) throws(CurlError) {
        try set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(timeout.milliseconds)))
    }

    /// Aborts a transfer slower than `bytesPerSecond` for `seconds` (averaged by curl).
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_LOW_SPEED_LIMIT.html
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_LOW_SPEED_TIME.html
    func lowSpeedLimit(bytesPerSecond: Int, seconds: Int) throws(CurlError) {
        try set(CURLOPT_LOW_SPEED_LIMIT, bytesPerSecond)
        try set(CURLOPT_LOW_SPEED_TIME, seconds)
    }

    /// Decodes a `Content-Encoding` body for every encoding this libcurl was built with
    /// (gzip, deflate, br, zstd on Debian 12), so the body callback gets the resource's bytes.
    /// `advertised` is the `Accept-Encoding` curl sends; `""` lists what it can decode. Any
    /// value turns decoding on, for every encoding curl knows; a request header set with
    /// ``setHeaders(_:)`` replaces what it sends without turning decoding off.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_ACCEPT_ENCODING.html
    func acceptEncoding(_ advertised: String) throws(CurlError) {
        try set(CURLOPT_ACCEPT_ENCODING, advertised)
    }

    /// The proxy every request goes through ("http://127.0.0.1:3128"), instead of the one the
    /// environment names; `""` for none.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_PROXY.html
    func proxy(_ proxy: String) throws(CurlError) {
        try set(CURLOPT_PROXY, proxy)
    }

    /// The hosts reached without the proxy, as `no_proxy` lists them, instead of the
    /// environment's `no_proxy`; `""` for none.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_NOPROXY.html
    func noProxy(_ hosts: String) throws(CurlError) {
        try set(CURLOPT_NOPROXY, hosts)
    }

    private func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(syncagent_easy_setopt_long(rawHandle, option, value))
    }

    /// A string option; libcurl copies the string.
    ///
    /// `withCString` lends a native string's own bytes; passing the `String` where C wants a
    /// `char *` would copy it into a new array first, a malloc per option per transfer.
    private func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        try check(value.withCString { syncagent_easy_setopt_string(rawHandle, option, $0) })
    }

    /// The request's extra header lines, replacing any set before.
    ///
    /// The list of the handle's last transfer is kept (``resetForReuse()`` leaves it) and
    /// only its lines from the first that differs on are made again: the lines every request
    /// sends (`Accept-Encoding`, `User-Agent`) come first, and a re-check of 10,000 files then
    /// allocates and copies two lines per request, not five, and builds no `String` for them.
    /// - SeeAlso: https://curl.se/libcurl/c/CURLOPT_HTTPHEADER.html
    func setHeaders(_ lines: [CurlHeaderLine]) throws(CurlError) {
        var kept = 0
        var last: UnsafeMutablePointer<curl_slist>?
        var node = headerList
        while let current = node, kept < lines.count, lines[kept].isText(of: current.pointee.data) {
            last = current
            node = current.pointee.next
            kept += 1
        }
        if let node {
            // The lines that differ, and all after them, go.
            if let last { last.pointee.next = nil } else { headerList = nil }
            curl_slist_free_all(node)
        }
        for line in lines[kept...] {
            // libcurl copies the line; `headerList` stays a whole list whatever happens.
            guard let appended = line.withCString({ curl_slist_append(headerList, $0) }) else {
                throw CurlError(easy: CURLE_OUT_OF_MEMORY)
            }
            headerList = appended
        }
        try check(syncagent_easy_setopt_pointer(rawHandle, CURLOPT_HTTPHEADER, headerList))
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

    /// Continues a transfer the body gate paused; curl may deliver the chunk it kept before
    /// this returns (and the gate may pause it again).
    /// - SeeAlso: https://curl.se/libcurl/c/curl_easy_pause.html
    func unpause() {
        _ = syncagent_easy_unpause(rawHandle)
    }
}

/// Returning anything but the size handed in makes curl abort with `CURLE_WRITE_ERROR`;
/// `CURL_WRITEFUNC_PAUSE` pauses the transfer, and curl hands the same chunk over again
/// after `curl_easy_pause(CURLPAUSE_CONT)`.
private let curlBodyCallback: curl_write_callback = { data, size, count, context in
    let easy = Unmanaged<CurlEasy>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    if let gate = easy.bodyGate, !gate(length) { return Int(CURL_WRITEFUNC_PAUSE) }
    return easy.deliverBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private let curlHeaderCallback: curl_write_callback = { data, size, count, context in
    let easy = Unmanaged<CurlEasy>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    return easy.deliverHeader(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// One extra line of a request's header: the field's name with its colon and space
/// (`"If-None-Match: "`), and its value.
///
/// Apart, so that ``CurlEasy/setHeaders(_:)`` compares a line with the one the handle sent
/// last, and makes a new one, without concatenating a `String` for each.
struct CurlHeaderLine {
    let name: StaticString
    let value: String

    init(_ name: StaticString, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Whether `text`, a line of a curl list, is this line.
    fileprivate func isText(of text: UnsafeMutablePointer<CChar>) -> Bool {
        let nameCount = name.utf8CodeUnitCount
        // strncmp stops at the end of a shorter `text`, where memcmp might read past it.
        guard name.withUTF8Buffer({ strncmp(text, UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), nameCount) }) == 0
        else { return false }
        var value = value
        return value.withUTF8 { bytes in
            let rest = text + nameCount
            guard bytes.isEmpty || strncmp(rest, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), bytes.count) == 0
            else { return false }
            return rest[bytes.count] == 0
        }
    }

    /// Lends the whole line as a C string.
    fileprivate func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        var value = value
        return value.withUTF8 { bytes in
            let nameCount = name.utf8CodeUnitCount
            let count = nameCount + bytes.count
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { line in
                let start = UnsafeMutableRawPointer(line.baseAddress!)
                start.copyMemory(from: name.utf8Start, byteCount: nameCount)
                if let base = bytes.baseAddress { (start + nameCount).copyMemory(from: base, byteCount: bytes.count) }
                line[count] = 0
                return body(line.baseAddress!)
            }
        }
    }
}
