import Foundation

/// The colours a chart gives its categories: their own `colorHex`, except the model's
/// default `#FFFFFF` and any too light to see on white, which take the next unused colour
/// of a fixed palette.
enum ChartColors {
    /// The fixed palette, in the order it is handed out: ten distinct, saturated colours
    /// that read on white.
    static let palette = [
        "#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2", "#17BECF",
        "#BCBD22", "#7F7F7F",
    ]
    /// The colour of uncategorised spending.
    static let uncategorised = "#9E9E9E"
    /// The colour of the income line.
    static let income = "#212121"
    /// Relative luminance above which a colour is too light on white (white is 1; `#FFEB3B`
    /// yellow is 0.83, `#BDBDBD` light grey 0.51).
    static let lightest = 0.75

    /// The colour of each of `categories` (in order), given their own colours (by name).
    static func assign(_ categories: [String], own: [String: String]) -> [String] {
        let kept = categories.map { name -> String? in
            if name == LedgerReport.uncategorised { return uncategorised }
            guard let hex = own[name], let luminance = luminance(hex), luminance <= lightest
            else { return nil }
            return hex.uppercased()
        }
        var used = Set(kept.compactMap { $0 })
        var next = palette.makeIterator()
        var fallback = 0
        return kept.map { colour in
            if let colour { return colour }
            while let candidate = next.next() {
                // Skip a palette colour close to one in use (two greens side by side).
                if used.allSatisfy({ distance($0, candidate) >= minimumDistance }) {
                    used.insert(candidate)
                    return candidate
                }
            }
            // More categories than palette colours: reuse the palette, in order.
            defer { fallback += 1 }
            return palette[fallback % palette.count]
        }
    }

    /// The least RGB distance between a palette colour handed out and the colours in use.
    static let minimumDistance = 90.0

    /// The Euclidean distance between two `#RRGGBB` colours in RGB (0…441); 0 for other text.
    static func distance(_ a: String, _ b: String) -> Double {
        guard let x = UInt32(a.dropFirst(), radix: 16), let y = UInt32(b.dropFirst(), radix: 16)
        else { return 0 }
        let channels = [16, 8, 0].map { shift -> Double in
            Double((x >> shift) & 0xFF) - Double((y >> shift) & 0xFF)
        }
        return channels.map { $0 * $0 }.reduce(0, +).squareRoot()
    }

    /// The WCAG relative luminance of `#RRGGBB` (0 black … 1 white); `nil` for other text.
    static func luminance(_ hex: String) -> Double? {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16)
        else { return nil }
        func channel(_ shift: UInt32) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }
}
