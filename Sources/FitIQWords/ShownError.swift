import FitIQCore

/// An error on its way to a person, kept as the error: it is worded where it is shown, in the
/// language then in force, with the control characters and escape sequences of server or file text
/// taken out. Two are equal when they read the same.
public struct ShownError: Error, Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// What went wrong.
    public let error: any Error

    public init(_ error: any Error) {
        self.error = (error as? ShownError)?.error ?? error
    }

    /// A sentence said already (`Import stopped; nothing was imported.`).
    public init(said sentence: String) {
        error = Said(sentence: sentence)
    }

    public init(stringLiteral sentence: String) {
        self.init(said: sentence)
    }

    public var description: String { TextSanitizer.sanitize(String(describing: error)) }

    public static func == (lhs: ShownError, rhs: ShownError) -> Bool { lhs.description == rhs.description }

    private struct Said: Error, CustomStringConvertible {
        let sentence: String
        var description: String { sentence }
    }
}
