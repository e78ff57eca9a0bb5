/// Tells whether a class of managed objects overrides the per-key validation hook
/// (``ManagedObject/validate(_:forKey:)``), so that validation skips the hook, and making its
/// value, for a class that does not: ManagedObject's own hook does nothing.
///
/// Swift has no API for "does this class override that method", but a class's metadata holds
/// its vtable: the entry of a method a class does not override is the superclass's
/// implementation, the very pointer ManagedObject's metadata holds in the same entry (a
/// subclass's metadata starts with its superclass's layout, so the entry is at the same
/// offset in every subclass's). The entry's offset is found once, by comparing the metadata
/// of ManagedObject and of two private subclasses that differ only in overriding the hook:
/// the one word in ManagedObject's part of the metadata where ManagedObject and the subclass
/// that inherits the hook agree, and the subclass that overrides it differs. When the layout
/// is not the expected one (metadata with Objective-C interoperability, whose fields sit
/// elsewhere) or no single such word is found, the offset is `nil` and every class counts as
/// overriding the hook: validation calls it for every key, as before.
///
/// Before this, a save handed every property of every inserted or updated object to the hook
/// (unless the class declared ``ManagedObject/validatedKeys``): each attribute's value boxed
/// as `Any`, each to-one's destination retained, and each to-many's members gathered into a
/// new `Set` (a retain and a hash of each member), for a hook that does nothing.
///
/// Concurrency: the offset is a lazily initialised global (thread-safe); the check reads
/// immutable class metadata.
///
/// A hook changed without a vtable, by `@_dynamicReplacement` of ManagedObject's method in a
/// build with `-enable-implicit-dynamic`, is not seen: a class that does not override the hook
/// then counts as not overriding it and the replacement is not called at save.
enum ValidationHookOverride {
    /// The byte offset, from a class's metadata address, of the vtable entry of
    /// ``ManagedObject/validate(_:forKey:)``; `nil` when it was not found.
    static let entryOffset: Int? = findEntryOffset()

    /// Whether `objectClass` (or a superclass of it below ManagedObject) overrides
    /// ``ManagedObject/validate(_:forKey:)``; `true` when that cannot be told.
    ///
    /// - Complexity: O(1): two loads and a comparison once the offset is known.
    static func isOverridden(by objectClass: ManagedObject.Type) -> Bool {
        if objectClass == ManagedObject.self { return false }
        guard let offset = entryOffset else { return true }
        return word(of: objectClass, at: offset) != word(of: ManagedObject.self, at: offset)
    }

    /// The keys a save hands `objectClass`'s hook: none when the class does not override it
    /// (see ``isOverridden(by:)``), else its ``ManagedObject/validatedKeys`` (`nil`: every
    /// key).
    static func hookedKeys(of objectClass: ManagedObject.Type) -> Set<String>? {
        isOverridden(by: objectClass) ? objectClass.validatedKeys : []
    }

    /// The word at byte `offset` of `type`'s class metadata.
    private static func word(of type: ManagedObject.Type, at offset: Int) -> UInt {
        // A class's metatype is its metadata's address.
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(fromByteOffset: offset, as: UInt.self)
    }

    /// Compares the metadata of ManagedObject, ``InheritsHook`` and ``OverridesHook`` word by
    /// word over ManagedObject's class members (its vtable among them); the one word where
    /// only ``OverridesHook`` differs is the hook's entry.
    private static func findEntryOffset() -> Int? {
        #if canImport(ObjectiveC)
            // Class metadata with Objective-C interoperability has three more words before
            // the fields read below: not supported, the hook is always called.
            return nil
        #else
            // Swift class metadata without Objective-C interoperability: the kind (0), the
            // superclass (8), flags and instance layout (16–31), the class object's size (32)
            // and address point (36), the type descriptor (40), the ivar destroyer (48), and
            // from 56 the class members (field offsets, generic arguments, vtable entries).
            let base = unsafeBitCast(ManagedObject.self, to: UnsafeRawPointer.self)
            let inherits = unsafeBitCast(InheritsHook.self, to: UnsafeRawPointer.self)
            let overrides = unsafeBitCast(OverridesHook.self, to: UnsafeRawPointer.self)
            // The layout is the one described when words are 8 bytes, both probes' superclass
            // is ManagedObject, and their class size and address point are ManagedObject's
            // (neither probe adds a member), so every read below stays inside the part of
            // the metadata that all three share.
            guard MemoryLayout<UInt>.size == 8,
                inherits.load(fromByteOffset: 8, as: UInt.self) == UInt(bitPattern: base),
                overrides.load(fromByteOffset: 8, as: UInt.self) == UInt(bitPattern: base),
                inherits.load(fromByteOffset: 32, as: UInt.self)
                    == base.load(fromByteOffset: 32, as: UInt.self),
                overrides.load(fromByteOffset: 32, as: UInt.self)
                    == base.load(fromByteOffset: 32, as: UInt.self)
            else { return nil }
            let classSize = Int(base.load(fromByteOffset: 32, as: UInt32.self))
            let addressPoint = Int(base.load(fromByteOffset: 36, as: UInt32.self))
            let end = classSize - addressPoint
            guard end > 56, end <= 1 << 16 else { return nil }
            var found: Int? = nil
            for offset in stride(from: 56, to: end - 7, by: 8) {
                let b = base.load(fromByteOffset: offset, as: UInt.self)
                let i = inherits.load(fromByteOffset: offset, as: UInt.self)
                let o = overrides.load(fromByteOffset: offset, as: UInt.self)
                guard b == i, i != o else { continue }
                if found != nil { return nil }
                found = offset
            }
            return found
        #endif
    }

    /// A subclass that inherits the hook; never instantiated.
    private final class InheritsHook: ManagedObject {}

    /// A subclass that overrides the hook and nothing else; never instantiated. Its body
    /// differs from ManagedObject's (which does nothing), so the optimiser cannot merge the
    /// two into one function.
    private final class OverridesHook: ManagedObject {
        override func validate(_ value: Any?, forKey key: String) throws {
            preconditionFailure("ValidationHookOverride.OverridesHook is never instantiated")
        }
    }
}
