extension ManifestValidator {
    /// The keys a file entry may have.
    static let fileEntryKeys = ["title", "url", "path", "sha256", "max_size"] + scheduleKeys

    /// The entries of the `files` list that are valid; problems with the others are reported.
    /// Each entry's schedule is `schedule` with the entry's own schedule keys applied; its
    /// `max_size` is its own, else `maxSize`.
    mutating func readFiles(_ node: YAMLNode, schedule: Manifest.Schedule, maxSize: Int64) -> [Manifest.Entry] {
        guard case .sequence(let items) = node.value else {
            report(.wrongType, at: node.mark, "expected a list of files for `files`, found \(Self.describe(node))")
            return []
        }
        var files: [Manifest.Entry] = []
        files.reserveCapacity(items.count)
        claims.reserveCapacity(entries: items.count)
        for item in items {
            if let entry = readFileEntry(item, schedule: schedule, maxSize: maxSize) { files.append(entry) }
        }
        return files
    }

    private mutating func readFileEntry(_ item: YAMLNode, schedule: Manifest.Schedule, maxSize: Int64) -> Manifest.Entry? {
        guard case .mapping(let keys) = item.value else {
            report(.wrongType, at: item.mark, "expected a file entry (a mapping with `url`) in `files`, found \(Self.describe(item))")
            return nil
        }
        var titleNode: YAMLNode?
        var urlNode: YAMLNode?
        var pathNode: YAMLNode?
        var checksumNode: YAMLNode?
        var schedule = schedule
        var maxSize = maxSize
        for key in keys {
            switch key.key {
            case "title": titleNode = key.value
            case "url": urlNode = key.value
            case "path": pathNode = key.value
            case "sha256": checksumNode = key.value
            case "max_size": if let size = byteSize(key.value, for: "max_size") { maxSize = size }
            default:
                if !readScheduleKey(key, into: &schedule) {
                    reportUnknownKey(key, where: "in a file entry", known: Self.fileEntryKeys)
                }
            }
        }
        let errorsBefore = errors.count
        let writtenTitle = titleNode.flatMap { readTitle($0) }
        let checksum = checksumNode.flatMap { readChecksum($0) }
        guard let urlNode else {
            report(.missingKey, at: item.mark, "missing key `url` in this file entry; expected the http or https URL of the file")
            return nil
        }
        let url = readURL(urlNode)
        let path: String?
        var nameFromServer = false
        if let pathNode {
            path = readPath(pathNode)
        } else if let url {
            (path, nameFromServer) = derivedPath(of: url, at: urlNode.mark)
        } else {
            path = nil
        }
        guard let url, let path else { return nil }
        if let reserved = StagingName.reservedComponent(of: path) {
            let origin = pathNode == nil ? "the name taken from the URL, \(TextQuoting.quoted(path))," : "path \(TextQuoting.quoted(path))"
            let subject = reserved == Substring(path) ? origin + " has" : origin + " uses \(TextQuoting.quoted(String(reserved))), which has"
            report(.reservedName, at: (pathNode ?? urlNode).mark, subject
                + " the form \".NAME.part\" that syncagent keeps for downloads in progress; choose another `path`")
            return nil
        }
        // A name taken from the URL is one component already (a "/" in it became "_").
        let title = writtenTitle ?? (pathNode == nil ? path : String(RelativePath.lastComponent(of: path)))
        let claimant = EntryClaims.Claimant(title: title, line: item.mark.line)
        do {
            try claims.claimFile(path, by: claimant)
        } catch {
            report(error.code, at: (pathNode ?? urlNode).mark, error.message)
        }
        if titleNode == nil || writtenTitle != nil {
            do {
                try claims.claimTitle(title, by: claimant, isWritten: writtenTitle != nil)
            } catch {
                report(error.code, at: (titleNode ?? item).mark, error.message)
            }
        }
        guard errors.count == errorsBefore else { return nil }
        var entry = Manifest.Entry(title: title, url: url.text, path: path, sha256: checksum, schedule: schedule, maxSize: maxSize)
        entry.nameFromServer = nameFromServer
        return entry
    }

    /// A title: text without control characters.
    mutating func readTitle(_ node: YAMLNode) -> String? {
        guard let title = text(node, for: "title", expected: "a title") else { return nil }
        if title.unicodeScalars.contains(where: RelativePath.isControl) {
            report(.controlCharacter, at: node.mark, "title \(TextQuoting.quoted(title)) contains a control character")
            return nil
        }
        return title
    }

    private mutating func readURL(_ node: YAMLNode) -> HTTPURL? {
        guard let text = text(node, for: "url", expected: "an http or https URL") else { return nil }
        do {
            return try HTTPURL.parse(text)
        } catch {
            report(error.code, at: node.mark, error.message)
            return nil
        }
    }

    private mutating func readPath(_ node: YAMLNode) -> String? {
        guard let text = text(node, for: "path", expected: "a file path") else { return nil }
        do {
            return try RelativePath.normalized(text)
        } catch {
            report(error.code, at: node.mark, error.message)
            return nil
        }
    }

    /// The name a URL gives its file, and whether the server names it instead (see
    /// ``Manifest/Entry/nameFromServer``): when the URL's name is a script's or has no
    /// extension, the first name is the query's (`?file=report.pdf`), else the URL's own.
    private mutating func derivedPath(of url: HTTPURL, at mark: YAMLMark) -> (String?, fromServer: Bool) {
        let name = RelativePath.fileName(fromURLComponent: url.lastPathComponent)
        if let name, ServedFileName.isUseful(Substring(name)) { return (name, false) }
        if let fromQuery = url.query.flatMap(ServedFileName.fromQuery) { return (fromQuery, true) }
        guard let name else {
            report(.missingFileName, at: mark, "the URL \(TextQuoting.quoted(url.text)) names no file to save it as; add a `path`")
            return (nil, false)
        }
        return (name, true)
    }

    private mutating func readChecksum(_ node: YAMLNode) -> String? {
        guard let text = text(node, for: "sha256", expected: "64 hexadecimal digits") else { return nil }
        let isHex = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
            default: false
            }
        }
        guard text.utf8.count == 64 else {
            report(.badValue, at: node.mark, "expected 64 hexadecimal digits for `sha256`, found \(text.count) characters: \(TextQuoting.quoted(text))")
            return nil
        }
        guard isHex else {
            report(.badValue, at: node.mark, "expected 64 hexadecimal digits for `sha256`, found \(TextQuoting.quoted(text)), which is not hexadecimal")
            return nil
        }
        return text.lowercased()
    }
}
