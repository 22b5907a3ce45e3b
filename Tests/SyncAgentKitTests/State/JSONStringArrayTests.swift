import Foundation
import Testing
@testable import SyncAgentKit

/// The hand-written JSON list the prune hands SQLite: whatever a path holds, `json_each`
/// gives back the same strings.
struct JSONStringArrayTests {
    @Test func sqliteReadsBackEveryStringAsWritten() throws {
        let strings = [
            "/home/ada/Downloads/plain.pdf", "", "quote \" and backslash \\ and \\\" both", "new\nline\ttab\r\u{1}\u{1F}",
            "\u{7F} del, é, 日本語, 🎧", "[\"not\", \"a list\"]", "/a/\\u0041", "slash / and ,comma",
        ]
        let text = JSONStringArray.text(strings)
        let database = try SQLiteDatabase(path: ":memory:")
        let read = try database.withStatement("SELECT value FROM json_each(?1) ORDER BY key") { statement throws(SQLiteError) in
            try statement.bind(SQLiteValue(text), at: 1)
            var values: [String] = []
            while try statement.step() == .row { values.append(statement.text(at: 0) ?? "<null>") }
            return values
        }
        #expect(read == strings)
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String] == strings)
    }

    @Test func anEmptyListIsBrackets() {
        #expect(JSONStringArray.text([]) == "[]")
        #expect(JSONStringArray.text(["a", "b"]) == "[\"a\",\"b\"]")
    }
}
