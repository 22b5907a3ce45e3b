extension ManifestValidator {
    /// The keys a feed entry may have.
    static let feedEntryKeys = ["title", "url", "folder", "name", "first", "keep", "max_age", "types", "max_size"] + scheduleKeys

    /// The entries of the `feeds` list that are valid; problems with the others are reported.
    /// Call it after ``readFiles(_:schedule:maxSize:)``: a feed's folder is checked against
    /// the files' paths.
    mutating func readFeeds(_ node: YAMLNode, schedule: Manifest.Schedule, maxSize: Int64) -> [Manifest.Feed] {
        guard case .sequence(let items) = node.value else {
            report(.wrongType, at: node.mark, "expected a list of feeds for `feeds`, found \(Self.describe(node))")
            return []
        }
        return items.compactMap { readFeedEntry($0, schedule: schedule, maxSize: maxSize) }
    }

    private mutating func readFeedEntry(_ item: YAMLNode, schedule: Manifest.Schedule, maxSize: Int64) -> Manifest.Feed? {
        guard case .mapping(let keys) = item.value else {
            report(.wrongType, at: item.mark, "expected a feed entry (a mapping with `title` and `url`) in `feeds`, found \(Self.describe(item))")
            return nil
        }
        let errorsBefore = errors.count
        var titleNode: YAMLNode?
        var urlNode: YAMLNode?
        var folderNode: YAMLNode?
        var feed = Manifest.Feed(title: "", url: "", folder: "", schedule: schedule, maxSize: maxSize)
        for key in keys {
            switch key.key {
            case "title": titleNode = key.value
            case "url": urlNode = key.value
            case "folder": folderNode = key.value
            case "name": if let template = readTemplate(key.value) { feed.name = template }
            case "first": if let count = episodeCount(key.value, for: "first", allowsZero: true) { feed.first = count }
            case "keep": if let count = episodeCount(key.value, for: "keep", allowsZero: false) { feed.keep = count }
            case "max_age": feed.maxAge = readMaxAge(key.value)
            case "types": if let types = readTypes(key.value) { feed.types = types }
            case "max_size": if let size = byteSize(key.value, for: "max_size") { feed.maxSize = size }
            default:
                if !readScheduleKey(key, into: &feed.schedule) {
                    reportUnknownKey(key, where: "in a feed entry", known: Self.feedEntryKeys)
                }
            }
        }
        guard let titleNode else {
            report(.missingKey, at: item.mark, "missing key `title` in this feed entry; expected the name the feed is shown and commanded by, such as \"title: ATP\"")
            return nil
        }
        guard let urlNode else {
            report(.missingKey, at: item.mark, "missing key `url` in this feed entry; expected the http or https URL of the feed")
            return nil
        }
        guard let title = readFeedTitle(titleNode) else { return nil }
        if let url = readFeedURL(urlNode) { feed.url = url }
        let folder = folderNode.map { readFolder($0) } ?? defaultFolder(forTitle: title, at: titleNode.mark)
        guard let folder, errors.count == errorsBefore else { return nil }
        let claimant = EntryClaims.Claimant(title: title, line: item.mark.line)
        do {
            try claims.claimTitle(title, by: claimant, isWritten: true)
        } catch {
            report(error.code, at: titleNode.mark, error.message)
        }
        do {
            try claims.claimFeedFolder(folder, by: claimant)
        } catch {
            report(error.code, at: (folderNode ?? titleNode).mark, error.message)
        }
        guard errors.count == errorsBefore else { return nil }
        feed.title = title
        feed.folder = folder
        return feed
    }

    private mutating func readFeedTitle(_ node: YAMLNode) -> String? {
        guard let title = readTitle(node) else { return nil }
        if title.contains("/") {
            // "ATP/612" names episode 612 of the feed ATP on the command line.
            report(.badValue, at: node.mark, "a feed's title may not contain \"/\", found \(TextQuoting.quoted(title)); the command line names an episode as \"FEED/EPISODE\"")
            return nil
        }
        return title
    }

    /// The feed's URL, with the `feed://` and `itpc://` forms podcast links use read as http.
    private mutating func readFeedURL(_ node: YAMLNode) -> String? {
        guard let text = text(node, for: "url", expected: "an http or https URL") else { return nil }
        do {
            return try HTTPURL.parse(Self.subscriptionURL(text)).text
        } catch {
            let advice = error.code == .unsupportedScheme ? "; a feed's URL may also start with feed:// or itpc://" : ""
            report(error.code, at: node.mark, error.message + advice)
            return nil
        }
    }

    /// `text` with a podcast subscription scheme replaced: `feed://` and `itpc://` (the
    /// links podcast directories use) become `http://`, and `feed:https://…` loses `feed:`.
    static func subscriptionURL(_ text: String) -> String {
        let lowered = text.prefix(13).lowercased()
        for scheme in ["feed:http://", "feed:https://"] where lowered.hasPrefix(scheme) {
            return String(text.dropFirst(5))
        }
        for scheme in ["feed://", "itpc://"] where lowered.hasPrefix(scheme) {
            return "http://" + text.dropFirst(scheme.count)
        }
        return text
    }

    private mutating func readFolder(_ node: YAMLNode) -> String? {
        guard let text = text(node, for: "folder", expected: "a folder path") else { return nil }
        do {
            let folder = try RelativePath.normalized(text)
            if let reserved = StagingName.reservedComponent(of: folder) {
                report(.reservedName, at: node.mark, "folder \(TextQuoting.quoted(folder)) uses \(TextQuoting.quoted(String(reserved))), which has the form \".NAME.part\" that syncagent keeps for downloads in progress; choose another `folder`")
                return nil
            }
            return folder
        } catch {
            report(error.code, at: node.mark, error.message)
            return nil
        }
    }

    /// The title made safe as one folder name.
    private mutating func defaultFolder(forTitle title: String, at mark: YAMLMark) -> String? {
        let folder = SafeFileName.cut(SafeFileName.cleaned(title), toBytes: RelativePath.maximumNameLength)
        guard !folder.isEmpty else {
            report(.missingFileName, at: mark, "the title \(TextQuoting.quoted(title)) gives no usable folder name; add a `folder`")
            return nil
        }
        return folder
    }

    private mutating func readTemplate(_ node: YAMLNode) -> FileNameTemplate? {
        guard let text = text(node, for: "name", expected: "a file name template such as \"{date} {title}\"") else { return nil }
        do {
            return try FileNameTemplate.parse(text)
        } catch {
            report(.badValue, at: node.mark, error.message)
            return nil
        }
    }

    /// `all` or an unquoted whole number (above zero unless `allowsZero`).
    private mutating func episodeCount(_ node: YAMLNode, for key: String, allowsZero: Bool) -> Manifest.EpisodeCount? {
        if case .scalar("all", _) = node.value { return .all }
        let smallest = allowsZero ? 0 : 1
        guard case .scalar(let text, true) = node.value, !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            report(.wrongType, at: node.mark, "expected `all` or a number of episodes for `\(key)`, found \(Self.describe(node))")
            return nil
        }
        return wholeNumber(node, for: key, in: smallest...Self.largestEpisodeCount).map(Manifest.EpisodeCount.newest)
    }

    /// More episodes than any feed lists (the parser stops at 100,000 items).
    static let largestEpisodeCount = 100_000

    private mutating func readMaxAge(_ node: YAMLNode) -> Duration? {
        guard let text = text(node, for: "max_age", expected: "a duration like \"90d\"") else { return nil }
        guard let age = DurationText.parse(text.utf8), age > .zero else {
            report(.badValue, at: node.mark, "expected a duration above zero like \"90d\" for `max_age` (units \(DurationText.units)), found \(TextQuoting.quoted(text))")
            return nil
        }
        return age
    }

    /// A list of enclosure kinds (`[audio, video]`), or one of them.
    private mutating func readTypes(_ node: YAMLNode) -> Set<Manifest.EnclosureKind>? {
        let items: [YAMLNode] = if case .sequence(let list) = node.value { list } else { [node] }
        let known = Manifest.EnclosureKind.allCases.map(\.rawValue)
        var kinds: Set<Manifest.EnclosureKind> = []
        for item in items {
            guard case .scalar(let text, _) = item.value, let kind = Manifest.EnclosureKind(rawValue: text) else {
                let suggestion = if case .scalar(let text, _) = item.value, let close = KeySuggestion.closest(to: text, among: known) {
                    "did you mean \(TextQuoting.quoted(close))?"
                } else {
                    "expected some of " + known.map(TextQuoting.quoted).joined(separator: ", ")
                }
                report(.badValue, at: item.mark, "unknown enclosure type \(Self.describe(item)) in `types`; \(suggestion)")
                return nil
            }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else {
            report(.badValue, at: node.mark, "`types` is empty, so no episode would ever be downloaded; expected some of " + known.map(TextQuoting.quoted).joined(separator: ", "))
            return nil
        }
        return kinds
    }
}
