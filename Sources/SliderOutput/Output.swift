// Output sinks.
