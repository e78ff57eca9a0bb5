/// The value one object's validation hands the per-key hook, held in one `Any?` for all of
/// that object's hook calls and freed as the `Any` it holds.
///
/// Passing each value straight (`validate(v, forKey:)`) made a temporary `Any?` per call,
/// which Swift freed through `Optional<Any>`'s generic value witness (the tag read through
/// `Any`'s, then `Any`'s own destroy): ≈ 80 instructions a call, whatever the value. Here the
/// box is made in place, passed to the hook as it is (a local, borrowed without a copy), and
/// when the next value replaces it, or ``empty()`` ends it, a non-nil one is freed as the
/// `Any` it is: the `.some` payload of an `Any?` is the `Any` itself, at the same address,
/// so only the `Optional` layer is skipped (the value's own type frees it, a `String`'s
/// storage or an object reference released as before). The hook receives the same value
/// of the same type as before: only who frees the box changed.
///
/// Use: a local `var` for one object's steps, ``hold(_:)`` or ``holdNil()`` before each call,
/// ``pass(to:forKey:)`` for the call, ``empty()`` when done (also after a hook threw: the box
/// stays valid throughout, so a box left holding a value is still freed, generically, at
/// the end of its scope). The box keeps its last value until the next boxed step or the end
/// of the object's steps: a little longer than the per-call temporary it replaced.
///
/// `free` relies on `Any?` having `Any`'s layout (the `.some` payload at offset 0, `nil` in
/// the type word's extra inhabitants); `free` checks the sizes agree, a check folded away in
/// release builds where it holds.
struct HookValueBox: ~Copyable {
    /// The value for the next hook call: `nil`, or the last ``hold(_:)``'s value.
    private var value: Any? = nil

    /// Whether `value` holds something to free (`nil` holds nothing).
    private var holds = false

    /// Replaces the value with `v`, boxed as `Any` of type `T`.
    ///
    /// - Precondition: `T` is not an `Optional` (a nil value goes through ``holdNil()``, an
    ///   optional's payload through this after unwrapping): an optional would be boxed as
    ///   `Any`, not `nil`. Checked in debug builds (`T` conforms to `ExpressibleByNilLiteral`
    ///   only if it is an optional among the types validation boxes: `String`, `Double`,
    ///   `Date`, `UUID`, `Bool`, `Decimal`, `ManagedObject`); the check is compiled out of
    ///   release builds.
    /// - Complexity: O(1): the old value's type's destroy (none for a trivial value kept
    ///   inline) and `v`'s copy into the box.
    @inline(__always)
    mutating func hold<T>(_ v: T) {
        assert(!(T.self is any ExpressibleByNilLiteral.Type), "an Optional boxed as Any")
        let held = holds
        withUnsafeMutablePointer(to: &value) { box in
            if held { Self.free(box) }
            UnsafeMutableRawPointer(box).initializeMemory(as: Any?.self, repeating: v, count: 1)
        }
        holds = true
    }

    /// Replaces the value with `target`, or with `nil` when there is none: a to-one's
    /// destination for the hook, taken from the caller.
    ///
    /// Consumed, so the caller's copy ends here, where the box has made its own, and not
    /// after the hook call: bound by the caller (`if let target { hold(target) }`), the
    /// destination was copied out of the slot, copied again into the box, and the first
    /// copy released only after the hook returned (two retains and a release a to-one;
    /// one retain now).
    @inline(__always)
    mutating func hold(toOne target: consuming ManagedObject?) {
        switch consume target {
        case .some(let object): hold(object)
        case .none: holdNil()
        }
    }

    /// Replaces the value with `nil`.
    @inline(__always)
    mutating func holdNil() {
        let held = holds
        withUnsafeMutablePointer(to: &value) { box in
            if held { Self.free(box) }
            UnsafeMutableRawPointer(box).initializeMemory(
                as: Any?.self, repeating: nil, count: 1)
        }
        holds = false
    }

    /// Calls `object`'s per-key hook with the value held, for `key`.
    ///
    /// A borrowing method, so the box is read in place for the call: passed as a field of a
    /// `var`, `value` was copied into a temporary (and that copy freed generically) first.
    ///
    /// - Throws: what the hook throws.
    @inline(__always)
    borrowing func pass(to object: ManagedObject, forKey key: String) throws {
        try object.validate(value, forKey: key)
    }

    /// Frees the value held, leaving `nil`: call it when the object's hook calls are done.
    @inline(__always)
    mutating func empty() { if holds { holdNil() } }

    /// Frees the `.some` payload of `box` as the `Any` it is, leaving the memory
    /// uninitialized.
    ///
    /// - Precondition: `box` holds a non-nil value. `Any?` has `Any`'s size (checked here,
    ///   also in release builds, where the comparison of two constants is folded away).
    @inline(__always)
    private static func free(_ box: UnsafeMutablePointer<Any?>) {
        precondition(
            MemoryLayout<Any?>.size == MemoryLayout<Any>.size, "Any? is not laid out as Any")
        box.withMemoryRebound(to: Any.self, capacity: 1) { _ = $0.deinitialize(count: 1) }
    }
}
