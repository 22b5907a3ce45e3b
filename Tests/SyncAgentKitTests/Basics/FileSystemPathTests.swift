import Glibc
import Testing
import TestSupport
@testable import SyncAgentKit

/// Reading a small text file the way Foundation's `String(contentsOfFile:encoding: .utf8)` did.
struct FileSystemPathTests {
    /// A fresh folder for one test, removed at its end.
    private func withFolder(_ body: (String) throws -> Void) throws {
        let folder = try TemporaryDirectory(prefix: "syncagent-text")
        defer { folder.remove() }
        try body(folder.path)
    }

    private func write(_ bytes: [UInt8], to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0)
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    @Test func aFileIsReadWhole() throws {
        try withFolder { folder in
            let text = "XDG_DOWNLOAD_DIR=\"$HOME/Downloads\"\n" + String(repeating: "# comment, é\n", count: 1_000)
            write(Array(text.utf8), to: folder + "/user-dirs.dirs")
            #expect(FileSystemPath.text(ofFile: folder + "/user-dirs.dirs") == text)
        }
    }

    @Test func aLeadingByteOrderMarkIsDropped() throws {
        try withFolder { folder in
            write([0xEF, 0xBB, 0xBF] + Array("XDG=1\n".utf8), to: folder + "/bom")
            #expect(FileSystemPath.text(ofFile: folder + "/bom") == "XDG=1\n")
        }
    }

    @Test func whatIsNotUTF8OrNotAFileGivesNil() throws {
        try withFolder { folder in
            write([0x61, 0xFF, 0x62], to: folder + "/latin1")
            #expect(FileSystemPath.text(ofFile: folder + "/latin1") == nil)
            #expect(FileSystemPath.text(ofFile: folder) == nil, "a folder")
            #expect(FileSystemPath.text(ofFile: folder + "/missing") == nil)
        }
    }

    @Test func anEmptyFileIsEmptyText() throws {
        try withFolder { folder in
            write([], to: folder + "/empty")
            #expect(FileSystemPath.text(ofFile: folder + "/empty") == "")
        }
    }
}
