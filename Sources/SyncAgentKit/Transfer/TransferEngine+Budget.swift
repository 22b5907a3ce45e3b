extension TransferEngine {
    /// Puts a starting transfer under the bandwidth budget: its body chunks pass the budget's
    /// gate, and a chunk the budget cannot pay for pauses it until the next refill.
    func attachToBudget(_ easy: CurlEasy, id: Int) {
        budget.join(id)
        easy.bodyGate = { [unowned self, unowned easy] bytes in
            if budget.take(bytes, for: id, at: clock.now) { return true }
            pausedForBudget[id] = easy
            return false
        }
    }

    /// Takes an ended or cancelled transfer out of the budget.
    func detachFromBudget(_ easy: CurlEasy, id: Int) {
        easy.bodyGate = nil
        pausedForBudget[id] = nil
        budget.leave(id)
    }

    /// When transfers paused for the budget may go on; `nil` when none is paused, so an
    /// engine with nothing paused never wakes for the budget.
    var budgetWake: ContinuousClock.Instant? {
        pausedForBudget.isEmpty ? nil : budget.nextRefill(after: clock.now)
    }

    /// Continues the paused transfers once the budget has refilled, starting each round with
    /// the next one in turn so that no transfer always comes first.
    func resumePausedTransfersIfDue() {
        guard let due = budgetWake, clock.now >= due else { return }
        let paused = pausedForBudget.sorted { $0.key < $1.key }
        pausedForBudget = [:]
        budgetRound += 1
        let first = budgetRound % paused.count
        for (_, easy) in paused[first...] + paused[..<first] {
            easy.unpause()
        }
    }
}
