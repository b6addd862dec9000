import FitIQCore
import Foundation
import Testing

@testable import FitIQCache

struct CachePathsTests {
    let home = URL(fileURLWithPath: "/home/ada", isDirectory: true)

    @Test func defaultsFollowXDG() {
        let paths = CachePaths(environment: [:], home: home)
        #expect(paths.dataDirectory.path == "/home/ada/.local/share/fitiq")
        #expect(paths.stateDirectory.path == "/home/ada/.local/state/fitiq")
        #expect(paths.configDirectory.path == "/home/ada/.config/fitiq")
        #expect(paths.logFile.path == "/home/ada/.local/state/fitiq/fitiq-tui.log")
        #expect(paths.configFile.path == "/home/ada/.config/fitiq/config.json")
    }

    @Test func absoluteXDGVariablesWin() {
        let paths = CachePaths(
            environment: ["XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/var/state/", "XDG_CONFIG_HOME": "/etc/cfg"],
            home: home)
        #expect(paths.dataDirectory.path == "/data/fitiq")
        #expect(paths.stateDirectory.path == "/var/state/fitiq")
        #expect(paths.configDirectory.path == "/etc/cfg/fitiq")
    }

    @Test(arguments: ["relative/data", "", "./here", "~/data"])
    func relativeOrEmptyXDGValuesAreIgnored(value: String) {
        let paths = CachePaths(
            environment: ["XDG_DATA_HOME": value, "XDG_STATE_HOME": value, "XDG_CONFIG_HOME": value], home: home)
        #expect(paths == CachePaths(environment: [:], home: home))
    }

    @Test func accountFilesLiveInOneFolderPerServerAndUser() {
        let paths = CachePaths(environment: ["XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s"], home: home)
        let account = AccountKey(server: "https://api.example.com", userId: "user-1")
        let slug = PathName.serverSlug(account.server)
        #expect(slug.hasPrefix("api.example.com_443-"))
        #expect(paths.profileFile(for: account).path == "/d/fitiq/accounts/\(slug)/user-1/account.json")
        #expect(paths.sessionFile(for: account).path == "/s/fitiq/accounts/\(slug)/user-1/session.json")
        #expect(paths.lockFile(for: account).path == "/s/fitiq/accounts/\(slug)/user-1/lock")
        #expect(paths.currentAccountFile.path == "/s/fitiq/current.json")
    }

    @Test func equivalentServerSpellingsShareASlug() {
        #expect(PathName.serverSlug("https://API.example.com/") == PathName.serverSlug("https://api.example.com"))
    }

    @Test(arguments: [
        ("http://localhost:8080", "http://localhost:8081"),
        ("https://example.com/a", "https://example.com/b"),
        ("http://example.com", "https://example.com"),
        ("https://example.com:443", "https://example.com"),
    ])
    func differentServersGetDifferentSlugs(first: String, second: String) {
        #expect(PathName.serverSlug(first) != PathName.serverSlug(second))
    }

    @Test(arguments: ["http://localhost:8080", "https://example.com/api/v1", "not a url", "http://[::1]:9000", ""])
    func slugsAreSafeFileNames(server: String) {
        let slug = PathName.serverSlug(server)
        #expect(!slug.isEmpty && !slug.hasPrefix("."))
        #expect(slug.allSatisfy { $0.isLetter || $0.isNumber || "-_.%".contains($0) })
    }

    @Test func userIdsBecomeDistinctSafeNames() {
        let ids = ["../etc", ".", "..", "a/b", "a%2Fb", "ümlaut", "", String(repeating: "x", count: 400)]
        let names = ids.map(PathName.component)
        #expect(Set(names).count == ids.count)
        for name in names {
            #expect(!name.contains("/") && !name.hasPrefix(".") && !name.isEmpty && name.utf8.count < 200, "\(name)")
        }
    }
}
