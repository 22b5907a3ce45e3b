import Foundation
import Testing
import TestSupport
@testable import SyncAgentKit
@testable import syncagent

/// What the Debian package ships beside the binary, checked against the code: the man page
/// formats without warnings and documents every command and option `--help` shows, every
/// exit status and every manifest key; the man page and the Debian changelog carry the
/// binary's version; the completion scripts and maintainer scripts are sound.
///
/// Building the package needs a release build of several minutes, so the package itself
/// is checked by hand: `packaging/build-deb`, then `sudo packaging/check-deb ./syncagent_*.deb`
/// (lintian, install, run, remove, purge; see the README).
struct PackageTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let manPagePath = repository + "/packaging/man/syncagent.1"

    private let manPage: ManPageSource

    init() throws {
        manPage = try ManPageSource(path: Self.manPagePath)
    }

    @Test func groffFormatsTheManPageWithoutWarnings() throws {
        let run = try ToolRun(["groff", "-ww", "-z", "-man", "-Tutf8", Self.manPagePath])
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
    }

    /// The check lintian runs on every man page in a package.
    @Test func manFormatsTheManPageWithoutWarnings() throws {
        let run = try ToolRun(
            ["man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", Self.manPagePath],
            environment: ["LC_ALL": "C.UTF-8", "MANROFFSEQ": "", "MANWIDTH": "80"]
        )
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
        // -Z stops at troff's intermediate output, which still holds the page's words.
        #expect(run.standardOutput.contains("tSYNCAGENT(1)"))
    }

    @Test func everyCommandHelpShowsIsDocumented() throws {
        let shown = try Self.help().subcommands.filter { $0.shouldDisplay && $0.commandName != "help" }.map(\.commandName)
        #expect(shown.count >= 9)
        let documented = manPage.terms(inSection: "COMMANDS")
        for command in shown {
            let term = "syncagent \(command)"
            #expect(documented.contains { $0 == term || $0.hasPrefix(term + " ") }, "no `.TP` term \"\(term)\" under COMMANDS")
        }
    }

    @Test func everyOptionHelpShowsIsDocumented() throws {
        let root = try Self.help()
        let commands = [root] + root.subcommands.filter { $0.shouldDisplay && $0.commandName != "help" }
        let shown = Set(commands.flatMap(\.optionSpellings))
        #expect(shown.isSuperset(of: ["--once", "--manifest", "--state-dir", "--force", "--watch", "--json", "--yes", "-y", "--version", "--help", "-h"]))
        let documented = Set(manPage.terms(inSection: "OPTIONS").flatMap(ManPageSource.optionSpellings(inTerm:)))
        #expect(shown.subtracting(documented).isEmpty, "not under OPTIONS: \(shown.subtracting(documented).sorted())")
    }

    @Test func theExitStatusesAreExactlyTheCodes() {
        let codes = (0...255).compactMap { ExitStatus(rawValue: $0) }.map { String($0.rawValue) }
        #expect(codes.count >= 7)
        #expect(manPage.terms(inSection: "EXIT STATUS") == codes)
    }

    @Test func theManifestKeysAreExactlyTheOnesTheValidatorKnows() {
        let expected: [(subsection: String, keys: [String])] = [
            ("Top level", ManifestValidator.topLevelKeys), ("schedule", ManifestValidator.scheduleKeys),
            ("limits", ManifestValidator.limitsKeys), ("retry", ManifestValidator.retryKeys),
            ("files", ManifestValidator.fileEntryKeys), ("feeds", ManifestValidator.feedEntryKeys),
        ]
        for (subsection, keys) in expected {
            let documented = manPage.terms(inSection: "THE MANIFEST", subsection: subsection).flatMap { $0.components(separatedBy: ", ") }
            #expect(documented.sorted() == keys.sorted(), "THE MANIFEST, \(subsection)")
        }
    }

    @Test func theManPageIsForThisVersion() throws {
        let title = try #require(manPage.lines.first { $0.hasPrefix(".TH ") })
        let version = SyncAgent.configuration.version
        #expect(!version.isEmpty && title.contains("\"syncagent \(version)\""), "\(title)")
    }

    /// build-deb takes the package's version from the changelog and refuses a binary that
    /// says otherwise; this finds the mismatch before a release build does.
    @Test func theDebianChangelogIsAtThisVersion() throws {
        let changelog = try String(contentsOfFile: Self.repository + "/packaging/debian/changelog", encoding: .utf8)
        let firstLine = try #require(changelog.split(separator: "\n").first)
        let version = SyncAgent.configuration.version
        #expect(!version.isEmpty && firstLine.hasPrefix("syncagent (\(version)) "), "\(firstLine)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func theCompletionScriptIsGenerated(shell: String) throws {
        let run = try ToolRun([try BuiltProducts.executable(named: "syncagent"), "--generate-completion-script", shell])
        #expect(run.status == 0, "\(run.standardError)")
        for word in ["syncagent", "check", "status", "install", "uninstall", "state-dir"] {
            #expect(run.standardOutput.contains(word), "the \(shell) completion lacks \(word)")
        }
    }

    @Test(arguments: ["postinst", "postrm"])
    func theMaintainerScriptIsValidShell(name: String) throws {
        let path = Self.repository + "/packaging/debian/" + name
        let run = try ToolRun(["sh", "-n", path])
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
        #expect(FileManager.default.isExecutableFile(atPath: path))
    }

    /// What the built binary's `--help` shows, through `--experimental-dump-help`.
    private static func help() throws -> CommandHelp {
        let run = try ToolRun([try BuiltProducts.executable(named: "syncagent"), "--experimental-dump-help"])
        try #require(run.status == 0, "\(run.standardError)")
        return try JSONDecoder().decode(DumpedHelp.self, from: Data(run.standardOutput.utf8)).command
    }
}

/// The JSON of swift-argument-parser's `--experimental-dump-help`, as far as it is read here.
private struct DumpedHelp: Decodable {
    var command: CommandHelp
}

/// One command in ``DumpedHelp``.
private struct CommandHelp: Decodable {
    /// One argument of a command; positional ones have no names.
    struct Argument: Decodable {
        struct Name: Decodable {
            /// "long", "short" or "longWithSingleDash".
            var kind: String
            var name: String
        }

        var names: [Name]?
        var shouldDisplay: Bool
    }

    var commandName: String
    var shouldDisplay: Bool
    var arguments: [Argument]?
    var subcommands: [CommandHelp] = []

    enum CodingKeys: CodingKey {
        case commandName, shouldDisplay, arguments, subcommands
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        commandName = try container.decode(String.self, forKey: .commandName)
        shouldDisplay = try container.decodeIfPresent(Bool.self, forKey: .shouldDisplay) ?? true
        arguments = try container.decodeIfPresent([Argument].self, forKey: .arguments)
        subcommands = try container.decodeIfPresent([CommandHelp].self, forKey: .subcommands) ?? []
    }

    /// "--manifest", "-h", … for each option and flag `--help` shows.
    var optionSpellings: [String] {
        (arguments ?? []).filter(\.shouldDisplay).flatMap { $0.names ?? [] }.map { ($0.kind == "long" ? "--" : "-") + $0.name }
    }
}

/// The roff source of a man page, read for what it documents: the term of each `.TP`
/// paragraph, as plain text, by section (`.SH`) and subsection (`.SS`).
private struct ManPageSource {
    let lines: [String]

    init(path: String) throws {
        lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
    }

    /// The `.TP` terms under `.SH section` (and `.SS subsection`, when given), in order.
    func terms(inSection section: String, subsection: String? = nil) -> [String] {
        var currentSection = ""
        var currentSubsection = ""
        var terms: [String] = []
        for (index, line) in lines.enumerated() {
            if line.hasPrefix(".SH ") {
                currentSection = Self.plainText(line)
                currentSubsection = ""
            } else if line.hasPrefix(".SS ") {
                currentSubsection = Self.plainText(line)
            } else if line == ".TP", index + 1 < lines.count, currentSection == section,
                      subsection == nil || currentSubsection == subsection {
                terms.append(Self.plainText(lines[index + 1]))
            }
        }
        return terms
    }

    /// "--manifest file" → ["--manifest"]; "-h, --help" → ["-h", "--help"].
    static func optionSpellings(inTerm term: String) -> [String] {
        term.components(separatedBy: ", ").compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0.hasPrefix("-") }
    }

    /// A line as it reads: a font macro's arguments joined (alternating ones without spaces),
    /// quotes and font changes gone, escapes replaced by their characters.
    static func plainText(_ line: String) -> String {
        guard line.hasPrefix(".") else { return unescaped(line) }
        let parts = line.dropFirst().split(separator: " ", maxSplits: 1)
        guard let macro = parts.first else { return "" }
        let arguments = parts.count > 1 ? macroArguments(String(parts[1])) : []
        let alternating = ["BI", "BR", "IB", "IR", "RB", "RI"].contains(String(macro))
        return unescaped(arguments.joined(separator: alternating ? "" : " "))
    }

    /// Macro arguments: split at spaces, except inside double quotes, which are removed.
    private static func macroArguments(_ text: String) -> [String] {
        var arguments: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { arguments.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { arguments.append(current) }
        return arguments
    }

    private static func unescaped(_ text: String) -> String {
        var text = text
        for font in ["\\fB", "\\fI", "\\fR", "\\fP", "\\c"] {
            text = text.replacingOccurrences(of: font, with: "")
        }
        // The escaped backslash last, so that it cannot start another escape.
        let characters = [("\\-", "-"), ("\\(ti", "~"), ("\\(dq", "\""), ("\\(aq", "'"), ("\\|", ""), ("\\e", "\\")]
        for (escape, character) in characters {
            text = text.replacingOccurrences(of: escape, with: character)
        }
        return text
    }
}
