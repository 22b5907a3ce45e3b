import Testing
@testable import SyncAgentKit

/// A manifest that must not load, with every error it must produce, in order.
struct BadManifest: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    /// Each expected error: its code and its rendering without the file name ("line:column: message").
    var expected: [(ManifestError.Code, String)]

    init(_ name: String, _ yaml: String, _ expected: [(ManifestError.Code, String)]) {
        self.init(name, bytes: Array(yaml.utf8), expected)
    }

    init(_ name: String, bytes: [UInt8], _ expected: [(ManifestError.Code, String)]) {
        self.name = name
        self.bytes = bytes
        self.expected = expected
    }

    var testDescription: String { name }
}

struct ManifestErrorTests {
    static let context = ManifestLoader.Context(
        manifestPath: "manifest.yaml", homeDirectory: "/home/ada",
        defaultDestination: "/home/ada/Downloads/syncagent", workingDirectory: "/work"
    )

    static let corpus: [BadManifest] = [
        BadManifest("bad indentation of a key", """
            files:
              - url: https://example.org/a.pdf
             title: A
            """, [
                (.syntax, "3:2: expected a key here, lined up with the mapping that starts on line 1; check the indentation"),
            ]),
        BadManifest("bad indentation inside an entry", """
            files:
              - url: https://example.org/a.pdf
               title: A
            """, [
                (.syntax, "3:4: expected a list item (\"- \") here, lined up with the list that starts on line 2; check the indentation"),
            ]),
        BadManifest("a key indented under a scalar", """
            notify: true
              files: []
            """, [
                (.syntax, "2:8: a \":\" is not allowed here; check the indentation, or put a value that contains \": \" in quotes"),
            ]),
        BadManifest("a tab indenting a key", "files:\n  - url: https://example.org/a.pdf\n\ttitle: A\n", [
            (.syntax, "3:1: tabs cannot indent YAML; use spaces"),
        ]),
        BadManifest("a tab indenting a list item", "files:\n\t- url: https://example.org/a.pdf\n", [
            (.syntax, "2:1: tabs cannot indent YAML; use spaces"),
        ]),
        BadManifest("an unclosed quote", """
            files:
              - title: "Networking Overview
                url: https://example.org/a.pdf
            """, [
                (.syntax, "2:12: this quoted text is never closed; add the closing quote"),
            ]),
        BadManifest("a reserved character", """
            files:
              - title: @home
                url: https://example.org/a.pdf
            """, [
                (.syntax, "2:12: \"@\" cannot start a value; put the value in quotes"),
            ]),
        BadManifest("wrong types", """
            limits:
              concurrent: five
              per_host: "5"
            retry: { attempts: [4] }
            notify: yes
            files: []
            """, [
                (.wrongType, "2:15: expected a whole number for `concurrent`, found \"five\""),
                (.wrongType, "3:13: expected a whole number for `per_host`, found the quoted text \"5\"; remove the quotes"),
                (.wrongType, "4:20: expected a whole number for `attempts`, found a list"),
                (.wrongType, "5:9: expected true or false for `notify`, found \"yes\""),
            ]),
        BadManifest("numbers out of range", """
            limits: { concurrent: 0, per_host: 65 }
            retry: { attempts: 99999999999999999999999 }
            files: []
            """, [
                (.badValue, "1:23: `concurrent` must be between 1 and 64, found 0"),
                (.badValue, "1:36: `per_host` must be between 1 and 64, found 65"),
                (.badValue, "2:20: `attempts` must be between 1 and 100, found 99999999999999999999999"),
            ]),
        BadManifest("wrong kinds of collections", """
            limits: 5
            files:
              - https://example.org/a.pdf
            """, [
                (.wrongType, "1:9: expected a mapping such as { concurrent: 5, per_host: 5 } for `limits`, found \"5\""),
                (.wrongType, "3:5: expected a file entry (a mapping with `url`) in `files`, found \"https://example.org/a.pdf\""),
            ]),
        BadManifest("unknown keys, with and without a hint", """
            files:
              - titel: Networking Overview
                url: https://example.org/a.pdf
                colour: red
                windw: "01:00-06:00"
            shedule: { evry: 1d, at: night }
            limits: { perhost: 3 }
            mirror: https://example.org
            """, [
                (.unknownKey, "2:5: unknown key \"titel\" in a file entry; did you mean \"title\"?"),
                (.unknownKey, "4:5: unknown key \"colour\" in a file entry; expected one of \"title\", \"url\", \"path\", \"sha256\", \"max_size\", \"every\", \"not_before\", \"window\", \"discretionary\""),
                (.unknownKey, "5:5: unknown key \"windw\" in a file entry; did you mean \"window\"?"),
                (.unknownKey, "6:1: unknown key \"shedule\" at the top level; did you mean \"schedule\"?"),
                (.unknownKey, "7:11: unknown key \"perhost\" in `limits`; did you mean \"per_host\"?"),
                (.unknownKey, "8:1: unknown key \"mirror\" at the top level; expected one of \"destination\", \"schedule\", \"limits\", \"retry\", \"notify\", \"files\", \"feeds\""),
            ]),
        BadManifest("unknown keys in the schedule", """
            schedule:
              evry: 1d
              notbefore: 2026-12-01
              discretionnary: true
              at: night
            files: []
            """, [
                (.unknownKey, "2:3: unknown key \"evry\" in `schedule`; did you mean \"every\"?"),
                (.unknownKey, "3:3: unknown key \"notbefore\" in `schedule`; did you mean \"not_before\"?"),
                (.unknownKey, "4:3: unknown key \"discretionnary\" in `schedule`; did you mean \"discretionary\"?"),
                (.unknownKey, "5:3: unknown key \"at\" in `schedule`; expected one of \"every\", \"not_before\", \"window\", \"discretionary\""),
            ]),
        BadManifest("a schedule that is not a mapping", "schedule: daily\nfiles: []\n", [
            (.wrongType, "1:11: expected a mapping such as { every: 1d, window: \"01:00-06:00\" } for `schedule`, found \"daily\""),
        ]),
        BadManifest("bad every values", """
            schedule: { every: daily }
            files:
              - url: https://example.org/a.pdf
                every: 0h
              - url: https://example.org/b.pdf
                every: 1w
              - url: https://example.org/c.pdf
                every: [1d]
              - url: https://example.org/d.pdf
                every:
            """, [
                (.badValue, "1:20: expected a duration like \"6h\" or \"1d\" for `every` (units ms, s, m, h, d), found \"daily\""),
                (.badValue, "4:12: `every` must be above zero, found \"0h\""),
                (.badValue, "6:12: expected a duration like \"6h\" or \"1d\" for `every` (units ms, s, m, h, d), found \"1w\""),
                (.wrongType, "8:12: expected a duration like \"6h\" or \"1d\" for `every`, found a list"),
                (.wrongType, "10:11: expected a duration like \"6h\" or \"1d\" for `every`, found nothing"),
            ]),
        BadManifest("bad not_before values", """
            schedule:
              not_before: next week
            files:
              - url: https://example.org/a.pdf
                not_before: 2026-12-01T08:00:00
              - url: https://example.org/b.pdf
                not_before: 2026-02-30
              - url: https://example.org/c.pdf
                not_before: 2026-12-01T24:00:00Z
              - url: https://example.org/d.pdf
                not_before: 2026-12-01T08:00:00+25:00
            """, [
                (.badValue, "2:15: expected a moment like \"2026-12-01T08:00:00+01:00\" or a day like \"2026-12-01\" for `not_before`, found \"next week\""),
                (.badValue, "5:17: `not_before` \"2026-12-01T08:00:00\" has no time zone; add an offset such as \"+01:00\" (or \"Z\" for UTC), or write the day alone, such as \"2026-12-01\", to mean local midnight"),
                (.badValue, "7:17: `not_before` \"2026-02-30\" names a day that does not exist"),
                (.badValue, "9:17: `not_before` \"2026-12-01T24:00:00Z\" has a time of day that does not exist; hours run from 00 to 23, minutes and seconds from 00 to 59"),
                (.badValue, "11:17: `not_before` \"2026-12-01T08:00:00+25:00\" has an offset that does not exist; offsets run from -23:59 to +23:59"),
            ]),
        BadManifest("bad window values", """
            schedule: { window: nights }
            files:
              - url: https://example.org/a.pdf
                window: "25:00-06:00"
              - url: https://example.org/b.pdf
                window: 06:00-06:00
              - url: https://example.org/c.pdf
                window: { start: "01:00", end: "06:00" }
            """, [
                (.badValue, "1:21: expected a daily window of local time like \"01:00-06:00\" for `window`, found \"nights\""),
                (.badValue, "4:13: `window` \"25:00-06:00\" has a time of day that does not exist; hours run from 00 to 23 and minutes from 00 to 59"),
                (.badValue, "6:13: `window` \"06:00-06:00\" starts and ends at the same time; to allow any time of day, leave `window` out"),
                (.wrongType, "8:13: expected a daily window of local time like \"01:00-06:00\" for `window`, found a mapping"),
            ]),
        BadManifest("bad discretionary values", """
            schedule: { discretionary: yes }
            files:
              - url: https://example.org/a.pdf
                discretionary: "true"
            """, [
                (.wrongType, "1:28: expected true or false for `discretionary`, found \"yes\""),
                (.wrongType, "4:20: expected true or false for `discretionary`, found the quoted text \"true\"; remove the quotes"),
            ]),
        BadManifest("URLs that are not http or https", """
            files:
              - url: ftp://example.org/a.pdf
              - url: example.org/b.pdf
              - url: https:///c.pdf
              - url: http:example.org/d.pdf
              - url: https://example.org/e f.pdf
              - url: https://example.org:99999/g.pdf
            """, [
                (.unsupportedScheme, "2:10: \"ftp://example.org/a.pdf\" is not an http or https URL"),
                (.badValue, "3:10: expected an http or https URL for `url`, found \"example.org/b.pdf\""),
                (.badValue, "4:10: the URL \"https:///c.pdf\" has no host; expected \"https://host/…\""),
                (.badValue, "5:10: the URL \"http:example.org/d.pdf\" has no \"//\" after \"http:\"; expected \"http://host/…\""),
                (.badValue, "6:10: the URL \"https://example.org/e f.pdf\" contains a space; write spaces as %20"),
                (.badValue, "7:10: the URL \"https://example.org:99999/g.pdf\" has an invalid port; expected a number up to 65535 after the host"),
            ]),
        BadManifest("two entries with one destination", """
            files:
              - title: A
                url: https://example.org/a.pdf
              - title: B
                url: https://mirror.example.org/x/a.pdf
              - title: C
                url: https://example.org/c.pdf
                path: a.pdf
            """, [
                (.duplicateDestination, "5:10: the file \"a.pdf\" is already the destination of \"A\" on line 2; give one of them another `path`"),
                (.duplicateDestination, "8:11: the file \"a.pdf\" is already the destination of \"A\" on line 2; give one of them another `path`"),
            ]),
        BadManifest("a file where another entry needs a folder", """
            files:
              - url: https://example.org/guides
              - url: https://example.org/b.pdf
                path: guides/b.pdf
              - url: https://example.org/c.pdf
                path: docs/c.pdf
              - url: https://example.org/docs
            """, [
                (.pathConflict, "4:11: \"guides/b.pdf\" needs a folder \"guides\", but that is the file of \"guides\" on line 2"),
                (.pathConflict, "7:10: \"docs\" cannot be a file: it is the folder of \"c.pdf\" on line 5"),
            ]),
        BadManifest("duplicate titles, written and derived", """
            files:
              - url: https://example.org/1/a.pdf
              - url: https://example.org/2/a.pdf
                path: two/a.pdf
              - title: Same
                url: https://example.org/x.pdf
              - title: Same
                url: https://example.org/y.pdf
            """, [
                (.duplicateTitle, "3:5: the title (taken from the file name) \"a.pdf\" is already used by the entry on line 2; add a `title` to tell them apart"),
                (.duplicateTitle, "7:12: the title \"Same\" is already used by the entry on line 5; titles must be unique, as they name files on the command line"),
            ]),
        BadManifest("paths that climb out or have no file name", """
            files:
              - url: https://example.org/a.pdf
                path: ../x
              - url: https://example.org/b.pdf
                path: /etc/passwd
              - url: https://example.org/docs/%2E%2E
              - url: https://example.org/
              - url: https://example.org/c.pdf
                path: ./.
            """, [
                (.pathEscapes, "3:11: path \"../x\" uses \"..\"; a path must stay inside the destination"),
                (.pathEscapes, "5:11: path \"/etc/passwd\" is absolute; expected a path inside the destination, such as \"guides/file.pdf\""),
                (.missingFileName, "6:10: the URL \"https://example.org/docs/%2E%2E\" names no file to save it as; add a `path`"),
                (.missingFileName, "7:10: the URL \"https://example.org/\" names no file to save it as; add a `path`"),
                (.badValue, "9:11: path \"./.\" names no file; expected a file name such as \"file.pdf\""),
            ]),
        BadManifest("control characters in a title and a path", """
            files:
              - title: "A\\tB"
                url: https://example.org/a.pdf
                path: "x\\ny"
            """, [
                (.controlCharacter, "2:12: title \"A\\tB\" contains a control character"),
                (.controlCharacter, "4:11: path \"x\\ny\" contains a control character"),
            ]),
        BadManifest("an empty file", "", [
            (.empty, "1:1: the manifest is empty; expected a mapping with a `files` list, such as \"files:\" followed by \"  - url: https://…\""),
        ]),
        BadManifest("only comments", "# nothing here yet\n", [
            (.empty, "1:1: the manifest is empty; expected a mapping with a `files` list, such as \"files:\" followed by \"  - url: https://…\""),
        ]),
        BadManifest("not UTF-8", bytes: Array("files:\n  - title: caf".utf8) + [0xE9] + Array("\n    url: https://example.org/a.pdf\n".utf8), [
            (.encoding, "2:15: the manifest is not valid UTF-8 (found byte 0xE9); save it as UTF-8 text"),
        ]),
        BadManifest("UTF-16", bytes: [0xFF, 0xFE] + Array("files: []".utf8).flatMap { [$0, 0] }, [
            (.encoding, "1:1: the manifest is not valid UTF-8 (found byte 0xFF); save it as UTF-8 text"),
        ]),
        BadManifest("a raw control character", bytes: Array("notify: true\u{7}\nfiles: []\n".utf8), [
            (.controlCharacter, "1:13: control character U+0007 is not allowed in a manifest; remove it"),
        ]),
        BadManifest("an anchor and an alias", """
            mirror: &mirror https://example.org/a.pdf
            files:
              - url: *mirror
            """, [
                (.unsupportedYAML, "1:9: anchors (&name) are not supported in a manifest; write the value out in full"),
                (.unsupportedYAML, "3:10: aliases (*name) are not supported in a manifest; write the value out in full"),
            ]),
        BadManifest("a tag", "files: !!seq []\n", [
            (.unsupportedYAML, "1:8: tags such as \"!!seq\" are not supported in a manifest; remove the tag"),
        ]),
        BadManifest("two documents", "files: []\n---\nfiles: []\n", [
            (.unsupportedYAML, "2:1: a manifest holds one YAML document, but a second one starts here"),
        ]),
        BadManifest("nesting too deep", String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n", [
            (.tooDeep, "1:33: lists and mappings are nested more than 32 levels deep here; a manifest needs four"),
        ]),
        BadManifest("duplicate keys", """
            files:
              - url: https://example.org/a.pdf
                url: https://example.org/b.pdf
            notify: true
            notify: false
            """, [
                (.duplicateKey, "3:5: duplicate key \"url\"; it is already set on line 2"),
                (.duplicateKey, "5:1: duplicate key \"notify\"; it is already set on line 4"),
            ]),
        BadManifest("no files", "notify: true\n", [
            (.missingKey, "1:1: missing key `files` at the top level; expected a list of files to keep (or `feeds`, a list of feeds to follow)"),
        ]),
        BadManifest("files with nothing in it", "files:\n", [
            (.wrongType, "1:7: expected a list of files for `files`, found nothing"),
        ]),
        BadManifest("an entry without url", """
            files:
              - title: A
            """, [
                (.missingKey, "2:5: missing key `url` in this file entry; expected the http or https URL of the file"),
            ]),
        BadManifest("a top level that is a list", "- url: https://example.org/a.pdf\n", [
            (.wrongType, "1:1: expected a mapping of settings at the top level, found a list; put the list under a `files:` key"),
        ]),
        BadManifest("a top level that is text", "hello\n", [
            (.wrongType, "1:1: expected a mapping of settings at the top level, found \"hello\""),
        ]),
        BadManifest("bad sha256 values", """
            files:
              - url: https://example.org/a.pdf
                sha256: 9f86d0
              - url: https://example.org/b.pdf
                sha256: \(String(repeating: "g", count: 64))
            """, [
                (.badValue, "3:13: expected 64 hexadecimal digits for `sha256`, found 6 characters: \"9f86d0\""),
                (.badValue, "5:13: expected 64 hexadecimal digits for `sha256`, found \"\(String(repeating: "g", count: 60))…\", which is not hexadecimal"),
            ]),
        BadManifest("bad backoff values", """
            retry:
              backoff: fast
            files: []
            """, [
                (.badValue, "2:12: expected a range like \"1s..1m\" for `backoff` (units ms, s, m, h, d), found \"fast\""),
            ]),
        BadManifest("a backoff that shrinks", """
            retry: { backoff: 1m..1s }
            files: []
            """, [
                (.badValue, "1:19: `backoff` starts above its maximum in \"1m..1s\"; expected MIN..MAX with MIN no longer than MAX"),
            ]),
        BadManifest("a backoff starting at zero", "retry: { backoff: 0s..1s }\nfiles: []\n", [
            (.badValue, "1:19: `backoff` must start above zero, found \"0s..1s\""),
        ]),
        BadManifest("another user's home", "destination: ~bob/guides\nfiles: []\n", [
            (.badValue, "1:14: destination \"~bob/guides\" names another user's home; expected \"~/…\" or an absolute path"),
        ]),
        BadManifest("an empty quoted title", """
            files:
              - title: ""
                url: https://example.org/a.pdf
            """, [
                (.badValue, "2:12: expected a title for `title`, found the quoted text \"\""),
            ]),
        // issue 11, item 1: an entry whose file is another entry's partial would put its own
        // bytes in place under the other entry's name, bypassing that entry's sha256.
        BadManifest("a path that is another entry's partial", """
            files:
              - { path: .x.bin.part, url: https://example.org/real.pdf }
              - { url: https://example.org/x.bin }
            """, [
                (.reservedName, "2:13: path \".x.bin.part\" has the form \".NAME.part\" that syncagent keeps for downloads in progress; choose another `path`"),
            ]),
        BadManifest("a partial's name in other letters, for a case-blind disk", """
            files:
              - { path: sub/.Guide.PDF.PART, url: https://example.org/real.pdf }
            """, [
                (.reservedName, "2:13: path \"sub/.Guide.PDF.PART\" uses \".Guide.PDF.PART\", which has the form \".NAME.part\" that syncagent keeps for downloads in progress; choose another `path`"),
            ]),
        BadManifest("a folder with a partial's name", """
            files:
              - { path: .a.part/b.pdf, url: https://example.org/b.pdf }
            """, [
                (.reservedName, "2:13: path \".a.part/b.pdf\" uses \".a.part\", which has the form \".NAME.part\" that syncagent keeps for downloads in progress; choose another `path`"),
            ]),
        BadManifest("a partial's name taken from the URL", """
            files:
              - url: https://example.org/%2Ex.bin.part
            """, [
                (.reservedName, "2:10: the name taken from the URL, \".x.bin.part\", has the form \".NAME.part\" that syncagent keeps for downloads in progress; choose another `path`"),
            ]),
        BadManifest("a max_size that is not a size", """
            limits: { max_size: lots }
            files:
              - { url: https://example.org/a.iso, max_size: 0GB }
            """, [
                (.badValue, "1:21: expected a size like \"500MB\" or \"16GB\" for `max_size` (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), found \"lots\""),
                (.badValue, "3:49: expected a size like \"500MB\" or \"16GB\" for `max_size` (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), found \"0GB\""),
            ]),
    ]

    @Test(arguments: corpus)
    func reportsEveryErrorWithItsPlace(_ manifest: BadManifest) {
        let loader = ManifestLoader(context: Self.context)
        let error = #expect(throws: InvalidManifest.self) { try loader.load(manifest.bytes) }
        let found = error?.errors.map { ($0.code, $0.description) } ?? []
        let expected = manifest.expected.map { ($0.0, "manifest.yaml:" + $0.1) }
        #expect(found.map(\.1) == expected.map(\.1))
        #expect(found.map(\.0) == expected.map(\.0))
    }

    @Test func collectsErrorsOfDifferentKindsInPositionOrder() throws {
        let yaml = """
            files:
              - url: ftp://example.org/a.pdf
                titel: A
            notify: maybe
            notify: true
            limits: { concurrent: 0 }
            """
        let error = try #require(throws: InvalidManifest.self) {
            try ManifestLoader(context: Self.context).load(Array(yaml.utf8))
        }
        #expect(error.errors.map { "\($0.line):\($0.column)" } == ["2:10", "3:5", "4:9", "5:1", "6:23"])
        #expect(error.errors.map(\.code) == [.unsupportedScheme, .unknownKey, .wrongType, .duplicateKey, .badValue])
    }

    @Test func rendersLikeACompilerDiagnostic() {
        let error = ManifestError(code: .unknownKey, file: "conf/manifest.yaml", line: 7, column: 5, message: "unknown key \"titel\" in a file entry; did you mean \"title\"?")
        #expect(error.description == "conf/manifest.yaml:7:5: unknown key \"titel\" in a file entry; did you mean \"title\"?")
        let wholeFile = ManifestError(code: .unreadable, file: "m.yaml", line: 0, column: 0, message: "cannot read the manifest: no such file or directory")
        #expect(wholeFile.description == "m.yaml: cannot read the manifest: no such file or directory")
        #expect(InvalidManifest(errors: [error, wholeFile]).description == error.description + "\n" + wholeFile.description)
    }

    @Test func messagesStartLowercaseAndEndWithoutAPeriod() {
        for manifest in Self.corpus {
            for (_, rendered) in manifest.expected {
                let message = rendered.split(separator: " ", maxSplits: 1).last ?? ""
                #expect(message.first?.isUppercase == false, "\(manifest.name): \(message)")
                #expect(!message.hasSuffix("."), "\(manifest.name): \(message)")
            }
        }
    }
}
