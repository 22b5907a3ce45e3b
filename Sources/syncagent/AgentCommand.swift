import FoundationEssentials
import Logging
import SyncAgentKit

/// `syncagent` with no command: the login agent, in the foreground, until SIGTERM.
struct AgentCommand {
    let locations: Locations
    let logger: Logger

    func run() throws(CommandFailure) {
        // First, before any thread starts: signals must reach the agent's loop as requests.
        let signals = SignalInbox()
        if locations.manifestIsDefault { try locations.installDefaultManifest() }
        let store = try locations.openState()
        let locations = locations
        let actions = NotificationActions()
        let configuration = Agent.Configuration(
            manifestPath: locations.manifest,
            loadManifest: { () throws(InvalidManifest) in try locations.loadValidManifest() },
            store: store,
            notifier: desktopNotifier(actions: actions),
            notificationActions: actions,
            notificationPlaces: .init(
                home: ProcessInfo.processInfo.environment["HOME"],
                detailsPath: locations.stateDirectory + "/failures.txt"
            ),
            lockPath: locations.lockPath,
            controlSocketPath: locations.controlSocketPath,
            logger: logger
        )
        do throws(AgentError) {
            try Agent(configuration: configuration).run(requests: signals)
        } catch {
            throw CommandFailure(error.message, exitCode: error.code == .alreadyRunning ? .alreadyRunning : .environment)
        }
    }

    /// libnotify's notifier; none, said once, when libnotify cannot be loaded.
    private func desktopNotifier(actions: NotificationActions) -> LibnotifyNotifier? {
        do throws(NotificationError) {
            try LibnotifyNotifier.loadLibraries()
        } catch {
            logger.warning("\(error.message)")
            return nil
        }
        return LibnotifyNotifier(actions: actions)
    }
}
