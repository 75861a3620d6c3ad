#if canImport(Glibc)
    import Glibc
#endif

/// How playbackd names itself to a sound server, so that mixers (pavucontrol, GNOME's and KDE's
/// volume panels) show "playbackd" and role-based policies (ducking music during a call,
/// module-role-cork) apply to it as to a music player.
///
/// ALSA's `pulse` plugin opens its own libpulse context, named "ALSA plug-in [playbackd]", and
/// sets no role. libpulse applies `PULSE_PROP_OVERRIDE` to every context's properties after
/// the plugin's own, and the server copies a client's properties onto its streams.
public enum SoundServerIdentity {
    /// The properties, in libpulse's property-list syntax.
    public static let pulseProperties =
        "application.name=playbackd application.id=org.playbackd application.icon_name=audio-x-generic media.role=music"

    /// Sets `PULSE_PROP_OVERRIDE` unless the user set it. Call before any thread starts
    /// (`setenv` is not thread-safe) and before the device is opened.
    public static func applyToEnvironment() {
        setenv("PULSE_PROP_OVERRIDE", pulseProperties, 0)
    }
}
