// Package jsonx holds the JSON helpers the core shares beyond what
// encoding/json offers: a fast decoder for values already known to be valid,
// and the bounds that keep untrusted JSON (a server's response, a plugin's
// failure detail) fit to embed in a report.
package jsonx
