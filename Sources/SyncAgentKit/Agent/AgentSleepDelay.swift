import Logging

/// The agent's logind sleep delay: held while transfers the user started (`start`) run,
/// released the moment they are over; never for scheduled, discretionary work.
struct AgentSleepDelay {
    private enum State {
        case idle
        case holding(SleepInhibitor)
        /// logind would not grant one: not asked again until this work is over.
        case refused
    }

    private var state = State.idle

    /// Takes or releases the lock so that it is held exactly while `needed`.
    mutating func follow(_ needed: Bool, logger: Logger) {
        switch (state, needed) {
        case (.idle, true):
            do {
                state = .holding(try SleepInhibitor(why: SleepInhibitor.requestedDownloads))
            } catch {
                logger.debug("suspend is not delayed while started files download: \(error.message)")
                state = .refused
            }
        case (.holding(let lock), false):
            lock.release()
            state = .idle
        case (.refused, false):
            state = .idle
        default:
            break
        }
    }
}
