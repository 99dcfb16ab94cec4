package pluginrpc

// SetWarmReportTypes replaces what a render does to warm the report types
// while it waits for events, and returns the restore function.
func SetWarmReportTypes(f func()) (restore func()) {
	old := warmReportTypes
	warmReportTypes = f
	return func() { warmReportTypes = old }
}

// ReceivedWaiting is how many received packed requests still hold a pooled
// buffer (for tests of the external package: none once a call returned).
func ReceivedWaiting() int { return received.len() }

// ForgetReceived drops what other tests left waiting (requests decoded by
// the codec without a call to serve them).
func ForgetReceived() {
	received.mu.Lock()
	defer received.mu.Unlock()
	received.slots = nil
}
