/// One file for the engine to bring up to date.
public struct TransferRequest: Sendable, Equatable {
    /// The caller's name for this transfer; events carry it back.
    public var id: Int
    public var url: String
    /// The absolute path the file is kept at.
    public var destination: String
    /// The folder `destination` must stay inside (the manifest's `destination`): a symbolic
    /// link in a folder below it is never followed out. `nil`: no such check.
    public var root: String?
    /// The SHA-256 the whole file must have, as lowercase hex.
    public var expectedSHA256: String?
    /// Validators of the copy in place, sent as `If-None-Match` / `If-Modified-Since` so an
    /// unchanged file costs one empty 304. Empty: fetch unconditionally.
    public var current: Validators
    /// Validators of the partial left by an earlier attempt. Set: the partial is continued
    /// with `Range` + `If-Range`. `nil`: any partial is discarded.
    public var partial: Validators?
    /// The most bytes the file may have (the manifest's `max_size`): a larger one is refused,
    /// and a body of no stated length is cut off there.
    public var maximumSize: Int64
    /// Set when the server names the file: its `Content-Disposition` name, if usable, is
    /// where the file is put in place instead of ``destination`` (which still stages it).
    public var serverNaming: ServerNaming?
    /// Set when a listing of the destination's folder showed no partial there as the request
    /// was made (see ``DestinationListings``): with no ``partial`` to continue, the download
    /// does not look for one. With one, it always looks.
    public var noPartialOnDisk: Bool

    public init(
        id: Int,
        url: String,
        destination: String,
        root: String? = nil,
        expectedSHA256: String? = nil,
        current: Validators = Validators(),
        partial: Validators? = nil,
        maximumSize: Int64 = Manifest.Limits.defaultMaxSize,
        serverNaming: ServerNaming? = nil,
        noPartialOnDisk: Bool = false
    ) {
        self.id = id
        self.url = url
        self.destination = destination
        self.root = root
        self.expectedSHA256 = expectedSHA256
        self.current = current
        self.partial = partial
        self.maximumSize = maximumSize
        self.serverNaming = serverNaming
        self.noPartialOnDisk = noPartialOnDisk
    }
}

/// What happens to a transfer, in order, as the engine drives it.
public enum TransferEvent: Sendable, Equatable {
    /// A request went out; `offset` bytes of an earlier partial are being continued.
    case started(id: Int, offset: Int64)
    /// The server began sending a new version. Its validators are what a resume after a
    /// crash must send back as `If-Range`: persist them now. None when what arrives cannot be
    /// continued (an encoded body, a server that serves no ranges, a small file received
    /// with no name).
    case receiving(id: Int, validators: Validators, offset: Int64, expectedLength: Int64?)
    /// Bytes on disk so far (a resumed prefix included). Rate-limited.
    case progress(id: Int, received: Int64, expectedLength: Int64?)
    /// A transient failure; the transfer starts again after `delay`.
    case willRetry(id: Int, delay: Duration, failure: TransferFailure)
    /// The transfer is over.
    case finished(id: Int, TransferCompletion)
}

/// How a transfer ended, with what must be remembered about it.
public struct TransferCompletion: Sendable, Equatable {
    public var outcome: TransferOutcome
    /// The validators of the version now in place (after a download or a 304).
    public var validators: Validators?
    /// The size of the version now in place.
    public var size: Int64?
    /// Validators of a partial left on disk to be continued later.
    public var partial: Validators?
    /// Where a downloaded file was put in place: the request's destination, or the name its
    /// server gave (``TransferRequest/serverNaming``).
    public var keptAt: String?
    /// Where the request ended up when every redirect on the way was permanent (301, 308);
    /// reported for a body sink's transfer (a feed that moved).
    public var movedPermanentlyTo: String?

    public init(
        outcome: TransferOutcome, validators: Validators? = nil, size: Int64? = nil, partial: Validators? = nil,
        keptAt: String? = nil, movedPermanentlyTo: String? = nil
    ) {
        self.outcome = outcome
        self.validators = validators
        self.size = size
        self.partial = partial
        self.keptAt = keptAt
        self.movedPermanentlyTo = movedPermanentlyTo
    }
}

/// Knobs of the transfer engine that do not come from the manifest.
public struct TransferOptions: Sendable {
    public var userAgent = "syncagent/0.1 (+https://github.com/syncagent)"
    /// Give up connecting after this long.
    public var connectTimeout: Duration = .seconds(30)
    /// A transfer slower than 1 byte/s for this long is a stall, and retried.
    public var stallTimeout: Duration = .seconds(60)
    /// The shortest gap between two progress events of one transfer.
    public var progressInterval: Duration = .milliseconds(100)
    /// Redirects followed at most, per request.
    public var maximumRedirects = 10
    /// The proxy every request goes through ("http://127.0.0.1:3128"); `""` for none; `nil`
    /// for the one `http_proxy`, `https_proxy` or `all_proxy` names, as curl reads them.
    public var proxy: String?
    /// The most a body sent with a `Content-Encoding` (gzip…) may grow to when decoded: a
    /// few kilobytes of gzip can decode to terabytes, and only the decoded size reaches disk.
    public var maximumDecodedSize: Int64 = 4 << 30
    /// How much of a destination's disk stays free; `nil`: the smaller of 1 GB and 5% of it.
    /// The engine sets it from the manifest's `limits.min_free`.
    public var minimumFree: Manifest.FreeSpaceMargin?

    public init() {}
}

extension TransferEvent {
    /// The request the event is about.
    public var id: Int {
        switch self {
        case .started(let id, _), .receiving(let id, _, _, _), .progress(let id, _, _), .willRetry(let id, _, _), .finished(let id, _):
            id
        }
    }
}
