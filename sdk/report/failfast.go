package report

// ErrorKindFailFast is the Error.Kind of a test that was not started
// because the run stopped after its allowed failures (mcptest run -x,
// --max-failures N). Such a test is skipped; reporters may count these
// tests rather than list each one.
const ErrorKindFailFast = "fail_fast"
