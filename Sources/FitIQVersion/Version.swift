/// fitiq-tui's version: `git describe` of the checkout it was built from (scripts/version.sh).
public var fitiqVersion: String { buildVersion }
