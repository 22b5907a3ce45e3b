import ArgumentParser
import Foundation
import SyncAgentKit

extension SyncAgent {
    /// `syncagent status`: each file of the manifest and how its last transfer ended.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show each file and how its last transfer ended, from the saved state."
        )

        @OptionGroup var locations: LocationOptions

        func run() throws {
            let locations = locations.resolve()
            let manifest = try locations.loadManifest()
            let store = try locations.openState()
            let formatter = StatusFormatter(now: Date())
            for entry in manifest.files {
                let path = manifest.destinationPath(of: entry)
                let record: FileRecord?
                do {
                    record = try store.record(forPath: path).flatMap { $0.url == entry.url ? $0 : nil }
                } catch {
                    throw CommandFailure(error.description, exitCode: .environment)
                }
                print(formatter.line(title: entry.title, record: record, onDisk: FileManager.default.fileExists(atPath: path)))
            }
        }
    }
}

/// One line of `syncagent status`.
struct StatusFormatter {
    let now: Date

    func line(title: String, record: FileRecord?, onDisk: Bool) -> String {
        guard let record, let result = record.lastResult else {
            return "\(title): not downloaded yet"
        }
        let when = age(of: result.date)
        let size = record.size.map { ", \(formatByteCount($0))" } ?? ""
        switch result.kind {
        case .downloaded:
            return "\(title): downloaded \(when)\(size)" + (onDisk ? "" : " (missing on disk)")
        case .unchanged:
            return "\(title): up to date, checked \(when)\(size)" + (onDisk ? "" : " (missing on disk)")
        case .failed:
            let attempts = record.failedAttempts > 1 ? " (\(record.failedAttempts) attempts in a row)" : ""
            return "\(title): failed \(when): \(result.message ?? "unknown reason")\(attempts)"
        }
    }

    /// "just now", "5 min ago", "3 h ago", "2 days ago".
    private func age(of date: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return "\(seconds / 86_400) days ago"
        }
    }
}
