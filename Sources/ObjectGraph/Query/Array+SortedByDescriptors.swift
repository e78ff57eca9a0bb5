import Foundation

extension Array {
    /// The elements ordered by `descriptors` in turn: the first descriptor that tells two
    /// elements apart decides, and elements none tells apart keep their order (a stable
    /// sort). The one loop behind sorting by sort descriptors, whatever they compare.
    ///
    /// ```swift
    /// let sorted = objects.sorted(by: compiled) { sort, a, b in
    ///     sort.compare(ObjectRecord(a), ObjectRecord(b))
    /// }
    /// ```
    ///
    /// - Complexity: O(*n* log *n*) comparisons, each trying the descriptors in order.
    func sorted<Descriptor>(
        by descriptors: [Descriptor],
        _ compare: (Descriptor, Element, Element) throws -> ComparisonResult
    ) rethrows -> [Element] {
        guard !descriptors.isEmpty else { return self }
        return try enumerated().sorted { a, b in
            for descriptor in descriptors {
                switch try compare(descriptor, a.element, b.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}
