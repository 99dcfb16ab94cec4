package main

import (
	"strings"
	"testing"
)

func TestIsSQLAccepts(t *testing.T) {
	var cases []tcase
	for _, q := range []string{
		"SELECT 1",
		"select id, name from users where id = 7 order by name desc limit 10 offset 5;",
		"SELECT u.name, COUNT(o.id) AS orders FROM users u LEFT JOIN orders o ON o.user_id = u.id GROUP BY u.name HAVING COUNT(o.id) > 2",
		"WITH recent AS (SELECT * FROM orders WHERE created_at > NOW() - INTERVAL 7 DAY) SELECT * FROM recent",
		"SELECT name, RANK() OVER (PARTITION BY dept ORDER BY salary DESC) FROM staff",
		"INSERT INTO users (name, email) VALUES ('Ada', 'ada@example.com'), ('Bob', NULL)",
		"UPDATE users SET name = 'Ada' WHERE id IN (SELECT user_id FROM admins)",
		"DELETE FROM sessions WHERE expires_at < ?",
		"CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(255) NOT NULL, created TIMESTAMP DEFAULT CURRENT_TIMESTAMP)",
		"CREATE INDEX idx_name ON users (name)",
		"ALTER TABLE users ADD COLUMN age INT",
		"DROP TABLE IF EXISTS tmp",
		"SELECT `order`, \"label\" FROM `items`",
		`SELECT "first name" FROM "people"`,
		"SELECT * FROM t WHERE name ILIKE 'a%'",
		"-- the ids\nSELECT id FROM t; /* and the rest */ SELECT * FROM u",
	} {
		cases = append(cases, tcase{name: q, key: "is-sql", actual: str(q), arg: `null`, pass: true})
	}
	run(t, cases)
}

func TestIsSQLRejects(t *testing.T) {
	run(t, []tcase{
		{name: "typo", key: "is-sql", actual: str(`SELECT * FORM users`), arg: `null`,
			want: map[string]string{
				"note":   `not valid SQL at line 1, column 10: syntax error near "FORM users"`,
				"line":   "1",
				"column": "10",
				"actual": "SELECT * FORM users",
			}},
		{name: "ends early", key: "is-sql", actual: str("SELECT id,\n  name FROM users WHERE"), arg: `null`,
			want: map[string]string{"note": "at line 2, column 24: syntax error: the statement ends too early"}},
		{name: "prose", key: "is-sql", actual: str(`Here is your query: SELECT 1`), arg: `null`,
			want: map[string]string{"note": `line 1, column 1: syntax error near "Here is your query: SELE…"`}},
		{name: "second statement bad", key: "is-sql", actual: str("SELECT 1;\nSELEC 2"), arg: `null`,
			want: map[string]string{"note": "line 2, column 1"}},
		{name: "markdown fence", key: "is-sql", actual: str("```sql\nSELECT 1\n```"), arg: `null`,
			want: map[string]string{"note": "not valid SQL at line 1, column 1"}},
		{name: "empty", key: "is-sql", actual: str("  \n"), arg: `null`,
			want: map[string]string{"note": "not valid SQL: the text is empty"}, absent: []string{"line"}},
		{name: "only a comment", key: "is-sql", actual: str("-- nothing here"), arg: `null`,
			want: map[string]string{"note": "no statement, only comments or semicolons"}},
		{name: "not text", key: "is-sql", actual: `42`, arg: `null`,
			want: map[string]string{"note": "is-sql checks text, but the value is a number"}},
	})
}

// TestIsSQLLongInput checks the position when the parser cuts the rest of
// a long input short in its message.
func TestIsSQLLongInput(t *testing.T) {
	head := "SELECT " + strings.Repeat("col, ", 500) + "x\nFROM t WHERE"
	q := head + " AND " + strings.Repeat("y ", 2000)
	n, e := (&sqlParsers{}).parse(q)
	if e == nil {
		t.Fatalf("parsed %d statements", n)
	}
	if e.pos.Line != 2 || e.pos.Column != 14 {
		t.Errorf("position = %+v, want line 2, column 14 (%s)", e.pos, e.reason)
	}
}

// TestIsSQLParsersAreReused checks concurrent use through the pool.
func TestIsSQLConcurrent(t *testing.T) {
	c := conn(t)
	done := make(chan string, 40)
	for i := 0; i < 40; i++ {
		go func() {
			q, want := "SELECT a FROM t WHERE b = 1", true
			if i%2 == 1 {
				q, want = "SELECT a FROM WHERE", false
			}
			r := c.Match("is-sql", str(q), `null`)
			if r.Pass != want || r.Error != "" {
				done <- q
				return
			}
			done <- ""
		}()
	}
	for i := 0; i < 40; i++ {
		if q := <-done; q != "" {
			t.Errorf("wrong verdict for %q", q)
		}
	}
}
