@_spi(Reflection) import Swift

/// A property wrapper stored in managed objects: ``Attribute``, ``Relationship`` and
/// ``Transformable``, each carrying its explicit key's number.
@usableFromInline
protocol ManagedPropertyWrapper {
    /// The explicit key's number in `ExplicitKeys`; 0 for the property's name.
    var keyNumber: UInt16 { get }
}

extension Attribute: ManagedPropertyWrapper {}
extension Relationship: ManagedPropertyWrapper {}
extension Transformable: ManagedPropertyWrapper {}

/// Which wrapped property an accessor serves: the offset of the wrapper's storage in the
/// object, and the wrapper's explicit key number.
///
/// Made in the wrappers' inlinable accessors from the storage key path, which is only
/// projected (`&object[keyPath: storage]`), never kept: an optimised client build folds the
/// projection to the field's constant offset and a load of the key number, so no access makes
/// a key path (`swift_getKeyPath`, an atomic retain and a release in the caller: 6 of the ≈ 107
/// atomic calls an inserted object cost in W1). Any other use of the key path, even on a cold
/// path (a probe, a trap's message), would make it on every access; so the property's name is
/// read from the class's field metadata instead (``PropertyKeys/fieldName(of:offset:)``).
@usableFromInline
struct WrapperSite {
    /// The bits an offset may use in ``PropertyKeys``' table key: objects of up to 1 MiB.
    static let offsetBits: UInt = 20

    /// The byte offset of the wrapper's storage from the object's start.
    @usableFromInline let offset: Int
    /// The wrapper's ``ManagedPropertyWrapper/keyNumber``.
    @usableFromInline let keyNumber: UInt16

    /// The site of the wrapper `storage` leads to in `object`.
    ///
    /// - Precondition: The storage lies in the object's first MiB (a constant check, folded
    ///   away in an optimised build).
    @inlinable @inline(__always)
    init<Object: ManagedObject, Wrapper: ManagedPropertyWrapper>(
        _ object: Object, _ storage: ReferenceWritableKeyPath<Object, Wrapper>
    ) {
        let base = UInt(bitPattern: ObjectIdentifier(object))
        let (offset, keyNumber) = withUnsafeMutablePointer(to: &object[keyPath: storage]) {
            (Int(bitPattern: UInt(bitPattern: $0) &- base), $0.pointee.keyNumber)
        }
        precondition(
            offset > 0 && offset < 1 << 20, "ObjectGraph: a wrapper beyond an object's first MiB")
        self.offset = offset
        self.keyNumber = keyNumber
    }
}

extension PropertyKeys {
    /// `[.classType, .ignoreUnknown]` for `_forEachField`: a class's fields, its
    /// superclasses' included, skipping fields of types it cannot describe. (Spelt by value:
    /// the options' static properties are `var`s, which Swift 6 refuses to read.)
    static let fieldOptions = _EachFieldOptions(rawValue: 0b11)

    /// The name of the property whose wrapper is stored at `offset` in objects of
    /// `objectClass` (or a superclass): the stored field's name without its `_`
    /// (`@Attribute var title` is stored as `_title`).
    ///
    /// Read from the class's reflection metadata with the standard library's `_forEachField`
    /// (an SPI, imported as `@_spi(Reflection)`): if it is renamed or removed, the module no
    /// longer builds; if it stops finding the field, this traps, naming the class and offset.
    ///
    /// - Precondition: A wrapper is stored at `offset`.
    static func fieldName(of objectClass: AnyClass, offset: Int) -> String {
        var found: String?
        _ = _forEachField(of: objectClass, options: fieldOptions) {
            name, fieldOffset, type, _ in
            // The wrapper's type too: a zero-sized field can share an offset with the next.
            guard fieldOffset == offset, type is any ManagedPropertyWrapper.Type else {
                return true
            }
            found = String(cString: name)
            return false
        }
        guard var name = found else {
            preconditionFailure(
                """
                ObjectGraph: no @Attribute, @Relationship or @Transformable stored at offset \
                \(offset) of \(objectClass) in its field metadata (a wrapper whose storage key \
                path is computed, as in a generic subclass of a class from a module built with \
                library evolution, cannot be located)
                """)
        }
        if name.hasPrefix("_") { name.removeFirst() }
        return name
    }
}
