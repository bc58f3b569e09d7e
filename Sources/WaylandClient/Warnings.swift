// Which survived problems have been reported: each kind once per connection, so a compositor
// repeating the same nonsense (a configure storm, a scale sent again and again) costs one line on
// stderr, not thousands. Pure, so the rule is unit-tested.

/// A kind of problem wlslider survives and reports once.
enum WarningTopic: Hashable, Sendable, CaseIterable {
    /// `wl_output.scale` above `SurfaceScale.maximumFactor`.
    case outputScale
    /// `wp_fractional_scale_v1.preferred_scale` outside ¼…16.
    case fractionalScale
    /// A configured size (at the current scale) beyond `BufferLimits`.
    case surfaceSize
    /// A negative `xdg_toplevel.configure` size.
    case negativeSize
    /// A title longer than a Wayland message can carry.
    case title
    /// A keymap that cannot be used (reported again after a usable one arrived).
    case keymap
    /// libxkbcommon could not be loaded: keys are ignored.
    case keyboardLibrary
    /// libwayland-cursor could not be loaded: the pointer gets no cursor image from wlslider.
    case cursorLibrary
    /// The window has no title bar: no xdg-decoration and no libdecor, client-side mode
    /// configured, or a libdecor error.
    case decorations
}

/// The topics reported so far, and the messages waiting for someone to print them.
struct WarningLog {
    private(set) var reported: Set<WarningTopic> = []
    /// Messages of warnings raised before anyone listened (while connecting).
    private(set) var held: [String] = []

    /// Whether a warning about `topic` is news: true the first time (until `resolved`).
    mutating func isNews(_ topic: WarningTopic) -> Bool {
        reported.insert(topic).inserted
    }

    /// The problem went away (a usable keymap replaced a broken one): the next one is news again.
    mutating func resolved(_ topic: WarningTopic) {
        reported.remove(topic)
    }

    /// Keeps a message until a receiver is set.
    mutating func hold(_ message: String) {
        held.append(message)
    }

    /// The held messages, in order; none are held afterwards.
    mutating func takeHeld() -> [String] {
        defer { held.removeAll() }
        return held
    }
}
