import CBusShim
import CSystemd

#if canImport(Glibc)
    import Glibc
#endif

/// The `sd_bus_vtable` of one `BusInterface`, built by the C shim from the declaration, with
/// every method dispatched to one handler and every property to one getter and one setter (they
/// find the member by name). Owns the C strings the vtable points to.
final class BusVtable {
    let interface: BusInterface
    private(set) var table: UnsafeMutablePointer<sd_bus_vtable>
    private var strings: [UnsafeMutablePointer<CChar>] = []

    init(
        _ interface: BusInterface, method: sd_bus_message_handler_t, get: sd_bus_property_get_t,
        set: sd_bus_property_set_t
    ) {
        self.interface = interface
        var members: [playbackd_bus_member] = []
        for member in interface.members {
            members.append(BusVtable.cMember(member, keeping: &strings))
        }
        guard let table = playbackd_bus_vtable_new(members, members.count, method, get, set) else {
            fatalError("out of memory building the \(interface.name) vtable")
        }
        self.table = table
    }

    deinit {
        free(table)
        for string in strings { free(string) }
    }

    private static func cMember(
        _ member: BusMember, keeping strings: inout [UnsafeMutablePointer<CChar>]
    ) -> playbackd_bus_member {
        func keep(_ text: String) -> UnsafePointer<CChar> {
            let copy = strdup(text)!
            strings.append(copy)
            return UnsafePointer(copy)
        }
        /// Argument names as sd-bus wants them: each followed by a NUL, then the final NUL.
        func names(_ arguments: [BusArgument]) -> UnsafePointer<CChar> {
            let bytes: [CChar] = arguments.flatMap { Array($0.name.utf8CString) } + [0]
            let copy = malloc(bytes.count)!.assumingMemoryBound(to: CChar.self)
            copy.initialize(from: bytes, count: bytes.count)
            strings.append(copy)
            return UnsafePointer(copy)
        }
        var c = playbackd_bus_member()
        c.member = keep(member.name)
        c.result = keep("")
        c.names = keep("")
        c.emits = PLAYBACKD_BUS_EMITS_NOTHING
        switch member.kind {
        case .method(let input, let output):
            c.kind = PLAYBACKD_BUS_METHOD
            c.signature = keep(input.map(\.type).joined())
            c.result = keep(output.map(\.type).joined())
            c.names = names(input + output)
        case .signal(let arguments):
            c.kind = PLAYBACKD_BUS_SIGNAL
            c.signature = keep(arguments.map(\.type).joined())
            c.names = names(arguments)
        case .property(let type, let writable, let emits):
            c.kind = writable ? PLAYBACKD_BUS_WRITABLE_PROPERTY : PLAYBACKD_BUS_PROPERTY
            c.signature = keep(type)
            c.emits =
                switch emits {
                case .nothing: PLAYBACKD_BUS_EMITS_NOTHING
                case .change: PLAYBACKD_BUS_EMITS_CHANGE
                case .constant: PLAYBACKD_BUS_CONST
                }
        }
        return c
    }
}
