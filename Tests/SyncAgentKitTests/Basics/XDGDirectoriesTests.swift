import Testing
@testable import SyncAgentKit

struct XDGDirectoriesTests {
    @Test func defaultsFollowTheSpec() {
        let directories = XDGDirectories(environment: ["HOME": "/home/ana"]) { _ in nil }
        #expect(directories.manifest == "/home/ana/.config/syncagent/manifest.yaml")
        #expect(directories.state == "/home/ana/.local/state/syncagent")
        #expect(directories.defaultDestination == "/home/ana/Downloads/syncagent")
    }

    @Test func environmentOverridesAndRelativeValuesAreIgnored() {
        let directories = XDGDirectories(environment: [
            "HOME": "/home/ana", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "relative/state",
        ]) { _ in nil }
        #expect(directories.manifest == "/cfg/syncagent/manifest.yaml")
        #expect(directories.state == "/home/ana/.local/state/syncagent")
    }

    @Test func theDownloadFolderComesFromUserDirs() {
        let userDirs = """
            # written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_DOWNLOAD_DIR="$HOME/Téléchargements"
            """
        let directories = XDGDirectories(environment: ["HOME": "/home/ana"]) { path in
            path == "/home/ana/.config/user-dirs.dirs" ? userDirs : nil
        }
        #expect(directories.download == "/home/ana/Téléchargements")
    }

    @Test func aDisabledOrMalformedDownloadEntryFallsBack() {
        #expect(XDGDirectories.downloadEntry(in: "XDG_DOWNLOAD_DIR=\"$HOME/\"", home: "/home/ana") == nil)
        #expect(XDGDirectories.downloadEntry(in: "XDG_DOWNLOAD_DIR=$HOME/x", home: "/home/ana") == nil)
        #expect(XDGDirectories.downloadEntry(in: "XDG_DOWNLOAD_DIR=\"/srv/dl\"", home: "/home/ana") == "/srv/dl")
    }
}
