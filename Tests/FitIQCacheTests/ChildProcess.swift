import FitIQTestBasics

extension ChildProcess {
    /// `fitiq-cache-crash-child` (built next to the test bundle) with `arguments`, its output read line
    /// by line.
    static func crashChild(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess([BuiltProducts.executable(named: "fitiq-cache-crash-child").path] + arguments, output: .lines)
    }
}
