/// The folder and the last component of an absolute path.
func splitPath(_ path: String) -> (folder: String, name: String) {
    // On UTF-8 bytes: "/" is ASCII, and finding it needs no grapheme breaking.
    let bytes = path.utf8
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
    let folder = Substring(bytes[..<slash])
    return (folder.isEmpty ? "/" : String(folder), String(Substring(bytes[bytes.index(after: slash)...])))
}
