package session

import (
	"strings"
	"testing"
	"time"
)

func TestUndecodableID(t *testing.T) {
	deep := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	cases := map[string]string{
		`{"jsonrpc":"2.0","id":7,"result":` + deep + `}`:              "7",
		`{"jsonrpc":"2.0","result":` + deep + `,"id":"a"}`:            `"a"`,
		`{"jsonrpc":"2.0","id":7,"result":{"text":"cut`:               "7",
		`{"jsonrpc":"2.0","id":7,"method":"x","params":` + deep + `}`: "",
		`{"jsonrpc":"2.0","method":"x","id":7,"params":` + deep + `}`: "",
		`{"jsonrpc":"2.0","result":{"broken` + `,"id":7}`:             "",
		`[` + deep + `]`:      "",
		`not json at all {`:   "",
		`{"id":` + deep + `}`: "",
	}
	for msg, want := range cases {
		if got := undecodableID([]byte(msg)); got != want {
			t.Errorf("undecodableID(%.60q) = %q, want %q", msg, got, want)
		}
	}
}

func TestNoiseLogSince(t *testing.T) {
	var l noiseLog
	l.add([]byte("old\n"))
	mark := time.Now()
	time.Sleep(time.Millisecond)
	l.add([]byte(strings.Repeat("n", 2*noiseLimit) + "\n"))
	if got := l.since(mark); !strings.HasPrefix(got, "nnn") || strings.Contains(got, "old") || len(got) > noiseLimit+len("…") {
		t.Errorf("since = %q", got)
	}
	if got := l.String(); !strings.HasPrefix(got, "old\nnnn") {
		t.Errorf("String = %q", got)
	}
	for range noiseLines + 2 {
		l.add([]byte("x"))
	}
	if got := l.String(); got != strings.TrimSuffix(strings.Repeat("x\n", noiseLines), "\n") {
		t.Errorf("kept %q", got)
	}
}
