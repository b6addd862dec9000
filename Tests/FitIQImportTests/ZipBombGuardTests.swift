import Foundation
import Testing

@testable import FitIQImport

/// The zip bomb guard judges inflation by ratio, never by size.
struct ZipBombGuardTests {
    static let mebibyte: Int64 = 1 << 20

    /// Inflates `inputChunks` chunks of `input` compressed bytes at `ratio`:1, in 1 MiB output chunks.
    static func inflate(
        _ bombGuard: inout ZipBombGuard, inputChunks: Int, input: Int64, ratio: Int64
    ) throws(ZipBombGuard.Violation) {
        var consumed: Int64 = 0
        for _ in 0..<inputChunks {
            consumed += input
            var left = input * ratio
            while left > 0 {
                let count = min(left, mebibyte)
                try bombGuard.observe(chunk: Int(count), consumed: consumed)
                left -= count
            }
        }
    }

    @Test
    func acceptsARealExportsRatioWhateverItsSize() throws {
        // 3 GB inflated from 100 MB, 30:1
        var bombGuard = ZipBombGuard(compressedSize: 100 << 20, declaredSize: 3_000 << 20, isCompressed: true)
        try bombGuard.checkDeclaredSizes()
        try Self.inflate(&bombGuard, inputChunks: 100, input: Self.mebibyte, ratio: 30)
        #expect(bombGuard.inflated == 3_000 << 20)
    }

    @Test
    func refusesAnHonestBombBeforeInflating() {
        let bombGuard = ZipBombGuard(compressedSize: 1_044_000, declaredSize: 1 << 30, isCompressed: true)
        #expect(throws: ZipBombGuard.Violation.ratio) { try bombGuard.checkDeclaredSizes() }
    }

    @Test
    func refusesABombThatLiesAboutItsSizeOncePastTheGrace() throws {
        // The header claims 150:1; the stream inflates 1000:1.
        var bombGuard = ZipBombGuard(compressedSize: 8 << 20, declaredSize: 1_200 << 20, isCompressed: true)
        try bombGuard.checkDeclaredSizes()
        #expect(throws: ZipBombGuard.Violation.ratio) {
            try Self.inflate(&bombGuard, inputChunks: 8, input: 64 << 10, ratio: 1_000)
        }
        #expect(bombGuard.inflated > ZipBombGuard.graceBytes)
        #expect(bombGuard.inflated <= 14 << 20)
    }

    @Test
    func refusesAMemberLargerThanDeclared() {
        var bombGuard = ZipBombGuard(compressedSize: 1 << 20, declaredSize: 2 << 20, isCompressed: true)
        #expect(throws: ZipBombGuard.Violation.largerThanDeclared) {
            try Self.inflate(&bombGuard, inputChunks: 1, input: Self.mebibyte, ratio: 3)
        }
    }

    @Test
    func smallMembersAreNotJudgedByRatio() throws {
        // 4 MB of whitespace from 4 KB: a tiny member may compress absurdly well.
        var bombGuard = ZipBombGuard(compressedSize: 4096, declaredSize: 4 << 20, isCompressed: true)
        try bombGuard.checkDeclaredSizes()
        try Self.inflate(&bombGuard, inputChunks: 1, input: 4096, ratio: 1024)
    }
}
