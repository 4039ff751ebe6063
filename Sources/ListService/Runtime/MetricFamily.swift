/// One family of `/metrics`: its name, type and help, and its samples. Each owner of counters
/// (the engine, sessions, live lists, replication, access checks, the HTTP server) says what
/// its families are; `/metrics` only renders them.
package struct MetricFamily: Sendable {
    package enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// One value, under its labels (none for a family of one value), with a suffix to the
    /// family's name where the type asks for one (a histogram's `_bucket`, `_sum`, `_count`).
    package struct Sample: Sendable {
        package let suffix: String
        package let labels: [(name: String, value: String)]
        package let value: String
        /// An exemplar for the OpenMetrics format (`{trace_id="…"} 0.0004 1795400000.123`),
        /// which the Prometheus text format has no room for.
        package let exemplar: String?

        package init(suffix: String, labels: [(name: String, value: String)], value: String, exemplar: String? = nil) {
            (self.suffix, self.labels, self.value, self.exemplar) = (suffix, labels, value, exemplar)
        }
    }

    package let name: String
    package let kind: Kind
    package let help: String
    package let samples: [Sample]

    /// A family of one value.
    package init(_ name: String, _ kind: Kind, _ help: String, _ value: Int) {
        self.init(name, kind, help, samples: [Sample(suffix: "", labels: [], value: "\(value)")])
    }

    /// A family of one value per label value: `name{label="value"}`.
    package init(_ name: String, _ kind: Kind, _ help: String, label: String, _ values: [(String, Int)]) {
        self.init(name, kind, help, samples: values.map { Sample(suffix: "", labels: [(label, $0.0)], value: "\($0.1)") })
    }

    /// A histogram: the cumulative count at each upper bound (the last one `+Inf`), the sum and the count.
    package init(histogram name: String, _ help: String, bounds: [Double], cumulative: [Int], sum: Double, count: Int) {
        let buckets = zip(bounds.map { "\($0)" } + ["+Inf"], cumulative).map {
            Sample(suffix: "_bucket", labels: [("le", $0.0)], value: "\($0.1)")
        }
        self.init(
            name, .histogram, help,
            samples: buckets + [
                Sample(suffix: "_sum", labels: [], value: "\(sum)"), Sample(suffix: "_count", labels: [], value: "\(count)"),
            ])
    }

    /// A family of the samples given.
    package init(_ name: String, _ kind: Kind, _ help: String, samples: [Sample]) {
        self.name = name
        self.kind = kind
        self.help = help
        self.samples = samples
    }
}
