// The Wayland connection.
