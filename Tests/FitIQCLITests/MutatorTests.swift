import FitIQTestSupport
import Foundation
import Testing

/// What the mutation tables rely on: a seed replays the same mutants, JSON is read and written back
/// as it was, and a document too deep to read is no JSON rather than a crash.
struct MutatorTests {
    static let fixture = BadInputMutationTests.fixture

    static func mutants(seed: UInt64, of data: [UInt8]) -> [String] {
        var random = SeededRandom(seed: seed)
        return (0..<50).map { _ in
            let (kind, bytes) = Mutation.mutant(of: data, kinds: Mutation.allCases, &random)
            return kind + ":" + bytes.map(String.init).joined(separator: ",")
        }
    }

    @Test func aSeedReplaysTheSameMutantsAndAnotherSeedDrawsOthers() throws {
        let data = Array(try Data(contentsOf: Self.fixture))
        #expect(Self.mutants(seed: 7, of: data) == Self.mutants(seed: 7, of: data))
        #expect(Self.mutants(seed: 7, of: data) != Self.mutants(seed: 8, of: data))
        var (one, same, other) = (
            SeededRandom("20260101:real:3"), SeededRandom("20260101:real:3"), SeededRandom("20260101:real:4")
        )
        #expect((0..<8).map { _ in one.next() } == (0..<8).map { _ in same.next() })
        #expect(one.next() != other.next())
    }

    @Test func everyMutantDiffersFromItsInputAndEveryKindIsDrawn() throws {
        let data = Array(try Data(contentsOf: Self.fixture))
        var random = SeededRandom(seed: 1)
        var kinds: Set<String> = []
        for _ in 0..<300 {
            let (kind, bytes) = Mutation.mutant(of: data, kinds: Mutation.allCases, &random)
            #expect(bytes != data, "\(kind)")
            kinds.insert(kind)
        }
        #expect(kinds == Set(Mutation.allCases.map(\.rawValue) + ["mix"]))
    }

    @Test func aDocumentIsReadAndWrittenBackWithItsMembersInOrder() throws {
        let document = try #require(JSONTree(Array(try Data(contentsOf: Self.fixture))))
        #expect(JSONTree(document.text()) == document)
        #expect(JSONTree(document.text(pretty: false)) == document)
        let text = #"{"b": 1e400, "a": [true, null, "\u00e9\ud83d\ude00"], "b": {}}"#
        let read = try #require(JSONTree(text: text))
        #expect(read["b"] == .number("1e400"))
        #expect(read["a"]?.array?.last == .string("é😀"))
        #expect(String(decoding: read.text(pretty: false), as: UTF8.self) == text)
    }

    @Test(arguments: ["", "{", "[1,]", "01", "\"\u{1}\"", "\"\\ud800\"", "1 2", "nul"])
    func textThatIsNoJSONIsNotRead(_ text: String) {
        #expect(JSONTree(text: text) == nil)
    }

    @Test func aDocumentNestedTooDeepIsNoJSONNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONTree(text: deep) == nil)
        let shallow = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(JSONTree(text: shallow) != nil)
    }
}
