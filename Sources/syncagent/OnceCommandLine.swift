import FoundationEssentials
import Logging
import SyncAgentKit

/// What `syncagent --once` was asked to do: the flags and options of the root command that a
/// batch (or its dry run) reads, and running it.
///
/// swift-argument-parser reads a command line by reflection — the first dynamic casts and
/// mirrors of each command and option type — about 9 M instructions, two milliseconds and a
/// half, every time; for `--once` that is a fifth of a small re-check, all of it on the path to
/// the first request. ``init(arguments:)`` reads the plain command lines of `--once` directly:
/// nothing but `--once`, `--dry-run`, `--quiet`/`-q`, `--verbose`/`-v`, `--no-notify`,
/// `--manifest` and `--state-dir`, each at most once, with a value that the parser would also
/// take as it is. Anything else — another option, a repeat, a value that starts with `-`,
/// `--quiet` with `--verbose`, help — goes to the parser, which makes the same value for those
/// it accepts (``SyncAgent/run()``) and gives every message and exit status as ever.
struct OnceCommandLine: Equatable {
    /// `--dry-run`: show what would be fetched, change nothing.
    var dryRun = false
    /// `--quiet`: only failures, on standard error.
    var quiet = false
    /// `--verbose`: each file's URL.
    var verbose = false
    /// `--no-notify`: no desktop notification at the end.
    var noNotify = false
    /// `--limit-rate`, as given (validated by the parser).
    var limitRate: String?
    /// `--color`.
    var color: ColorChoice?
    /// `--manifest`, as given.
    var manifest: String?
    /// `--state-dir`, as given.
    var stateDirectory: String?
}

// In an extension, so that Swift still makes the memberwise initialiser the parser's value
// (SyncAgent.onceCommandLine) is built with.
extension OnceCommandLine {
    /// The plain `--once` command line `arguments` (without the program's name) is, or `nil`
    /// when it is any other: that one is for the parser.
    init?(arguments: [String]) {
        var once = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--once": guard Self.set(&once) else { return nil }
            case "--dry-run": guard Self.set(&dryRun) else { return nil }
            case "--quiet", "-q": guard Self.set(&quiet) else { return nil }
            case "--verbose", "-v": guard Self.set(&verbose) else { return nil }
            case "--no-notify": guard Self.set(&noNotify) else { return nil }
            case "--manifest", "--state-dir":
                guard index < arguments.count, setOption(argument, to: arguments[index]) else { return nil }
                index += 1
            default:
                guard let (name, value) = Self.joined(argument), setOption(name, to: value) else { return nil }
            }
        }
        // `--quiet --verbose` is refused by the parser's validation, with its message.
        guard once, !(quiet && verbose) else { return nil }
    }

    /// Runs the batch, or its dry run.
    func run() throws {
        // Read once: each read of ProcessInfo's environment builds a new dictionary of it.
        let environment = ProcessInfo.processInfo.environment
        let locations = LocationOptions.resolve(manifest: manifest, stateDirectory: stateDirectory, environment: environment)
        if dryRun {
            try DryRunCommand(locations: locations, verbose: verbose, environment: environment).run()
            return
        }
        var logger = Logger(label: "syncagent")
        if quiet { logger.logLevel = .error }
        let options = OnceCommand.Options(
            style: ColorOption.style(color, for: .standardOutput, environment: environment),
            quiet: quiet, verbose: verbose, notify: !noNotify, limitRate: limitRate.flatMap(BandwidthText.parse), home: environment["HOME"]
        )
        try OnceCommand(locations: locations, logger: logger, options: options).run()
    }

    /// Sets a flag given for the first time; false for a repeat.
    private static func set(_ flag: inout Bool) -> Bool {
        guard !flag else { return false }
        flag = true
        return true
    }

    /// Sets `--manifest` or `--state-dir` given for the first time, to a value the parser takes
    /// as it is (not empty, not like an option); false otherwise.
    private mutating func setOption(_ name: String, to value: String) -> Bool {
        guard !value.isEmpty, !value.hasPrefix("-") else { return false }
        if name == "--manifest" {
            guard manifest == nil else { return false }
            manifest = value
        } else {
            guard stateDirectory == nil else { return false }
            stateDirectory = value
        }
        return true
    }

    /// `--manifest=VALUE` or `--state-dir=VALUE` split at the `=`; `nil` for anything else.
    private static func joined(_ argument: String) -> (name: String, value: String)? {
        for name in ["--manifest", "--state-dir"] where argument.hasPrefix(name + "=") {
            return (name, String(argument.dropFirst(name.count + 1)))
        }
        return nil
    }
}
