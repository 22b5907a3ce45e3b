import ArgumentParser
import SyncAgentKit

extension Locations {
    /// The running agent's answer to `request`, or `nil` when no agent runs on this state.
    func ask(_ request: ControlRequest) throws(CommandFailure) -> ControlResponse? {
        do {
            return try ControlClient.send(request, to: controlSocketPath)
        } catch {
            if error.code == .agentNotRunning { return nil }
            throw CommandFailure(error.message, exitCode: .environment)
        }
    }
}

/// The titles a control command acts on; none means every file and feed.
struct TitleArguments: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "Files, feeds or episodes (\"Feed/Episode\") to act on, by title or the start of one (case does not matter). None: every file and feed.",
        valueName: "title"
    ), completion: Completions.titles)
    var titles: [String] = []
}

/// Sends one command to the running agent and prints what it did. With no agent running, the
/// change is recorded in the saved state (``OfflineControl``), said, and the command ends with
/// exit status 5.
func sendToAgent(_ command: ControlRequest.Command, titles: [String], locations: LocationOptions) throws(CommandFailure) {
    let locations = locations.resolve()
    if let response = try locations.ask(ControlRequest(command, titles: titles)) {
        guard response.ok else { throw CommandFailure(response.message, exitCode: .usage) }
        print(response.message)
        return
    }
    let manifest = try locations.loadManifest()
    let lock = try locations.takeLock()
    defer { withExtendedLifetime(lock) {} }
    let store = try locations.openState()
    let episodes: [String: [StoredEpisode]]
    do {
        episodes = try HoldTargets.namedEpisodes(of: manifest, store: store)
    } catch {
        throw CommandFailure(error.description, exitCode: .environment)
    }
    let targets: HoldTargets
    do {
        targets = try TitleMatcher.targets(titles, in: manifest, episodes: episodes)
    } catch {
        throw CommandFailure(error.message, exitCode: .usage)
    }
    let recorded: String
    do {
        recorded = try OfflineControl.record(command, of: targets, all: titles.isEmpty, in: manifest, store: store)
    } catch {
        throw CommandFailure(error.description, exitCode: .environment)
    }
    throw CommandFailure(recorded, exitCode: .agentNotRunning)
}

/// A command the running agent carries out for some files: pause, resume, stop, start.
protocol AgentControlCommand: ParsableCommand {
    static var command: ControlRequest.Command { get }
    var files: TitleArguments { get }
    var locations: LocationOptions { get }
}

extension AgentControlCommand {
    func run() throws {
        try sendToAgent(Self.command, titles: files.titles, locations: locations)
    }
}
