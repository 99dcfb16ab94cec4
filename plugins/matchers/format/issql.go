package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	// The parser needs a driver for literal values; this is the small one
	// the parser ships for use on its own, without the TiDB server.
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/mcptest/mcptest/sdk"
)

// matchSQL passes when the text parses as one or more SQL statements.
//
// The grammar is TiDB's MySQL-compatible one, which covers the statements
// a text-to-SQL tool writes (SELECT with joins, CTEs and window functions,
// INSERT, UPDATE, DELETE, CREATE, ALTER, DROP ...). To be permissive about
// dialect, text that fails is parsed again with double quotes read as
// identifier quotes (ANSI_QUOTES), as PostgreSQL and SQLite read them, and
// passes if either reading works.
func matchSQL(_ context.Context, f *family, actual json.RawMessage, _ options) (sdk.MatchResult, error) {
	text, err := textOf("is-sql", actual)
	if err != nil {
		return judged(err)
	}
	if strings.TrimSpace(text) == "" {
		return parseFailure("SQL", text, position{}, "the text is empty"), nil
	}
	n, perr := f.sql.parse(text)
	if perr != nil {
		return parseFailure("SQL", text, perr.pos, perr.reason), nil
	}
	if n == 0 {
		return parseFailure("SQL", text, position{}, "no statement, only comments or semicolons"), nil
	}
	return sdk.Pass(), nil
}

// sqlParsers lends TiDB parsers: one parser is not safe for concurrent use,
// and a new one costs allocations a batch should not pay per item.
type sqlParsers struct{ pool sync.Pool }

// sqlError is why a text is not SQL, and where (zero when unknown).
type sqlError struct {
	pos    position
	reason string
}

// The two SQL modes tried, in order.
var (
	defaultMode, _ = mysql.GetSQLMode(mysql.DefaultSQLMode)
	ansiQuotesMode = defaultMode | mysql.ModeANSIQuotes
)

// parse counts the statements in text, or says why it does not parse.
// When both readings fail, the error of the one that got further is kept,
// as that reading is more likely the dialect the author meant.
func (s *sqlParsers) parse(text string) (int, *sqlError) {
	p, _ := s.pool.Get().(*parser.Parser)
	if p == nil {
		p = parser.New()
	}
	defer s.pool.Put(p)
	var first *sqlError
	for _, mode := range []mysql.SQLMode{defaultMode, ansiQuotesMode} {
		p.SetSQLMode(mode)
		stmts, _, err := p.ParseSQL(text)
		if err == nil {
			return len(stmts), nil
		}
		e := readSQLError(err.Error(), text)
		if first == nil || further(e.pos, first.pos) {
			first = e
		}
	}
	return 0, first
}

// further reports whether a is past b.
func further(a, b position) bool {
	return a.Line > b.Line || (a.Line == b.Line && a.Column > b.Column)
}

// sqlErrorText matches the position part of a TiDB syntax error:
// `line 1 column 13 near "FORM users" `, where the quoted text is the rest
// of the input from the token the parser stopped at, and a long rest is
// cut and followed by "(total length N)".
var sqlErrorText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)line (\d+) column (\d+) near "(.*)"[^"]*?(?:\(total length (\d+)\))?\s*$`)
})

// readSQLError turns a TiDB parser message about text into a position and
// a short reason. The parser's own column counts bytes up to the end of
// the token it stopped at; the note points at the start of that token, in
// characters, which is where a reader looks.
func readSQLError(msg, text string) *sqlError {
	m := sqlErrorText().FindStringSubmatch(msg)
	if m == nil {
		return &sqlError{reason: oneLine(msg)}
	}
	rest := m[3]
	at := -1
	if total, err := strconv.Atoi(m[4]); err == nil && total <= len(text) {
		at = len(text) - total
	} else if strings.HasSuffix(text, rest) {
		at = len(text) - len(rest)
	}
	var pos position
	if at >= 0 {
		pos = positionAt(text, at)
	} else {
		// Should not happen; keep the parser's own numbers rather than none.
		pos.Line, _ = strconv.Atoi(m[1])
		pos.Column, _ = strconv.Atoi(m[2])
	}
	if strings.TrimSpace(rest) == "" {
		return &sqlError{pos: pos, reason: "syntax error: the statement ends too early"}
	}
	return &sqlError{pos: pos, reason: `syntax error near "` + near(rest, 0) + `"`}
}

// oneLine folds a multi-line library message into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
