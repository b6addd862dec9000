import FitIQCatalogs
import FitIQCore
import FitIQLocalization
import FitIQWords
import Testing

@testable import FitIQTUI

/// Sentences that name a metric read right in each language for every kind of label: French elides
/// its `de` before a vowel (`d'eau`, not `de eau`); where a label is plural (Schritte, pas, pasos,
/// passos) a rule's singular verb has "the value" for its subject.
struct MetricSentenceTests {
    /// `body` in the language `code`, from the embedded catalogs.
    static func speaking<T>(_ code: String, _ body: () -> T) -> T {
        FitIQWords.speaking(Catalogs.embedded.localizer(Language(code: code)), body)
    }

    /// The sentences checked, for water, steps and sleep.
    static func sentences() -> [String] {
        [
            Metric.water.noEntriesYet, Metric.steps.noEntriesYet,
            ValidationError.outOfRange(.water, rule: .allowedRange).description,
            ValidationError.outOfRange(.steps, rule: .allowedRange).description,
            ValidationError.invalidFormat(.sleep, rule: .measurementText).description,
            MeasurementSeries.metric(.sleep).missingText,
        ]
    }

    @Test func french() {
        #expect(
            Self.speaking("fr", Self.sentences) == [
                "Pas encore de saisies d'eau.", "Pas encore de saisies de pas.",
                "Eau : la valeur doit être entre 0,01 et 10 l.",
                "Pas : la valeur doit être un nombre entier entre 1 et 100\u{202F}000.",
                "Sommeil : la valeur doit être en heures, par\u{A0}ex. 7h30m, 7:30 ou 7,5.", "saisies de sommeil",
            ])
    }

    @Test func german() {
        #expect(
            Self.speaking("de", Self.sentences) == [
                "Noch keine Einträge für Wasser.", "Noch keine Einträge für Schritte.",
                "Wasser: Der Wert muss zwischen 0,01 und 10 l liegen.",
                "Schritte: Der Wert muss eine ganze Zahl zwischen 1 und 100.000 sein.",
                "Schlaf: Der Wert muss in Stunden angegeben werden, z.\u{A0}B. 7h30m, 7:30 oder 7,5.",
                "Einträge für Schlaf",
            ])
    }

    @Test func spanish() {
        #expect(
            Self.speaking("es", Self.sentences) == [
                "Aún no hay registros de agua.", "Aún no hay registros de pasos.",
                "Agua: el valor debe estar entre 0,01 y 10 l.",
                "Pasos: el valor debe ser un número entero entre 1 y 100.000.",
                "Sueño: el valor debe estar en horas, p.\u{A0}ej. 7h30m, 7:30 o 7,5.", "registros de sueño",
            ])
    }

    @Test func brazilianPortuguese() {
        #expect(
            Self.speaking("pt_BR", Self.sentences) == [
                "Ainda não há registros de água.", "Ainda não há registros de passos.",
                "Água: o valor deve estar entre 0,01 e 10 l.",
                "Passos: o valor deve ser um número inteiro entre 1 e 100.000.",
                "Sono: o valor deve estar em horas, p.\u{A0}ex. 7h30m, 7:30 ou 7,5.", "registros de sono",
            ])
    }

    @Test func englishIsAsBefore() {
        #expect(
            Self.sentences() == [
                "No water entries yet.", "No steps entries yet.", "Water must be between 0.01 and 10 l.",
                "Steps must be a whole number between 1 and 100,000.", "Sleep must be hours, e.g. 7.5, 7h30m or 7:30.",
                "sleep entries",
            ])
    }

    /// The editor's boxes say it too: removing water, a sleep goal, correcting steps.
    @Test func theEditorsBoxesInFrench() {
        var state = LanguageScreenTests.speaking("fr", profileState(width: 80, height: 24))
        let boxes: [(AppState.Overlay, String)] = [
            (.deleteEntryPrompt(.water, id: "w", summary: "0,25 l"), "Retirer cette mesure d'eau ?"),
            (.goalPrompt(.sleep, value: TextField(""), error: nil), "Objectif de sommeil"),
            (
                .correctEntry(.steps, id: "s", summary: "4 000 pas", value: TextField(""), error: nil),
                "Corriger une saisie de pas"
            ),
        ]
        for (overlay, title) in boxes {
            state.overlay = overlay
            let text = screen(state).lines.joined(separator: "\n")
            #expect(text.contains(title), "\(text)")
        }
    }
}
