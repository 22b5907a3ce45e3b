import Foundation
import Logging
import SyncAgentKit

/// `syncagent` with no command: the login agent, in the foreground, until SIGTERM.
struct AgentCommand {
    let locations: Locations
    let logger: Logger

    func run() async throws(CommandFailure) {
        if locations.manifestIsDefault { try locations.installDefaultManifest() }
        let store = try locations.openState()
        let locations = locations
        let configuration = Agent.Configuration(
            manifestPath: locations.manifest,
            loadManifest: { () throws(InvalidManifest) in try locations.loadValidManifest() },
            store: store,
            notifier: LibnotifyNotifier(),
            lockPath: locations.lockPath,
            logger: logger
        )
        let box = UncheckedSendable(configuration)
        let failure = await onDedicatedThread { () -> AgentError? in
            do throws(AgentError) {
                try Agent(configuration: box.value).run()
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            throw CommandFailure(failure.message, exitCode: failure.code == AgentError.Code.alreadyRunning ? .alreadyRunning : .environment)
        }
    }
}
