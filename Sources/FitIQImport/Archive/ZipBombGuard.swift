/// Refuses a zip member whose inflation looks like a zip bomb rather than a Health export.
///
/// Real exports deflate about 10–30:1; a bomb reaches 1000:1. The guard caps the ratio of inflated
/// bytes to compressed bytes consumed, not the size (real exports reach several GB), and only past
/// the first few MB. Two checks:
///
/// 1. Before inflating, the sizes the archive declares (an honest bomb stops here at once).
/// 2. While inflating, the bytes actually produced against the compressed bytes consumed, which
///    ``ZipMemberStream`` knows exactly because it feeds the inflater itself (a bomb that lies in
///    its header stops once the ratio passes the cap). A member that inflates beyond its declared
///    size is refused too: its header lies.
struct ZipBombGuard {
    /// Why a member is refused.
    enum Violation: Error, Equatable {
        case ratio
        case largerThanDeclared
    }

    /// The largest inflation ratio accepted.
    static let maxRatio: Int64 = 200
    /// The ratio is not judged on the first few MB (small members and headers compress unevenly).
    static let graceBytes: Int64 = 4 << 20

    let compressedSize: Int64
    let declaredSize: Int64
    let isCompressed: Bool
    /// Bytes inflated so far.
    private(set) var inflated: Int64 = 0

    init(compressedSize: UInt64, declaredSize: UInt64, isCompressed: Bool) {
        self.compressedSize = Int64(clamping: compressedSize)
        self.declaredSize = Int64(clamping: declaredSize)
        self.isCompressed = isCompressed
    }

    /// Compressed bytes to report as read: proportional to the output (smooth), never more than `consumed`.
    func progress(consumed: Int64) -> Int64 {
        guard declaredSize > 0 else { return consumed }
        let fraction = min(Double(inflated) / Double(declaredSize), 1)
        return min(consumed, Int64(Double(compressedSize) * fraction))
    }

    /// Checks the declared sizes before anything is inflated.
    func checkDeclaredSizes() throws(Violation) {
        if isCompressed && declaredSize > Self.graceBytes && declaredSize / Self.maxRatio > compressedSize {
            throw .ratio
        }
    }

    /// Notes an output chunk of `count` bytes, `consumed` compressed bytes having been read so far.
    mutating func observe(chunk count: Int, consumed: Int64) throws(Violation) {
        inflated += Int64(count)
        if inflated > declaredSize { throw .largerThanDeclared }
        if isCompressed && inflated > Self.graceBytes && inflated / Self.maxRatio > consumed { throw .ratio }
    }
}
