import FitIQCore
import FitIQWords
import Foundation
import Testing

/// Inputs the fuzz targets (Fuzz/Targets) found, each kept as it was found.
struct FuzzRegressionTests {
    /// A server answer with `"height_cm":1e300` (the `wire` target) made `Height.format` trap in
    /// imperial units: whole inches beyond `Int`. Heights reach it from the server and the cache
    /// unchecked, so it shows any value, in centimetres when inches cannot hold it.
    @Test(arguments: [
        (1e300, "1e+300 cm"), (-1e300, "-1e+300 cm"), (Double.infinity, "inf cm"), (-Double.infinity, "-inf cm"),
        (Double.nan, "nan cm"), (2.4e19, "2.4e+19 cm"),
    ])
    func heightsBeyondWholeInchesAreShownInCentimetres(centimetres: Double, shown: String) {
        #expect(Height.format(centimetres, unitSystem: .imperial) == shown)
        #expect(Height.format(centimetres, unitSystem: .metric) == shown)
    }

    @Test func heightsStillShowInFeetAndInches() {
        #expect(Height.format(180.34, unitSystem: .imperial) == "5 ft 11 in")
        #expect(Height.format(2.54e14, unitSystem: .imperial) == "8333333333333 ft 4 in")
    }
}
