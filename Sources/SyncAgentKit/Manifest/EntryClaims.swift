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

    /// Claims the file at `path` (normalised, relative) and the folders it lies in.
    mutating func claimFile(_ path: String, by claimant: Claimant) throws(Clash) {
        // Quoting walks the text, so only messages pay for it.
        var shown: String { TextQuoting.quoted(path) }
        if let owner = fileOwners[path] {
            throw Clash(code: .duplicateDestination, message: "the file \(shown) is already the destination of \(TextQuoting.quoted(owner.title)) on line \(owner.line); give one of them another `path`")
        }
        if let user = folderUsers[path] {
            throw Clash(code: .pathConflict, message: "\(shown) cannot be a file: it is the folder of \(TextQuoting.quoted(user.title)) on line \(user.line)")
        }
        let folders = RelativePath.enclosingFolders(of: path)
        for folder in folders {
            if let owner = fileOwners[String(folder)] {
                throw Clash(code: .pathConflict, message: "\(shown) needs a folder \(TextQuoting.quoted(String(folder))), but that is the file of \(TextQuoting.quoted(owner.title)) on line \(owner.line)")
            }
        }
        fileOwners[path] = claimant
        for folder in folders where folderUsers[String(folder)] == nil {
            folderUsers[String(folder)] = claimant
        }
    }

    /// Claims `title`. `isWritten` is false when the title is the file name, taken by default.
    mutating func claimTitle(_ title: String, by claimant: Claimant, isWritten: Bool) throws(Clash) {
        if let owner = titleOwners[title] {
            let advice = isWritten ? "titles must be unique, as they name files on the command line" : "add a `title` to tell them apart"
            let subject = isWritten ? "the title" : "the title (taken from the file name)"
            throw Clash(code: .duplicateTitle, message: "\(subject) \(TextQuoting.quoted(title)) is already used by the entry on line \(owner.line); \(advice)")
        }
        titleOwners[title] = claimant
    }
}
