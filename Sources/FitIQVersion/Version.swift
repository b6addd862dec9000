/// fitiq-tui's version: the release number in VERSION, with the commits since the release as a suffix
/// between releases (`0.6.0`, `0.6.0+12.gabc1234`; scripts/version.sh).
public var fitiqVersion: String { buildVersion }
