package pluginrpc

// SetWarmReportTypes replaces what a render does to warm the report types
// while it waits for events, and returns the restore function.
func SetWarmReportTypes(f func()) (restore func()) {
	old := warmReportTypes
	warmReportTypes = f
	return func() { warmReportTypes = old }
}
