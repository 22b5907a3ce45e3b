import Foundation
import Glibc
import Synchronization
import TestSupport

/// A pseudo-terminal for running the built binary as if in a terminal window: its standard
/// output is the terminal's slave side, and everything it writes is collected from the master
/// side, escape sequences and all. The window size can be changed while it runs.
final class PseudoTerminal: Sendable {
    /// The master side, read by the collector thread.
    let master: Int32
    /// The path of the slave side, opened by the child.
    let slavePath: String
    /// The devpts instance mounted for this terminal when the machine's cannot be used.
    private let ownTerminals: ScratchMount?
    private let collected = Mutex(Data())
    private let finished = Mutex(false)

    /// A terminal of `columns` × `lines`.
    init(columns: Int, lines: Int) throws {
        // posix_openpt and its kin are not in the Glibc module: the Linux ioctls they wrap.
        var master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var ownTerminals: ScratchMount?
        if master < 0, ScratchMount.isAvailable {
            // No /dev/pts here (a chroot binds /dev without it): a private devpts instance.
            let mount = try ScratchMount(type: "devpts", options: "newinstance,ptmxmode=0666,mode=0620")
            master = open(mount.appending("ptmx"), O_RDWR | O_NOCTTY)
            ownTerminals = mount
        }
        guard master >= 0 else { throw POSIXError(.ENXIO) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.unlockRequest, &unlock) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
            close(master)
            throw POSIXError(.ENXIO)
        }
        self.master = master
        self.ownTerminals = ownTerminals
        slavePath = (ownTerminals?.path ?? "/dev/pts") + "/\(number)"
        resize(columns: columns, lines: lines)
    }

    /// TIOCSPTLCK and TIOCGPTN (asm-generic/ioctls.h, the same on x86-64 and arm64).
    private static let unlockRequest: UInt = 0x4004_5431
    private static let numberRequest: UInt = 0x8004_5430
    /// TIOCGPTPEER (Linux 4.13): opens the slave side of a master.
    private static let peerRequest: UInt = 0x5441

    deinit {
        close(master)
        ownTerminals?.remove()
    }

    /// Sets the window size, as a terminal emulator does when its window is resized. The
    /// child is not in the terminal's session, so SIGWINCH is the caller's to send.
    func resize(columns: Int, lines: Int) {
        var size = winsize(ws_row: UInt16(lines), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Runs `executable arguments…` with its standard output on this terminal and its
    /// standard error into `errorFile`, and starts collecting what it writes. With
    /// `typing`, its standard input is the terminal too, and ``type(_:)`` answers its questions.
    func start(_ executable: String, _ arguments: [String], environment: [String: String], errorFile: String, typing: Bool = false) throws -> Process {
        // The slave side from the master itself (TIOCGPTPEER): it needs no /dev/pts, which a
        // chroot such as fresh-root-ci's does not mount. The path is the fallback.
        var slave = ioctl(master, Self.peerRequest, O_RDWR | O_NOCTTY)
        if slave < 0 { slave = open(slavePath, O_RDWR | O_NOCTTY) }
        guard slave >= 0 else { throw POSIXError(.ENXIO) }
        defer { close(slave) }
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = typing ? FileHandle(fileDescriptor: slave, closeOnDealloc: false) : FileHandle.nullDevice
        process.standardOutput = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardError = FileHandle(forWritingAtPath: errorFile)
        try process.run()
        let thread = Thread { [self] in collect() }
        thread.start()
        return process
    }

    /// Types `text` into the terminal, as a user at its keyboard.
    func type(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Everything written so far.
    var output: String {
        collected.withLock { String(decoding: $0, as: UTF8.self) }
    }

    /// Waits until the child closed the terminal (it exited) and returns all it wrote.
    func waitForEnd() -> String {
        while !finished.withLock({ $0 }) { usleep(10_000) }
        return output
    }

    /// Waits until what was written contains `text`, or `seconds` pass; returns whether it did.
    func waitFor(_ text: String, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if output.contains(text) { return true }
            if finished.withLock({ $0 }) { return output.contains(text) }
            usleep(10_000)
        }
        return false
    }

    /// Reads the master side until the slave side is closed by everyone (EIO).
    private func collect() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            collected.withLock { $0.append(contentsOf: buffer[0..<count]) }
        }
        finished.withLock { $0 = true }
    }
}
