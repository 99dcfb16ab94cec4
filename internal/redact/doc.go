// Package redact is mcptest's one redactor: it masks the values of known
// secrets (bearer tokens, env-backed headers, OAuth credentials, provider
// keys) in every text mcptest writes, records or prints.
//
// Servers are not trusted and do not all encode JSON the way Go does: a
// secret echoed back may arrive with "/" written as "\/", any character
// written as \uXXXX (either hex case, astral characters as surrogate
// pairs), or any mix of those, and once it sits in a frame that is itself
// carried in a JSON string (a report, a cassette) it is escaped again. The
// redactor therefore matches a secret through every such encoding, up to
// MaxDepth levels of JSON strings nested in one another, not only through
// the byte forms encoding/json would produce.
//
// A text that is a valid JSON document stays a valid JSON document: only
// whole characters inside strings are replaced, and a number that is
// exactly a secret becomes the string "[REDACTED]". Other text is masked
// wherever a secret occurs.
//
// The common cases stay cheap: text with no backslash is searched with
// bytes.Index alone, and text with escapes is decoded only around its
// backslashes.
package redact
