/* Intentionally empty: this target only carries headers (see include/). SwiftPM needs a source file. */
