import Testing
@testable import SyncAgentKit

struct YAMLReaderTests {
    private func read(_ yaml: String) -> YAMLReader.Result {
        YAMLReader.read(Array(yaml.utf8))
    }

    private func scalar(_ text: String, plain: Bool = true, _ line: Int, _ column: Int) -> YAMLNode {
        YAMLNode(value: .scalar(text, isPlain: plain), mark: YAMLMark(line: line, column: column))
    }

    @Test func buildsATreeWithOneBasedMarks() {
        let result = read("a: 1\nb:\n  - x\n  - 'y'\nc: { d: \"e\" }\n")
        #expect(result.problems == [])
        #expect(result.root == YAMLNode(value: .mapping([
            YAMLMappingEntry(key: "a", keyMark: YAMLMark(line: 1, column: 1), value: scalar("1", 1, 4)),
            YAMLMappingEntry(key: "b", keyMark: YAMLMark(line: 2, column: 1), value: YAMLNode(
                value: .sequence([scalar("x", 3, 5), scalar("y", plain: false, 4, 5)]),
                mark: YAMLMark(line: 3, column: 3)
            )),
            YAMLMappingEntry(key: "c", keyMark: YAMLMark(line: 5, column: 1), value: YAMLNode(
                value: .mapping([YAMLMappingEntry(key: "d", keyMark: YAMLMark(line: 5, column: 6), value: scalar("e", plain: false, 5, 9))]),
                mark: YAMLMark(line: 5, column: 4)
            )),
        ]), mark: YAMLMark(line: 1, column: 1)))
    }

    @Test func countsColumnsInCharactersNotBytes() {
        let result = read("é: ü\n")
        guard case .mapping(let entries) = result.root?.value else {
            Issue.record("expected a mapping")
            return
        }
        #expect(entries.first?.value.mark == YAMLMark(line: 1, column: 4))
    }

    @Test func readsNothingFromAnEmptyText() {
        #expect(read("") == YAMLReader.Result(root: nil, problems: []))
        #expect(read("# only a comment\n") == YAMLReader.Result(root: nil, problems: []))
        #expect(read("---\n").root?.isNothing == true)
    }

    @Test func keepsTheFirstValueOfADuplicateKey() {
        let result = read("a: 1\na: 2\nb: 3\n")
        #expect(result.root?.value == .mapping([
            YAMLMappingEntry(key: "a", keyMark: YAMLMark(line: 1, column: 1), value: scalar("1", 1, 4)),
            YAMLMappingEntry(key: "b", keyMark: YAMLMark(line: 3, column: 1), value: scalar("3", 3, 4)),
        ]))
        #expect(result.problems == [YAMLProblem(kind: .duplicateKey, mark: YAMLMark(line: 2, column: 1), message: "duplicate key \"a\"; it is already set on line 1")])
    }

    @Test func findsADuplicateKeyInALongMapping() {
        // Past 16 keys the reader looks keys up in a table instead of searching the mapping.
        let keys = (1...20).map { "k\($0): \($0)\n" }.joined()
        let result = read(keys + "k3: again\nk20: again\nk21: new\nk21: again\n")
        guard case .mapping(let entries) = result.root?.value else {
            Issue.record("no mapping: \(result)")
            return
        }
        #expect(entries.map(\.key) == (1...21).map { "k\($0)" })
        #expect(entries[2].value == scalar("3", 3, 5))
        #expect(result.problems == [
            YAMLProblem(kind: .duplicateKey, mark: YAMLMark(line: 21, column: 1), message: "duplicate key \"k3\"; it is already set on line 3"),
            YAMLProblem(kind: .duplicateKey, mark: YAMLMark(line: 22, column: 1), message: "duplicate key \"k20\"; it is already set on line 20"),
            YAMLProblem(kind: .duplicateKey, mark: YAMLMark(line: 24, column: 1), message: "duplicate key \"k21\"; it is already set on line 23"),
        ])
    }

    @Test func refusesAnchorsButReadsOn() {
        let result = read("a: &x 1\nb: 2\n")
        #expect(result.root != nil)
        #expect(result.problems.map(\.kind) == [.unsupported])
    }

    @Test func stopsAtAnAlias() {
        // A billion laughs needs aliases; without them the tree is as big as the text.
        let laughs = "a: &a [\"lol\",\"lol\"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        let result = read(laughs)
        #expect(result.root == nil)
        #expect(result.problems.map(\.kind) == [.unsupported, .unsupported, .unsupported])
        #expect(result.problems.last?.mark == YAMLMark(line: 2, column: 8))
    }

    @Test func acceptsNestingUpToTheBoundAndNoDeeper() {
        let depth = YAMLReader.maximumDepth
        let deepest = read(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        #expect(deepest.root != nil && deepest.problems.isEmpty)
        let tooDeep = read(String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1))
        #expect(tooDeep.root == nil)
        #expect(tooDeep.problems.map(\.kind) == [.tooDeep])
    }

    @Test func refusesAKeyThatIsNotAName() {
        let result = read("? [a]\n: 1\n")
        #expect(result.root == nil)
        #expect(result.problems == [YAMLProblem(kind: .unsupported, mark: YAMLMark(line: 1, column: 3), message: "a key must be a name, but this key is a list")])
    }

    @Test func explainsLibYAMLErrors() {
        #expect(read("a:\n\t- b\n").problems == [YAMLProblem(kind: .syntax, mark: YAMLMark(line: 2, column: 1), message: "tabs cannot indent YAML; use spaces")])
        #expect(read("a: b: c\n").problems.map(\.mark) == [YAMLMark(line: 1, column: 5)])
        #expect(read("a: [1, 2\n").problems.map(\.message) == ["expected \",\" or \"]\" to go on with the list that starts on line 1, column 4"])
        #expect(read("a: {x: 1\n").problems.map(\.message) == ["expected \",\" or \"}\" to go on with the mapping that starts on line 1, column 4"])
        #expect(read("a: \"\\q\"\n").problems.map(\.message) == ["unknown escape sequence in double-quoted text; write a backslash as \"\\\\\", or use single quotes"])
        #expect(read("a: - b\n").problems.map(\.message) == ["a list cannot start on the same line as its key; put each \"- \" item on a line of its own"])
        #expect(read("a: 1\nfoo\n").problems == [YAMLProblem(kind: .syntax, mark: YAMLMark(line: 2, column: 1), message: "expected a \":\" after this key; write \"key: value\"")])
    }

    @Test func placesAnEncodingErrorOnTheBrokenCharacter() {
        // "\u{E2}\u{82}" is the start of "€" cut short by the line break.
        let result = YAMLReader.read(Array("a: 1\nb: x".utf8) + [0xE2, 0x82] + Array("\n".utf8))
        #expect(result.problems == [YAMLProblem(kind: .encoding, mark: YAMLMark(line: 2, column: 5), message: "the manifest is not valid UTF-8 (found byte 0xE2); save it as UTF-8 text")])
        let cutAtTheEnd = YAMLReader.read(Array("a: ".utf8) + [0xE2])
        #expect(cutAtTheEnd.problems.map(\.mark) == [YAMLMark(line: 1, column: 4)])
    }
}
