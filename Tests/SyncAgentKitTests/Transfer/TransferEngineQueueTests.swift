import Testing
@testable import SyncAgentKit

/// The engine's queue with transfers whose requests are made only when they start: they take
/// the turns requests would, keep their places, and leave by id. Pure: nothing is started.
struct TransferEngineQueueTests {
    /// Ids 0…8 over three hosts, interleaved unevenly.
    let urls = ["http://a.test/0", "http://a.test/1", "http://b.test/2", "http://a.test/3", "http://c.test/4",
                "http://b.test/5", "http://a.test/6", "http://c.test/7", "http://a.test/8"]
    let limits = Manifest.Limits(concurrent: 100, perHost: 100)

    func request(_ id: Int) -> TransferRequest {
        TransferRequest(id: id, url: urls[id], destination: "/tmp/\(id)")
    }

    /// The ids in the order the queue lets them start, with whether each was deferred.
    func drain(_ queue: inout TransferEngine.Queue) -> [(id: Int, deferred: Bool)] {
        var order: [(id: Int, deferred: Bool)] = []
        while let (item, _, _) = queue.nextAdmissible(limits: limits) {
            if case .deferred = item { order.append((item.id, true)) } else { order.append((item.id, false)) }
        }
        return order
    }

    @Test func deferredTransfersTakeTheTurnsTheirRequestsWould() {
        var ready = TransferEngine.Queue()
        var deferred = TransferEngine.Queue()
        for id in urls.indices {
            ready.enqueue(request(id))
            deferred.enqueue(.deferred(id: id, ticket: 100 + id), url: urls[id])
        }
        #expect(deferred.pendingIDs == Set(urls.indices))
        #expect(deferred.deferred.map(\.ticket).sorted() == urls.indices.map { 100 + $0 })

        let readyOrder = drain(&ready).map(\.id)
        #expect(readyOrder == [0, 2, 4, 1, 5, 7, 3, 6, 8])
        #expect(drain(&deferred).map(\.id) == readyOrder)
        #expect(deferred.isEmpty)
    }

    @Test func makingDeferredRequestsKeepsEachPlaceAndDropsThoseWithNone() {
        var queue = TransferEngine.Queue()
        for id in urls.indices {
            if id.isMultiple(of: 2) { queue.enqueue(.deferred(id: id, ticket: id), url: urls[id]) } else { queue.enqueue(request(id)) }
        }
        var asked: [Int] = []
        queue.makeDeferredRequests { id, ticket in
            asked.append(ticket)
            return id == 4 ? nil : request(id)
        }

        #expect(asked.sorted() == [0, 2, 4, 6, 8])
        #expect(queue.deferred.isEmpty)
        let order = drain(&queue)
        #expect(order.map(\.id) == [0, 2, 7, 1, 5, 3, 6, 8])
        #expect(order.allSatisfy { !$0.deferred })
    }

    @Test func aDeferredTransferLeavesByItsID() {
        var queue = TransferEngine.Queue()
        queue.enqueue(.deferred(id: 4, ticket: 0), url: urls[4])
        queue.enqueue(.deferred(id: 7, ticket: 1), url: urls[7])

        guard case .waiting = queue.remove(id: 4) else {
            Issue.record("the deferred transfer was not found")
            return
        }
        #expect(queue.pendingIDs == [7])
        #expect(queue.remove(id: 4) == nil)
        #expect(drain(&queue).map(\.id) == [7])
    }

    /// A host keeps its place while its transfers wait or run, and the places are given
    /// afresh once nothing does: each transfer still names its own host.
    @Test func eachTransferNamesItsHostAfterTheQueueEmptied() {
        var queue = TransferEngine.Queue()
        queue.enqueue(.deferred(id: 0, ticket: 0), url: urls[0])
        queue.enqueue(.deferred(id: 2, ticket: 2), url: urls[2])
        #expect(queue.remove(id: 0) != nil && queue.remove(id: 2) != nil)
        #expect(queue.isEmpty)

        queue.enqueue(.deferred(id: 4, ticket: 4), url: urls[4])
        queue.enqueue(.deferred(id: 5, ticket: 5), url: urls[5])
        queue.enqueue(.deferred(id: 8, ticket: 8), url: urls[8])
        var named: [String] = []
        while let (item, host, _) = queue.nextAdmissible(limits: limits) { named.append("\(item.id)@\(host)") }
        #expect(named == ["4@c.test", "5@b.test", "8@a.test"])
    }

    /// A URL goes to the host of the one queued before it without its host being read again
    /// only when the two are the same up to where that host ends, and its own ends there.
    @Test func aURLSharesTheHostOfTheLastOnlyWhenItsHostIsTheSame() {
        func same(_ url: String, _ last: String) -> Bool {
            let end = try! #require(FailureClassification.hostEnd(of: last))
            let answer = TransferEngine.Queue.url(url, hasTheHostOf: last, endingAt: end)
            #expect(!answer || FailureClassification.hostName(of: url) == FailureClassification.hostName(of: last), "\(url) after \(last)")
            return answer
        }
        #expect(same("http://a.test/2", "http://a.test/1"))
        #expect(same("http://a.test", "http://a.test/1"))
        #expect(same("http://a.test?q", "http://a.test/1"))
        #expect(same("http://a.test#f", "http://a.test"))
        #expect(same("http://u@a.test/2", "http://u@a.test/1"))
        #expect(!same("http://a.testing/1", "http://a.test/1"))
        #expect(!same("http://a.test:8080/1", "http://a.test/1"))
        #expect(!same("https://a.test/1", "http://a.test/1"))
        #expect(!same("http://b.test/1", "http://a.test/1"))
        #expect(!same("http://a.tes", "http://a.test/1"))
        #expect(!same("http://v@a.test/1", "http://u@a.test/1"), "read again: the same host, found by its name")

        var queue = TransferEngine.Queue()
        for (id, url) in ["http://a.test/0", "http://a.test:81/1", "http://a.test/2", "http://b.test/3", "http://a.testing/4"].enumerated() {
            queue.enqueue(.deferred(id: id, ticket: id), url: url)
        }
        var named: [String] = []
        while let (item, host, _) = queue.nextAdmissible(limits: limits) { named.append("\(item.id)@\(host)") }
        #expect(named == ["0@a.test", "1@a.test:81", "3@b.test", "4@a.testing", "2@a.test"])
    }
}
