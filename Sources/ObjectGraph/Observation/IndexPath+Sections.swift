import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
    // UIKit and AppKit add these to IndexPath on Apple platforms; Foundation on Linux does not,
    // so a fetched results controller's index paths read the same here.
    extension IndexPath {
        /// An index path for `item` in `section`: `[section, item]`.
        ///
        /// - Note: Mirrors UIKit's and AppKit's `IndexPath(item:section:)`.
        public init(item: Int, section: Int) { self.init(indexes: [section, item]) }

        /// An index path for `row` in `section`: `[section, row]`.
        ///
        /// - Note: Mirrors UIKit's `IndexPath(row:section:)`.
        public init(row: Int, section: Int) { self.init(indexes: [section, row]) }

        /// The section: the first index.
        ///
        /// - Precondition: The index path has two indexes.
        /// - Note: Mirrors UIKit's and AppKit's `IndexPath.section`.
        public var section: Int { self[0] }

        /// The item in the section: the second index.
        ///
        /// - Precondition: The index path has two indexes.
        /// - Note: Mirrors UIKit's and AppKit's `IndexPath.item`.
        public var item: Int { self[1] }

        /// The row in the section: the second index.
        ///
        /// - Precondition: The index path has two indexes.
        /// - Note: Mirrors UIKit's `IndexPath.row`.
        public var row: Int { self[1] }
    }
#endif
