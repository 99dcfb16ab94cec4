// Package vendor holds what the provider plugins share around their
// vendors' SDKs: one HTTP transport that retries rate limits and server
// errors with a bounded backoff honouring retry-after, records each reply's
// status and the head of its body, and the error messages built from that
// record (a refused key names its variable, a malformed reply quotes the
// body), with the key masked everywhere.
package vendor
