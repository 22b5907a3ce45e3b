extension TransferEngine {
    /// The engine's bookkeeping: what waits, what runs, what is due for a retry.
    struct Queue {
        /// A transfer waiting for a free slot: its request, or, for one added with
        /// ``TransferEngine/add(deferred:)``, only its id and ticket until it starts.
        enum Waiting {
            case deferred(id: Int, ticket: Int)
            // Boxed: the deferred case is what thousands of waiting transfers are, and an
            // unboxed request would make each of them as large as a request.
            indirect case ready(TransferRequest)

            var id: Int {
                switch self {
                case .deferred(let id, _): id
                case .ready(let request): request.id
                }
            }
        }

        /// Waiting transfers per host, served round-robin so one busy host cannot starve others.
        private var waiting: [String: ArraySlice<Waiting>] = [:]
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
            for items in waiting.values { ids.formUnion(items.map(\.id)) }
            ids.formUnion(retries.map(\.request.id))
            return ids
        }

        var activeDownloads: Dictionary<ObjectIdentifier, Download>.Values { active.values }

        var nextRetryDue: ContinuousClock.Instant? { retries.map(\.due).min() }

        /// The deferred transfers waiting, with their tickets.
        var deferred: [(id: Int, ticket: Int)] {
            waiting.values.flatMap { items in
                items.compactMap { item -> (id: Int, ticket: Int)? in
                    guard case .deferred(let id, let ticket) = item else { return nil }
                    return (id, ticket)
                }
            }
        }

        mutating func enqueue(_ request: TransferRequest) {
            enqueue(.ready(request), url: request.url)
        }

        mutating func enqueue(_ item: Waiting, url: String) {
            let host = FailureClassification.hostName(of: url)
            // A host that has a queue, as most have, is hashed once: its queue is grown in place.
            if let index = waiting.index(forKey: host) {
                waiting.values[index].append(item)
            } else {
                waiting[host] = [item]
                if !hostOrder.contains(host) { hostOrder.append(host) }
            }
        }

        /// Makes the request of every deferred transfer now, in place; those `make` has none
        /// for leave the queue.
        mutating func makeDeferredRequests(_ make: (Int, Int) -> TransferRequest?) {
            for host in hostOrder {
                guard let items = waiting[host], items.contains(where: { if case .deferred = $0 { true } else { false } }) else { continue }
                waiting[host] = ArraySlice(items.compactMap { item in
                    guard case .deferred(let id, let ticket) = item else { return item }
                    return make(id, ticket).map { .ready($0) }
                })
                if waiting[host]!.isEmpty { dropEmptyQueue(of: host) }
            }
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

        /// The next transfer that fits the limits, taken off its queue, with its host.
        mutating func nextAdmissible(limits: Manifest.Limits) -> (item: Waiting, host: String)? {
            guard active.count < limits.concurrent, !hostOrder.isEmpty else { return nil }
            for step in 0..<hostOrder.count {
                let index = (nextHostIndex + step) % hostOrder.count
                let host = hostOrder[index]
                guard activePerHost[host, default: 0] < limits.perHost, let (item, wasLast) = takeFirstWaiting(of: host) else { continue }
                if wasLast {
                    waiting[host] = nil
                    hostOrder.remove(at: index)
                    nextHostIndex = hostOrder.isEmpty ? 0 : index % hostOrder.count
                } else {
                    nextHostIndex = (index + 1) % hostOrder.count
                }
                return (item, host)
            }
            return nil
        }

        /// The oldest transfer waiting for `host`, and whether it was the last. A slice keeps the
        /// items taken off its front alive in its buffer: once they outnumber those left, the rest
        /// moves to a buffer of its own, so 10,000 items queued do not all stay in memory until
        /// the last one starts. The host is hashed once: its queue is changed in place.
        private mutating func takeFirstWaiting(of host: String) -> (item: Waiting, wasLast: Bool)? {
            guard let index = waiting.index(forKey: host), let item = waiting.values[index].popFirst() else { return nil }
            let rest = waiting.values[index]
            if rest.startIndex > rest.count { waiting.values[index] = ArraySlice(Array(rest)) }
            return (item, rest.isEmpty)
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
            for (host, items) in waiting {
                guard let index = items.firstIndex(where: { $0.id == id }) else { continue }
                waiting[host]!.remove(at: index)
                if waiting[host]!.isEmpty { dropEmptyQueue(of: host) }
                forget(id)
                return .waiting
            }
            return nil
        }

        private mutating func dropEmptyQueue(of host: String) {
            waiting[host] = nil
            hostOrder.removeAll { $0 == host }
            nextHostIndex = hostOrder.isEmpty ? 0 : nextHostIndex % hostOrder.count
        }

        /// Drops the counters of a request that is over, so a later request with the same id
        /// starts afresh.
        mutating func forget(_ id: Int) {
            attempts[id] = nil
            restarts[id] = nil
        }

        /// Counts an attempt of request `id` and returns how many it has had.
        mutating func countAttempt(_ id: Int) -> Int {
            attempts.inPlace(forKey: id, default: 0) { count in
                count += 1
                return count
            }
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
