package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestFilterRequests answers invalid requests with -32600 itself and
// passes everything else through to the server unchanged.
func TestFilterRequests(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"1.0","id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`not json`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	passed, err := io.ReadAll(filterRequests(strings.NewReader(in), &out))
	if err != nil {
		t.Fatal(err)
	}
	wantPassed := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":3,"result":{}}` + "\nnot json\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	if string(passed) != wantPassed {
		t.Errorf("passed:\n%s\nwant:\n%s", passed, wantPassed)
	}
	wantOut := `{"error":{"code":-32600,"message":"Invalid Request: no method"},"id":"a","jsonrpc":"2.0"}` + "\n" +
		`{"error":{"code":-32600,"message":"Invalid Request: the id must not be null"},"id":null,"jsonrpc":"2.0"}` + "\n" +
		`{"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""},"id":2,"jsonrpc":"2.0"}` + "\n"
	if out.String() != wantOut {
		t.Errorf("answered:\n%s\nwant:\n%s", out.String(), wantOut)
	}
}
