import FitIQCore
import FitIQLocalization
import FitIQWords

/// What `set FIELD VALUE` answers: the sentence, and whether the value was refused.
public struct SetAnswer: Sendable, Equatable {
    /// The sentence to show or print.
    public let sentence: String
    /// Whether nothing was drafted: the field is read-only or the value breaks its rule (the editor
    /// keeps the line open to correct it).
    public let isMistake: Bool
}

extension ProfileEdits {
    /// `set FIELD VALUE`, for the editor's `:` line and plain mode alike: `value` drafted for `field`
    /// over `view`, as typing it into the field and pressing Enter would leave it (saved by `save`),
    /// and the sentence that says so. `canImport`: a read-only field's reason says how to import it.
    public mutating func draft(_ field: ProfileField, _ value: String, over view: AccountView?, canImport: Bool)
        -> SetAnswer
    {
        guard let editable = field.editable else {
            return SetAnswer(sentence: readOnlyReason(field, canImport: canImport), isMistake: true)
        }
        do {
            try set(editable, value, over: view)
        } catch {
            return SetAnswer(sentence: error.description, isMistake: true)
        }
        let values = ["field": field.label, "value": shown(editable, over: view) ?? text(editable, over: view)]
        return SetAnswer(
            sentence: shown(editable, over: view) != nil
                ? tr("{field} will be {value} once you save.", values)
                : tr("{field} is already {value}; nothing to save for it.", values),
            isMistake: false)
    }
}
