// Package cassette records the MCP exchanges of a live run into a file and
// replays them as a server: Recorder gathers what a session's calls got,
// Cassette is the file (docs/cassettes.md), and Start opens a
// session.Session that answers from it through session.Transport, with no
// process and no network. The format is versioned (Version); a new kind
// of recorded exchange is a new optional section of Cassette, so that
// older files still load.
package cassette
