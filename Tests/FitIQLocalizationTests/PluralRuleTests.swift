import FitIQLocalization
import Testing

/// The `plural=` expressions of gettext headers, evaluated for counts.
struct PluralRuleTests {
    /// Header, then the expected form of 0, 1, 2, 3, 5, 11, 12, 21, 22, 25, 101, 111, 1_000_000.
    static let headers: [(header: String, forms: [Int])] = [
        ("nplurals=2; plural=(n != 1);", [1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),  // de, es, en
        ("nplurals=2; plural=(n > 1);", [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),  // fr, pt_BR
        ("nplurals=1; plural=0;", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),  // ja
        (
            // ru: one, few, many.
            "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
            [2, 0, 1, 1, 2, 2, 2, 0, 1, 2, 0, 2, 2]
        ),
        (
            // ar: six forms.
            "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
            [0, 1, 2, 3, 3, 4, 4, 4, 4, 4, 5, 4, 5]
        ),
        ("nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", [2, 0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2]),  // cs
        ("nplurals=2; plural=!(n == 1);", [1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
        ("  nplurals = 2 ;  plural = n * 2 / 4 - 1 + 1 >= 1 ; ", [0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
    ]
    static let counts = [0, 1, 2, 3, 5, 11, 12, 21, 22, 25, 101, 111, 1_000_000]

    @Test(arguments: headers)
    func givesEachCountItsForm(header: String, forms: [Int]) throws {
        let rule = try #require(PluralRule(header: header))
        #expect(Self.counts.map { rule.form(for: $0) } == forms)
    }

    @Test func frenchCountsZeroAsSingularAndGermanAsPlural() throws {
        #expect(try #require(PluralRule(header: "nplurals=2; plural=(n > 1);")).form(for: 0) == 0)
        #expect(try #require(PluralRule(header: "nplurals=2; plural=(n != 1);")).form(for: 0) == 1)
    }

    /// Rules compare by their expressions: German's header reads as the built-in rule, French's not.
    @Test func germanHeaderReadsAsTheBuiltInRule() throws {
        #expect(PluralRule(header: "nplurals=2; plural=(n != 1);") == .germanic)
        #expect(PluralRule(header: "nplurals=2;plural=n!=1") == .germanic)
        #expect(PluralRule(header: "nplurals=2; plural=(n > 1);") != .germanic)
        #expect(PluralRule(header: "nplurals=3; plural=(n != 1);") != .germanic)
    }

    @Test(arguments: [
        "", "nplurals=2;", "plural=(n != 1);", "nplurals=x; plural=n;", "nplurals=2; plural=(n != 1;",
        "nplurals=2; plural=n ? 1;", "nplurals=2; plural=m;", "nplurals=2; plural=n 1;", "nplurals=0; plural=0;",
        "nplurals=2; plural=99999999999999999999999;",
        "nplurals=2; plural=" + String(repeating: "(", count: 10_000) + "n" + String(repeating: ")", count: 10_000),
        "nplurals=2; plural=" + String(repeating: "!", count: 10_000) + "n",
    ])
    func refusesWhatItCannotRead(header: String) {
        #expect(PluralRule(header: header) == nil)
    }

    @Test func dividesByZeroWithoutCrashingAndRejectsAnIndexPastTheForms() throws {
        let rule = try #require(PluralRule(header: "nplurals=2; plural=n / 0 + n % 0 + n;"))
        #expect(rule.form(for: 1) == 1)
        #expect(rule.form(for: 2) == nil)
    }
}
