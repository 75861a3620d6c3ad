/// The version both executables report.
public enum PlaybackdVersion {
    public static let current = "0.1.0"
}
