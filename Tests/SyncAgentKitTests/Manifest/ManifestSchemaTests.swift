import Foundation
import Testing
@testable import SyncAgentKit

/// The JSON Schema of the manifest (`config/manifest.schema.json`, installed as
/// `/usr/share/syncagent/manifest.schema.json`) against the validator, the one source of truth:
/// the same keys at every level, and the same verdict as the validator on each key's example
/// and on a value of the wrong type — the schema's verdicts from Python's jsonschema, as an
/// editor's YAML language server would give them.
struct ManifestSchemaTests {
    static let schemaPath = ManifestLoaderTests.repositoryRoot + "/config/manifest.schema.json"

    /// The schema, parsed.
    let schema: [String: Any]

    init() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.schemaPath))
        schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Each mapping of the manifest: where it is in the schema, and the keys the validator knows there.
    static let levels: [(name: String, path: [String], keys: [String])] = [
        ("top level", [], ManifestValidator.topLevelKeys),
        ("schedule", ["properties", "schedule"], ManifestValidator.scheduleKeys),
        ("limits", ["properties", "limits"], ManifestValidator.limitsKeys),
        ("retry", ["properties", "retry"], ManifestValidator.retryKeys),
        ("file entry", ["properties", "files", "items"], ManifestValidator.fileEntryKeys),
        ("feed entry", ["properties", "feeds", "items"], ManifestValidator.feedEntryKeys),
        ("notify", ["properties", "notify"], ManifestValidator.notifyKeys),
        ("bandwidth window", ["properties", "limits", "properties", "bandwidth_windows", "items"], ManifestValidator.bandwidthWindowKeys),
    ]

    func object(at path: [String]) -> [String: Any]? {
        var node: Any? = schema
        for key in path { node = (node as? [String: Any])?[key] }
        return node as? [String: Any]
    }

    /// A property with its `$ref` followed, as a validator sees it.
    func resolved(_ property: [String: Any]) -> [String: Any] {
        guard let reference = property["$ref"] as? String, reference.hasPrefix("#/") else { return property }
        let target = object(at: reference.dropFirst(2).split(separator: "/").map(String.init)) ?? [:]
        return resolved(target).merging(property.filter { $0.key != "$ref" }) { _, own in own }
    }

    @Test func theSchemaKnowsExactlyTheValidatorsKeysAtEveryLevel() throws {
        for level in Self.levels {
            let node = try #require(object(at: level.path), "the schema has no \(level.name)")
            let properties = try #require(node["properties"] as? [String: Any])
            #expect(Set(properties.keys) == Set(level.keys), """
                \(level.name): keys the validator knows but the schema does not: \(Set(level.keys).subtracting(properties.keys).sorted()); \
                keys only the schema has: \(Set(properties.keys).subtracting(level.keys).sorted()). Add them to config/manifest.schema.json.
                """)
            #expect(node["additionalProperties"] as? Bool == false, "\(level.name): unknown keys are errors, as in the validator")
        }
    }

    /// One manifest per case: each key with its schema example (valid), and with a value of
    /// the wrong type (invalid), in JSON — which is YAML too.
    func cases() throws -> [(label: String, document: String)] {
        var cases: [(String, String)] = []
        for level in Self.levels {
            let properties = try #require(object(at: level.path)?["properties"] as? [String: Any])
            // A key the schema lacks is the other test's finding.
            for key in level.keys.sorted() {
                guard let written = properties[key] as? [String: Any] else { continue }
                let property = resolved(written)
                let example = try #require((property["examples"] as? [Any])?.first, "\(level.name) `\(key)` has no example")
                cases.append(("\(level.name) `\(key)` = its example", try manifest(setting: key, to: example, in: level.path)))
                cases.append(("\(level.name) `\(key)` of a wrong type", try manifest(setting: key, to: wrongValue(for: property), in: level.path)))
            }
        }
        return cases
    }

    func wrongValue(for property: [String: Any]) -> Any {
        let types = (property["type"] as? [String]) ?? [(property["type"] as? String) ?? "string"]
        if types.contains("object") || types.contains("array") { return "text" }
        if types.contains("string") { return ["nested": 1] }
        return "not a \(types[0])"
    }

    func manifest(setting key: String, to value: Any, in path: [String]) throws -> String {
        var entry: [String: Any] = ["url": "https://example.org/a.pdf"]
        var root: [String: Any] = [:]
        switch path.suffix(2) {
        case []: root[key] = value
        case ["files", "items"]: entry[key] = value
        case ["feeds", "items"]: root["feeds"] = [["title": "ATP", "url": "https://example.org/feed.xml"].merging([key: value]) { _, new in new }]
        case ["bandwidth_windows", "items"]:
            root["limits"] = ["bandwidth_windows": [["window": "08:00-18:00", "bandwidth": "500KB/s"].merging([key: value]) { _, new in new }]]
        default: root[path.last!] = [key: value]
        }
        if root["files"] == nil { root["files"] = [entry] }
        return String(decoding: try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]), as: UTF8.self)
    }

    func validatorAccepts(_ document: String) -> Bool {
        (try? ManifestLoader(context: ManifestLoaderTests.context).load(Array(document.utf8))) != nil
    }

    @Test func theSchemaAndTheValidatorAgreeOnEachKeysExampleAndOnWrongTypes() throws {
        let cases = try cases()
        let verdicts = try SchemaCheck.verdicts(cases.map(\.document), schema: Self.schemaPath)
        for ((label, document), schemaAccepts) in zip(cases, verdicts) {
            let expected = label.hasSuffix("its example")
            #expect(validatorAccepts(document) == expected, "the validator on \(label): \(document)")
            #expect(schemaAccepts == expected, "the schema on \(label): \(document)")
        }
    }

    @Test func theDefaultManifestAndTheReadmesExamplesPassTheSchema() throws {
        let root = ManifestLoaderTests.repositoryRoot
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let readmeManifests = readme.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
            .filter { $0.contains("files:") }
        #expect(readmeManifests.count >= 2)
        let documents = [try String(contentsOfFile: root + "/config/manifest.yaml", encoding: .utf8), try ManifestLoaderTests.defaultManifestUncommented()]
            + readmeManifests
        #expect(try SchemaCheck.verdicts(documents, schema: Self.schemaPath) == documents.map { _ in true })
        let misspelt = "files:\n  - url: https://example.org/a.pdf\n    titel: A\n"
        #expect(try SchemaCheck.verdicts([misspelt], schema: Self.schemaPath) == [false], "an unknown key is refused, as the validator does")
    }

    @Test func theDefaultManifestPointsEditorsAtTheInstalledSchema() throws {
        let text = try String(contentsOfFile: ManifestLoaderTests.repositoryRoot + "/config/manifest.yaml", encoding: .utf8)
        #expect(text.hasPrefix("# yaml-language-server: $schema=file:///usr/share/syncagent/manifest.schema.json\n"))
        #expect(schema["$id"] as? String == "file:///usr/share/syncagent/manifest.schema.json")
        let buildDeb = try String(contentsOfFile: ManifestLoaderTests.repositoryRoot + "/packaging/build-deb", encoding: .utf8)
        #expect(buildDeb.contains("config/manifest.schema.json \"$root/usr/share/syncagent/manifest.schema.json\""))
    }
}

/// Python's jsonschema (Debian's python3-jsonschema), judging YAML documents as an editor's
/// YAML language server does: YAML 1.2 scalars, so a date stays a string.
enum SchemaCheck {
    static let script = """
        import json, sys, yaml, jsonschema
        class Loader(yaml.SafeLoader): pass
        # As the language server reads YAML: a date is a string, not a timestamp.
        Loader.yaml_implicit_resolvers = {
            first: [(tag, regexp) for tag, regexp in resolvers if tag not in ("tag:yaml.org,2002:timestamp",)]
            for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
        }
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft7Validator.check_schema(schema)
        validator = jsonschema.Draft7Validator(schema)
        verdicts = [validator.is_valid(yaml.load(document, Loader=Loader)) for document in json.load(sys.stdin)]
        print(json.dumps(verdicts))
        """

    /// Whether the schema at `schema` accepts each of `documents`.
    static func verdicts(_ documents: [String], schema: String) throws -> [Bool] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, schema]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: try JSONSerialization.data(withJSONObject: documents))
        try input.fileHandleForWriting.close()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 with jsonschema and yaml (scripts/install-deps --test) failed")
        return (try JSONSerialization.jsonObject(with: answer) as? [Bool]) ?? []
    }
}
