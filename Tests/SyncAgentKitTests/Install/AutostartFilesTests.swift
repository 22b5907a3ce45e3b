import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit

/// The unit and the autostart entry: the unit in `packaging/` is the template for
/// `/usr/bin/syncagent`, and what the templates make passes systemd's and freedesktop's own
/// checkers, for plain and for awkward paths.
struct AutostartFilesTests {
    static let packaging = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("packaging").path

    /// A folder name with the characters systemd treats specially but accepts.
    static let awkwardForSystemd = "odd dir %h $HOME ;c #(x)"
    /// A folder name with every character a desktop entry treats specially.
    static let awkwardForDesktopEntries = #"odd dir %h $HOME "q" 'a' \b;c #(x)"#

    @Test func theShippedUnitIsTheTemplateForUsrBinSyncagent() throws {
        let shipped = try String(contentsOfFile: Self.packaging + "/syncagent.service", encoding: .utf8)
        #expect(shipped == (try AutostartFiles.unit(executable: "/usr/bin/syncagent")))
    }

    /// systemd-analyze checks that ExecStart= names an executable, and /usr/bin/syncagent
    /// exists only where the Debian package is installed; so the shipped unit is verified
    /// with that one line pointing at the built binary, and the test checks it is the only
    /// difference.
    @Test func theShippedUnitPassesSystemdAnalyzeVerify() throws {
        let shipped = try String(contentsOfFile: Self.packaging + "/syncagent.service", encoding: .utf8)
        let built = try BuiltProducts.executable(named: "syncagent")
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0 == "ExecStart=/usr/bin/syncagent" }.count == 1)
        let verifiable = lines.map { $0 == "ExecStart=/usr/bin/syncagent" ? "ExecStart=" + AutostartCommandLine.systemdExec(built) : String($0) }.joined(separator: "\n")
        let result = try ExternalTool.verifyUnit(verifiable)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    /// A minimal Debian 12 (debootstrap minbase) has only Essential packages, and no procps:
    /// `ExecReload=kill …` failed `systemd-analyze verify` there and would fail every reload.
    /// Every program the unit runs besides syncagent must come from an Essential package.
    @Test func everyOtherProgramTheUnitRunsComesFromAnEssentialPackage() throws {
        let shipped = try String(contentsOfFile: Self.packaging + "/syncagent.service", encoding: .utf8)
        let commands = shipped.split(separator: "\n").filter { $0.hasPrefix("Exec") && !$0.hasPrefix("ExecStart=/usr/bin/syncagent") }
        #expect(!commands.isEmpty)
        for command in commands {
            let program = String(command.drop { $0 != "=" }.dropFirst().drop { "-@:+!".contains($0) }.prefix { $0 != " " })
            let package = try Self.owningPackage(of: program)
            #expect(package != nil, "\(command): \(program) belongs to no installed package")
            if let package {
                let essential = try ExternalTool.run("dpkg-query", ["-W", "-f=${Essential}", package], environment: ["PATH": "/usr/bin:/bin"])
                #expect(essential.output == "yes", "\(command): \(program) comes from \(package), which a minimal Debian may lack")
            }
        }
    }

    /// The package that installed `program`, found as systemd finds a bare name (its search
    /// path), under either name of a merged /usr; nil if none did.
    static func owningPackage(of program: String) throws -> String? {
        let folders = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        let candidates = program.hasPrefix("/") ? [program] : folders.map { $0 + "/" + program }
        for path in candidates {
            let aliases = path.hasPrefix("/usr/") ? [path, String(path.dropFirst(4))] : [path, "/usr" + path]
            for alias in aliases {
                let found = try ExternalTool.run("dpkg-query", ["-S", alias], environment: ["PATH": "/usr/bin:/bin"])
                let owner = found.output.split(separator: "\n").first { !$0.hasPrefix("diversion ") && $0.hasSuffix(": " + alias) }
                if found.status == 0, let owner { return String(owner.prefix { $0 != ":" }) }
            }
        }
        return nil
    }

    @Test func verifyReportsWhatIsWrongWithAUnit() throws {
        let built = try BuiltProducts.executable(named: "syncagent")
        let unit = try AutostartFiles.unit(executable: built).replacingOccurrences(of: "Restart=on-failure", with: "Restart=sometimes")
        let result = try ExternalTool.verifyUnit(unit)
        #expect(result.output.contains("Failed to parse service restart specifier"), "\(result.output)")
    }

    @Test func aUnitForAnAwkwardPathNamesThatExecutable() throws {
        let folder = try TemporaryDirectory(prefix: "autostart-files")
        let executable = try Self.awkwardExecutable(Self.awkwardForSystemd, in: folder)
        let unit = try AutostartFiles.unit(executable: executable)
        #expect(AutostartFiles.executable(in: unit) == executable)
        // systemd-analyze fails unless ExecStart= parses back to a path that exists.
        let result = try ExternalTool.verifyUnit(unit)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test func aDesktopEntryForAnAwkwardPathIsValidAndNamesThatExecutable() throws {
        let folder = try TemporaryDirectory(prefix: "autostart-files")
        let executable = try Self.awkwardExecutable(Self.awkwardForDesktopEntries, in: folder)
        let entry = try AutostartFiles.desktopEntry(executable: executable)
        #expect(AutostartFiles.executable(in: entry) == executable)
        try entry.write(toFile: folder.appending("syncagent.desktop"), atomically: true, encoding: .utf8)
        let result = try ExternalTool.desktopFileValidate(folder.appending("syncagent.desktop"))
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    /// The reason ``AutostartFiles/unit(executable:)`` refuses such paths: systemd itself
    /// rejects the unit, however the path is quoted.
    @Test func systemdRefusesAnExecutableWithAQuoteSoTheUnitIsNotWritten() throws {
        let folder = try TemporaryDirectory(prefix: "autostart-files")
        let executable = try Self.awkwardExecutable("o'brien", in: folder)
        #expect(throws: AutostartError.self) { try AutostartFiles.unit(executable: executable) }
        let unit = try AutostartFiles.unit(executable: "/usr/bin/syncagent")
            .replacingOccurrences(of: "ExecStart=/usr/bin/syncagent", with: "ExecStart=\"\(executable)\"")
        let result = try ExternalTool.verifyUnit(unit)
        #expect(result.output.contains("Executable name contains special characters"), "\(result.output)")
        #expect(try AutostartFiles.desktopEntry(executable: executable).contains("Exec=\"\(executable)\"\n"))
    }

    @Test func desktopFileValidateReportsAnUnquotedReservedCharacter() throws {
        let folder = try TemporaryDirectory(prefix: "autostart-files")
        let entry = try AutostartFiles.desktopEntry(executable: "/usr/bin/syncagent")
            .replacingOccurrences(of: "\nExec=/usr/bin/syncagent", with: "\nExec=/opt/$x/syncagent")
        try entry.write(toFile: folder.appending("syncagent.desktop"), atomically: true, encoding: .utf8)
        let result = try ExternalTool.desktopFileValidate(folder.appending("syncagent.desktop"))
        #expect(result.status != 0 && result.output.contains("reserved character"), "\(result.output)")
    }

    @Test func aStampedFileIsUneditedUntilOneCharacterChanges() throws {
        let unit = try AutostartFiles.unit(executable: "/opt/syncagent")
        let stamped = AutostartFiles.stamped(unit)
        #expect(stamped.hasPrefix("# Written by `syncagent install`;"))
        #expect(stamped.hasSuffix(unit))
        #expect(AutostartFiles.isUnedited(stamped))
        #expect(!AutostartFiles.isUnedited(stamped.replacingOccurrences(of: "RestartSec=10s", with: "RestartSec=11s")))
        #expect(!AutostartFiles.isUnedited(stamped + "\n"))
        #expect(!AutostartFiles.isUnedited(unit))
        #expect(!AutostartFiles.isUnedited(String(stamped.prefix { $0 != "\n" })))
    }

    @Test func relativeAndMultiLinePathsAreRefused() {
        #expect(throws: AutostartError.self) { try AutostartFiles.unit(executable: ".build/debug/syncagent") }
        #expect(throws: AutostartError.self) { try AutostartFiles.desktopEntry(executable: "/opt/a\nb/syncagent") }
        do {
            _ = try AutostartFiles.unit(executable: "/opt/a\nb/syncagent")
            Issue.record("a path with a newline was accepted")
        } catch {
            #expect(error.code == .unsupportedExecutable)
            #expect(error.message.contains("control character"))
        }
    }

    /// `FOLDER/NAME/syncagent`, a link to the built binary.
    static func awkwardExecutable(_ name: String, in folder: TemporaryDirectory) throws -> String {
        let directory = folder.appending(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let executable = directory + "/syncagent"
        try FileManager.default.createSymbolicLink(atPath: executable, withDestinationPath: try BuiltProducts.executable(named: "syncagent"))
        return executable
    }
}

/// The checkers the autostart tests run: `desktop-file-validate` (desktop-file-utils) and
/// `systemd-analyze` (systemd), installed by `scripts/install-deps --test`. A missing one
/// fails the test with that advice rather than skipping it.
enum ExternalTool {
    /// How a run ended: its exit status and stdout and stderr together.
    struct Result {
        var status: Int32
        var output: String
    }

    /// `desktop-file-validate path`.
    static func desktopFileValidate(_ path: String) throws -> Result {
        try run("desktop-file-validate", [path], environment: ["PATH": "/usr/bin:/bin"])
    }

    /// `systemd-analyze --user verify` on `unit` saved as `syncagent.service`. No user manager
    /// runs here: verify loads the unit in a manager of its own, which only needs a runtime
    /// folder; HOME and the runtime folder are private, so no real user's units are read.
    static func verifyUnit(_ unit: String) throws -> Result {
        let folder = try TemporaryDirectory(prefix: "autostart-verify")
        let runtime = folder.appending("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try unit.write(toFile: folder.appending("syncagent.service"), atomically: true, encoding: .utf8)
        return try run(
            "systemd-analyze", ["--user", "verify", folder.appending("syncagent.service")],
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": folder.appending("home"),
                "XDG_CONFIG_HOME": folder.appending("home/.config"), "XDG_RUNTIME_DIR": runtime,
            ]
        )
    }

    static func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> Result {
        guard let executable = ["/usr/bin/", "/bin/"].map({ $0 + tool }).first(where: FileManager.default.isExecutableFile) else {
            throw TestSupportError("\(tool) is not installed; run scripts/install-deps --test")
        }
        let folder = try TemporaryDirectory(prefix: "autostart-tool")
        let outputPath = folder.appending("output")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        try output.close()
        return Result(status: process.terminationStatus, output: try String(contentsOfFile: outputPath, encoding: .utf8))
    }
}
