/// Walks a YAML tree against the manifest format, building a ``Manifest`` and collecting every
/// problem on the way rather than stopping at the first.
///
/// Defaults are those of ``Manifest``; the limits on numbers are here.
struct ManifestValidator {
    /// The keys a manifest's top level may have.
    static let topLevelKeys = ["destination", "schedule", "limits", "retry", "notify", "files", "feeds"]
    /// The keys `limits` may have.
    static let limitsKeys = ["concurrent", "per_host", "stall_timeout", "max_size", "min_free", "bandwidth", "bandwidth_windows"]
    /// The keys `retry` may have.
    static let retryKeys = ["attempts", "backoff"]
    /// Transfers at once, overall and per host: enough for any link, few enough for any server.
    static let transferLimitRange = 1...64
    /// Attempts per transfer, the first one included.
    static let attemptsRange = 1...100
    /// How long a transfer may receive nothing: curl counts whole seconds, and a day is
    /// longer than any server takes to think.
    static let stallTimeoutRange: ClosedRange<Duration> = .seconds(1) ... .seconds(86_400)

    let context: ManifestLoader.Context
    /// What was found wrong so far, in the order found.
    private(set) var errors: [ManifestError] = []
    /// Claims on file names, folders and titles, to find two entries wanting one of them.
    var claims = EntryClaims()

    init(context: ManifestLoader.Context) {
        self.context = context
    }

    /// The error for a manifest with nothing in it.
    static func emptyManifestError(file: String) -> ManifestError {
        ManifestError(code: .empty, file: file, line: 1, column: 1, message: "the manifest is empty; expected a mapping with a `files` list, such as \"files:\" followed by \"  - url: https://…\"")
    }

    /// The manifest `root` describes, or nil if anything is wrong (see ``errors``).
    mutating func validate(_ root: YAMLNode) -> Manifest? {
        guard case .mapping(let entries) = root.value else {
            if root.isNothing {
                errors.append(Self.emptyManifestError(file: context.manifestPath))
            } else {
                let hint = if case .sequence = root.value { "; put the list under a `files:` key" } else { "" }
                report(.wrongType, at: root.mark, "expected a mapping of settings at the top level, found \(Self.describe(root))\(hint)")
            }
            return nil
        }
        let manifestFolder = DestinationFolder.folder(ofFile: context.manifestPath, workingDirectory: context.workingDirectory)
        var manifest = Manifest(destination: DestinationFolder.normalized(context.defaultDestination), files: [])
        var filesNode: YAMLNode?
        var feedsNode: YAMLNode?
        for entry in entries {
            switch entry.key {
            case "destination":
                guard let text = text(entry.value, for: "destination", expected: "a folder path") else { continue }
                do {
                    manifest.destination = try DestinationFolder.resolve(text, homeDirectory: context.homeDirectory, manifestFolder: manifestFolder)
                } catch {
                    report(error.code, at: entry.value.mark, error.message)
                }
            case "schedule":
                readSchedule(entry.value, into: &manifest.schedule)
            case "limits":
                readLimits(entry.value, into: &manifest.limits)
            case "retry":
                readRetry(entry.value, into: &manifest.retry)
            case "notify":
                readNotify(entry.value, into: &manifest)
            case "files":
                filesNode = entry.value
            case "feeds":
                feedsNode = entry.value
            default:
                reportUnknownKey(entry, where: "at the top level", known: Self.topLevelKeys)
            }
        }
        guard filesNode != nil || feedsNode != nil else {
            report(.missingKey, at: root.mark, "missing key `files` at the top level; expected a list of files to keep (or `feeds`, a list of feeds to follow)")
            return nil
        }
        if let filesNode { manifest.files = readFiles(filesNode, schedule: manifest.schedule, maxSize: manifest.limits.maxSize) }
        // After the files: a feed's folder may hold none of their paths.
        if let feedsNode { manifest.feeds = readFeeds(feedsNode, schedule: manifest.schedule, maxSize: manifest.limits.maxSize) }
        return errors.isEmpty ? manifest : nil
    }

    private mutating func readLimits(_ node: YAMLNode, into limits: inout Manifest.Limits) {
        guard let entries = mapping(node, for: "limits", example: "{ concurrent: 5, per_host: 5 }") else { return }
        for entry in entries {
            switch entry.key {
            case "concurrent":
                if let value = wholeNumber(entry.value, for: "concurrent", in: Self.transferLimitRange) { limits.concurrent = value }
            case "per_host":
                if let value = wholeNumber(entry.value, for: "per_host", in: Self.transferLimitRange) { limits.perHost = value }
            case "max_size":
                if let size = byteSize(entry.value, for: "max_size") { limits.maxSize = size }
            case "stall_timeout":
                guard let text = text(entry.value, for: "stall_timeout", expected: "a duration like \"30s\"") else { continue }
                guard let timeout = DurationText.parse(text.utf8) else {
                    report(.badValue, at: entry.value.mark, "expected a duration like \"30s\" or \"2m\" for `stall_timeout` (units \(DurationText.units)), found \(TextQuoting.quoted(text))")
                    continue
                }
                guard Self.stallTimeoutRange.contains(timeout) else {
                    report(.badValue, at: entry.value.mark, "`stall_timeout` must be between 1s and 1d, found \(TextQuoting.quoted(text))")
                    continue
                }
                limits.stallTimeout = timeout
            case "min_free", "bandwidth", "bandwidth_windows":
                readPoliteLimit(entry, into: &limits)
            default:
                reportUnknownKey(entry, where: "in `limits`", known: Self.limitsKeys)
            }
        }
    }

    private mutating func readRetry(_ node: YAMLNode, into retry: inout Manifest.RetryPolicy) {
        guard let entries = mapping(node, for: "retry", example: "{ attempts: 4, backoff: 1s..1m }") else { return }
        for entry in entries {
            switch entry.key {
            case "attempts":
                if let value = wholeNumber(entry.value, for: "attempts", in: Self.attemptsRange) { retry.attempts = value }
            case "backoff":
                guard let text = text(entry.value, for: "backoff", expected: "a range like \"1s..1m\"") else { continue }
                do {
                    let range = try BackoffRange.parse(text)
                    retry.initialBackoff = range.minimum
                    retry.maximumBackoff = range.maximum
                } catch {
                    report(.badValue, at: entry.value.mark, error.message)
                }
            default:
                reportUnknownKey(entry, where: "in `retry`", known: Self.retryKeys)
            }
        }
    }

    /// Records a problem at `mark`.
    mutating func report(_ code: ManifestError.Code, at mark: YAMLMark, _ message: String) {
        errors.append(ManifestError(code: code, file: context.manifestPath, line: mark.line, column: mark.column, message: message))
    }

    /// Records a key the format does not have, with the likeliest intended key if there is one.
    mutating func reportUnknownKey(_ entry: YAMLMappingEntry, where place: String, known: [String]) {
        let advice = if let suggestion = KeySuggestion.closest(to: entry.key, among: known) {
            "did you mean \(TextQuoting.quoted(suggestion))?"
        } else {
            "expected one of " + known.map(TextQuoting.quoted).joined(separator: ", ")
        }
        report(.unknownKey, at: entry.keyMark, "unknown key \(TextQuoting.quoted(entry.key)) \(place); \(advice)")
    }
}
