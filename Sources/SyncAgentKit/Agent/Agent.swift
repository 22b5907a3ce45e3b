import Foundation
import Logging

/// The login agent: keeps the manifest's files up to date on their schedules until asked to
/// stop.
///
/// Everything happens on the thread that calls ``run(signals:)``: loading and reloading the
/// manifest, asking the ``Scheduler`` what is due, driving the ``TransferEngine``, saving
/// state, and summing each batch up in one notification. Between events that thread sleeps
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
        /// The lock that keeps a second agent of this user from starting.
        public var lockPath: String
        /// Where the agent listens for `syncagent status`, `pause`, `start`…
        public var controlSocketPath: String
        /// Whether to watch power and network for discretionary work; without, conditions
        /// are taken as favourable.
        public var watchConditions: Bool
        public var timeZone: TimeZone
        public var logger: Logger
        public var options: TransferOptions

        public init(
            manifestPath: String, loadManifest: @escaping () throws(InvalidManifest) -> Manifest, store: StateStore,
            notifier: (any Notifier)?, lockPath: String, controlSocketPath: String, watchConditions: Bool = true,
            timeZone: TimeZone = .current, logger: Logger, options: TransferOptions = TransferOptions()
        ) {
            self.manifestPath = manifestPath
            self.loadManifest = loadManifest
            self.store = store
            self.notifier = notifier
            self.lockPath = lockPath
            self.controlSocketPath = controlSocketPath
            self.watchConditions = watchConditions
            self.timeZone = timeZone
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
    let ledger: TransferLedger
    let clock = ContinuousClock()
    var manifest: Manifest?
    /// The text of the manifest problem last reported, so one problem is told once.
    var reportedProblem: String?
    /// Stable engine ids for destination paths, across manifest reloads.
    var ids: [String: Int] = [:]
    /// What each id stands for while its transfer runs.
    var inFlight: [Int: (request: TransferRequest, title: String)] = [:]
    /// The results of the batch under way.
    var batch: [FileResult] = []
    /// Failures already told in a notification, message by path: a file that keeps failing
    /// the same way on its retries is not announced again until something changes.
    var toldFailures: [String: String] = [:]
    /// Where each running transfer stands, by id, for `syncagent status`.
    var progress: [Int: TransferProgress] = [:]
    /// Files waiting in the engine for a retry, with when it is due.
    var retrying: [Int: Date] = [:]
    /// Why each file the last scheduling round did not start waits, by path.
    var waiting: [String: WaitReason] = [:]
    /// Files the user asked for now (`start`, `resume`): the next round starts them whatever
    /// their schedule and the conditions say.
    var requestedNow: Set<String> = []
    /// Something changed that the last scheduling round did not know (a failure with a retry
    /// time, an edit, a command): plan again soon.
    var planRequested = true

    /// Drives every transfer; created on first use, on the agent's thread.
    lazy var engine = TransferEngine(limits: Manifest.Limits(), retry: Manifest.RetryPolicy(), options: configuration.options) {
        [unowned self] event in handle(event)
    }

    public init(configuration: Configuration) {
        self.configuration = configuration
        self.ledger = TransferLedger(store: configuration.store, now: Date.init)
    }

    /// Runs until SIGTERM or SIGINT: stops transfers keeping their partials (the state already
    /// holds what a resume needs) and returns. Throws when it cannot start.
    public func run(signals: SignalInbox) throws(AgentError) {
        let lock = try AgentLock(path: configuration.lockPath)
        let watcher = try ManifestWatcher(manifestPath: configuration.manifestPath)
        let control = try ControlServer(path: configuration.controlSocketPath)
        manifest = load(previous: nil)
        if let manifest {
            engine.limits = manifest.limits
            engine.retry = manifest.retry
        }
        let conditions = startConditionMonitor(waker: engine.waker)
        defer { conditions?.stop() }
        logger.info("started; watching \(configuration.manifestPath)")

        let timer = WakeTimer()
        var reloadAt: ContinuousClock.Instant?
        var timeToPlan = true
        var lastPlan = clock.now - Self.planningInterval
        var plannedConditions: Conditions?
        loop: while true {
            for request in signals.take() {
                switch request {
                case .stop:
                    break loop
                case .reload:
                    logger.info("SIGHUP: reading the manifest again")
                    reloadAt = clock.now
                }
            }
            if let due = reloadAt, due <= clock.now {
                reloadAt = nil
                reload()
            }
            if engine.isIdle && !batch.isEmpty {
                finishBatch()
                planRequested = true
            }
            // Planning reads every file's state: do it when time or something new calls for it,
            // and while transfers run at most once per planning interval.
            let current = conditions?.current
            let now = clock.now
            if timeToPlan || current != plannedConditions
                || (planRequested && (engine.isIdle || now - lastPlan >= Self.planningInterval)) {
                if let wake = schedule(conditions: current) { timer.fire(at: wake) } else { timer.disarm() }
                plannedConditions = current
                timeToPlan = false
                planRequested = false
                lastPlan = now
            }
            var deadline: ContinuousClock.Instant?
            if planRequested { deadline = lastPlan + Self.planningInterval }
            if let reloadAt { deadline = min(deadline ?? reloadAt, reloadAt) }
            if let save = ledger.saveDeadline { deadline = min(deadline ?? save, save) }
            let watched = [watcher.descriptor, signals.descriptor, timer.descriptor] + control.descriptors
            let readable = engine.step(until: deadline, watching: watched)
            // Saved in one transaction when due, and before a control request, which may write
            // the state itself (a hold, a reset) and must find it up to date.
            if control.descriptors.contains(where: readable.contains) {
                saveTransferResults()
            } else {
                saveTransferResults(ifDueAt: clock.now)
            }
            if readable.contains(timer.descriptor) {
                timer.acknowledge()
                timeToPlan = true
            }
            if readable.contains(watcher.descriptor), watcher.manifestChanged() {
                reloadAt = clock.now + Self.settleTime
            }
            control.serve(readable: readable) { request in answer(request) }
        }
        engine.stopAll()
        saveTransferResults()
        withExtendedLifetime((lock, control)) {}
        logger.info("stopped; partial downloads are kept and resume at the next start")
    }

    // MARK: Manifest

    /// The manifest on disk, or `previous` (told once) when it cannot be used.
    private func load(previous: Manifest?) -> Manifest? {
        do {
            let loaded = try configuration.loadManifest()
            if reportedProblem != nil { logger.info("the manifest is valid again") }
            reportedProblem = nil
            return loaded
        } catch {
            let text = error.description
            if text != reportedProblem {
                reportedProblem = text
                logger.error("the manifest cannot be used; \(previous == nil ? "waiting for a valid one" : "going on with the last good version"):\n\(text)")
                post(.invalidManifest(error, keepsPreviousVersion: previous != nil))
            }
            return previous
        }
    }

    private func reload() {
        let reloaded = load(previous: manifest)
        guard reloaded != manifest, let reloaded else { return }
        let before = Set(manifest?.files.map(\.url) ?? [])
        let added = reloaded.files.filter { !before.contains($0.url) }.count
        let removed = Set(reloaded.files.map(\.url))
        let dropped = manifest?.files.filter { !removed.contains($0.url) }.count ?? 0
        logger.info("manifest reloaded: \(reloaded.files.count) files (\(added) new, \(dropped) removed)")
        manifest = reloaded
        engine.limits = reloaded.limits
        engine.retry = reloaded.retry
        planRequested = true
    }

    // MARK: Scheduling

    /// Starts what is due now; returns when to look again (wall-clock time).
    private func schedule(conditions: Conditions?) -> Date? {
        guard let manifest else { return nil }
        let now = Date()
        var entries: [String: Manifest.Entry] = [:]
        var files: [ScheduledFile] = []
        let pending = engine.pendingIDs
        for entry in manifest.files {
            let path = manifest.destinationPath(of: entry)
            if let id = ids[path], pending.contains(id) { continue }
            do {
                let record = try ledger.record(for: entry, at: path)
                guard record?.hold == nil else { continue }
                files.append(ledger.scheduledFile(for: entry, at: path, record: record, requestedByUser: requestedNow.contains(path)))
                entries[path] = entry
            } catch {
                logger.error("\(entry.title): \(error.description)")
            }
        }
        requestedNow = []
        let plan = Scheduler(timeZone: configuration.timeZone)
            .plan(files, at: now, conditions: conditions ?? Conditions(onMainsPower: true, networkAvailable: true, networkMetered: false))
        waiting = Dictionary(plan.waiting.map { ($0.path, $0.reason) }, uniquingKeysWith: { $1 })
        var requests: [TransferRequest] = []
        for path in plan.start {
            guard let entry = entries[path] else { continue }
            let id = ids[path] ?? ids.count
            ids[path] = id
            do {
                let request = try ledger.request(id: id, for: entry, at: path, root: manifest.destination)
                inFlight[id] = (request, entry.title)
                requests.append(request)
            } catch {
                logger.error("\(entry.title): \(error.description)")
            }
        }
        if !requests.isEmpty {
            logger.info("starting \(requests.count) \(requests.count == 1 ? "transfer" : "transfers")")
            engine.add(requests)
        }
        // Never sooner than a moment from now: a plan that wakes in the past would spin.
        return plan.nextWake.map { max($0, now.addingTimeInterval(0.01)) }
    }

    // MARK: Transfers

    private func saveTransferResults(ifDueAt now: ContinuousClock.Instant? = nil) {
        do {
            if let now { try ledger.saveChangesIfDue(at: now) } else { try ledger.saveChanges() }
        } catch {
            logger.error("\(error.description)")
        }
    }

    private func handle(_ event: TransferEvent) {
        guard let (request, title) = inFlight[event.id] else { return }
        do {
            try ledger.record(event, of: request, retry: manifest?.retry ?? Manifest.RetryPolicy())
        } catch {
            logger.error("\(title): \(error.description)")
        }
        switch event {
        case .started(let id, let offset):
            retrying[id] = nil
            progress[id] = TransferProgress(received: offset, origin: clock.now)
        case .receiving(let id, _, let offset, let expectedLength):
            progress[id]?.update(received: offset, expected: expectedLength, at: clock.now)
        case .progress(let id, let received, let expectedLength):
            progress[id]?.update(received: received, expected: expectedLength, at: clock.now)
        case .willRetry(let id, let delay, let failure):
            progress[id] = nil
            retrying[id] = Date().addingTimeInterval(delay.timeInterval)
            logger.notice("\(title): \(failure.message); retrying in \(formatRemainingTime(delay))")
        case .finished(let id, let completion):
            inFlight[id] = nil
            progress[id] = nil
            if case .failed = completion.outcome { planRequested = true }
            batch.append(FileResult(title: title, path: request.destination, outcome: completion.outcome))
            switch completion.outcome {
            case .downloaded(let bytes): logger.info("\(title): downloaded \(formatByteCount(bytes))")
            case .unchanged: logger.info("\(title): unchanged")
            case .failed(let failure): logger.warning("\(title): failed: \(failure.message)")
            }
        }
    }

    /// The batch is over: one notification sums it up — none when nothing changed, and none
    /// when the only news is failures already told.
    private func finishBatch() {
        defer { batch = [] }
        var downloaded = 0
        var newFailures = 0
        for result in batch {
            switch result.outcome {
            case .downloaded:
                downloaded += 1
                toldFailures[result.path] = nil
            case .unchanged:
                toldFailures[result.path] = nil
            case .failed(let failure):
                if toldFailures.updateValue(failure.message, forKey: result.path) != failure.message { newFailures += 1 }
            }
        }
        logger.info("batch over: \(downloaded) of \(batch.count) downloaded, \(newFailures) new failures")
        guard downloaded > 0 || newFailures > 0, manifest?.notify ?? true,
              let notification = DesktopNotification.batchSummary(of: batch, destination: manifest?.destination ?? "")
        else { return }
        post(notification)
    }

    private func post(_ notification: DesktopNotification) {
        guard let notifier = configuration.notifier else { return }
        let logger = logger
        // Fire and forget: a slow notification server must not hold transfers up.
        Thread.detachNewThread {
            do throws(NotificationError) {
                try notifier.post(notification)
            } catch {
                logger.warning("could not show the desktop notification: \(error.message)")
            }
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
