import Foundation

extension Decimal {
    /// The decimal that `text` spells with `.` as its separator, whatever the process's locale:
    /// what `Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))` gives, without
    /// making a `Locale`.
    ///
    /// Foundation's `Decimal(string:locale:)` reads `.` as the separator when `locale` is `nil`
    /// (it consults no locale at all), and gives the same value as with `en_US_POSIX` on every
    /// input `DecimalPOSIXTextTests` tries. Making a `Locale` instead loads ICU's locale and number
    /// format data on first use: ≈ 3–4 MB of resident memory in every process that parses a
    /// decimal or compiles a predicate (docs/performance.md, the twenty-fifth session's `w7l`).
    /// Leading spaces are skipped and the longest prefix that spells a number is read, as
    /// `Decimal(string:locale:)` does; `nil` when no prefix does.
    package init?(posixText text: String) {
        self.init(string: text, locale: nil)
    }
}
