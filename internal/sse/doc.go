// Package sse is the one bounded reader of text/event-stream bodies, as
// the HTML Living Standard describes them (§9.2.6): lines ending in CRLF,
// LF or CR, an optional leading byte-order mark, comment lines starting
// with ':', and "name: value" fields. core/session (the client transport)
// and core/probe (the compliance probe) assemble events from it in their
// own ways; neither reads the stream itself, so no line is ever read past
// its bound.
package sse
