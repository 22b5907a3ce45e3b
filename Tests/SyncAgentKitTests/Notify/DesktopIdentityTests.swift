import Foundation
import FoundationXML
import Testing
@testable import SyncAgentKit

/// The app the desktop knows: the application entry the `desktop-entry` hint names, its icon
/// and its AppStream metadata, as `packaging/build-deb` installs them.
struct DesktopIdentityTests {
    static let packaging = AutostartFilesTests.packaging

    static var entryPath: String { packaging + "/" + (LibnotifyNotifier().desktopEntry ?? "(none)") + ".desktop" }

    @Test func theDesktopEntryHintNamesTheShippedApplicationEntry() throws {
        let entry = try String(contentsOfFile: Self.entryPath, encoding: .utf8)
        #expect(entry.contains("\nType=Application\n"))
        #expect(entry.contains("\nIcon=syncagent\n"))
        #expect(entry.contains("\nNoDisplay=true\n"), "no window to open: kept out of menus")
        #expect(!entry.contains("X-GNOME-Autostart"), "the application entry starts nothing at login")
    }

    @Test func theApplicationEntryPassesDesktopFileValidate() throws {
        let result = try ExternalTool.desktopFileValidate(Self.entryPath)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test func theAppStreamMetadataPassesAppstreamcliValidate() throws {
        let path = Self.packaging + "/io.github.syncagent.metainfo.xml"
        let result = try ExternalTool.run("appstreamcli", ["validate", "--pedantic", "--no-net", path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.output)")
        let metadata = try String(contentsOfFile: path, encoding: .utf8)
        #expect(metadata.contains("<id>io.github.syncagent</id>"))
        #expect(metadata.contains("<launchable type=\"desktop-id\">syncagent.desktop</launchable>"))
    }

    /// The app's icon, and the one failures show (a theme may lack "dialog-error").
    @Test(arguments: ["syncagent", "syncagent-warning"])
    func theIconIsAWellFormedSVG(name: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.packaging + "/icons/\(name).svg"))
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        // gdk-pixbuf (dunst, GTK) tells an SVG by "<svg" near the start: a long comment first
        // made the failure icon unloadable.
        #expect(String(decoding: data.prefix(200), as: UTF8.self).contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }

    @Test func buildDebInstallsAllThreeAndNoAutostartForEveryone() throws {
        let script = try String(contentsOfFile: Self.packaging + "/build-deb", encoding: .utf8)
        #expect(script.contains("\"$root/usr/share/applications/syncagent.desktop\""))
        #expect(script.contains("\"$root/usr/share/icons/hicolor/scalable/apps/syncagent.svg\""))
        #expect(script.contains("\"$root/usr/share/icons/hicolor/scalable/status/syncagent-warning.svg\""))
        #expect(script.contains("\"$root/usr/share/metainfo/io.github.syncagent.metainfo.xml\""))
        #expect(!script.contains("etc/xdg/autostart"), "a quiet first login: the package starts the agent for no one")
        let postinst = try String(contentsOfFile: Self.packaging + "/debian/postinst", encoding: .utf8)
        #expect(!postinst.contains("deb-systemd-helper --user enable"), "postinst enables the unit for no one")
    }
}
