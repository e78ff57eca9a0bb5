import Foundation

/// A stack of undoable actions, grouped, with redo: Foundation's `UndoManager`, which
/// Foundation on Linux does not have.
///
/// Set one as a context's ``ManagedObjectContext/undoManager`` and the context records each
/// event's changes as one undoable group (see ``ManagedObjectContext/processPendingChanges()``).
/// You can also register your own actions with ``registerUndo(withTarget:handler:)``.
///
/// Actions are grouped: with ``groupsByEvent`` (the default), the first registration outside
/// an explicit group opens one, and a context's `processPendingChanges()` closes it (where
/// AppKit's run loop closes it on Apple platforms). ``beginUndoGrouping()`` and
/// ``endUndoGrouping()`` make explicit groups, which may nest; everything registered inside the
/// outermost one undoes together. ``undo()`` reverses the last group; actions registered while
/// it runs form the matching redo group, and ``redo()`` does the reverse. Registering a new
/// action (outside undo and redo) clears the redo stack.
///
/// ```swift
/// let undo = ObjectGraphUndoManager()
/// context.undoManager = undo
/// food.name = "Groceries"
/// context.processPendingChanges()
/// context.undo()                      // food.name is back
/// ```
///
/// - Important: Not thread-safe, as Foundation's: use it on the queue of the context it
///   serves.
/// - Note: Mirrors Foundation's `UndoManager` (`NSUndoManager`): `registerUndo(withTarget:handler:)`,
///   grouping, `groupsByEvent`, `levelsOfUndo`, `canUndo`/`canRedo`, `undoActionName`,
///   `removeAllActions()`, `disableUndoRegistration()`.
public final class ObjectGraphUndoManager: @unchecked Sendable {
    // Sendable: used on the queue of the context it serves only, as Foundation's UndoManager
    // is used on the main thread only; nothing here is shared between threads.
    /// One undo (or redo) step: its actions in registration order, and its name.
    struct Group {
        var actions: [() -> Void] = []
        var name = ""
    }

    private var undoStack: [Group] = []
    private var redoStack: [Group] = []
    /// Groups open for registration, outermost first.
    private var open: [Group] = []
    /// Whether the outermost open group was opened automatically (``groupsByEvent``).
    private var openedByEvent = false
    private var disabledCount = 0
    private enum Mode { case normal, undoing, redoing }
    private var mode = Mode.normal

    /// Whether a registration outside any group opens one automatically, closed at the end of
    /// the event (a context's `processPendingChanges()`). Default `true`.
    public var groupsByEvent = true
    /// How many groups the undo stack keeps; `0` (the default) means no limit. The oldest
    /// groups go first.
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }

    /// Creates an empty undo manager.
    public init() {}

    /// How many groups are open (nested): `0` outside any group.
    public var groupingLevel: Int { open.count }
    /// Whether ``undo()`` has a group to undo: a closed one on the stack, or an open one that
    /// holds actions.
    public var canUndo: Bool {
        !undoStack.isEmpty || (open.first.map { !$0.actions.isEmpty } ?? false)
    }
    /// Whether ``redo()`` has a group to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// Whether ``undo()`` is running.
    public var isUndoing: Bool { mode == .undoing }
    /// Whether ``redo()`` is running.
    public var isRedoing: Bool { mode == .redoing }
    /// Whether registrations are recorded (``disableUndoRegistration()`` not in effect).
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }
    /// The name of the group ``undo()`` would reverse; empty when it has none.
    public var undoActionName: String { open.first?.name ?? undoStack.last?.name ?? "" }
    /// The name of the group ``redo()`` would replay; empty when it has none.
    public var redoActionName: String { redoStack.last?.name ?? "" }

    /// Names the group being built (shown as "Undo <name>" in a user interface).
    public func setActionName(_ name: String) {
        if open.isEmpty { return }
        open[open.count - 1].name = name
    }

    /// Records `handler` to run on `target` when the current group is undone (or redone, when
    /// registered while undoing).
    ///
    /// Does nothing while registration is disabled. The target is held weakly, as
    /// Foundation's manager does: when it is gone, the action does nothing.
    public func registerUndo<Target: AnyObject>(
        withTarget target: Target, handler: @escaping (Target) -> Void
    ) {
        guard disabledCount == 0 else { return }
        if open.isEmpty {
            guard groupsByEvent || mode != .normal else {
                preconditionFailure(
                    "ObjectGraphUndoManager: registerUndo outside a group with groupsByEvent off")
            }
            beginUndoGrouping()
            openedByEvent = mode == .normal
        }
        if mode == .normal { redoStack.removeAll() }
        open[open.count - 1].actions.append { [weak target] in
            if let target { handler(target) }
        }
    }

    /// Opens a group; groups nest, and the outermost one is what ``undo()`` reverses.
    public func beginUndoGrouping() {
        open.append(Group())
        openedByEvent = false
    }

    /// Closes the innermost open group, folding it into its enclosing one, or onto the undo
    /// stack (the redo stack while undoing) when it is the outermost. An empty group is
    /// dropped.
    ///
    /// - Precondition: a group is open.
    public func endUndoGrouping() {
        precondition(!open.isEmpty, "ObjectGraphUndoManager: endUndoGrouping without a group")
        let group = open.removeLast()
        if !open.isEmpty {
            open[open.count - 1].actions += group.actions
            if open[open.count - 1].name.isEmpty { open[open.count - 1].name = group.name }
            return
        }
        openedByEvent = false
        guard !group.actions.isEmpty else { return }
        switch mode {
        case .undoing: redoStack.append(group)
        case .normal, .redoing:
            undoStack.append(group)
            trim()
        }
    }

    /// Closes the group ``groupsByEvent`` opened, if that is the only one open: the end of an
    /// event.
    func endEventGroup() {
        if openedByEvent && open.count == 1 { endUndoGrouping() }
    }

    /// Reverses the last group: closes the open event group first, then runs the group's
    /// actions in reverse order; what they register becomes the redo group.
    ///
    /// - Precondition: no explicit group is open (as Foundation, which raises).
    public func undo() {
        endEventGroup()
        precondition(open.isEmpty, "ObjectGraphUndoManager: undo() inside an open group")
        guard let group = undoStack.popLast() else { return }
        run(group, as: .undoing)
    }

    /// Replays the last undone group; what its actions register goes back on the undo stack.
    public func redo() {
        endEventGroup()
        precondition(open.isEmpty, "ObjectGraphUndoManager: redo() inside an open group")
        guard let group = redoStack.popLast() else { return }
        run(group, as: .redoing)
    }

    private func run(_ group: Group, as runMode: Mode) {
        mode = runMode
        beginUndoGrouping()
        for action in group.actions.reversed() { action() }
        setActionName(group.name)
        let registered = open.removeLast()
        mode = .normal
        guard !registered.actions.isEmpty else { return }
        if runMode == .undoing {
            redoStack.append(registered)
        } else {
            undoStack.append(registered)
            trim()
        }
    }

    /// Forgets every undo and redo group (and the open ones).
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        open.removeAll()
        openedByEvent = false
    }

    /// Stops recording registrations until the matching ``enableUndoRegistration()``; calls
    /// nest.
    public func disableUndoRegistration() { disabledCount += 1 }

    /// Resumes recording after ``disableUndoRegistration()``.
    ///
    /// - Precondition: registration is disabled.
    public func enableUndoRegistration() {
        precondition(disabledCount > 0, "ObjectGraphUndoManager: unbalanced enableUndoRegistration")
        disabledCount -= 1
    }

    private func trim() {
        if levelsOfUndo > 0 && undoStack.count > levelsOfUndo {
            undoStack.removeFirst(undoStack.count - levelsOfUndo)
        }
    }
}
