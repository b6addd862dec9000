import FitIQEditor
import FitIQTestBasics
import Foundation
import Testing

/// The inotify watch of a real folder.
@Suite(.timeLimit(.minutes(1)))
struct FolderWatchTests {
    @Test(.enabled(if: isLinux)) func aFileRenamedIntoTheFolderIsAChange() async throws {
        let folder = try TemporaryFolder("fitiq-watch")
        defer { folder.remove() }
        let changes = try #require(FolderCacheWatch.changes(in: folder.path))

        // Written as the cache writes: a temporary file, renamed over the real one.
        let temporary = folder.path + "/account.json.tmp"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, folder.path + "/account.json") == 0)

        let woke = try await withHangGuard("the watch's wake-up") {
            var iterator = changes.makeAsyncIterator()
            return await iterator.next() != nil ? true : nil
        }
        #expect(woke)
    }

    @Test func aFolderThatDoesNotExistIsNotWatched() throws {
        let folder = try TemporaryFolder("fitiq-watch")
        folder.remove()
        #expect(FolderCacheWatch.changes(in: folder.path) == nil)
    }

    @Test func anAccountWithoutAFolderIsNotWatched() async throws {
        let watch = FolderCacheWatch { _ in nil }
        let account = try await TestHarness().signedIn()
        #expect(watch.changes(of: account) == nil)
    }
}

#if os(Linux)
    private let isLinux = true
#else
    private let isLinux = false
#endif
