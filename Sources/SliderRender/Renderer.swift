// The renderer.
