import Glibc

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

        /// A host requests go to: its waiting transfers, and how many of its transfers run.
        private struct Host {
            var name: String
            var waiting: ArraySlice<Waiting> = []
            var running = 0
        }

        /// Every host of the transfers pending, at the place ``hostPlaces`` gives: a transfer
        /// keeps its host's place from when it is queued until it ends, so only queueing it
        /// searches for the host's name (five searches a file did before, 2,000 instructions).
        /// Forgotten when nothing waits or runs.
        private var hosts: [Host] = []
        private var hostPlaces: [String: Int] = [:]
        /// The URL queued last, where its host ends in it (see ``FailureClassification/hostEnd(of:)``),
        /// and its host's place: a URL with the same bytes up to there, as most of a batch's
        /// files have, has the same host, which is neither read again nor searched for.
        private var lastQueued: (url: String, hostEnd: Int, place: Int)?
        /// The places of the hosts with transfers waiting, served round-robin so one busy
        /// host cannot starve others.
        private var hostOrder: [Int] = []
        private var nextHostIndex = 0
        private var retries: [(due: ContinuousClock.Instant, request: TransferRequest)] = []
        /// The running downloads by handle, with their host's place.
        private var active: [ObjectIdentifier: (download: Download, host: Int)] = [:]
        private var attempts: [Int: Int] = [:]
        private var restarts: [Int: Int] = [:]
        private var reported: [Int: Int64] = [:]
        var lastProgressReport = ContinuousClock.now

        var isEmpty: Bool { hostOrder.isEmpty && active.isEmpty && retries.isEmpty }

        /// Whether a transfer runs or waits only for a free slot (retries wait for their time).
        var isBusy: Bool { !active.isEmpty || !hostOrder.isEmpty }

        var pendingIDs: Set<Int> {
            var ids = Set(active.values.map(\.download.request.id))
            for place in hostOrder { ids.formUnion(hosts[place].waiting.map(\.id)) }
            ids.formUnion(retries.map(\.request.id))
            return ids
        }

        var activeDownloads: LazyMapSequence<Dictionary<ObjectIdentifier, (download: Download, host: Int)>.Values, Download> {
            active.values.lazy.map(\.download)
        }

        var nextRetryDue: ContinuousClock.Instant? { retries.map(\.due).min() }

        /// The deferred transfers waiting, with their tickets.
        var deferred: [(id: Int, ticket: Int)] {
            hostOrder.flatMap { place in
                hosts[place].waiting.compactMap { item -> (id: Int, ticket: Int)? in
                    guard case .deferred(let id, let ticket) = item else { return nil }
                    return (id, ticket)
                }
            }
        }

        mutating func enqueue(_ request: TransferRequest) {
            enqueue(.ready(request), url: request.url)
        }

        mutating func enqueue(_ item: Waiting, url: String) {
            let place: Int
            if let last = lastQueued, Self.url(url, hasTheHostOf: last.url, endingAt: last.hostEnd) {
                place = last.place
            } else {
                let host = FailureClassification.hostName(of: url)
                let next = hosts.count
                // `next` is stored when the host has no place yet.
                place = hostPlaces.inPlace(forKey: host, default: next) { $0 }
                if place == next { hosts.append(Host(name: host)) }
                lastQueued = FailureClassification.hostEnd(of: url).map { (url, $0, place) }
            }
            if hosts[place].waiting.isEmpty { hostOrder.append(place) }
            hosts[place].waiting.append(item)
        }

        /// Makes the request of every deferred transfer now, in place; those `make` has none
        /// for leave the queue.
        mutating func makeDeferredRequests(_ make: (Int, Int) -> TransferRequest?) {
            for place in hostOrder {
                let items = hosts[place].waiting
                guard items.contains(where: { if case .deferred = $0 { true } else { false } }) else { continue }
                hosts[place].waiting = ArraySlice(items.compactMap { item in
                    guard case .deferred(let id, let ticket) = item else { return item }
                    return make(id, ticket).map { .ready($0) }
                })
            }
            for place in hostOrder where hosts[place].waiting.isEmpty { dropEmptyQueue(of: place) }
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
            active.count < limits.concurrent && hostOrder.contains { hosts[$0].running < limits.perHost }
        }

        /// The next transfer that fits the limits, taken off its queue, with its host's name
        /// and place (for ``started(_:host:)``).
        mutating func nextAdmissible(limits: Manifest.Limits) -> (item: Waiting, host: String, place: Int)? {
            guard active.count < limits.concurrent, !hostOrder.isEmpty else { return nil }
            for step in 0..<hostOrder.count {
                let index = (nextHostIndex + step) % hostOrder.count
                let place = hostOrder[index]
                guard hosts[place].running < limits.perHost, let (item, wasLast) = takeFirstWaiting(of: place) else { continue }
                if wasLast {
                    hostOrder.remove(at: index)
                    nextHostIndex = hostOrder.isEmpty ? 0 : index % hostOrder.count
                } else {
                    nextHostIndex = (index + 1) % hostOrder.count
                }
                return (item, hosts[place].name, place)
            }
            return nil
        }

        /// The oldest transfer waiting for `host`, and whether it was the last. A slice keeps the
        /// items taken off its front alive in its buffer: once they outnumber those left, the rest
        /// moves to a buffer of its own, so 10,000 items queued do not all stay in memory until
        /// the last one starts.
        private mutating func takeFirstWaiting(of place: Int) -> (item: Waiting, wasLast: Bool)? {
            guard let item = hosts[place].waiting.popFirst() else { return nil }
            let rest = hosts[place].waiting
            if rest.startIndex > rest.count { hosts[place].waiting = ArraySlice(Array(rest)) }
            return (item, rest.isEmpty)
        }

        /// `download` runs, to the host at `place` (as ``nextAdmissible(limits:)`` gave it).
        mutating func started(_ download: Download, host place: Int) {
            active[ObjectIdentifier(download.easy)] = (download, place)
            hosts[place].running += 1
        }

        /// The download that ran on `easy`, now no longer active.
        mutating func ended(_ easy: CurlEasy) -> Download? {
            guard let (download, place) = active.removeValue(forKey: ObjectIdentifier(easy)) else { return nil }
            hosts[place].running -= 1
            if !reported.isEmpty { reported[download.request.id] = nil }
            forgetHostsIfIdle()
            return download
        }

        /// Forgets the hosts when no transfer waits or runs: no place stands for one then.
        private mutating func forgetHostsIfIdle() {
            guard active.isEmpty, hostOrder.isEmpty, !hosts.isEmpty else { return }
            hosts = []
            hostPlaces = [:]
            lastQueued = nil
            nextHostIndex = 0
        }

        /// Whether `url` has the host `other` has, which ends at byte `end` of `other`: the
        /// same bytes up to there, and its host ends there too (the scheme and the authority
        /// are all ``FailureClassification/hostName(of:)`` reads).
        static func url(_ url: String, hasTheHostOf other: String, endingAt end: Int) -> Bool {
            var url = url
            var other = other
            return url.withUTF8 { bytes in
                guard bytes.count >= end else { return false }
                if bytes.count > end {
                    let next = bytes[end]
                    guard next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#") else { return false }
                }
                return other.withUTF8 { otherBytes in
                    otherBytes.count >= end && (end == 0 || memcmp(bytes.baseAddress!, otherBytes.baseAddress!, end) == 0)
                }
            }
        }

        /// Empties the queue; returns the downloads that were running.
        mutating func removeAll() -> [Download] {
            let running = active.values.map(\.download)
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
            if let key = active.first(where: { $0.value.download.request.id == id })?.key, let (download, place) = active.removeValue(forKey: key) {
                hosts[place].running -= 1
                reported[id] = nil
                forget(id)
                forgetHostsIfIdle()
                return .running(download)
            }
            if let index = retries.firstIndex(where: { $0.request.id == id }) {
                retries.remove(at: index)
                forget(id)
                return .waiting
            }
            for place in hostOrder {
                guard let index = hosts[place].waiting.firstIndex(where: { $0.id == id }) else { continue }
                hosts[place].waiting.remove(at: index)
                if hosts[place].waiting.isEmpty { dropEmptyQueue(of: place) }
                forget(id)
                forgetHostsIfIdle()
                return .waiting
            }
            return nil
        }

        private mutating func dropEmptyQueue(of place: Int) {
            hosts[place].waiting = []
            hostOrder.removeAll { $0 == place }
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
