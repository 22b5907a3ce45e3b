import Testing
@testable import SyncAgentKit

/// The shared token budget, driven by hand with instants: no sleeps, no network.
struct BandwidthBudgetTests {
    let start = ContinuousClock.now
    let chunk = 16 << 10

    /// Feeds `transfers` chunks as fast as the budget allows for `seconds`, refill by refill,
    /// the way the engine does (a paused transfer tries again at the next refill); returns the
    /// bytes each got. `slow` transfers take at most one chunk per refill.
    func run(_ budget: inout BandwidthBudget, transfers: Int, slow: Set<Int> = [], seconds: Int) -> [Int] {
        var got = Array(repeating: 0, count: transfers)
        for id in 0..<transfers { budget.join(id) }
        let refills = seconds * 1000 / Int(BandwidthBudget.refillInterval.milliseconds)
        for round in 0...refills {
            let now = start + BandwidthBudget.refillInterval * round
            for turn in 0..<transfers {
                let id = (turn + round) % transfers
                var taken = 0
                while budget.take(chunk, for: id, at: now) {
                    got[id] += chunk
                    taken += 1
                    if slow.contains(id) { break }
                    if taken > 1000 { break }
                }
            }
        }
        return got
    }

    @Test func anUnlimitedBudgetLetsEverythingThrough() {
        var budget = BandwidthBudget()
        budget.join(0)
        var passed = 0
        for _ in 0..<1000 where budget.take(chunk, for: 0, at: start) { passed += 1 }
        #expect(passed == 1000)
    }

    @Test func fourTransfersShareTheCapEvenly() {
        var budget = BandwidthBudget(bytesPerSecond: 2_000_000)
        let got = run(&budget, transfers: 4, seconds: 20)
        let total = Double(got.reduce(0, +)) / 20
        #expect(abs(total - 2_000_000) / 2_000_000 < 0.02, "\(total) B/s")
        for bytes in got {
            #expect(abs(Double(bytes) / 20 - 500_000) / 500_000 < 0.05, "\(got)")
        }
    }

    @Test func creditASlowTransferLeavesGoesToTheOthers() {
        var budget = BandwidthBudget(bytesPerSecond: 2_000_000)
        // Transfer 0 takes at most 16 KiB per refill: 328 KB/s of its 500 KB/s share.
        let got = run(&budget, transfers: 4, slow: [0], seconds: 20)
        let total = Double(got.reduce(0, +)) / 20
        #expect(abs(total - 2_000_000) / 2_000_000 < 0.03, "\(total) B/s")
        #expect(got[1...].allSatisfy { Double($0) / 20 > 520_000 }, "\(got)")
    }

    @Test func aLowCapStillLetsWholeChunksThrough() {
        var budget = BandwidthBudget(bytesPerSecond: 50_000)
        let got = run(&budget, transfers: 4, seconds: 30)
        let total = Double(got.reduce(0, +)) / 30
        #expect(abs(total - 50_000) / 50_000 < 0.1, "\(total) B/s")
        #expect(got.allSatisfy { $0 > 0 })
    }

    @Test func aPausedTransferMayTryAgainAtTheNextRefill() {
        var budget = BandwidthBudget(bytesPerSecond: 100_000)
        budget.join(0)
        let passed = budget.take(chunk, for: 0, at: start)
        #expect(!passed)
        #expect(budget.nextRefill(after: start) == start + BandwidthBudget.refillInterval)
    }
}
