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
// How it works, and what it costs:
//
//   - Depth 0: each secret is searched for as plain bytes, from its least
//     common byte (anchor.go). Text without a backslash is done there.
//   - Fast pass: text with escapes is decoded one level at a time, in
//     place, into one scratch buffer, and each level is searched the same
//     way. Nothing is mapped back; this only says whether a secret is
//     there. A 64 KiB frame of escaped JSON costs about as much as
//     checking it with json.Valid.
//   - Precise pass, only when a secret was found: the text is cut at its
//     bare quotes (no match below depth 0 spans one), and the pieces that
//     hold a secret are decoded again with, for every byte, where it came
//     from, so the right bytes of the original are masked. A piece over
//     1 MiB is masked whole instead.
//   - When the text is a JSON document, the regions are kept only where
//     masking leaves it valid (json.go).
package redact
