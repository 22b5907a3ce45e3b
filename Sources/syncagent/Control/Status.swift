import ArgumentParser
import Foundation
import SyncAgentKit

extension SyncAgent {
    /// `syncagent status`: each file — state, progress, speed, last result — from the running
    /// agent, or from the saved state when none runs.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show each file: its state, progress, speed and last result.",
            discussion: "Asks the running agent; with none running, shows the saved state and says so."
        )

        @Flag(help: "Redraw every half second until interrupted.")
        var watch = false

        @Flag(help: "Print a stable machine-readable form (JSON) instead of the table.")
        var json = false

        @OptionGroup var locations: LocationOptions

        func run() throws {
            let locations = locations.resolve()
            let manifest = try locations.loadManifest()
            let terminal = isatty(STDOUT_FILENO) == 1
            repeat {
                let (files, agentRunning) = try currentStatus(manifest: manifest, locations: locations)
                var screen = ""
                if json {
                    screen = try Self.json(files: files, agentRunning: agentRunning) + "\n"
                } else {
                    if watch && terminal { screen += "\u{1B}[H\u{1B}[2J" }
                    if !agentRunning { screen += "The agent is not running; this is the saved state.\n" }
                    for line in StatusTable(now: Date(), width: terminalWidth()).lines(for: files) { screen += line + "\n" }
                }
                if watch && !terminal { screen += "\n" }
                // Nobody reads any more (`status --watch | head -1`): stop.
                guard FileDescriptorOutput.standardOutput.write(screen) else { return }
                if watch { usleep(500_000) }
            } while watch
        }

        private func currentStatus(manifest: Manifest, locations: Locations) throws(CommandFailure) -> ([FileStatus], Bool) {
            if let response = try locations.ask(ControlRequest(.status)), response.ok, let files = response.files {
                return (files, true)
            }
            let store = try locations.openState()
            do {
                return (try OfflineControl.status(of: manifest, store: store), false)
            } catch {
                throw CommandFailure(error.description, exitCode: .environment)
            }
        }

        /// `{"agentRunning": true, "files": [...], "version": 1}`, keys sorted.
        static func json(files: [FileStatus], agentRunning: Bool) throws -> String {
            struct Output: Encodable {
                var version = ControlProtocol.version
                var agentRunning: Bool
                var files: [FileStatus]
            }
            let data = try ControlProtocol.encoder().encode(Output(agentRunning: agentRunning, files: files))
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// Columns of the terminal on standard output, or 100 when it is not one.
func terminalWidth() -> Int {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 100 }
    return Int(size.ws_col)
}
