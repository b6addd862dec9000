import FitIQLocalization

extension Catalogs {
    /// The catalogs of `po/`, compiled into the program (Plugins/EmbedCatalogs): found with no setup,
    /// wherever the program runs from.
    public static let embedded = Catalogs(codes: EmbeddedCatalogs.codes) { EmbeddedCatalogs.catalog($0) }
}
