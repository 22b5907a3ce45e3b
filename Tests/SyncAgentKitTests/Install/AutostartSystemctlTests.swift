import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// Finding `systemctl` on PATH and running it. A real user manager is not runnable here
/// (systemd refuses to start one unless it booted the machine), so the program run is a
/// small script named systemctl that reports what it was given.
struct AutostartSystemctlTests {
    @Test func noSystemctlOnThePathIsNil() throws {
        let folder = try TemporaryDirectory(prefix: "autostart-path")
        #expect(AutostartSystemctl.installed(environment: ["PATH": folder.path]) == nil)
    }

    @Test func theFoundProgramRunsWithUserAndItsOutputsAndStatusComeBack() throws {
        let folder = try TemporaryDirectory(prefix: "autostart-path")
        let script = folder.appending("bin/systemctl")
        try FileManager.default.createDirectory(atPath: folder.appending("bin"), withIntermediateDirectories: true)
        try """
            #!/bin/sh
            echo "args: $*"
            echo "to stderr" >&2
            exit 3
            """.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let systemctl = try #require(AutostartSystemctl.installed(environment: ["PATH": "\(folder.path):\(folder.appending("bin"))"]))
        let run = systemctl.run(["is-active", "syncagent.service"])
        #expect(run == AutostartSystemctl.Run(status: 3, output: "args: --user is-active syncagent.service\n", errorOutput: "to stderr\n"))
    }
}
