import FoundationEssentials
import Glibc

extension Autostart {
    /// Autostart for the user running this process, starting the binary that runs it
    /// (`/proc/self/exe`), with the folders from `environment`, the systemctl on its `PATH`
    /// and its desktop session (`XDG_CURRENT_DESKTOP`).
    public static func currentUser(environment: [String: String]) throws(AutostartError) -> Autostart {
        guard let executable = symbolicLinkTarget("/proc/self/exe") else {
            throw AutostartError(.unsupportedExecutable, "Cannot tell where this syncagent is (/proc/self/exe): \(systemReason()).")
        }
        let directories = XDGDirectories(environment: environment) { try? String(contentsOfFile: $0, encoding: .utf8) }
        return Autostart(
            directories: directories, executable: executable, systemctl: .installed(environment: environment),
            currentDesktop: environment["XDG_CURRENT_DESKTOP"]
        )
    }
}
