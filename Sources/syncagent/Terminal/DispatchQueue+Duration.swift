import Dispatch

extension DispatchQueue {
    /// Runs `work` on this queue once `delay` (a Swift `Duration`) has passed; at once if it
    /// is not positive.
    func asyncAfter(_ delay: Duration, execute work: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds)), execute: work)
    }
}
