import FoundationEssentials
import Logging

/// The login agent: keeps the manifest's files up to date on their schedules until asked to
/// stop.
///
/// The loop only: it decides *when* — on its wall-clock timer, on an edit of the manifest, a
/// change of conditions or a command — and leaves *what* to the ``SyncDriver`` (the same
/// driver `--once` uses) and what a batch says to the ``BatchAnnouncer``. Everything happens
/// on the thread that calls ``run(requests:)``. Between events that thread sleeps
/// in `curl_multi_poll`, which also watches the manifest's folder (inotify) and the signals
/// (signalfd); condition changes wake it through the engine's waker. Nothing polls, and
/// nothing uses Dispatch, whose worker pool keeps a once-a-second timer once used.
public final class Agent {
    /// What the agent works with; the command line fills it in.
    public struct Configuration {
        /// The manifest file, watched for edits.
        public var manifestPath: String
        /// Reads and validates the manifest.
        public var loadManifest: () throws(InvalidManifest) -> Manifest
        public var store: StateStore
        /// Where batch summaries and manifest problems are shown; `nil`: nowhere.
        public var notifier: (any Notifier)?
        /// Where the notifier hands over the actions the user picks ("Retry now").
        public var notificationActions: NotificationActions?
        /// Where notifications point: the home folder (written `~`) and the file that lists
        /// every failing file, for "Show details".
        public var notificationPlaces: DesktopNotification.BatchPlaces
        /// The lock that keeps a second agent of this user from starting.
        public var lockPath: String
        /// Where the agent listens for `syncagent status`, `pause`, `start`…
        public var controlSocketPath: String
        /// Whether to watch power and network for discretionary work; without, conditions
        /// are taken as favourable.
        public var watchConditions: Bool
        public var timeZone: TimeZone
        /// The wall clock schedules are planned by, and that wakes the agent when one is due
        /// (injected so tests can move it).
        public var clock: any AgentClock
        public var logger: Logger
        public var options: TransferOptions

        public init(
            manifestPath: String, loadManifest: @escaping () throws(InvalidManifest) -> Manifest, store: StateStore,
            notifier: (any Notifier)?, notificationActions: NotificationActions? = nil,
            notificationPlaces: DesktopNotification.BatchPlaces = .init(), lockPath: String, controlSocketPath: String, watchConditions: Bool = true,
            timeZone: TimeZone = .current, clock: any AgentClock = SystemClock(), logger: Logger,
            options: TransferOptions = TransferOptions()
        ) {
            self.manifestPath = manifestPath
            self.loadManifest = loadManifest
            self.store = store
            self.notifier = notifier
            self.notificationActions = notificationActions
            self.notificationPlaces = notificationPlaces
            self.lockPath = lockPath
            self.controlSocketPath = controlSocketPath
            self.watchConditions = watchConditions
            self.timeZone = timeZone
            self.clock = clock
            self.logger = logger
            self.options = options
        }
    }

    /// A manifest save is read this long after the last event, so an editor's several writes
    /// count as one edit.
    static let settleTime: Duration = .milliseconds(150)
    /// While transfers run, scheduling rounds are at least this far apart.
    static let planningInterval: Duration = .seconds(1)

    let configuration: Configuration
    var logger: Logger { configuration.logger }
    /// Measures the agent's own intervals (settling edits, spacing plans).
    let elapsed = ContinuousClock()
    /// Brings the files up to date; the agent decides when, the driver what.
    let driver: SyncDriver
    /// Decides what each batch says on the desktop; remembers failures already told.
    var announcer: BatchAnnouncer
    /// The text of the manifest problem last reported, so one problem is told once.
    var reportedProblem: String?
    /// The wait for a network last logged, so a wait is told once when it begins and once
    /// when it ends.
    var loggedNetworkWait: NetworkWait?
    /// Delays suspend while transfers the user started run.
    var sleepDelay = AgentSleepDelay()

    public init(configuration: Configuration) {
        self.configuration = configuration
        let logger = configuration.logger
        announcer = BatchAnnouncer(places: configuration.notificationPlaces)
        driver = SyncDriver(
            store: configuration.store, mode: .onSchedule, options: configuration.options,
            timeZone: configuration.timeZone, now: { [clock = configuration.clock] in clock.now() },
            observe: { event, file in Self.log(event, of: file, to: logger) }
        )
    }

    /// Runs until `requests` asks it to stop (SIGTERM or SIGINT from a ``SignalInbox``):
    /// stops transfers keeping their partials (the state already holds what a resume needs)
    /// and returns. Throws when it cannot start.
    public func run(requests: some LoopRequests) throws(AgentError) {
        do {
            try TransferEngine.loadLibraries()
        } catch {
            throw AgentError(.missingLibrary, error.message)
        }
        let lock = try AgentLock(path: configuration.lockPath)
        let watcher = try ManifestWatcher(manifestPath: configuration.manifestPath)
        let control: ControlServer
        do {
            control = try ControlServer(path: configuration.controlSocketPath)
        } catch {
            throw AgentError(.cannotListen, error.message)
        }
        let responder = ControlResponder(driver: driver, logger: logger)
        if let manifest = load(previous: nil) { driver.use(manifest) }
        let conditions = startConditionMonitor(waker: driver.waker)
        let waker = driver.waker
        configuration.notificationActions?.onArrival { waker.wake() }
        defer { conditions?.stop() }
        logger.info("started; watching \(configuration.manifestPath)")

        let wallClock = configuration.clock
        var reloadAt: ContinuousClock.Instant?
        var timeToPlan = true
        var lastPlan = elapsed.now - Self.planningInterval
        var plannedConditions: Conditions?
        loop: while true {
            for request in requests.take() {
                switch request {
                case .stop:
                    break loop
                case .reload:
                    logger.info("SIGHUP: reading the manifest again")
                    reloadAt = elapsed.now
                }
            }
            if let due = reloadAt, due <= elapsed.now {
                reloadAt = nil
                reload()
            }
            if let actions = configuration.notificationActions?.take() { act(on: actions) }
            if let report = driver.finishBatch() {
                announce(report)
                driver.planRequested = true
            }
            // Planning reads every file's state: do it when time or something new calls for it,
            // and while transfers run at most once per planning interval.
            let current = conditions?.current
            let now = elapsed.now
            if let current, current != plannedConditions {
                pauseDiscretionaryTransfers(under: current)
            }
            if timeToPlan || current != plannedConditions
                || (driver.planRequested && (driver.isIdle || now - lastPlan >= Self.planningInterval)) {
                if let wake = plan(conditions: current) { wallClock.wake(at: wake) } else { wallClock.disarm() }
                plannedConditions = current
                timeToPlan = false
                lastPlan = now
            }
            if driver.isIdle { pruneStaleRecords() }
            var deadline: ContinuousClock.Instant?
            if driver.planRequested { deadline = lastPlan + Self.planningInterval }
            if let reloadAt { deadline = min(deadline ?? reloadAt, reloadAt) }
            let watched = [watcher.descriptor, requests.descriptor, wallClock.descriptor] + control.descriptors
            let readable = driver.step(until: deadline, watching: watched)
            if let error = driver.takeStateError() { logger.error("\(error.description)") }
            logNetworkWait()
            sleepDelay.follow(driver.runsWorkTheUserAskedFor, logger: logger)
            if readable.contains(wallClock.descriptor) {
                wallClock.acknowledge()
                timeToPlan = true
            }
            if readable.contains(watcher.descriptor), watcher.manifestChanged() {
                reloadAt = elapsed.now + Self.settleTime
            }
            control.serve(readable: readable) { request in responder.answer(request) }
        }
        driver.stopAll()
        sleepDelay.follow(false, logger: logger)
        if let error = driver.takeStateError() { logger.error("\(error.description)") }
        withExtendedLifetime((lock, control)) {}
        logger.info("stopped; partial downloads are kept and resume at the next start")
    }

    // MARK: Manifest

    /// The manifest on disk, or `previous` (told once) when it cannot be used.
    private func load(previous: Manifest?) -> Manifest? {
        do {
            let loaded = try configuration.loadManifest()
            if reportedProblem != nil {
                logger.info("the manifest is valid again")
                withdraw(.manifestProblem)
            }
            reportedProblem = nil
            return loaded
        } catch {
            let text = error.description
            if text != reportedProblem {
                reportedProblem = text
                logger.error("the manifest cannot be used; \(previous == nil ? "waiting for a valid one" : "going on with the last good version"):\n\(text)")
                post(.invalidManifest(error, keepsPreviousVersion: previous != nil, manifestPath: configuration.manifestPath))
            }
            return previous
        }
    }

    private func reload() {
        let previous = driver.manifest
        guard let reloaded = load(previous: previous), reloaded != previous else { return }
        let before = Set(previous?.files.map(\.url) ?? [])
        let added = reloaded.files.filter { !before.contains($0.url) }.count
        let kept = Set(reloaded.files.map(\.url))
        let dropped = previous?.files.filter { !kept.contains($0.url) }.count ?? 0
        logger.info("manifest reloaded: \(counted(reloaded.files.count, "file")) (\(added) new, \(dropped) removed)")
        driver.use(reloaded)
    }

    // MARK: Scheduling and batches

    /// One scheduling round; returns when to look again (wall-clock time).
    private func plan(conditions: Conditions?) -> Date? {
        let pendingBefore = driver.pendingCount
        do {
            let wake = try driver.plan(conditions: conditions)
            let started = driver.pendingCount - pendingBefore
            if started > 0 { logger.info("starting \(counted(started, "transfer"))") }
            return wake
        } catch {
            logger.error("\(error.description)")
            driver.planRequested = true
            return nil
        }
    }

    /// The batch is over: one notification sums it up, as the announcer decides.
    private func announce(_ report: BatchReport) {
        let announcement = announcer.announce(report)
        logger.info("batch over: \(announcement.downloaded) of \(report.results.count) downloaded, \(counted(announcement.newFailures, "new failure"))")
        guard driver.manifest?.notify ?? true, var notification = announcement.notification else { return }
        if driver.manifest?.notifySound == false { notification.soundName = nil }
        if let detailsPath = configuration.notificationPlaces.detailsPath { writeDetails(announcement.details, to: detailsPath) }
        post(notification)
    }

    /// One log line for each result and each retry; progress is for `status`.
    private static func log(_ event: TransferEvent, of file: SyncDriver.TrackedFile, to logger: Logger) {
        switch event {
        case .willRetry(_, let delay, let failure):
            logger.notice("\(file.title): \(failure.message); retrying in \(formatRemainingTime(delay))")
        case .finished(_, let completion):
            switch completion.outcome {
            case .downloaded(let bytes): logger.info("\(file.title): downloaded \(formatByteCount(bytes))")
            case .unchanged: logger.info("\(file.title): unchanged")
            case .failed(let failure): logger.warning("\(file.title): failed: \(failure.message)")
            }
        case .started, .receiving, .progress:
            break
        }
    }

    /// Conditions turned against discretionary work: its transfers in flight pause, keeping
    /// what arrived, and continue when the conditions come back.
    private func pauseDiscretionaryTransfers(under conditions: Conditions) {
        let paused = driver.pauseDiscretionaryTransfers(under: conditions)
        guard !paused.isEmpty else { return }
        let why = !conditions.onMainsPower ? "on battery" : !conditions.networkAvailable ? "no network" : "on a metered network"
        logger.notice("\(why): paused \(paused.joined(separator: ", ")), keeping what arrived; they continue when conditions allow")
    }

    /// One line when work starts waiting for a network (or its login), one when it ends.
    private func logNetworkWait() {
        let wait = driver.networkWait
        defer { loggedNetworkWait = wait }
        switch (loggedNetworkWait, wait) {
        case (nil, let began?):
            logger.notice("\(began.logLine)")
        case (let ended?, nil):
            logger.notice(ended == .networkLogin ? "network login done; transfers go on" : "the network is back; transfers go on")
        case (let before?, let now?) where before.differsInKind(from: now):
            logger.notice("\(now.logLine)")
        default:
            break
        }
    }

    private func startConditionMonitor(waker: TransferEngine.Waker) -> ConditionMonitor? {
        guard configuration.watchConditions else { return nil }
        let monitor = ConditionMonitor { _ in waker.wake() }
        do {
            try monitor.start()
        } catch {
            logger.warning("cannot watch power and network (\(error)); discretionary work runs as if conditions were good")
            return nil
        }
        logger.info("conditions: \(monitor.sources)")
        return monitor
    }
}
