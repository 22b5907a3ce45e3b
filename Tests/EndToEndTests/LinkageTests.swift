import Foundation
import Testing
import TestSupport

/// syncagent uses FoundationEssentials, never Foundation: Foundation's library pulls in ICU
/// (a 40 MB data library) and costs every start of the binary several milliseconds and
/// mebibytes (docs/benchmarks.md, start-up). One `import Foundation` anywhere in the
/// program's sources would bring it back unnoticed; this test notices.
struct LinkageTests {
    @Test func theBinaryLoadsNeitherFoundationNorICU() throws {
        let binary = try BuiltProducts.executable(named: "syncagent")
        let run = try ToolRun(["ldd", binary])
        #expect(run.status == 0, "\(run.standardError)")
        let libraries = run.standardOutput.split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
        #expect(libraries.contains { $0.hasPrefix("libFoundationEssentials") }, "ldd listed \(libraries)")
        let unwanted = libraries.filter { name in
            ["libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libicu"].contains { name.hasPrefix($0) }
        }
        #expect(unwanted.isEmpty, "the binary loads \(unwanted): some source file imports Foundation instead of FoundationEssentials")
    }
}
