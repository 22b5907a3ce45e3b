import Foundation
import Testing
import TestSupport

/// packaging/static-swift-resources, the copy of the toolchain's static Swift libraries that
/// build-deb links the packaged binary against: their code is left to the linker's
/// --gc-sections, their metadata is still kept whole (the runtime finds it by section).
struct StaticSwiftResourcesTests {
    @Test func theCopyKeepsTheMetadataButNoLongerEveryFunction() throws {
        let folder = try TemporaryDirectory(prefix: "static-swift-resources")
        let resources = folder.appending("resources")
        // The test's own PATH: the script finds the toolchain through swiftc.
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let run = try ToolRun([PackageTests.repository + "/packaging/static-swift-resources", resources], environment: ["PATH": path])
        try #require(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == resources + "\n")
        // What the driver and the compiler read besides the archives stays the toolchain's.
        for entry in ["linux/static-stdlib-args.lnk", "linux/Swift.swiftmodule", "shims", "clang"] {
            #expect(FileManager.default.fileExists(atPath: resources + "/" + entry), "\(entry) is missing")
        }

        let toolchain = try Self.retainedSections(in: Self.toolchainArchive(path: path))
        let copy = try Self.retainedSections(in: resources + "/linux/libswiftCore.a")
        #expect(toolchain.code > 1000, "the toolchain's standard library keeps \(toolchain.code) code sections")
        #expect(copy.code == 0, "the copy still keeps \(copy.code) code sections")
        #expect(copy.data == toolchain.data && copy.data > 0, "metadata sections kept: \(copy.data) of \(toolchain.data)")
    }

    /// The standard library's archive in the toolchain the script copied from.
    private static func toolchainArchive(path: String) throws -> String {
        let which = try ToolRun(["sh", "-c", "readlink -f \"$(command -v swiftc)\""], environment: ["PATH": path])
        let swiftc = which.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(which.status == 0 && !swiftc.isEmpty, "swiftc is not on PATH")
        return URL(fileURLWithPath: swiftc).deletingLastPathComponent().deletingLastPathComponent().path
            + "/lib/swift_static/linux/libswiftCore.a"
    }

    /// How many sections of the archive's members carry SHF_GNU_RETAIN ("R" in readelf's flags),
    /// code (with "X") and the rest.
    private static func retainedSections(in archive: String) throws -> (code: Int, data: Int) {
        let run = try ToolRun(["readelf", "--section-headers", "--wide", archive])
        try #require(run.status == 0, "\(run.standardError)")
        var counts = (code: 0, data: 0)
        // "  [ 4] .text.$s12_RegexParser… PROGBITS 0000000000000000 076f30 00001e 00 AXR  0   0 16"
        for line in run.standardOutput.split(separator: "\n") {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard let type = fields.firstIndex(where: { $0 == "PROGBITS" || $0 == "NOBITS" }), fields.count > type + 5 else { continue }
            let flags = fields[type + 5]
            guard flags.allSatisfy(\.isLetter), flags.contains("R") else { continue }
            if flags.contains("X") { counts.code += 1 } else { counts.data += 1 }
        }
        return counts
    }
}
