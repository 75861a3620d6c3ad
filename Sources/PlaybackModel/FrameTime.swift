/// Frames and seconds at a sample rate: the one place either becomes the other.
public enum FrameTime {
    /// Seconds that `frames` last at `rate` frames a second.
    public static func seconds(_ frames: Int, rate: Int) -> Double { Double(frames) / Double(rate) }

    /// The frames `seconds` last at `rate`, rounded to the nearest.
    public static func frames(_ seconds: Double, rate: Int) -> Int { Int((seconds * Double(rate)).rounded()) }
}
