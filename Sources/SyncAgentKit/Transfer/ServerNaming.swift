/// For a file the server names (``Manifest/Entry/nameFromServer``): where its
/// `Content-Disposition` name puts it, if anywhere.
///
/// The name is known only once the response's head arrives, so the download is staged under
/// the request's own destination (its partial stays where a resume finds it), and only the
/// final step differs: the staged file is linked to the server's name, which never replaces
/// anything — a file that appeared there meanwhile (another entry's, the user's) sends it to
/// the request's destination instead (``StagedFile/moveIntoPlace()``).
public struct ServerNaming: Sendable, Equatable {
    /// The names (lowercased) of the other entries' files in the same folder: never chosen.
    public var taken: Set<String>

    public init(taken: Set<String>) {
        self.taken = taken
    }

    /// The path beside `destination` that the header value `contentDisposition` names, made
    /// safe; `nil` when it names nothing usable, a name another entry has, or a file that is
    /// already there.
    func destination(beside destination: String, contentDisposition: String?) -> String? {
        guard let contentDisposition, let offered = ContentDisposition.fileName(in: contentDisposition),
              let name = ServedFileName.sanitized(offered), !taken.contains(name.lowercased())
        else { return nil }
        let path = splitPath(destination).folder + "/" + name
        guard path != destination else { return nil }
        return FileSystem.identity(at: path) == nil ? path : nil
    }
}
