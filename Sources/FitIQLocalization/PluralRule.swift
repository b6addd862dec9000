/// Which plural form a count takes: the `plural=` expression of a catalog's `Plural-Forms` header, the
/// C subset gettext uses (`n`, integers, `?:`, `||`, `&&`, `==`, `!=`, `<`, `>`, `<=`, `>=`, `+`, `-`,
/// `*`, `/`, `%`, `!`, parentheses), parsed once and evaluated for each count.
///
/// `PluralRule(header: "nplurals=2; plural=(n > 1);")` is French (0 and 1 singular). Like gettext, the
/// arithmetic is on unsigned longs: a count is never negative here (its magnitude is used), and a
/// division by zero gives 0 rather than a crash. An expression that does not parse gives `nil`.
public struct PluralRule: Sendable, Equatable {
    /// How many forms the catalog has (`nplurals`).
    public let count: Int
    /// The expression's nodes, each after those it reads; the last is the whole expression. A flat
    /// array of values rather than a tree of `indirect enum` boxes: such a box is reached through a
    /// pointer whose spare bits hold the case, which LeakSanitizer does not take for a pointer, and the
    /// built-in rule is a global and a catalog keeps its rule for the process's life, so each box was
    /// reported as leaked. An array's buffer is reached through a plain pointer.
    private let nodes: [Node]

    /// English and German's rule: `nplurals=2; plural=(n != 1);`.
    public static let germanic = PluralRule(count: 2, nodes: [.n, .number(1), .binary(.notEqual, 0, 1)])

    private init(count: Int, nodes: [Node]) {
        self.count = count
        self.nodes = nodes
    }

    /// The rule of a `Plural-Forms` value (`nplurals=3; plural=(n==1 ? 0 : n%10>=2 && … ? 1 : 2);`);
    /// `nil` when it is missing a part or does not parse.
    public init?(header: String) {
        var plurals: Int?
        var text: Substring?
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0].filter({ !$0.isWhitespace }) {
            case "nplurals": plurals = Int(pair[1].filter { !$0.isWhitespace })
            case "plural": text = pair[1]
            default: continue
            }
        }
        guard let plurals, (1...6).contains(plurals), let text else { return nil }
        var parser = Parser(Array(text.utf8))
        guard let nodes = parser.parseWhole() else { return nil }
        self.init(count: plurals, nodes: nodes)
    }

    /// The form `count` takes: an index below ``count``, or `nil` when the expression gives another.
    public func form(for count: Int) -> Int? {
        let index = value(of: nodes.count - 1, n: count.magnitude)
        return index < UInt(self.count) ? Int(index) : nil
    }

    /// The value of the node at `index` for `n`.
    private func value(of index: Int, n: UInt) -> UInt {
        switch nodes[index] {
        case .n: return n
        case .number(let value): return value
        case .not(let operand): return value(of: operand, n: n) == 0 ? 1 : 0
        case .choice(let condition, let then, let otherwise):
            return value(of: condition, n: n) != 0 ? value(of: then, n: n) : value(of: otherwise, n: n)
        case .binary(let op, let left, let right):
            let a = value(of: left, n: n)
            // `&&` and `||` look at the right side only when they need it, as C does.
            switch op {
            case .and: return a != 0 && value(of: right, n: n) != 0 ? 1 : 0
            case .or: return a != 0 || value(of: right, n: n) != 0 ? 1 : 0
            default: return op.apply(a, value(of: right, n: n))
            }
        }
    }
}

extension PluralRule {
    /// One node of the expression; an operand is the index of an earlier node.
    fileprivate enum Node: Sendable, Equatable {
        case n
        case number(UInt)
        case not(Int)
        case binary(Operator, Int, Int)
        case choice(Int, Int, Int)
    }

    fileprivate enum Operator: Sendable, Equatable {
        case or, and, equal, notEqual, less, greater, lessOrEqual, greaterOrEqual
        case plus, minus, times, divide, remainder

        /// Binding strength, as in C: `||` loosest, `* / %` tightest.
        var precedence: Int {
            switch self {
            case .or: 1
            case .and: 2
            case .equal, .notEqual: 3
            case .less, .greater, .lessOrEqual, .greaterOrEqual: 4
            case .plus, .minus: 5
            case .times, .divide, .remainder: 6
            }
        }

        func apply(_ a: UInt, _ b: UInt) -> UInt {
            switch self {
            case .equal: a == b ? 1 : 0
            case .notEqual: a != b ? 1 : 0
            case .less: a < b ? 1 : 0
            case .greater: a > b ? 1 : 0
            case .lessOrEqual: a <= b ? 1 : 0
            case .greaterOrEqual: a >= b ? 1 : 0
            case .plus: a &+ b
            case .minus: a &- b
            case .times: a &* b
            case .divide: b == 0 ? 0 : a / b
            case .remainder: b == 0 ? 0 : a % b
            case .and: a != 0 && b != 0 ? 1 : 0
            case .or: a != 0 || b != 0 ? 1 : 0
            }
        }
    }

    /// Precedence climbing over the header's bytes; `nil` for anything it does not know. Nesting is
    /// limited, so a hostile header cannot exhaust the stack. Each parse function adds the nodes it
    /// reads to ``nodes`` and returns the index of the last.
    fileprivate struct Parser {
        private let bytes: [UInt8]
        private var index = 0
        private var depth = 0
        private var nodes: [Node] = []
        private static let maximumDepth = 64

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func parseWhole() -> [Node]? {
            guard parseExpression() != nil else { return nil }
            skipSpaces()
            return index == bytes.count ? nodes : nil
        }

        private mutating func add(_ node: Node) -> Int {
            nodes.append(node)
            return nodes.count - 1
        }

        private mutating func parseExpression() -> Int? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth, let condition = parseBinary(minimum: 1) else { return nil }
            guard consume("?") else { return condition }
            guard let then = parseExpression(), consume(":"), let otherwise = parseExpression() else { return nil }
            return add(.choice(condition, then, otherwise))
        }

        private mutating func parseBinary(minimum: Int) -> Int? {
            guard var left = parseUnary() else { return nil }
            while let op = peekOperator(), op.precedence >= minimum {
                advanceOperator(op)
                guard let right = parseBinary(minimum: op.precedence + 1) else { return nil }
                left = add(.binary(op, left, right))
            }
            return left
        }

        private mutating func parseUnary() -> Int? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { return nil }
            skipSpaces()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "!") where !(index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "=")):
                index += 1
                guard let operand = parseUnary() else { return nil }
                return add(.not(operand))
            case UInt8(ascii: "("):
                index += 1
                guard let inner = parseExpression(), consume(")") else { return nil }
                return inner
            case UInt8(ascii: "n"):
                index += 1
                return add(.n)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var value: UInt = 0
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                    let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    value = times &+ UInt(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                return add(.number(value))
            default:
                return nil
            }
        }

        private static let operators: [(text: String, op: Operator)] = [
            ("||", .or), ("&&", .and), ("==", .equal), ("!=", .notEqual), ("<=", .lessOrEqual),
            (">=", .greaterOrEqual), ("<", .less), (">", .greater), ("+", .plus), ("-", .minus), ("*", .times),
            ("/", .divide), ("%", .remainder),
        ]

        private mutating func peekOperator() -> Operator? {
            skipSpaces()
            return Self.operators.first { starts(with: $0.text) }?.op
        }

        private mutating func advanceOperator(_ op: Operator) {
            if let text = Self.operators.first(where: { $0.op == op })?.text { index += text.utf8.count }
        }

        private func starts(with text: String) -> Bool {
            let utf8 = Array(text.utf8)
            guard index + utf8.count <= bytes.count else { return false }
            return Array(bytes[index..<index + utf8.count]) == utf8
        }

        private mutating func consume(_ text: String) -> Bool {
            skipSpaces()
            guard starts(with: text) else { return false }
            index += text.utf8.count
            return true
        }

        private mutating func skipSpaces() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
    }
}
