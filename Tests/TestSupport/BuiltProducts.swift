import Foundation

/// Where SwiftPM put the executables this package builds, found from the running test binary.
public enum BuiltProducts {
    /// The absolute path of the executable product `name`, built next to the test bundle.
    public static func executable(named name: String) throws -> String {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let path = testBinary.deletingLastPathComponent().appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("no built executable \(name) at \(path); build the package first (swift build)")
        }
        return path
    }
}
