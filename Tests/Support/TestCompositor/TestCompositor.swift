// The test compositor.
