import ArgumentParser
import FoundationEssentials
import Glibc
import SyncAgentKit

extension SyncAgent {
    /// `syncagent status`: each file — state, progress, speed, last result — from the running
    /// agent, or from the saved state when none runs.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show each file: its state, progress, speed and last result.",
            discussion: """
                Asks the running agent; with none running, shows the saved state and says so. \
                On a terminal the rows fit its width; piped, they are whole.
                """
        )

        @Flag(help: "Redraw every half second, at the window's size, until interrupted.")
        var watch = false

        @Flag(help: "Print a stable machine-readable form (JSON) instead of the table.")
        var json = false

        @OptionGroup var display: ColorOption

        @OptionGroup var locations: LocationOptions

        func run() throws {
            // Read once: each read of ProcessInfo's environment builds a new dictionary of it.
            let environment = ProcessInfo.processInfo.environment
            let locations = locations.resolve(environment: environment)
            let manifest = try locations.loadManifest()
            let output = FileDescriptorOutput.standardOutput
            let terminal = output.isTerminal
            // A dumb terminal (an Emacs shell) has a width but no cursor movement: `--watch`
            // then writes one table after another, as into a pipe.
            let redraws = terminal && environment["TERM"] != "dumb"
            let style = display.style(for: output, environment: environment)
            var isFirstFrame = true
            repeat {
                let (files, agentRunning) = try currentStatus(manifest: manifest, locations: locations)
                var screen = ""
                if json {
                    screen = try Self.json(files: files, agentRunning: agentRunning) + "\n"
                } else {
                    // Asked on every frame, so `--watch` follows a resized window.
                    let size = terminal ? output.size() : nil
                    var lines = StatusTable(now: Date(), width: size?.columns, style: style).lines(for: files)
                    // The agent follows the same manifest and clock: its cap now is this one.
                    let cap = BandwidthSchedule(limit: manifest.limits.bandwidth, timeZone: .current).description(at: Date())
                    let note = agentRunning ? cap.map { "Transfers are \($0)." } : "The agent is not running; this is the saved state."
                    let windowNote = ClosedWindowNotice.message(files: files, manifest: manifest, at: Date(), timeZone: .current)
                    for note in [windowNote, note].compactMap({ $0 }) {
                        lines.insert(size.map { ProgressText.truncated(note, toColumns: $0.columns, ellipsis: style.symbols.ellipsis) } ?? note, at: 0)
                    }
                    if watch, redraws, let size {
                        screen = Self.frame(lines, size: size, clearing: isFirstFrame, style: style)
                    } else {
                        screen = lines.map { $0 + "\n" }.joined()
                    }
                }
                if watch && !redraws { screen += "\n" }
                isFirstFrame = false
                // Nobody reads any more (`status --watch | head -1`): stop.
                guard output.write(screen) else { return }
                if watch { usleep(500_000) }
            } while watch
        }

        /// One `--watch` frame on a terminal: from the top left, each line erased to its end
        /// and the rest of the screen below, so a frame replaces the last without the flicker
        /// of clearing the screen first; as many lines as the window has, less one, and
        /// "+N more" for the rest, so the frame never scrolls.
        static func frame(_ lines: [String], size: FileDescriptorOutput.Size, clearing: Bool, style: TerminalStyle) -> String {
            // Never an empty frame: ED at the top-left corner would push the screen into
            // tmux's scrollback on every redraw.
            var shown = lines.isEmpty ? [""] : lines
            let room = max(1, size.lines - 1)
            if shown.count > room {
                let hidden = shown.count - (room - 1)
                shown = Array(shown.prefix(room - 1)) + ["+\(hidden) more"]
            }
            var text = clearing ? "\u{1B}[H\u{1B}[2J" : "\u{1B}[H"
            for line in shown { text += line + "\u{1B}[K\n" }
            return text + "\u{1B}[J"
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
