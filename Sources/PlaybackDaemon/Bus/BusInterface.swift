/// One D-Bus interface, declared once: its name and members. The vtable sd-bus serves, the
/// introspection data it generates and the documentation follow from this declaration.
struct BusInterface: Sendable {
    let name: String
    let members: [BusMember]

    init(_ name: String, _ members: [BusMember]) {
        self.name = name
        self.members = members
    }

}

/// A named, typed argument of a method or signal.
struct BusArgument: Sendable, Equatable {
    let name: String
    /// Its D-Bus type signature (`x`, `o`, `s`, `a{sv}`).
    let type: String

    init(_ name: String, _ type: String) {
        self.name = name
        self.type = type
    }
}

/// One member of an interface.
struct BusMember: Sendable {
    /// How a property announces a new value.
    enum Emits: Sendable, Equatable {
        /// Never in `PropertiesChanged`; clients read it when they need it.
        case nothing
        /// In `PropertiesChanged`, with the new value.
        case change
        /// Fixed while the object exists.
        case constant
    }

    enum Kind: Sendable {
        case method(input: [BusArgument], output: [BusArgument])
        case signal([BusArgument])
        case property(type: String, writable: Bool, Emits)
    }

    let name: String
    let kind: Kind
    /// What it does, for the documentation.
    let summary: String

    static func method(
        _ name: String, _ input: [BusArgument] = [], output: [BusArgument] = [], _ summary: String
    ) -> BusMember {
        BusMember(name: name, kind: .method(input: input, output: output), summary: summary)
    }

    static func signal(_ name: String, _ arguments: [BusArgument], _ summary: String) -> BusMember {
        BusMember(name: name, kind: .signal(arguments), summary: summary)
    }

    static func property(
        _ name: String, _ type: String, writable: Bool = false, _ emits: Emits, _ summary: String
    ) -> BusMember {
        BusMember(name: name, kind: .property(type: type, writable: writable, emits), summary: summary)
    }

    /// Its type signature as introspection shows it: the arguments of a method or signal
    /// (inputs, then `→` and outputs), or a property's type.
    var signature: String {
        switch kind {
        case .method(let input, let output):
            input.map(\.type).joined() + (output.isEmpty ? "" : " → " + output.map(\.type).joined())
        case .signal(let arguments): arguments.map(\.type).joined()
        case .property(let type, _, _): type
        }
    }
}
