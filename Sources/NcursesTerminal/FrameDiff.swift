import FitIQTUI

/// Which cells of a frame must be painted again, given the frame painted before; pure.
enum FrameDiff {
    /// Row-major indices into `next.cells` to paint: every cell when there is no comparable previous
    /// frame (none, or another size), otherwise the cells whose painting changed.
    ///
    /// A cell's painting also depends on its neighbours (see ``CellGlyph``): a cell is drawn over two
    /// columns only when the next cell is a continuation, and a continuation is covered by the cell before
    /// it. So a cell is also dirty when the next cell became or stopped being a continuation,
    /// and a continuation is dirty when the cell before it changed.
    static func dirtyIndices(from previous: CellBuffer?, to next: CellBuffer) -> [Int] {
        guard let previous, previous.width == next.width, previous.height == next.height else {
            return Array(next.cells.indices)
        }
        let old = previous.cells
        let new = next.cells
        let width = next.width
        // Each cell is compared once; its neighbours matter only where they changed (a cell that became
        // or stopped being a continuation changed too), which is rare: a key changes a few cells.
        let changed = new.indices.map { new[$0] != old[$0] }
        var dirty: [Int] = []
        for index in new.indices {
            let column = index % width
            if changed[index] {
                dirty.append(index)
            } else if column + 1 < width, changed[index + 1],
                new[index + 1].isContinuation != old[index + 1].isContinuation
            {
                dirty.append(index)
            } else if column > 0, changed[index - 1], new[index].isContinuation {
                dirty.append(index)
            }
        }
        return dirty
    }
}
