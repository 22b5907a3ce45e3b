import Glibc

/// One file's transfer: the request it sends, the response it checks, the partial file it
/// writes, and the verdict when curl is done.
///
/// Lives on the engine's thread. It owns its ``CurlEasy`` handle while it runs; the engine
/// takes the handle back for reuse when it ends.
final class Download: CurlEasyDelegate {
    /// How a download ended, as the engine needs to know it.
    enum End {
        /// Whole and checked, waiting in its partial file to be put in place.
        case downloaded(StagedFile, size: Int64, validators: Validators)
        /// Whole and handed to the request's ``TransferBodySink``; nothing is on disk.
        case received(size: Int64, validators: Validators)
        case notModified
        /// `partial`: validators of a partial kept on disk to continue from.
        case failed(TransferFailure, partial: Validators?)
        /// The partial cannot be continued (the server's version changed, or it resumed at
        /// the wrong place): start again from zero at once.
        case restartFromZero
        /// A reused connection answered with bytes that are no response (see
        /// ``closeConnectionIfOverrun()``); curl has closed it: send the same request again at
        /// once, on another connection. The failure is for when that keeps happening.
        case retryOnNewConnection(TransferFailure)
    }

    let request: TransferRequest
    let easy: CurlEasy
    /// The host (and port) requests go to, for per-host limits.
    let host: String
    private let emit: (TransferEvent) -> Void
    private let options: TransferOptions
    /// Finds the connection's socket, shared by the engine's downloads.
    private let sockets: ConnectionSockets
    /// Lends the partial file's direct-I/O blocks, shared by the engine's downloads.
    private let blocks: DirectIOBlocks
    /// Whether this download still counts in ``DirectIOBlocks/awaitingHeads``.
    private var awaitingHead = true

    private var head = ResponseHead()
    private var partFile: PartFile?
    private var hasher: SHA256Hasher?
    private var resumeOffset: Int64 = 0
    private var sentConditional = false
    /// Whether a partial file was on disk when the request was made.
    private var foundPartial = false
    /// True once a non-success status has shown the body is an error page, not the file.
    private var discardingBody = false
    /// Why a callback stopped the transfer, when it did.
    private var abort: End?
    /// Keeps the body from filling its disk; set with the partial file.
    private var freeSpace: FreeSpaceGuard?
    /// Where the server's `Content-Disposition` name puts the file, for a request it names.
    private var servedDestination: String?
    /// Where the body goes instead of a partial file, if anywhere.
    private let sink: (any TransferBodySink)?
    /// Whether the body is going to ``sink``.
    private var sinking = false
    /// The status of each response on the way (redirects, then the final one).
    private var statuses: [Int] = []

    /// Bytes of the file on disk, a resumed prefix included.
    private(set) var received: Int64 = 0
    /// The whole file's length, once the response says it.
    private(set) var expectedLength: Int64?

    /// `host`: the request's host (and port), as the engine's queue found it.
    init(request: TransferRequest, host: String, easy: CurlEasy, options: TransferOptions, sockets: ConnectionSockets,
         blocks: DirectIOBlocks, sink: (any TransferBodySink)? = nil, emit: @escaping (TransferEvent) -> Void) throws(CurlError) {
        self.request = request
        self.sink = sink
        self.easy = easy
        self.host = host
        self.sockets = sockets
        self.blocks = blocks
        self.emit = emit
        self.options = options
        easy.delegate = self
        blocks.awaitHead()
        try configure(options)
    }

    deinit {
        headSettled()
    }

    /// Counts this download out of those whose response has yet to begin, once.
    private func headSettled() {
        guard awaitingHead else { return }
        awaitingHead = false
        blocks.headArrived()
    }

    private func configure(_ options: TransferOptions) throws(CurlError) {
        try easy.url(request.url)
        // Redirects stay on http and https, and never go from https down to plain http.
        let secure = Self.isHTTPS(request.url)
        try easy.allowedProtocols(secure ? "https" : "http,https")
        if secure { try easy.waitForMultiplexing() }
        easy.receiveBuffer(Self.receiveBufferSize(secure: secure))
        try easy.followRedirects(max: options.maximumRedirects)
        try easy.verifyPeer()
        try easy.trust(Self.authorities)
        try easy.withoutSignals()
        if Self.mayUseProxy(options) { try easy.userAgent(options.userAgent) }
        // No proxy configured and none in the environment: curl is told so, and then looks in
        // none of the five variables it would read for every transfer (1,600 instructions).
        if let proxy = options.proxy ?? (ProxyEnvironment.namesAny ? nil : "") {
            try easy.proxy(proxy)
            if proxy.isEmpty { try easy.noProxy("") }
        }
        // Connecting includes the TLS handshake, where the low-speed check below does not
        // run: a server that stalls there must not be waited on longer than one that stalls
        // in the body.
        try easy.connectTimeout(min(options.connectTimeout, options.stallTimeout))
        // curl averages the speed over its last five seconds: a body that stops dead is
        // noticed up to five seconds after the stall timeout, never before it.
        try easy.lowSpeedLimit(bytesPerSecond: 1, seconds: max(1, Int(options.stallTimeout.milliseconds / 1000)))
        // Decode whatever Content-Encoding a server forces on us (Apache's force-gzip, CDNs),
        // but ask for none (the identity header in requestHeaders): the range of a resumed
        // request counts bytes of the encoded body, which a partial of decoded bytes cannot
        // be continued from, and validators stay those of one variant of the file. libcurl
        // 7.88 decodes every encoding it knows once the option names any (http.c reads
        // Content-Encoding whenever it is set): "identity", what the header line says anyway,
        // rather than "", which made it list its encodings anew for every transfer (1,260
        // instructions).
        try easy.acceptEncoding("identity")
        try easy.setHeaders(requestHeaders())
    }

    /// The buffer curl receives a transfer's body into: 256 KiB over plain HTTP, where one
    /// `recv` takes whatever the socket holds (fewer system calls for big files than curl's
    /// default 16 KiB; 64 KiB made the 1 GiB file take 14 % more CPU); 32 KiB over HTTPS,
    /// where each read gives at most one TLS record (16 KiB) and an HTTP/2 connection reads at
    /// most 32 KiB at a time, so a bigger buffer never fills and only takes memory: with
    /// HTTP/2, libcurl 7.88 keeps the buffer of a handle whose connection others still use
    /// (see ``CurlEasy/receiveBuffer(_:)``), and buffers of 256 KiB, taken and freed among
    /// everything else, spread over the heap. They cost 0.85 MiB more at the peak of the 5
    /// guides over HTTPS, and up to 1 MiB more while 10,000 small files transfer, for no less
    /// CPU.
    private static func receiveBufferSize(secure: Bool) -> Int {
        secure ? 32 << 10 : 256 << 10
    }

    /// Whether a request may go through a proxy: one is configured, or none is configured and
    /// the environment names one.
    ///
    /// Decides how `User-Agent` is sent. curl formats the option's header line anew for every
    /// transfer, through a printf that costs 6,000 instructions for ours, while a line of the
    /// header list is copied as it is (``requestHeaders()``). Only the option reaches a
    /// proxy's `CONNECT`, though (curl keeps the header list for the server): where a proxy
    /// may be in the way, the option it is.
    static func mayUseProxy(_ options: TransferOptions) -> Bool {
        options.proxy.map { !$0.isEmpty } ?? ProxyEnvironment.namesAny
    }

    /// Whether `url`'s scheme is https, in any case: compared on bytes, as lowercasing the
    /// whole URL first cost 800 instructions a transfer.
    static func isHTTPS(_ url: String) -> Bool {
        hasScheme(url, "https:")
    }

    /// Whether `url` starts with `scheme` (lowercase, colon included), in any case.
    static func hasScheme(_ url: String, _ scheme: StaticString) -> Bool {
        scheme.matchesCaseBlind(url.utf8.prefix(scheme.utf8CodeUnitCount))
    }

    /// The CA certificates to trust, read once: the user's from where the `curl` command and
    /// OpenSSL take them, else the system's folder (see ``CertificateAuthorities``).
    private static let authorities = CertificateAuthorities(
        environment: { getenv($0).map { String(cString: $0) } }, builtInFolder: CurlGlobal.builtInCertificateFolder
    )

    /// The host (and port) that answered, after redirects: the one a message about the
    /// response must name.
    private var respondingHost: String {
        easy.effectiveURL.map(FailureClassification.hostName(of:)) ?? host
    }

    /// `Range` + `If-Range` to continue a partial, else the conditional-GET validators; and
    /// `User-Agent` where no proxy may be in the way (see ``mayUseProxy(_:)``).
    ///
    /// A conditional request also says `Cache-Control: max-age=0`: a shared cache on the way
    /// (squid, a company proxy) must ask the origin instead of answering from a copy it still
    /// holds fresh, or a re-check would find a changed file "unchanged". When nothing changed
    /// the cache still answers from its copy after a 304 from the origin.
    ///
    /// The lines every request sends come first, then those most requests of a batch share:
    /// a reused handle keeps the lines its last request began with (``CurlEasy/setHeaders(_:)``).
    private func requestHeaders() -> [CurlHeaderLine] {
        // A body that goes to a sink has no partial file, and touches none. Without a
        // partial's version to continue, the look-up is only to delete a stale partial: a
        // listing of the folder that held none answers it (a retry's request keeps that
        // answer, and is right to: an attempt that ends without a partial to continue leaves
        // none, see finish).
        let known = request.partial == nil && request.noPartialOnDisk
        let partialSize = sink == nil && !known ? PartFile.existingSize(for: request.destination) : 0
        foundPartial = partialSize > 0
        var headers: [CurlHeaderLine] = []
        headers.reserveCapacity(5)
        headers.append(CurlHeaderLine("Accept-Encoding: ", "identity"))
        if !Self.mayUseProxy(options) { headers.append(CurlHeaderLine("User-Agent: ", options.userAgent)) }
        if let partial = request.partial, partialSize > 0, let ifRange = partial.ifRange {
            resumeOffset = partialSize
            headers.append(Self.revalidate)
            headers.append(CurlHeaderLine("Range: ", "bytes=\(partialSize)-"))
            headers.append(CurlHeaderLine("If-Range: ", ifRange))
            return headers
        }
        sentConditional = request.current.etag != nil || request.current.lastModified != nil
        if sentConditional { headers.append(Self.revalidate) }
        if let etag = request.current.etag { headers.append(CurlHeaderLine("If-None-Match: ", etag)) }
        if let lastModified = request.current.lastModified { headers.append(CurlHeaderLine("If-Modified-Since: ", lastModified)) }
        return headers
    }

    /// Makes caches on the way check with the origin (RFC 9111 §5.2.1.1).
    private static let revalidate = CurlHeaderLine("Cache-Control: ", "max-age=0")

    /// Bytes of an earlier partial this request continues.
    var offset: Int64 { resumeOffset }

    // MARK: Receiving

    func curlEasy(_ easy: CurlEasy, receivedHeaderLine line: UnsafeRawBufferPointer) -> Bool {
        // Read before the head changes (see ResponseHead.consume(_:)), which a line nothing
        // reads (Date, Server, the blank line…) leaves alone: each access to the head is
        // checked at run time (about 70 instructions).
        let read = ResponseHead.Line(line)
        if !read.isSkipped, head.consume(read) { statuses.append(head.status) }
        // curl decodes a body before handing it over, and a range of an encoded body starts
        // mid-stream, where no decoder can start: decide at the end of the head, not at the
        // first body bytes that would never come. The line and the offset first: they need
        // no access to the head.
        if line.count <= 2, resumeOffset > 0, head.status == 206, head.contentEncoding != nil {
            abort = .restartFromZero
            return false
        }
        return true
    }

    func curlEasy(_ easy: CurlEasy, receivedBody chunk: UnsafeRawBufferPointer) -> Bool {
        if partFile == nil && !discardingBody {
            guard beginBody(startingWith: chunk) else { return false }
        }
        if sinking { return pass(chunk) }
        guard let partFile else { return true }
        // The size first: reading the encoding from the head makes a string, which every chunk
        // would otherwise pay for.
        if received + Int64(chunk.count) > options.maximumDecodedSize, let encoding = head.contentEncoding {
            abort = .failed(TransferFailure(.badResponse, "the file from \(host) is sent \(encoding)-encoded and decodes to "
                + "more than \(formatByteCount(options.maximumDecodedSize)); refused as a likely compression bomb"), partial: nil)
            return false
        }
        do throws(TransferFailure) {
            if received + Int64(chunk.count) > request.maximumSize {
                throw TransferFailure(.tooLarge, "the server at \(respondingHost) sent more than the \(formatByteCount(request.maximumSize)) "
                    + "that max_size allows without ending the file; raise `max_size` if the file really is that large")
            }
            try freeSpace?.check(file: partFile, written: received, upcoming: chunk.count, remaining: expectedLength.map { $0 - received })
            try partFile.write(chunk)
        } catch {
            abort = .failed(error, partial: nil)
            return false
        }
        hasher?.update(chunk)
        received += Int64(chunk.count)
        if received == expectedLength { closeConnectionIfOverrun() }
        return true
    }

    /// Decides, from the final response's head and the body's first bytes, what the body is
    /// and where it goes. Returns `false` to abort the transfer (the reason is in ``abort``).
    private func beginBody(startingWith firstBytes: UnsafeRawBufferPointer? = nil) -> Bool {
        headSettled()
        // One copy of the head for all that is read of it here: read from the property, each
        // getter took a copy of its own (twelve strings retained and released), and each read
        // was an access checked at run time.
        let head = self.head
        let status = head.status == 0 ? easy.responseCode : head.status
        guard (200...299).contains(status), status != 204 else {
            discardingBody = true
            return true
        }
        if let problem = head.framingProblem {
            abort = .failed(TransferFailure(.badFraming, "the server at \(respondingHost) sent \(problem)"), partial: nil)
            return false
        }
        if let sink { return beginSinking(sink, status: status) }
        let fileStart = status == 206 ? nil : firstBytes
        servedDestination = request.serverNaming?.destination(beside: request.destination, contentDisposition: head[.contentDisposition])
        // The one field it needs, not the head, captured by the media type's closure.
        let contentType = head[.contentType]
        if let reason = Self.webPageInsteadOfFile(mediaType: ResponseHead.mediaType(of: contentType), startingWith: fileStart, destination: servedDestination ?? request.destination) {
            abort = .failed(TransferFailure(.webPageInsteadOfFile, reason), partial: nil)
            return false
        }
        var offset: Int64 = 0
        if status == 206, resumeOffset == 0 {
            // No range was asked for: the whole file as one range is what a 200 would have
            // sent; anything less is a server fault no retry mends.
            guard let whole = head.contentRange?.wholeLength,
                  head.contentEncoding != nil || (head.contentLength ?? whole) == whole
            else {
                abort = .failed(TransferFailure(.badResponse, "\(host) sent part of the file (Content-Range: "
                    + "\(head[.contentRange] ?? "none")) when the whole file was asked for"), partial: nil)
                return false
            }
            expectedLength = head.contentEncoding == nil ? whole : nil
        } else if status == 206 {
            guard head.continues(partialOf: resumeOffset, version: request.partial),
                  PartFile.existingSize(for: request.destination) >= resumeOffset
            else {
                abort = .restartFromZero
                return false
            }
            offset = resumeOffset
            expectedLength = head.contentRange?.completeLength ?? head.contentLength.map { $0 + offset }
        } else {
            // Content-Length counts the encoded bytes; the decoded length is known at the end.
            expectedLength = head.contentEncoding == nil ? head.contentLength : nil
        }
        resumeOffset = offset
        if let expectedLength, expectedLength > request.maximumSize {
            abort = .failed(TransferFailure(.tooLarge, "the file at \(respondingHost) is \(formatByteCount(expectedLength)), more than the "
                + "\(formatByteCount(request.maximumSize)) that max_size allows; raise `max_size` to download it"), partial: nil)
            return false
        }
        let hasher = request.expectedSHA256 == nil ? nil : SHA256Hasher()
        do throws(TransferFailure) {
            let file = try PartFile(destination: request.destination, root: request.root, keepingFirst: offset,
                                    expectedLength: expectedLength, prefixHasher: hasher, blocks: blocks)
            do throws(TransferFailure) {
                freeSpace = try FreeSpaceGuard(file: file, written: offset, remaining: expectedLength.map { $0 - offset },
                                               rule: options.minimumFree)
            } catch {
                file.discard()
                throw error
            }
            partFile = file
            // A stale partial of an earlier version has no use once a small new file replaces it.
            if file.isUnnamed && foundPartial { PartFile.remove(for: request.destination) }
        } catch {
            abort = .failed(error, partial: nil)
            return false
        }
        self.hasher = hasher
        received = offset
        // A file received with no name is not continued (PartFile.largestUnnamedLength): its
        // version is not worked out (1,800 instructions a file of 10,000 small ones).
        let resumable = !(partFile?.isUnnamed ?? false) && arrivalIsResumable ? head.validators : Validators()
        emit(.receiving(id: request.id, validators: resumable, offset: offset, expectedLength: expectedLength))
        return true
    }

    /// Starts handing the body to `sink`: the whole body, as no partial is ever continued.
    private func beginSinking(_ sink: any TransferBodySink, status: Int) -> Bool {
        if status == 206 {
            guard let whole = head.contentRange?.wholeLength else {
                abort = .failed(TransferFailure(.badResponse, "\(host) sent part of the file (Content-Range: "
                    + "\(head[.contentRange] ?? "none")) when the whole file was asked for"), partial: nil)
                return false
            }
            expectedLength = head.contentEncoding == nil ? whole : nil
        } else {
            expectedLength = head.contentEncoding == nil ? head.contentLength : nil
        }
        if let expectedLength, expectedLength > request.maximumSize {
            abort = .failed(TransferFailure(.tooLarge, "the file at \(respondingHost) is \(formatByteCount(expectedLength)), more than the "
                + "\(formatByteCount(request.maximumSize)) allowed"), partial: nil)
            return false
        }
        sink.restart()
        sinking = true
        received = 0
        resumeOffset = 0
        emit(.receiving(id: request.id, validators: Validators(), offset: 0, expectedLength: expectedLength))
        return true
    }

    /// Hands a chunk to the sink; `false` stops the transfer (the reason is in ``abort``).
    private func pass(_ chunk: UnsafeRawBufferPointer) -> Bool {
        do throws(TransferFailure) {
            if received + Int64(chunk.count) > request.maximumSize {
                throw TransferFailure(.tooLarge, "the server at \(respondingHost) sent more than the \(formatByteCount(request.maximumSize)) allowed")
            }
            try sink?.receive(chunk)
        } catch {
            abort = .failed(error, partial: nil)
            return false
        }
        received += Int64(chunk.count)
        return true
    }

    /// Where the request ended up, when it was redirected and every redirect was permanent
    /// (301, 308): where to ask from now on.
    var permanentMove: String? {
        guard statuses.count > 1, statuses.dropLast().allSatisfy({ $0 == 301 || $0 == 308 }) else { return nil }
        return easy.effectiveURL
    }

    /// File name endings of documents and media that a server never legitimately sends as HTML.
    private static let documentExtensions: Set<String> = [
        "pdf", "epub", "mobi", "djvu", "doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "ppt", "pptx", "odp",
        "zip", "gz", "tgz", "xz", "bz2", "zst", "7z", "tar", "iso", "img", "deb", "rpm", "dmg",
        "mp3", "m4a", "aac", "ogg", "oga", "opus", "flac", "wav", "mp4", "m4v", "mkv", "webm", "mov", "avi",
        "png", "jpg", "jpeg", "gif", "webp", "svg", "csv", "tsv", "parquet", "json", "xml",
    ]

    /// A "soft 404": a server that answers a missing document with 200 and its HTML home or
    /// error page — labelled as HTML, or not even that but starting like a page. Returns the
    /// message when that is what arrived. `mediaType` is read only for a document's name.
    static func webPageInsteadOfFile(mediaType: @autoclosure () -> String?, startingWith firstBytes: UnsafeRawBufferPointer? = nil, destination: String) -> String? {
        let name = splitPath(destination).name.utf8
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")),
              documentExtensions.contains(String(Substring(name[name.index(after: dot)...])).lowercased())
        else { return nil }
        let type = mediaType()
        let isPage = type == "text/html" || type == "application/xhtml+xml" || firstBytes.map(startsLikeHTML) == true
        return isPage ? "the server sent a web page instead of the file" : nil
    }

    /// Whether a body begins with `<!DOCTYPE html` or `<html`, after a byte order mark and
    /// white space, in any case.
    static func startsLikeHTML(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        rest = rest.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let start = rest.prefix(14).map(\.asciiLowercased)
        return start.starts(with: "<!doctype html".utf8) || start.starts(with: "<html".utf8)
    }

    // MARK: Ending

    /// Looks for bytes the server sent beyond the response's length on its connection, when
    /// the body's last byte has arrived (the transfer still holds the connection then).
    ///
    /// curl reads a body up to its `Content-Length` and no further, so whatever the server
    /// sent beyond it stays in the socket; the next request on that connection would read it
    /// as the start of its own response ("Out of memory" when it is a line longer than curl's
    /// 100 KB limit, "HTTP/0.9" otherwise), or worse, as a response that looks right. Such a
    /// connection is shut down here; curl's next request on it fails to send and curl retries
    /// it on a new connection by itself. (When the extra bytes come in the same read as the
    /// body's end, curl sees them and closes the connection on its own.)
    ///
    /// The response itself stays what its `Content-Length` framed (RFC 9112 §6.3): what
    /// follows is not part of it, just as curl takes it when it sees the extra bytes itself.
    ///
    /// Only for plain HTTP/1.x: over TLS or HTTP/2 the socket legitimately carries more
    /// (session tickets, PING frames). Bytes that arrive after this look are seen by nobody
    /// until the next request on the connection, which then fails and goes again at once on
    /// a new connection (``isLeftoverOfAnEarlierResponse(_:)``).
    private func closeConnectionIfOverrun() {
        guard head.isHTTP1, let url = easy.effectiveURL, Self.hasScheme(url, "http:"),
              let ports = easy.connectionPorts, let socket = sockets.socket(for: ports)
        else { return }
        var byte: UInt8 = 0
        guard recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0 else { return }
        // curl owns the descriptor and closes it; shutting it down only makes it unusable.
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// The verdict once curl has finished with this transfer (`error` is curl's, if any).
    /// A partial nobody will continue is deleted: no `.part` outlives its use. That includes
    /// the partial a restart from zero will not continue: its next attempt would only replace
    /// it, and may never come (restarts are limited).
    func finish(curlError error: CurlError?) -> End {
        headSettled()
        let end = verdict(curlError: error)
        switch end {
        case .notModified where !foundPartial: break
        case .notModified, .failed(_, partial: .none), .restartFromZero: if sink == nil { PartFile.remove(for: request.destination) }
        case .downloaded, .received, .failed, .retryOnNewConnection: break
        }
        return end
    }

    private func verdict(curlError error: CurlError?) -> End {
        if let abort {
            partFile?.discard()
            return abort
        }
        if let error {
            let failure = FailureClassification.failure(for: error, in: failureContext)
            if isLeftoverOfAnEarlierResponse(error) { return .retryOnNewConnection(failure) }
            return failed(failure)
        }
        let status = head.status == 0 ? easy.responseCode : head.status
        switch status {
        case 304 where sentConditional:
            return .notModified
        case 416 where resumeOffset > 0:
            return .restartFromZero
        case 200...299 where status != 204:
            return complete()
        default:
            let now = Int64(time(nil))
            return failed(FailureClassification.failure(forStatus: status, reason: head.reason, retryAfter: head.retryAfter(now: now)))
        }
    }

    /// The validators a re-check sends back. A decoded body's `ETag` names its encoded
    /// variant, which Apache's mod_deflate never matches again (its "-gzip" suffix, Apache
    /// bug 45023): with a `Last-Modified` to go by, the `ETag` is left out, or every re-check
    /// would download the file again.
    private var validatorsToKeep: Validators {
        guard head.contentEncoding != nil, let lastModified = head.lastModified else { return head.validators }
        return Validators(lastModified: lastModified)
    }

    /// What a failure's message needs to name the right host, proxy and cause.
    private var failureContext: FailureClassification.Context {
        FailureClassification.Context(
            url: request.url, effectiveURL: easy.effectiveURL, location: head[.location],
            proxy: options.proxy ?? ProxyEnvironment.proxy(for: request.url), contentEncoding: head.contentEncoding,
            connectTimeout: min(options.connectTimeout, options.stallTimeout)
        )
    }

    /// Whether `error` is what a reused connection gives when it still held bytes an earlier
    /// response sent beyond its length, which arrived too late for
    /// ``closeConnectionIfOverrun()`` to see: no status line, no body, and curl's verdict on
    /// the stray bytes read as one — a header line over its 100 KB limit ("Out of memory"),
    /// "HTTP/0.9", or a reply it cannot read.
    private func isLeftoverOfAnEarlierResponse(_ error: CurlError) -> Bool {
        guard head.status == 0, partFile == nil, !easy.openedNewConnection else { return false }
        return [.outOfMemory, .unsupportedProtocol, .weirdServerReply].contains(error.kind)
    }

    /// Whether a later request can continue what arrived: the bytes are the resource's own, not
    /// decoded from an encoding (a `Range` counts encoded bytes; see configure), the server
    /// serves byte ranges, and its validators let `If-Range` vouch for the bytes kept.
    private var arrivalIsResumable: Bool {
        head.contentEncoding == nil && head.servesByteRanges && head.validators.ifRange != nil
    }

    /// Gives the transfer up without a verdict (the agent is stopping): a partial the server's
    /// validators let a later request continue stays on disk; any other is deleted.
    func abandon() {
        guard let partFile else { return }
        if received > 0, arrivalIsResumable {
            partFile.keep()
        } else {
            partFile.discard()
        }
    }

    /// Gives the transfer up and deletes its partial (the user stopped it).
    func discard() {
        partFile?.discard()
        PartFile.remove(for: request.destination)
    }

    /// A failure that keeps what arrived when the response lets a later request continue it.
    private func failed(_ failure: TransferFailure) -> End {
        guard let partFile else {
            // Nothing was written this time: the partial this request continues is intact.
            let untouched = resumeOffset > 0 && failure.code.isTransient ? request.partial : nil
            return .failed(failure, partial: untouched)
        }
        let validators = head.validators
        if received > 0, failure.code.isTransient, arrivalIsResumable {
            partFile.keep()
            return .failed(failure, partial: validators)
        }
        partFile.discard()
        return .failed(failure, partial: nil)
    }

    /// Checks the whole file and closes it, ready to be put in place.
    private func complete() -> End {
        // An empty body never reached the body callback: an empty file is still a file.
        if partFile == nil, !sinking, !beginBody() { return abort ?? .restartFromZero }
        if sinking {
            if let expectedLength, received != expectedLength {
                return .failed(TransferFailure(.truncated, "the server sent \(formatByteCount(received)) of \(formatByteCount(expectedLength))"), partial: nil)
            }
            return .received(size: received, validators: validatorsToKeep)
        }
        guard let partFile else { fatalError("a successful response without a partial file") }
        if let expectedLength, received != expectedLength {
            return failed(TransferFailure(.truncated, "the server sent \(formatByteCount(received)) of \(formatByteCount(expectedLength))"))
        }
        if let expected = request.expectedSHA256, let actual = hasher?.finalize(), actual != expected {
            partFile.discard()
            return .failed(TransferFailure(.checksumMismatch, "the file's SHA-256 is \(actual), not the \(expected) the manifest expects"), partial: nil)
        }
        do {
            let staged = try partFile.stage(modificationTime: head.lastModified.flatMap(HTTPDate.parse), servedAt: servedDestination)
            return .downloaded(staged, size: received, validators: validatorsToKeep)
        } catch {
            partFile.discard()
            return .failed(error, partial: nil)
        }
    }
}
