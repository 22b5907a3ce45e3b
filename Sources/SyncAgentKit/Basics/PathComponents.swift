/// The folder and the last component of an absolute path.
func splitPath(_ path: String) -> (folder: String, name: String) {
    // On the string's own UTF-8 bytes: "/" is ASCII, and finding it needs no grapheme
    // breaking (walking the UTF-8 view from its end cost 1,300 instructions a path, and a
    // download splits its path four times).
    var text = path
    return text.withUTF8 { bytes in
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let folder = slash == 0 ? "/" : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self)
        return (folder, String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self))
    }
}
