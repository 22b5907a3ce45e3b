import FoundationEssentials

/// One file as `syncagent status` shows it; also the stable `--json` form.
public struct FileStatus: Codable, Sendable, Equatable {
    /// Where the file stands now.
    public enum State: String, Codable, Sendable {
        /// Due, and waiting for a free transfer slot.
        case queued
        case downloading
        /// Failed for a reason a retry may fix; tried again at ``FileStatus/nextCheck``.
        case waitingToRetry = "waiting-to-retry"
        /// Up to date until its next check at ``FileStatus/nextCheck``.
        case upToDate = "up-to-date"
        /// Before the manifest's `not_before`.
        case waitingForStartDate = "waiting-for-start-date"
        case waitingForWindow = "waiting-for-window"
        case waitingForNetwork = "waiting-for-network"
        /// The network is a captive portal: someone has to log in.
        case waitingForNetworkLogin = "waiting-for-network-login"
        case waitingForPower = "waiting-for-power"
        case waitingForUnmeteredNetwork = "waiting-for-unmetered-network"
        case paused, stopped
        /// Failed for a reason a retry cannot fix; checked again at its next `every`.
        case failed
        /// Never fetched, and not due yet.
        case notYetFetched = "not-yet-fetched"
        /// An episode that is not downloaded: older than `first` allowed on first sight, or
        /// than `max_age`; `start` fetches it.
        case skipped
    }

    public var title: String
    public var path: String
    public var state: State
    /// Bytes on disk, a resumed prefix included (while downloading or paused).
    public var bytesReceived: Int64?
    /// The whole file's size, when known.
    public var bytesExpected: Int64?
    public var bytesPerSecond: Double?
    /// When the file is due or may start again, for waiting states.
    public var nextCheck: Date?
    /// How the last completed attempt ended: "downloaded", "unchanged" or "failed".
    public var lastResult: String?
    /// Why the last attempt failed.
    public var lastMessage: String?
    public var lastResultDate: Date?
    /// For a feed's row and its episodes' rows, the feed's title.
    public var feed: String?

    public init(title: String, path: String, state: State) {
        self.title = title
        self.path = path
        self.state = state
    }

    /// Seconds left at the current speed, when size and speed are known.
    public var secondsRemaining: Double? {
        guard let bytesReceived, let bytesExpected, let bytesPerSecond, bytesPerSecond > 0 else { return nil }
        return Double(max(0, bytesExpected - bytesReceived)) / bytesPerSecond
    }
}

extension FileStatus {
    /// The status of a file from what the state says alone (no agent, or nothing running).
    init(entry: Manifest.Entry, path: String, record: FileRecord?) {
        self.init(title: entry.title, path: path, state: .notYetFetched)
        guard let record else { return }
        self.path = record.keptPath
        size(from: record)
        if let last = record.lastResult {
            lastResult = last.kind.rawValue
            lastMessage = last.message
            lastResultDate = last.date
            switch last.kind {
            case .downloaded, .unchanged: state = .upToDate
            case .failed: state = record.nextAttempt == nil ? .failed : .waitingToRetry
            }
            nextCheck = record.nextAttempt
        }
        switch record.hold {
        case .paused: state = .paused
        case .stopped: state = .stopped
        case nil: break
        }
    }

    private mutating func size(from record: FileRecord) {
        bytesExpected = record.size
        let partial = PartFile.existingSize(for: path)
        if partial > 0 {
            bytesReceived = partial
            // The partial is of the version on its way, whose length may differ.
            if record.partial != nil, let whole = record.partialLength { bytesExpected = whole }
        }
    }

    /// The waiting state a scheduler reason stands for.
    static func state(for reason: WaitReason) -> State {
        switch reason {
        case .notDue: .upToDate
        case .notBefore: .waitingForStartDate
        case .outsideWindow: .waitingForWindow
        case .retry, .serverAskedToWait: .waitingToRetry
        case .waitingForNetwork: .waitingForNetwork
        case .waitingForNetworkLogin: .waitingForNetworkLogin
        case .waitingForMainsPower: .waitingForPower
        case .waitingForUnmeteredNetwork: .waitingForUnmeteredNetwork
        }
    }
}

extension FileStatus {
    /// Every file of the manifest as the saved state describes it (no agent running).
    public static func saved(manifest: Manifest, store: StateStore) throws(StateStoreError) -> [FileStatus] {
        try manifest.files.map { entry throws(StateStoreError) in
            let path = manifest.destinationPath(of: entry)
            let record = try store.record(forPath: path).saved(for: entry.url)
            return FileStatus(entry: entry, path: path, record: record)
        } + feeds(of: manifest, store: store) { entry, path throws(StateStoreError) in try store.record(forPath: path).saved(for: entry.url) }
    }
}
