import Foundation
import Testing
import TestSupport

/// packaging/static-libstdcxx, the folder the release build searches first for the toolchain's
/// -lstdc++ (Package.swift): linked as the Swift driver links (clang as a C linker, lld, the
/// unwinder taken static), a C++ program takes the C++ library from its archive, needs neither
/// libstdc++.so.6 nor libgcc_s.so.1, and still throws, catches and demangles.
struct StaticLibstdcxxTests {
    /// Throws through a frame, catches by type, and demangles a name: the parts of the C++
    /// library and of the unwinder the linked-in Swift runtime could reach.
    static let program = """
        #include <cxxabi.h>
        #include <cstdio>
        #include <cstdlib>
        #include <stdexcept>
        #include <string>
        [[gnu::noinline]] static void thrower(const std::string &what) { throw std::runtime_error(what); }
        int main() {
            try {
                thrower("thrown across a frame");
            } catch (const std::runtime_error &error) {
                int status = 0;
                char *name = abi::__cxa_demangle("_ZNSt6vectorIiSaIiEE2atEm", nullptr, nullptr, &status);
                std::printf("%s; %s\\n", error.what(), status == 0 ? name : "not demangled");
                std::free(name);
                return 0;
            }
            return 1;
        }
        """

    @Test func aProgramLinkedWithTheFolderCarriesTheCxxLibraryAndStillUnwinds() throws {
        let folder = try TemporaryDirectory(prefix: "static-libstdcxx")
        let clang = try Self.toolchainClang()
        let source = folder.appending("program.cpp")
        try Self.program.write(toFile: source, atomically: true, encoding: .utf8)
        let object = folder.appending("program.o")
        let compile = try ToolRun([clang, "-c", "-fPIC", source, "-o", object])
        try #require(compile.status == 0, "\(compile.standardError)")

        let linked = folder.appending("linked")
        let link = try ToolRun([
            clang, "-fuse-ld=lld", "-pie", object, "-L", PackageTests.repository + "/packaging/static-libstdcxx",
            "-static-libgcc", "-lstdc++", "-lm", "-o", linked,
        ])
        try #require(link.status == 0, "\(link.standardError)")
        let needed = try Self.neededLibraries(of: linked)
        #expect(!needed.contains { $0.hasPrefix("libstdc++.") || $0.hasPrefix("libgcc_s.") }, "the program needs \(needed)")
        let run = try ToolRun([linked])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "thrown across a frame; std::vector<int, std::allocator<int> >::at(unsigned long)\n")

        // The same link without the folder needs the shared library: what is read above is real.
        let shared = folder.appending("shared")
        let sharedLink = try ToolRun([clang, "-fuse-ld=lld", "-pie", object, "-lstdc++", "-lm", "-o", shared])
        try #require(sharedLink.status == 0, "\(sharedLink.standardError)")
        #expect(try Self.neededLibraries(of: shared).contains { $0.hasPrefix("libstdc++.") })
    }

    /// The clang beside the swiftc on PATH: the one the Swift driver links with.
    private static func toolchainClang() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let which = try ToolRun(["sh", "-c", "readlink -f \"$(command -v swiftc)\""], environment: ["PATH": path])
        let swiftc = which.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(which.status == 0 && !swiftc.isEmpty, "swiftc is not on PATH")
        return URL(fileURLWithPath: swiftc).deletingLastPathComponent().path + "/clang"
    }

    /// The sonames of the binary's NEEDED entries, from `readelf --dynamic`.
    private static func neededLibraries(of binary: String) throws -> [String] {
        let run = try ToolRun(["readelf", "--dynamic", binary])
        try #require(run.status == 0, "\(run.standardError)")
        // "0x0000000000000001 (NEEDED)  Shared library: [libc.so.6]"
        return run.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
    }
}
