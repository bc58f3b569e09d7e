// Connected regions of one part in a part map (4-neighbourhood), with the few statistics the
// probe needs: pixel count, centroid and bounding box.

/// A rectangle of pixels in image coordinates: columns `minX...maxX`, rows `minY...maxY`.
struct PixelBox: Equatable {
    var minX: Int, minY: Int, maxX: Int, maxY: Int

    var width: Int { maxX - minX + 1 }
    var height: Int { maxY - minY + 1 }

    /// True when `other` lies entirely inside.
    func contains(_ other: PixelBox) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    mutating func include(x: Int, y: Int) {
        minX = min(minX, x); maxX = max(maxX, x)
        minY = min(minY, y); maxY = max(maxY, y)
    }
}

/// One connected region.
struct Component {
    /// The index of the pixel the region was found from (any pixel of it).
    var seed = 0
    var count = 0
    var sumX = 0.0, sumY = 0.0
    var box = PixelBox(minX: .max, minY: .max, maxX: .min, maxY: .min)

    /// The centroid, in continuous image coordinates (pixel (x, y) covers [x, x+1) × [y, y+1)).
    var centroid: (x: Double, y: Double) { (sumX / Double(count) + 0.5, sumY / Double(count) + 0.5) }

    mutating func add(x: Int, y: Int) {
        count += 1
        sumX += Double(x)
        sumY += Double(y)
        box.include(x: x, y: y)
    }
}

/// Connected regions of a set of parts: a label per pixel (-1 outside the set) and each region's
/// statistics, indexed by label.
struct Labels {
    let labels: [Int32]
    let components: [Component]

    /// The label of the largest region, or nil when the set is absent.
    var largest: Int32? {
        components.indices.max { components[$0].count < components[$1].count }.map(Int32.init)
    }
}

extension PartMap {
    /// Labels the connected regions (4-neighbourhood) of pixels whose part is in `wanted`.
    func label(_ wanted: Set<Part>) -> Labels {
        let member = parts.map { wanted.contains($0) }
        var labels = [Int32](repeating: -1, count: width * height)
        var components: [Component] = []
        var stack: [Int] = []
        for start in 0..<(width * height) where member[start] && labels[start] < 0 {
            let label = Int32(components.count)
            var component = Component(seed: start)
            labels[start] = label
            stack.append(start)
            while let index = stack.popLast() {
                let x = index % width, y = index / width
                component.add(x: x, y: y)
                func visit(_ n: Int) {
                    if member[n] && labels[n] < 0 { labels[n] = label; stack.append(n) }
                }
                if x > 0 { visit(index - 1) }
                if x + 1 < width { visit(index + 1) }
                if y > 0 { visit(index - width) }
                if y + 1 < height { visit(index + width) }
            }
            components.append(component)
        }
        return Labels(labels: labels, components: components)
    }

    /// Whether any pixel within `reach` (Chebyshev distance) of (x, y) shows `part`.
    func near(x: Int, y: Int, reach: Int, _ part: Part) -> Bool {
        for ny in max(0, y - reach)...min(height - 1, y + reach) {
            for nx in max(0, x - reach)...min(width - 1, x + reach) where self[nx, ny] == part { return true }
        }
        return false
    }
}
