// One frame's pixels, written row by row straight into the buffer: no pixman call per frame.
//
// Background, track and fill come from the backdrop (Backdrop.swift). The thumb's sprite is kept
// a second time composited over the background colour, so wherever the thumb lies over plain
// background (most of its rows) its pixels are copied as they are; only where it crosses the
// track's box is the sprite blended, four pixels at a time, with pixman's arithmetic
// (Blend.swift). Every pixel equals what compositing the layers one by one with pixman gives.

/// The thumb sprite placed in the buffer for one frame: its pixels, and the same pixels already
/// composited over the background.
struct SpriteFrame {
    /// Where the sprite lands, in buffer pixels.
    let placed: PixelRect
    let sprite: PixelRows
    let onBackground: PixelRows
}

/// Paints one frame's damage row by row: background, track and fill from the backdrop, then the
/// thumb. Where the thumb lies over plain background its pixels are copied from the sprite
/// pre-composited over the background; only where it crosses the track's box is it blended.
struct FramePainter {
    let canvas: PixelRows
    let background: UInt32
    let backdrop: BackdropFrame?
    let thumb: SpriteFrame?

    func paint(_ area: PixelRect) {
        let (x0, x1) = (area.x, area.maxX)
        let rows = area.y..<area.maxY
        // The thumb's columns inside the area, [start, end), and its rows there.
        let placed = thumb?.placed ?? PixelRect(x: x0, y: 0, width: 0, height: 0)
        let start = min(max(placed.x, x0), x1), end = max(min(placed.maxX, x1), start)
        let thumbRows = start < end ? rows.clamped(to: placed.y..<placed.maxY) : rows.lowerBound..<rows.lowerBound
        // The track box's columns inside the area, [left, right), and its rows there.
        let box = backdrop?.box ?? PixelRect(x: x0, y: 0, width: 0, height: 0)
        let left = min(max(box.x, x0), x1), right = max(min(box.maxX, x1), left)
        let trackRows = left < right ? rows.clamped(to: box.y..<box.maxY) : rows.lowerBound..<rows.lowerBound

        // Background and track. Rows the thumb crosses off the track leave its columns to it.
        for y in rows where !trackRows.contains(y) {
            let out = canvas.argb(y)
            if thumbRows.contains(y) {
                fillPixels(out + x0, background, count: start &- x0)
                fillPixels(out + end, background, count: x1 &- end)
            } else {
                fillPixels(out + x0, background, count: x1 &- x0)
            }
        }
        if let backdrop {
            for y in trackRows {
                let out = canvas.argb(y)
                fillPixels(out + x0, background, count: left &- x0)
                backdrop.paintRow(y, from: left, to: right, into: out)
                fillPixels(out + right, background, count: x1 &- right)
            }
        }
        if let thumb { paint(thumb, rows: thumbRows, columns: start..<end, overTrack: trackRows, columns: left..<right) }
    }

    /// The thumb over `rows` × `columns`: blended where it crosses the track's box
    /// (`trackRows` × `trackColumns`), copied pre-composited over plain background elsewhere.
    private func paint(_ thumb: SpriteFrame, rows: Range<Int>, columns: Range<Int>, overTrack trackRows: Range<Int>,
                       columns trackColumns: Range<Int>) {
        let origin = thumb.placed.x
        var blend = columns.clamped(to: trackColumns)
        if !blend.isEmpty && blend.count < 4 && columns.count >= 4 {
            // Blending over plain background gives the pre-composited pixel too: widen the
            // blended part to four pixels, which blendPixels takes without a scalar tail.
            let upper = min(blend.lowerBound &+ 4, columns.upperBound)
            blend = upper &- 4..<upper
        }
        for y in rows {
            let out = canvas.argb(y), row = y &- thumb.placed.y
            let ready = thumb.onBackground.argb(row)
            // Copies `range` (buffer columns) of the sprite pre-composited over plain background.
            func copyReady(_ range: Range<Int>) {
                copyPixels(ready + (range.lowerBound &- origin), to: out + range.lowerBound, count: range.count)
            }
            guard trackRows.contains(y) && !blend.isEmpty else {
                copyReady(columns)
                continue
            }
            copyReady(columns.lowerBound..<blend.lowerBound)
            blendPixels(thumb.sprite.argb(row) + (blend.lowerBound &- origin), onto: out + blend.lowerBound, count: blend.count)
            copyReady(blend.upperBound..<columns.upperBound)
        }
    }
}

/// `count` pixels of `source` composited over `destination` (pixman's OVER), four at a time,
/// skipping groups of four the source leaves as they are and copying those it covers.
@inline(__always)
private func blendPixels(_ source: UnsafeMutablePointer<UInt32>, onto destination: UnsafeMutablePointer<UInt32>, count: Int) {
    guard count >= 4 else {
        for i in 0..<count { destination[i] = over(source[i], onto: destination[i]) }
        return
    }
    func load(_ pixels: UnsafeMutablePointer<UInt32>, _ i: Int) -> SIMD4<UInt32> {
        UnsafeRawPointer(pixels + i).loadUnaligned(as: SIMD4<UInt32>.self)
    }
    func store(_ value: SIMD4<UInt32>, _ i: Int) {
        UnsafeMutableRawPointer(destination + i).storeBytes(of: value, as: SIMD4<UInt32>.self)
    }
    // The last four, worked out first from the untouched destination: the groups before may
    // overlap them, and give the same pixels there.
    let lastGroup = count &- 4
    let last = over(load(source, lastGroup), onto: load(destination, lastGroup))
    var i = 0
    while i < lastGroup {
        let pixels = load(source, i)
        if all(pixels .>= 0xFF00_0000) {
            store(pixels, i)
        } else if pixels != .zero {
            store(over(pixels, onto: load(destination, i)), i)
        }
        i &+= 4
    }
    store(last, lastGroup)
}

/// Sets `count` pixels to `value`.
@inline(__always)
func fillPixels(_ pixels: UnsafeMutablePointer<UInt32>, _ value: UInt32, count: Int) {
    guard count > 0 else { return }
    pixels.update(repeating: value, count: count)
}

/// Copies `count` pixels.
@inline(__always)
func copyPixels(_ source: UnsafeMutablePointer<UInt32>, to destination: UnsafeMutablePointer<UInt32>, count: Int) {
    guard count > 0 else { return }
    destination.update(from: source, count: count)
}
