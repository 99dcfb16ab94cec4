// Package stdiowire is the stdio wire of a session: a server started as a
// child process in its own process group (with a watchdog, so that it
// cannot outlive mcptest), spoken to over its stdin (whole frames, every
// write bounded, a stalled or half-written stdin declared unusable) and
// read line by line from its stdout (each line bounded; an over-long one
// is handed on as its head), its stderr kept as a bounded tail. Close
// escalates from closing stdin to SIGTERM to SIGKILL of the group.
package stdiowire
