extension TransferEngine {
    /// The engine's bookkeeping: what waits, what runs, what is due for a retry.
    struct Queue {
        /// Waiting requests per host, served round-robin so one busy host cannot starve others.
        private var waiting: [String: ArraySlice<TransferRequest>] = [:]
        private var hostOrder: [String] = []
        private var nextHostIndex = 0
        private var retries: [(due: ContinuousClock.Instant, request: TransferRequest)] = []
        private var active: [ObjectIdentifier: Download] = [:]
        private var activePerHost: [String: Int] = [:]
        private var attempts: [Int: Int] = [:]
        private var restarts: [Int: Int] = [:]
        private var reported: [Int: Int64] = [:]
        var lastProgressReport = ContinuousClock.now

        var isEmpty: Bool { waiting.isEmpty && active.isEmpty && retries.isEmpty }

        /// Whether a transfer runs or waits only for a free slot (retries wait for their time).
        var isBusy: Bool { !active.isEmpty || !waiting.isEmpty }

        var pendingIDs: Set<Int> {
            var ids = Set(active.values.map(\.request.id))
            for requests in waiting.values { ids.formUnion(requests.map(\.id)) }
            ids.formUnion(retries.map(\.request.id))
            return ids
        }

        var activeDownloads: Dictionary<ObjectIdentifier, Download>.Values { active.values }

        var nextRetryDue: ContinuousClock.Instant? { retries.map(\.due).min() }

        mutating func enqueue(_ request: TransferRequest) {
            let host = FailureClassification.hostName(of: request.url)
            if waiting[host] == nil {
                waiting[host] = []
                if !hostOrder.contains(host) { hostOrder.append(host) }
            }
            waiting[host]!.append(request)
        }

        mutating func retry(_ request: TransferRequest, at due: ContinuousClock.Instant) {
            retries.append((due, request))
        }

        mutating func requeueRetries(dueBy now: ContinuousClock.Instant) {
            guard retries.contains(where: { $0.due <= now }) else { return }
            for entry in retries where entry.due <= now { enqueue(entry.request) }
            retries.removeAll { $0.due <= now }
        }

        /// Whether a waiting request could start now.
        func canAdmit(limits: Manifest.Limits) -> Bool {
            active.count < limits.concurrent && waiting.keys.contains { activePerHost[$0, default: 0] < limits.perHost }
        }

        /// The next request that fits the limits, taken off its queue, with its host.
        mutating func nextAdmissible(limits: Manifest.Limits) -> (request: TransferRequest, host: String)? {
            guard active.count < limits.concurrent, !hostOrder.isEmpty else { return nil }
            for step in 0..<hostOrder.count {
                let index = (nextHostIndex + step) % hostOrder.count
                let host = hostOrder[index]
                guard activePerHost[host, default: 0] < limits.perHost, let request = takeFirstWaiting(of: host) else { continue }
                if waiting[host]!.isEmpty {
                    waiting[host] = nil
                    hostOrder.remove(at: index)
                    nextHostIndex = hostOrder.isEmpty ? 0 : index % hostOrder.count
                } else {
                    nextHostIndex = (index + 1) % hostOrder.count
                }
                return (request, host)
            }
            return nil
        }

        /// The oldest request waiting for `host`. A slice keeps the requests taken off its front
        /// alive in its buffer: once they outnumber those left, the rest moves to a buffer of its
        /// own, so 10,000 requests queued do not all stay in memory until the last one starts.
        private mutating func takeFirstWaiting(of host: String) -> TransferRequest? {
            guard let request = waiting[host]?.popFirst() else { return nil }
            if let rest = waiting[host], rest.startIndex > rest.count { waiting[host] = ArraySlice(Array(rest)) }
            return request
        }

        mutating func started(_ download: Download) {
            active[ObjectIdentifier(download.easy)] = download
            activePerHost[download.host, default: 0] += 1
        }

        /// The download that ran on `easy`, now no longer active.
        mutating func ended(_ easy: CurlEasy) -> Download? {
            guard let download = active.removeValue(forKey: ObjectIdentifier(easy)) else { return nil }
            activePerHost[download.host, default: 1] -= 1
            reported[download.request.id] = nil
            return download
        }

        /// Empties the queue; returns the downloads that were running.
        mutating func removeAll() -> [Download] {
            let running = Array(active.values)
            self = Queue()
            return running
        }

        /// Where a removed request was.
        enum Removal {
            case waiting
            case running(Download)
        }

        /// Takes request `id` out of the queue, wherever it is; `nil` when it is not there.
        mutating func remove(id: Int) -> Removal? {
            if let key = active.first(where: { $0.value.request.id == id })?.key, let download = active.removeValue(forKey: key) {
                activePerHost[download.host, default: 1] -= 1
                reported[id] = nil
                forget(id)
                return .running(download)
            }
            if let index = retries.firstIndex(where: { $0.request.id == id }) {
                retries.remove(at: index)
                forget(id)
                return .waiting
            }
            for (host, requests) in waiting {
                guard let index = requests.firstIndex(where: { $0.id == id }) else { continue }
                waiting[host]!.remove(at: index)
                if waiting[host]!.isEmpty {
                    waiting[host] = nil
                    hostOrder.removeAll { $0 == host }
                    nextHostIndex = hostOrder.isEmpty ? 0 : nextHostIndex % hostOrder.count
                }
                forget(id)
                return .waiting
            }
            return nil
        }

        /// Drops the counters of a request that is over, so a later request with the same id
        /// starts afresh.
        mutating func forget(_ id: Int) {
            attempts[id] = nil
            restarts[id] = nil
        }

        /// Counts an attempt of request `id` and returns how many it has had.
        mutating func countAttempt(_ id: Int) -> Int {
            attempts[id, default: 0] += 1
            return attempts[id]!
        }

        /// Whether request `id` may start over from zero once more (bounded: a server whose
        /// file changes under every request must not keep us busy forever).
        mutating func allowRestart(_ id: Int) -> Bool {
            restarts[id, default: 0] += 1
            return restarts[id]! <= 2
        }

        /// Whether `download` received bytes since its last progress event; notes it if so.
        mutating func progressChanged(_ download: Download) -> Bool {
            let id = download.request.id
            guard reported[id] != download.received else { return false }
            reported[id] = download.received
            return true
        }
    }
}
