// The slider renderer: paints a SliderScene into a caller-owned ARGB8888 buffer, repainting
// only the damaged rectangles.
//
// Layers, bottom to top, each clipped to the damage: background (replaces old pixels) →
// track → value fill → thumb over its shadow (one cached sprite). Because every damaged pixel
// is rebuilt from the background up, a partial repaint is pixel-identical to a full one.
//
// Cost model: shapes are rasterized and composited once with pixman (the track over the
// background, empty and filled, per geometry; the thumb sprite, alone and over the background,
// per radius and subpixel phase). A frame copies rows of those into the damage and blends only
// the sprite's pixels over the track (Backdrop.swift, FramePainter.swift): no pixman call, no
// allocation. scripts/bench-render measures it.
import Glibc
import SliderEngine

/// Draws sliders with pixman, caching every rasterized shape between frames.
///
/// Not thread-safe: use one renderer from one thread.
public final class SliderRenderer {
    /// The look; changing it drops whatever cached state depends on it.
    public var style: SliderStyle {
        didSet { restyle(from: oldValue) }
    }

    private var paints: Paints
    private var backdrop: Backdrop?
    private var thumbSprites = ThumbSpriteCache()
    private var thumbSpriteScale = 0.0
    private var trackRasterizations = 0

    /// Creates a renderer for `style`.
    public init(style: SliderStyle = SliderStyle()) {
        self.style = style
        paints = Paints(style)
    }

    /// How many shapes were rasterized into masks so far (track and thumb); a frame that
    /// only moves a resting thumb adds nothing.
    public var maskRasterizations: Int { trackRasterizations + thumbSprites.rasterizations }

    /// Paints `scene` at `scale` (buffer pixels per logical pixel) into `pixels`, a buffer of
    /// `layout`.
    ///
    /// Any finite scene is drawn, however degenerate (a zero-length track, a thumb of radius 0)
    /// or large: only what lands in the buffer is rasterized. An empty buffer (0 pixels wide or
    /// high) gets nothing. Nothing is allocated once the shapes of the scene are cached.
    ///
    /// - Parameter damage: the buffer rectangle to repaint (see `deviceDamage`); nil repaints the
    ///   whole buffer. Pixels outside it are left untouched.
    /// - Returns: the rectangle actually repainted, the damage clipped to the buffer (nil: none),
    ///   ready for `wl_surface.damage_buffer`.
    public func render(_ scene: SliderScene, scale: Double, into pixels: inout MutableRawSpan, layout: PixelLayout,
                       damage: PixelRect?) -> PixelRect? {
        Self.check(scene, scale: scale, layout: layout, byteCount: pixels.byteCount)
        guard let clipped = (damage ?? layout.bounds).intersection(layout.bounds) else { return nil }
        if scale != thumbSpriteScale {
            thumbSprites.removeAll()
            thumbSpriteScale = scale
        }
        let device = DeviceLayout(scene: scene, scale: scale, shape: style.trackShape)
        // Only the part of the track inside the buffer is rasterized: a track far larger than
        // the buffer costs no more than one that fits.
        let backdrop = device.trackBox.intersection(layout.bounds).map { cachedBackdrop(for: device, over: $0) }
        let thumb = thumbSprite(device, scale: scale, damage: clipped)
        pixels.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            let painter = FramePainter(
                canvas: PixelRows(base: base, stride: layout.stride), background: paints.backgroundARGB,
                backdrop: backdrop?.frame(fillEnd: device.fillEnd, paints: paints, area: clipped), thumb: thumb?.frame)
            painter.paint(clipped)
        }
        // The painter read the images' pixels through pointers: they must outlive it.
        withExtendedLifetime(backdrop) {}
        withExtendedLifetime(thumb) {}
        return clipped
    }

    /// Converts logical damage (thumb bounds, fill spans, as the engine reports them) into the
    /// buffer rectangle `render` repaints: their union.
    ///
    /// Each rectangle grows by what the renderer draws beyond the geometry (the thumb's
    /// shadow, antialiasing, and the sub-pixel snapping of track and thumb), is scaled,
    /// rounded outward to whole pixels and clipped to the buffer. The union of one frame's
    /// rectangles costs few extra pixels: the fill's change lies within the thumb's path.
    public func deviceDamage(forLogical rects: SmallList<SliderRect>, scale: Double, bufferWidth: Int, bufferHeight: Int) -> PixelRect? {
        let bounds = PixelRect(x: 0, y: 0, width: bufferWidth, height: bufferHeight)
        let outset = style.shadow ? ShadowLook.outset : 0
        // One extra buffer pixel covers snapping (≤ ½ px) and quantization (≤ ⅛ px).
        let margin = 1
        var result: PixelRect?
        // By index: iterating the list itself would copy it.
        for index in 0..<rects.count {
            let rect = rects[index]
            guard !rect.isEmpty && rect.x.isFinite && rect.y.isFinite && rect.maxX.isFinite && rect.maxY.isFinite else { continue }
            let left = Self.pixel(floor((rect.x - outset) * scale)) - margin
            let top = Self.pixel(floor((rect.y - outset) * scale)) - margin
            let right = Self.pixel(ceil((rect.maxX + outset) * scale)) + margin
            let bottom = Self.pixel(ceil((rect.maxY + outset) * scale)) + margin
            if let inside = PixelRect(x: left, y: top, width: right - left, height: bottom - top).intersection(bounds) {
                result = result.map { $0.union(inside) } ?? inside
            }
        }
        return result
    }

    /// A rounded coordinate as Int, clamped far outside any buffer (pixman's coordinates are
    /// 32-bit) so huge values cannot trap.
    private static func pixel(_ value: Double) -> Int {
        Int(min(max(value, -0x4000_0000), 0x4000_0000))
    }

    /// The caller's side of the contract: a finite positive scale, a buffer pixman can address
    /// (32-bit sizes and stride), a finite scene. Anything else is a programmer error.
    private static func check(_ scene: SliderScene, scale: Double, layout: PixelLayout, byteCount: Int) {
        precondition(scale.isFinite && scale > 0, "render: scale must be finite and positive, got \(scale)")
        precondition(layout.width >= 0 && layout.height >= 0 && layout.height <= Int(Int32.max),
                     "render: bad buffer size \(layout.width)x\(layout.height)")
        precondition(layout.width <= (Int(Int32.max) - 3) / 4 && layout.stride >= layout.width * 4
                     && layout.stride <= Int(Int32.max) && layout.stride % 4 == 0,
                     "render: stride \(layout.stride) must be a multiple of 4, at least \(layout.width) × 4 and fit 32 bits")
        precondition(byteCount >= layout.byteCount, "render: \(byteCount) bytes for a buffer of \(layout.byteCount)")
        let finite = scene.track.x.isFinite && scene.track.y.isFinite && scene.track.width.isFinite
            && scene.track.height.isFinite && scene.fillEnd.isFinite && scene.thumbCenter.x.isFinite
            && scene.thumbCenter.y.isFinite && scene.thumbRadius.isFinite
        precondition(finite, "render: scene geometry must be finite, got \(scene)")
    }

    private func restyle(from old: SliderStyle) {
        paints = Paints(style)
        if style.trackShape != old.trackShape || style.trackColor != old.trackColor || style.fillColor != old.fillColor
            || style.backgroundColor != old.backgroundColor {
            backdrop = nil
        }
        if style.shadow != old.shadow || style.thumbColor != old.thumbColor || style.backgroundColor != old.backgroundColor {
            thumbSprites.removeAll()
        }
    }
}

// MARK: - Layers

extension SliderRenderer {
    /// The background with the track over `box` (the track's part inside the buffer): its
    /// outline filled with the fill colour from the minimum end to `fillEnd` and the track
    /// colour beyond, the pixel row/column the boundary crosses getting the mix of both in
    /// proportion, so the fill's end is antialiased like every other edge. Rendered again only
    /// when the track's geometry changes (resize, new scale) or its colours do.
    private func cachedBackdrop(for layout: DeviceLayout, over box: PixelRect) -> Backdrop {
        if let cached = backdrop, cached.matches(layout, box: box) { return cached }
        // Drop the old one first: the two are never held at once.
        backdrop = nil
        let made = Backdrop(layout: layout, box: box, paints: paints)
        trackRasterizations += 1
        backdrop = made
        return made
    }

    /// The thumb and its shadow as one sprite (cached per radius and subpixel phase), placed at
    /// the thumb's whole-pixel centre (the sprite carries the subpixel phase); nil when no part
    /// of it is in the damage.
    ///
    /// A sprite larger than ``largestCachedSprite`` (a thumb hundreds of pixels across) is not
    /// cached: only its part inside the damage is rasterized, each frame, so a huge thumb costs
    /// memory in proportion to the buffer, not to its own size.
    private func thumbSprite(_ layout: DeviceLayout, scale: Double, damage: PixelRect) -> PlacedSprite? {
        guard layout.thumb.radius > 0 else { return nil }
        let key = ThumbKey(layout.thumb)
        let centre = (x: Int(floor(layout.thumb.centreX)), y: Int(floor(layout.thumb.centreY)))
        let sprite: ThumbSprite
        if let cached = thumbSprites.sprite(for: key) {
            sprite = cached
        } else {
            let (shadow, color, background) = (style.shadow, style.thumbColor.premultipliedARGB, paints.background)
            let box = ThumbSprite.box(for: key, scale: scale, shadow: shadow)
            let placed = PixelRect(x: box.x + centre.x, y: box.y + centre.y, width: box.width, height: box.height)
            guard let visible = placed.intersection(damage) else { return nil }
            if box.area <= Self.largestCachedSprite {
                sprite = ThumbSprite(key: key, scale: scale, color: color, shadow: shadow, background: background)
                thumbSprites.add(sprite, for: key)
            } else {
                let part = PixelRect(x: visible.x - centre.x, y: visible.y - centre.y, width: visible.width, height: visible.height)
                sprite = ThumbSprite(key: key, scale: scale, color: color, shadow: shadow, background: background, over: part)
            }
        }
        let at = sprite.placed.moved(by: centre.x, centre.y)
        return at.intersection(damage) == nil ? nil : PlacedSprite(sprite: sprite, at: at)
    }

    /// The most pixels a cached thumb sprite may have: 1024 × 1024 (8 MiB with its copy over the
    /// background; a grown thumb at scale 10 needs about 550 × 550).
    static let largestCachedSprite = 1 << 20
}

/// A thumb sprite and where it lands in the buffer for one frame.
private struct PlacedSprite {
    let sprite: ThumbSprite
    let at: PixelRect

    /// The painter's view of it; valid while the sprite lives.
    var frame: SpriteFrame {
        guard let pixels = sprite.placed.image.rows, let ready = sprite.onBackground.rows else {
            preconditionFailure("ThumbSprite: its images own their pixels")
        }
        return SpriteFrame(placed: at, sprite: pixels, onBackground: ready)
    }
}

/// The solid colours of one style, premultiplied once.
struct Paints {
    let background: PixmanImage
    let track: PixmanImage
    let fill: PixmanImage
    let backgroundARGB: UInt32
    private let trackARGB: UInt32
    private let fillARGB: UInt32

    init(_ style: SliderStyle) {
        backgroundARGB = style.backgroundColor.premultipliedARGB
        background = PixmanImage(solidPremultiplied: backgroundARGB)
        trackARGB = style.trackColor.premultipliedARGB
        fillARGB = style.fillColor.premultipliedARGB
        track = PixmanImage(solidPremultiplied: trackARGB)
        fill = PixmanImage(solidPremultiplied: fillARGB)
    }

    /// The premultiplied blend of fill and track colours, `fillShare` of the fill.
    func mix(fillShare: Double) -> UInt32 {
        func channel(_ shift: UInt32) -> UInt32 {
            let f = Double((fillARGB >> shift) & 0xFF), t = Double((trackARGB >> shift) & 0xFF)
            return UInt32(f * fillShare + t * (1 - fillShare) + 0.5) << shift
        }
        return channel(24) | channel(16) | channel(8) | channel(0)
    }
}
