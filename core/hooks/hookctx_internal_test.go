package hooks

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/internal/proc"
)

func TestParsePatch(t *testing.T) {
	for _, in := range []string{"", "  \n", "null", "{}", `{"skip": null, "env": null, "vars": null}`, `{"skip": false}`} {
		p, err := parsePatch([]byte(in))
		if err != nil || p.skip != nil || len(p.env) != 0 || len(p.vars) != 0 {
			t.Errorf("%q: %+v %v, want a no-op", in, p, err)
		}
	}
	p, err := parsePatch([]byte(`{"env": {"A": "1"}, "vars": {"n": 12345678901234567890, "o": {"x": [1]}}, "skip": true}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.env["A"] != "1" || string(p.vars["n"]) != "12345678901234567890" || string(p.vars["o"]) != `{"x": [1]}` || p.skip == nil || *p.skip != "" {
		t.Errorf("patch = %+v", p)
	}
	sc := hookScope{}
	p.apply(&sc)
	if sc.env["A"] != "1" || len(sc.vars) != 2 {
		t.Errorf("scope = %+v", sc)
	}
	if _, err := parsePatch([]byte(`{"Env": {}}`)); err == nil || !errors.Is(err, ErrCommandOutput) || !strings.Contains(err.Error(), `unknown key "Env"`) {
		t.Errorf("a key in the wrong case: %v", err)
	}
}

func TestReplaceRequest(t *testing.T) {
	q := servers.Request{Method: "tools/call", Name: "echo", Args: []byte(`{"message":"a"}`)}
	got, err := replaceRequest(q, []byte(`{"arguments": {"message": "b"}}`))
	if err != nil || got.Name != "echo" || string(got.Args) != `{"message": "b"}` {
		t.Errorf("got %+v %v", got, err)
	}
	got, err = replaceRequest(q, []byte(`{"name": "greet", "arguments": null}`))
	if err != nil || got.Name != "greet" || string(got.Args) != `{}` {
		t.Errorf("got %+v %v", got, err)
	}
	for _, bad := range []string{`[]`, `null`, `{"name": ""}`, `{"name": 3}`, `{"arguments": [1]}`, `{"args": {}}`} {
		if _, err := replaceRequest(q, []byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestCheckEnvelope(t *testing.T) {
	if err := checkEnvelope([]byte(`{"result": null}`)); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{`1`, `null`, `{}`, `{"error": {}}`, `{"result": 1, "extra": 2}`} {
		if checkEnvelope([]byte(bad)) == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestBuffers(t *testing.T) {
	tb := &tailBuffer{proc.Tail{Max: 5}}
	tb.Write([]byte("abc"))
	if tb.String() != "abc" {
		t.Errorf("%q", tb.String())
	}
	tb.Write([]byte("defg"))
	if tb.String() != "…cdefg" {
		t.Errorf("%q", tb.String())
	}
	tb.Write([]byte("0123456789"))
	if tb.String() != "…56789" {
		t.Errorf("%q", tb.String())
	}
	hb := &headBuffer{max: 4}
	hb.Write([]byte("ab"))
	hb.Write([]byte("cdef"))
	if string(hb.Bytes()) != "abcd" || !hb.over {
		t.Errorf("%q %v", hb.Bytes(), hb.over)
	}
}

func TestRunCommand(t *testing.T) {
	res := runCommand(context.Background(), command{argv: []string{"sh", "-c", "cat; echo err >&2; exit 7"}, stdin: []byte("in"), timeout: 5 * time.Second, stdoutMax: 1 << 10})
	if string(res.stdout) != "in" || res.stderr != "err\n" || res.exitCode != 7 || !errors.Is(res.err, ErrCommandExit) {
		t.Errorf("%+v", res)
	}
	res = runCommand(context.Background(), command{argv: []string{"sh", "-c", "echo 0123456789"}, timeout: 5 * time.Second, stdoutMax: 4})
	if !errors.Is(res.err, ErrCommandOutput) || res.exitCode != 0 {
		t.Errorf("over the limit: %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = runCommand(ctx, command{argv: []string{"sleep", "5"}, timeout: 5 * time.Second, stdoutMax: 4})
	if res.err == nil || errors.Is(res.err, ErrCommandTimeout) {
		t.Errorf("cancelled: %+v", res)
	}
	res = runCommand(context.Background(), command{argv: nil, timeout: time.Second})
	if res.err == nil {
		t.Error("empty argv accepted")
	}
}
