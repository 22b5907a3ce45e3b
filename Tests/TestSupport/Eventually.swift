import Foundation

/// Checks `condition` every 20 ms until it holds or `limit` passes; returns whether it held.
/// (Tests wait for a separate process or thread; the product itself never polls.)
public func eventually(within limit: Duration, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
