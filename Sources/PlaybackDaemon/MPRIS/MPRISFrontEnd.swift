import ControlProtocol
import PlaybackModel
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// MPRIS2 on the session bus as a front end of `PlayerService`, beside the socket: method calls
/// and property writes become the same typed commands (a disabled command is refused with a
/// D-Bus error), and properties and signals come from the published snapshots. On each
/// published change it announces, in one `PropertiesChanged` per interface, exactly the
/// properties whose values differ from what it announced last, and `Seeked` when the position
/// jumped within the item. With no bus it waits for one without waking up; when the bus goes
/// away it waits again. Event loop only.
final class MPRISFrontEnd: Subsystem, BusObject {
    private let loop: EventLoop
    /// Carries out a command and replies (`CommandRouter.handle`).
    private let handle: (Command, @escaping (CommandResult) -> Void) -> Void
    /// The player's view now, for property reads (`PlayerService.view`).
    private let current: () -> PlayerView
    private let log: DaemonLog
    private let quit: () -> Void
    private var isEnabled: Bool
    private var connection: BusConnection?
    private let watch: SessionBusWatch
    /// Drops a bus that went away, outside sd-bus's own dispatch.
    private let dropTimer: OneShotTimer
    private var published: MPRISView
    /// The last announced value of every announced property, by "interface.property".
    private var announced: [String: BusValue] = [:]
    /// Whether the missing bus was logged; said again only after the bus was joined once more.
    private var hasReportedNoBus = false
    /// The name owned on the bus, once granted.
    private(set) var busName: String?

    init(
        enabled: Bool, loop: EventLoop, environment: Environment, log: DaemonLog,
        handle: @escaping (Command, @escaping (CommandResult) -> Void) -> Void,
        current: @escaping () -> PlayerView, quit: @escaping () -> Void
    ) {
        isEnabled = enabled
        self.loop = loop
        self.handle = handle
        self.current = current
        self.log = log
        self.quit = quit
        watch = SessionBusWatch(loop: loop, socketPath: SessionBusAddress.socketPath(environment: environment))
        dropTimer = OneShotTimer(loop: loop)
        published = MPRISView(
            snapshot: NowPlaying(
                state: .stopped, item: nil, elapsed: 0, rate: 0, timestamp: 0, queueIndex: nil, queueCount: 0),
            availability: CommandAvailability(disabled: [], skipForwardIntervals: [], skipBackwardIntervals: []))
    }

    func ready(_ view: PlayerView) {
        published = MPRISView(snapshot: view.nowPlaying, availability: view.availability)
        if isEnabled { joinOrWait() }
    }

    func publish(_ view: PlayerView, changes: ChangeSet, events: [PlayerEvent]) {
        let previous = published.snapshot
        let snapshot = view.nowPlaying
        published = MPRISView(snapshot: snapshot, availability: view.availability)
        guard let connection else { return }
        for interface in MPRIS.interfaces {
            connection.emitPropertiesChanged(
                at: MPRIS.objectPath, interface: interface.name, changedProperties(of: interface))
        }
        if snapshot.jumped(from: previous) {
            connection.emitSignal(
                at: MPRIS.objectPath, interface: MPRIS.player.name, "Seeked", [.int64(published.positionMicroseconds)])
        }
    }

    /// What a client reading a property or calling a method sees: the state now, as the
    /// socket's `nowPlaying` reports it (a change may wait to be announced until the device
    /// plays), with the position extrapolated from it.
    private var currentView: MPRISView {
        let view = current()
        return MPRISView(snapshot: view.nowPlaying, availability: view.availability)
    }

    func reload(_ settings: DaemonSettings) {
        guard settings.mpris != isEnabled else { return }
        isEnabled = settings.mpris
        if isEnabled {
            joinOrWait()
        } else {
            leave()
            log.notice("left the session bus (mpris = false)", event: "mpris-off")
        }
    }

    func stop(_ last: PlayerView) { leave() }

    // MARK: Joining and leaving the bus

    /// Joins the bus, or waits for one to appear (`SessionBusWatch` calls `join` again).
    private func joinOrWait() {
        if !join() { watch.wait { [unowned self] in join() } }
    }

    /// Connects, serves the object, then asks for the name (shells find players by the name
    /// appearing, so the object must be there first). Returns whether it connected.
    private func join() -> Bool {
        do throws(BusConnectionError) {
            let connection = try BusConnection(loop: loop, description: "playbackd-mpris") { [unowned self] in
                dropTimer.arm(after: 0) { [unowned self] in busWentAway() }
            }
            try connection.addObject(self, at: MPRIS.objectPath, interfaces: MPRIS.interfaces.map(\.bus))
            self.connection = connection
        } catch {
            if !hasReportedNoBus {
                hasReportedNoBus = true
                log.notice("no session bus (\(error)): MPRIS starts when one appears", event: "mpris-waiting")
            }
            return false
        }
        watch.cancel()
        for interface in MPRIS.interfaces { _ = changedProperties(of: interface) }
        requestName(MPRIS.busName, orInstanceName: true)
        return true
    }

    private func requestName(_ name: String, orInstanceName: Bool) {
        connection?.requestName(name) { [unowned self] result in
            switch result {
            case .acquired:
                busName = name
                hasReportedNoBus = false
                log.notice("on the session bus as \(name)", event: "mpris-ready")
            case .taken where orInstanceName:
                requestName("\(MPRIS.busName).instance\(getpid())", orInstanceName: false)
            case .taken:
                log.warning("the bus name \(name) is taken; MPRIS is not available", event: "mpris-failed")
            case .failed(let reason):
                log.warning("cannot own \(name) on the session bus: \(reason)", event: "mpris-failed")
            }
        }
    }

    private func busWentAway() {
        guard connection != nil else { return }
        leave()
        log.notice("the session bus went away; MPRIS starts again when it is back", event: "mpris-waiting")
        hasReportedNoBus = true
        if isEnabled { joinOrWait() }
    }

    private func leave() {
        watch.cancel()
        dropTimer.cancel()
        connection?.close()
        connection = nil
        busName = nil
        announced = [:]
    }

    /// The announced properties of `interface` whose values differ from the last announced
    /// ones, which it records as announced.
    private func changedProperties(of interface: MPRISInterface) -> [String] {
        var names: [String] = []
        for property in interface.properties {
            guard case .property(_, _, .change) = property.member.kind else { continue }
            let key = interface.name + "." + property.member.name
            let value = property.value(published)
            if announced[key] != value {
                announced[key] = value
                names.append(property.member.name)
            }
        }
        return names
    }

    // MARK: BusObject

    func handleCall(_ call: BusMethodCall) {
        guard let method = MPRIS.interfaces.first(where: { $0.name == call.interface })?.method(call.member) else {
            return call.reply(
                .failure(
                    BusCallError(
                        name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(call.member)")))
        }
        do throws(BusCallError) {
            perform(try method.action(call.arguments, currentView)) { call.reply($0.map { [] }) }
        } catch {
            call.reply(.failure(error))
        }
    }

    func value(of property: String, in interface: String) -> BusValue? {
        MPRIS.interfaces.first { $0.name == interface }?.property(property)?.value(currentView)
    }

    func set(_ property: String, in interface: String, from reader: BusMessageReader) throws(BusCallError) {
        guard let write = MPRIS.interfaces.first(where: { $0.name == interface })?.property(property)?.write else {
            throw BusCallError(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "\(property) is read-only")
        }
        var failure: BusCallError?
        perform(try write(reader, currentView)) { result in
            if case .failure(let error) = result { failure = error }
        }
        if let failure { throw failure }
    }

    /// Carries out an action; `done` learns how it went (at once, except for an enqueue).
    private func perform(_ action: MPRISAction, done: @escaping (Result<Void, BusCallError>) -> Void) {
        switch action {
        case .nothing: done(.success(()))
        case .quit:
            done(.success(()))
            log.notice("asked to quit over MPRIS", event: "stopping")
            quit()
        case .command(let command):
            handle(command) { result in
                done(
                    result.map { _ in () }.mapError {
                        BusCallError(name: MPRIS.errorName($0.status), message: $0.message)
                    })
            }
        }
    }
}

extension MPRIS {

    /// The D-Bus error name of a refused command: `org.playbackd.Error.CommandDisabled`.
    static func errorName(_ status: CommandStatus) -> String {
        errorPrefix + status.rawValue.prefix(1).uppercased() + status.rawValue.dropFirst()
    }
}
