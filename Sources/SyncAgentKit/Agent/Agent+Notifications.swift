import FoundationEssentials
import Glibc

/// What the agent shows on the desktop and what the user picks there: posts and withdrawals in
/// order off the loop's thread, the list of failures "Show details" opens, and "Retry now".
extension Agent {
    /// Keeps the list of every failing file that "Show details" opens; none when nothing fails.
    func writeDetails(_ details: String?, to path: String) {
        guard let details else {
            unlink(path)
            return
        }
        let text = "Files syncagent could not bring up to date (`syncagent status` shows each file):\n\n" + details
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            logger.warning("cannot write the list of failures to \(path): \(error)")
        }
    }

    /// What the user picked on a notification: "Retry now" starts the files again now, as
    /// `syncagent start` does; an action the desktop could not do is logged.
    func act(on actions: NotificationActions.Pending) {
        for problem in actions.problems { logger.warning("\(problem)") }
        guard !actions.retries.isEmpty, let manifest = driver.manifest else { return }
        let paths = Set(actions.retries)
        let entries = manifest.files.filter { paths.contains(manifest.destinationPath(of: $0)) }
        guard !entries.isEmpty else { return }
        logger.info("Retry now: starting \(entries.map(\.title).joined(separator: ", ")) again")
        do {
            try driver.release(entries)
        } catch {
            logger.error("\(error.description)")
        }
    }

    /// Shows `notification`, replacing the last on its topic, off the loop's thread.
    func post(_ notification: DesktopNotification) {
        onPostingQueue("show") { notifier throws(NotificationError) in try notifier.post(notification) }
    }

    /// Takes the notification on `topic` off the desktop, off the loop's thread.
    func withdraw(_ topic: DesktopNotification.Topic) {
        onPostingQueue("close") { notifier throws(NotificationError) in try notifier.withdraw(topic) }
    }

    /// Fire and forget, in order: a slow notification server must not hold transfers up, and
    /// a withdrawal must not overtake the post it takes back. A failure is logged as "could not
    /// `verb` the desktop notification".
    private func onPostingQueue(_ verb: String, _ work: @escaping @Sendable (any Notifier) throws(NotificationError) -> Void) {
        guard let notifier = configuration.notifier else { return }
        let logger = logger
        Self.postingQueue.enqueue {
            do throws(NotificationError) {
                try work(notifier)
            } catch {
                logger.warning("could not \(verb) the desktop notification: \(error.message)")
            }
        }
    }

    /// Posts and withdrawals, one after the other, off the loop's thread.
    static let postingQueue = SerialWorker(name: "syncagent-post")
}
