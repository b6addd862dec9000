import FitIQTUI
import Testing

@testable import NcursesTerminal

struct FrameDiffTests {
    @Test func everyCellIsDirtyWithoutAPreviousFrame() {
        let frame = CellBuffer(lines: ["ab", "cd"])
        #expect(FrameDiff.dirtyIndices(from: nil, to: frame) == [0, 1, 2, 3])
    }

    @Test func everyCellIsDirtyWhenTheSizeChanged() {
        #expect(FrameDiff.dirtyIndices(from: CellBuffer(lines: ["abc"]), to: CellBuffer(lines: ["ab"])) == [0, 1])
    }

    @Test func anIdenticalFrameHasNothingToPaint() {
        let frame = CellBuffer(lines: ["José 李🏃", "second"])
        #expect(FrameDiff.dirtyIndices(from: frame, to: frame) == [])
    }

    @Test func onlyChangedCellsArePainted() {
        #expect(
            FrameDiff.dirtyIndices(from: CellBuffer(lines: ["abc", "def"]), to: CellBuffer(lines: ["abc", "dxf"])) == [
                4
            ])
    }

    @Test func aStyleChangeIsAChange() {
        var next = CellBuffer(lines: ["abc"])
        next.put("b", x: 1, y: 0, style: CellStyle(.reverse))
        #expect(FrameDiff.dirtyIndices(from: CellBuffer(lines: ["abc"]), to: next) == [1])
    }

    @Test func replacingAWideCharacterRepaintsBothColumns() {
        #expect(FrameDiff.dirtyIndices(from: CellBuffer(lines: ["李x"]), to: CellBuffer(lines: ["abx"])) == [0, 1])
        #expect(FrameDiff.dirtyIndices(from: CellBuffer(lines: ["abx"]), to: CellBuffer(lines: ["李x"])) == [0, 1])
    }

    @Test func aCellIsDirtyWhenItsNeighbourStopsBeingItsContinuation() {
        // Given 李 over two columns, when the right half is overwritten, 李 no longer fits and is repainted.
        var next = CellBuffer(lines: ["李x"])
        next[1, 0] = Cell("y")
        #expect(FrameDiff.dirtyIndices(from: CellBuffer(lines: ["李x"]), to: next) == [0, 1])
    }

    @Test func aContinuationIsDirtyWhenItsWideCharacterIsReplaced() {
        // Given 李, when the left half becomes "a", the orphaned right half must be painted (as a space).
        var next = CellBuffer(lines: ["李x"])
        next[0, 0] = Cell("a")
        #expect(FrameDiff.dirtyIndices(from: CellBuffer(lines: ["李x"]), to: next) == [0, 1])
    }

    @Test func neighboursDoNotCrossRows() {
        let previous = CellBuffer(lines: ["ab", "李"])
        var next = previous
        next[0, 1] = Cell("c")
        next[1, 1] = Cell("d")
        #expect(FrameDiff.dirtyIndices(from: previous, to: next) == [2, 3])
    }
}
