import Foundation

extension Autostart {
    /// Autostart for the user running this process, starting the binary that runs it
    /// (`/proc/self/exe`), with the folders from `environment`, the systemctl on its `PATH`
    /// and its desktop session (`XDG_CURRENT_DESKTOP`).
    public static func currentUser(environment: [String: String]) throws(AutostartError) -> Autostart {
        let executable: String
        do {
            executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        } catch {
            throw AutostartError(
                .unsupportedExecutable,
                "Cannot tell where this syncagent is (/proc/self/exe): \((error as NSError).localizedDescription)."
            )
        }
        let directories = XDGDirectories(environment: environment) { try? String(contentsOfFile: $0, encoding: .utf8) }
        return Autostart(
            directories: directories, executable: executable, systemctl: .installed(environment: environment),
            currentDesktop: environment["XDG_CURRENT_DESKTOP"]
        )
    }
}
