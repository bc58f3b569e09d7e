// Rasterized shapes, made once and reused every frame: the track as an 8-bit coverage mask,
// the thumb (with its shadow) as a ready-made premultiplied sprite.
import Glibc

/// A rasterized image and where its top-left pixel lands.
struct PlacedImage {
    let image: PixmanImage
    /// In buffer pixels for the track; relative to the thumb's whole-pixel centre for the sprite.
    let box: PixelRect

    /// An 8-bit coverage mask of `coverage(column, row)` (buffer pixel coordinates) over `box`.
    init(maskOver box: PixelRect, coverage: (Int, Int) -> Double) {
        self.box = box
        image = PixmanImage(alphaWidth: box.width, height: box.height) { column, row in
            alphaByte(coverage(box.x + column, box.y + row))
        }
    }

    /// A premultiplied ARGB image of `pixel(column, row)` (buffer pixel coordinates) over `box`.
    init(spriteOver box: PixelRect, pixel: (Int, Int) -> UInt32) {
        self.box = box
        image = PixmanImage(argbWidth: box.width, height: box.height) { column, row in
            pixel(box.x + column, box.y + row)
        }
    }

    func moved(by dx: Int, _ dy: Int) -> PixelRect {
        PixelRect(x: box.x + dx, y: box.y + dy, width: box.width, height: box.height)
    }
}

/// What identifies a thumb sprite once scale and style are fixed: the quantized radius and
/// the centre's subpixel phase on each axis.
struct ThumbKey: Hashable {
    var radiusSteps: Int
    var phaseX: Int
    var phaseY: Int

    init(_ thumb: Disc) {
        radiusSteps = Int((thumb.radius * ThumbQuantum.radiusSteps).rounded())
        phaseX = Int(((thumb.centreX - floor(thumb.centreX)) * ThumbQuantum.positionSteps).rounded())
        phaseY = Int(((thumb.centreY - floor(thumb.centreY)) * ThumbQuantum.positionSteps).rounded())
    }

    /// The disc this key stands for, centred in the pixel square (0, 0)...(1, 1).
    var disc: Disc {
        Disc(centreX: Double(phaseX) / ThumbQuantum.positionSteps, centreY: Double(phaseY) / ThumbQuantum.positionSteps,
             radius: Double(radiusSteps) / ThumbQuantum.radiusSteps)
    }
}

/// The thumb disc composited over its drop shadow into one premultiplied sprite, so a frame
/// draws the thumb with a single composite. The box is relative to the pixel containing the
/// thumb's centre.
final class ThumbSprite {
    let placed: PlacedImage
    /// The sprite composited over the background colour: what it makes of plain background.
    let onBackground: PixmanImage

    /// Rasterizes the thumb of `key` at `scale` in `color` (premultiplied ARGB); `shadow` adds
    /// the blurred drop shadow beneath it. `part` limits it to those pixels of its box (relative
    /// to the centre pixel, as the box is).
    init(key: ThumbKey, scale: Double, color: UInt32, shadow: Bool, background: PixmanImage, over part: PixelRect? = nil) {
        let disc = key.disc
        var cast = disc
        cast.centreY += ShadowLook.offsetY * scale
        let sigma = ShadowLook.sigma * scale
        let whole = Self.box(for: key, scale: scale, shadow: shadow)
        let box = part.map { whole.intersection($0) ?? PixelRect(x: whole.x, y: whole.y, width: 0, height: 0) } ?? whole
        let thumb = (a: Double(color >> 24), r: Double((color >> 16) & 0xFF), g: Double((color >> 8) & 0xFF), b: Double(color & 0xFF))
        placed = PlacedImage(spriteOver: box) { column, row in
            let x = Double(column) + 0.5, y = Double(row) + 0.5
            let cover = edgeCoverage(disc.signedDistance(x: x, y: y))
            let dark = shadow ? ShadowLook.opacity * Disc.blurredCoverage(distance: cast.signedDistance(x: x, y: y), sigma: sigma) : 0
            // Premultiplied "thumb over shadow": the shadow is black, so it only adds alpha.
            let alpha = thumb.a * cover + 255 * dark * (1 - thumb.a * cover / 255)
            func byte(_ v: Double) -> UInt32 { v > 0 ? UInt32(min(v, 255) + 0.5) : 0 }
            return byte(alpha) << 24 | byte(thumb.r * cover) << 16 | byte(thumb.g * cover) << 8 | byte(thumb.b * cover)
        }
        onBackground = PixmanImage(argbWidth: box.width, height: box.height)
        let all = PixelRect(x: 0, y: 0, width: box.width, height: box.height)
        onBackground.composite(.source, background, area: all)
        onBackground.composite(.over, placed.image, area: all)
    }

    /// The pixels the sprite of `key` covers, relative to the pixel containing the thumb's centre.
    static func box(for key: ThumbKey, scale: Double, shadow: Bool) -> PixelRect {
        let disc = key.disc
        guard shadow else { return box(around: disc) }
        var cast = disc
        cast.centreY += ShadowLook.offsetY * scale
        return box(around: disc).union(box(around: cast, reach: ShadowLook.reach * scale))
    }

    /// The pixels within `reach` of the disc's edge. Edges are clamped to ±2^26 pixels (the disc
    /// is at most 2^24 across; a shadow that reaches further comes only with an absurd scale).
    private static func box(around disc: Disc, reach: Double = 0) -> PixelRect {
        let extent = disc.radius + reach, limit = 4 * DeviceLayout.coordinateLimit
        func pixel(_ v: Double) -> Int { Int(min(max(v, -limit), limit)) }
        let left = pixel(floor(disc.centreX - extent)), top = pixel(floor(disc.centreY - extent))
        let right = pixel(ceil(disc.centreX + extent)), bottom = pixel(ceil(disc.centreY + extent))
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// A small least-recently-used cache of thumb sprites. A resting thumb needs one to four
/// entries (its subpixel phases while dragged); the grow animation passes through new radii,
/// each rasterized once, and evicts the oldest.
struct ThumbSpriteCache {
    static let capacity = 12
    private var entries: [(key: ThumbKey, sprite: ThumbSprite, lastUse: Int)] = []
    private var clock = 0
    /// How many sprites were rasterized (for tests and the benchmark).
    private(set) var rasterizations = 0

    /// The sprite of `key` if it is cached (it becomes the most recently used).
    mutating func sprite(for key: ThumbKey) -> ThumbSprite? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        clock += 1
        entries[index].lastUse = clock
        return entries[index].sprite
    }

    /// Caches `sprite` as the one of `key` (not cached yet), evicting the least recently used
    /// when full.
    mutating func add(_ sprite: ThumbSprite, for key: ThumbKey) {
        clock += 1
        rasterizations += 1
        if entries.count >= Self.capacity, let oldest = entries.indices.min(by: { entries[$0].lastUse < entries[$1].lastUse }) {
            entries.remove(at: oldest)
        }
        entries.append((key, sprite, clock))
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
