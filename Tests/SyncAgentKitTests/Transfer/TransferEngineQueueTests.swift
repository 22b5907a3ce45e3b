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
}
