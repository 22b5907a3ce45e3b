// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// Where GLib's, GIO's and libnotify's headers are (`pkg-config --cflags-only-I`), as clang
/// options for the targets that read them. Not through a system library's `pkgConfig:`, which
/// would also link the libraries: syncagent opens them on first use (CLibraries).
let glibHeaderPaths: [String] = {
    let pkgConfig = Process()
    pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    pkgConfig.arguments = ["pkg-config", "--cflags-only-I", "gio-2.0", "gio-unix-2.0", "libnotify"]
    let output = Pipe()
    pkgConfig.standardOutput = output
    guard (try? pkgConfig.run()) != nil else { return [] }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    pkgConfig.waitUntilExit()
    return text.split(whereSeparator: \.isWhitespace).map(String.init)
}()
let glibHeadersForSwift: [SwiftSetting] = [.unsafeFlags(glibHeaderPaths.flatMap { ["-Xcc", $0] })]
/// Each function in a section of its own, so the linker can place the ones everyday commands
/// run side by side (packaging/hot-functions.order). Without it the compiler puts most of a
/// file's functions in one section, and one function that runs draws in the whole file's code
/// (SyncDriver's 94 KB), so the commands' code spread over 4.4 MB; see the linking note below.
let functionSections: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"])]

let package = Package(
    name: "syncagent",
    products: [
        .executable(name: "syncagent", targets: ["syncagent"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // C libraries from Debian, found through pkg-config. Each target is a module map
        // and a shim header; the shims only forward (see shim.h) and hold no logic.
        // libcurl, libcrypto, GLib/GIO, libnotify and SQLite have no pkgConfig: they are not linked but
        // opened on first use (CLibraries); their headers are in /usr/include or glibHeaderPaths.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CNotify", providers: [.apt(["libnotify-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        // expat for feeds: a streaming XML parser that parses hostile input in linear time
        // (Debian's libxml2 is quadratic in an element's attributes; see Feeds/ExpatParser).
        .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        // Linux headers Glibc's module map leaves out (signalfd).
        .systemLibrary(name: "CLinux"),
        // GIO for the condition monitor: UPower over D-Bus, GNetworkMonitor, a private main loop.
        .systemLibrary(name: "CGIO", providers: [.apt(["libglib2.0-dev"])]),
        // Opens libcurl, libcrypto, GLib/GIO, libnotify and SQLite on first use (dlopen): forwarders with
        // the libraries' own names (docs/architecture.md). DWARF 4, as the Swift objects have:
        // Debian 12's valgrind (3.19) gives up on a binary with clang's default DWARF 5 in it.
        .target(
            name: "CLibraries", dependencies: ["CCurl", "CCrypto", "CNotify", "CGIO", "CSQLite"],
            cSettings: [.unsafeFlags(glibHeaderPaths + ["-gdwarf-4", "-ffunction-sections"])]
        ),

        .target(
            name: "SyncAgentKit",
            dependencies: [
                "CCurl", "CYAML", "CNotify", "CSQLite", "CCrypto", "CLinux", "CGIO", "CExpat", "CLibraries",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: glibHeadersForSwift + functionSections
        ),
        .executableTarget(
            name: "syncagent",
            dependencies: [
                "SyncAgentKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: functionSections
        ),

        // Starts and stops the real parts tests run against: nginx, a private D-Bus bus
        // with a recording notification server.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Posts one notification and exits: the libnotify tests run it once per case, because
        // GDBus reads the session bus address once per process (PLATFORM.md).
        .executableTarget(name: "NotifyProbe", dependencies: ["SyncAgentKit"], path: "Tests/NotifyProbe", swiftSettings: glibHeadersForSwift),
        // Runs a ConditionMonitor and prints what it reports: the condition tests run it
        // against a private system bus, which GDBus likewise reads once per process.
        .executableTarget(
            name: "ConditionsProbe", dependencies: ["SyncAgentKit", "CGIO"], path: "Tests/ConditionsProbe",
            swiftSettings: glibHeadersForSwift
        ),
        .testTarget(
            name: "SyncAgentKitTests", dependencies: ["SyncAgentKit", "TestSupport", "NotifyProbe", "ConditionsProbe"],
            // The feed corpus: real-world feed shapes the feed parser is tested against (read from
            // the source tree by FeedCorpus; declared so SwiftPM knows the files are not sources).
            resources: [.copy("Feeds/Corpus")],
            swiftSettings: glibHeadersForSwift
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["syncagent", "TestSupport"], swiftSettings: glibHeadersForSwift),
    ],
    swiftLanguageModes: [.v6]
)

// How the release build (the README's, scripts/run-once's and packaging/build-deb's) is linked:
// by lld, which folds identical functions (--icf=all), packs the relative relocations of the
// position-independent binary (DT_RELR, read by glibc 2.36 and later) instead of spending 24
// bytes on each, and exports no symbols (the toolchain's -export-dynamic for a static Swift
// runtime serves plug-ins; syncagent loads none). 1.7 MB less; docs/benchmarks.md.
// It also links the functions everyday commands run first and together
// (packaging/hot-functions.order, written by bench/hot-functions), so a command is resident in
// fewer pages of code: about 2 MiB less memory for each. A function the list names that the
// build no longer has is not worth a warning: it is simply not placed. The functions the
// compiler gives no symbol are placed together by packaging/private-functions.ld. Our own
// modules are compiled a function to a section (functionSections above) so that the list
// places functions, not whole files. After changing that setting, build from clean
// (`rm -rf .build/release/*.build`): the compiler does not write again the objects of
// sources that did not change, and they keep their old sections.
// The C++ library the static Swift runtime uses (std::string, operator new, __cxa_guard_acquire,
// __cxa_demangle, ...) is linked in as well, from its archive, with the unwinder (libgcc_eh)
// instead of libgcc_s: the toolchain's -lstdc++ finds packaging/static-libstdcxx/libstdc++.so
// first, a linker script that names libstdc++.a (a -Bstatic after it would come too late: the
// symbols the shared library defines are taken from it once it is read). The loader then
// neither loads libstdc++.so.6 and libgcc_s.so.1 nor binds symbols to them at each start
// (`--version` starts with 154 relocations instead of 1,824): 1.0 MiB less memory for every
// command, 1.9 M fewer instructions at each start, for 94 KB more binary; docs/packaging.md.
// The debug build (the tests') keeps the shared libraries, as it keeps the default linker.
// Every build exports one symbol: the answer to GnuTLS's question whether to set itself up
// when loaded (Sources/CLibraries/curl.c), 0.85 MiB less for every command that opens libcurl.
let hotFunctions = Context.packageDirectory + "/packaging/hot-functions.order"
let privateFunctions = Context.packageDirectory + "/packaging/private-functions.ld"
let staticLibstdcxx = Context.packageDirectory + "/packaging/static-libstdcxx"
for target in package.targets where target.name == "syncagent" {
    target.linkerSettings = [
        .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=_gnutls_global_init_skip"]),
        .unsafeFlags(
            ["-L", staticLibstdcxx, "-Xclang-linker", "-static-libgcc", "-use-ld=lld", "-Xlinker", "--icf=all", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
             "-Xlinker", "--symbol-ordering-file=\(hotFunctions)", "-Xlinker", "--no-warn-symbol-ordering",
             "-Xlinker", "-T", "-Xlinker", privateFunctions],
            .when(configuration: .release)
        ),
    ]
}
