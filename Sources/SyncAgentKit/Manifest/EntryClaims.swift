/// Which entry has claimed which file, folder and title, so that a second claim is found with
/// one dictionary look-up (no entry is compared with every other one).
struct EntryClaims {
    /// The entry that claimed something first: how messages name it.
    struct Claimant: Sendable, Equatable {
        /// Its title.
        var title: String
        /// The line it starts on.
        var line: Int
    }

    /// Why a claim was refused: the kind of clash and a sentence for a person.
    struct Clash: Error, Sendable, Equatable {
        /// The kind of clash, for ``ManifestError``.
        var code: ManifestError.Code
        /// A sentence for a person, lowercase start, no final period.
        var message: String
    }

    private var fileOwners: [String: Claimant] = [:]
    private var folderUsers: [String: Claimant] = [:]
    private var titleOwners: [String: Claimant] = [:]
    /// Feeds' folders, and the folders those lie in, by the feed that claimed them.
    private var feedFolders: [String: Claimant] = [:]
    private var feedFolderParents: [String: Claimant] = [:]

    /// Makes room for the claims of `count` entries, so that the tables are not grown again
    /// and again while a long manifest is read.
    mutating func reserveCapacity(entries count: Int) {
        fileOwners.reserveCapacity(count)
        titleOwners.reserveCapacity(count)
    }

    /// Claims the file at `path` (normalised, relative) and the folders it lies in.
    mutating func claimFile(_ path: String, by claimant: Claimant) throws(Clash) {
        // Quoting walks the text, so only messages pay for it.
        var shown: String { TextQuoting.quoted(path) }
        // A path is never both a file and a folder, and a file's folders are never files, so
        // the checks may come in any order: this one hashes the path once when nothing clashes,
        // claiming it first and giving it back on a clash.
        if !folderUsers.isEmpty, let user = folderUsers[path] {
            throw Clash(code: .pathConflict, message: "\(shown) cannot be a file: it is the folder of \(TextQuoting.quoted(user.title)) on line \(user.line)")
        }
        let folders = RelativePath.enclosingFolders(of: path)
        for folder in folders {
            if let owner = fileOwners[String(folder)] {
                throw Clash(code: .pathConflict, message: "\(shown) needs a folder \(TextQuoting.quoted(String(folder))), but that is the file of \(TextQuoting.quoted(owner.title)) on line \(owner.line)")
            }
        }
        if let owner = fileOwners.updateValue(claimant, forKey: path) {
            fileOwners[path] = owner
            throw Clash(code: .duplicateDestination, message: "the file \(shown) is already the destination of \(TextQuoting.quoted(owner.title)) on line \(owner.line); give one of them another `path`")
        }
        for folder in folders where folderUsers[String(folder)] == nil {
            folderUsers[String(folder)] = claimant
        }
    }

    /// Claims `title`. `isWritten` is false when the title is the file name, taken by default.
    mutating func claimTitle(_ title: String, by claimant: Claimant, isWritten: Bool) throws(Clash) {
        // Claimed first and given back on a clash: one hash of the title when there is none.
        if let owner = titleOwners.updateValue(claimant, forKey: title) {
            titleOwners[title] = owner
            let advice = isWritten ? "titles must be unique, as they name files on the command line" : "add a `title` to tell them apart"
            let subject = isWritten ? "the title" : "the title (taken from the file name)"
            throw Clash(code: .duplicateTitle, message: "\(subject) \(TextQuoting.quoted(title)) is already used by the entry on line \(owner.line); \(advice)")
        }
    }

    /// Claims `folder` (normalised, relative) for a feed's episodes: all of it, since their
    /// names come from the feed. Claim files first: a feed's folder may be no file, lie in no
    /// file, hold no file, and neither hold nor lie in another feed's folder.
    mutating func claimFeedFolder(_ folder: String, by claimant: Claimant) throws(Clash) {
        var shown: String { TextQuoting.quoted(folder) }
        if let owner = fileOwners[folder] {
            throw Clash(code: .pathConflict, message: "the folder \(shown) is the file of \(TextQuoting.quoted(owner.title)) on line \(owner.line); give the feed another `folder`")
        }
        if let user = folderUsers[folder] {
            throw Clash(code: .pathConflict, message: "the folder \(shown) holds the file of \(TextQuoting.quoted(user.title)) on line \(user.line), and a feed's folder is for its episodes alone; give the feed another `folder`")
        }
        if let owner = feedFolders[folder] {
            throw Clash(code: .duplicateDestination, message: "the folder \(shown) is already the folder of the feed \(TextQuoting.quoted(owner.title)) on line \(owner.line); give one of them another `folder`")
        }
        if let owner = feedFolderParents[folder] {
            throw Clash(code: .pathConflict, message: "the folder \(shown) holds the folder of the feed \(TextQuoting.quoted(owner.title)) on line \(owner.line); a feed's folder is for its episodes alone")
        }
        let parents = RelativePath.enclosingFolders(of: folder)
        for parent in parents {
            if let owner = fileOwners[String(parent)] {
                throw Clash(code: .pathConflict, message: "the folder \(shown) needs a folder \(TextQuoting.quoted(String(parent))), but that is the file of \(TextQuoting.quoted(owner.title)) on line \(owner.line)")
            }
            if let owner = feedFolders[String(parent)] {
                throw Clash(code: .pathConflict, message: "the folder \(shown) lies in \(TextQuoting.quoted(String(parent))), the folder of the feed \(TextQuoting.quoted(owner.title)) on line \(owner.line); a feed's folder is for its episodes alone")
            }
        }
        feedFolders[folder] = claimant
        for parent in parents where feedFolderParents[String(parent)] == nil {
            feedFolderParents[String(parent)] = claimant
        }
    }
}
