package httpwire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/core/session/internal/wire"
)

// fakeAuthorizer hands out "Bearer tok-N" and moves to the next token on
// each challenge, up to limit; err, when set, fails the challenge.
type fakeAuthorizer struct {
	mu         sync.Mutex
	n, limit   int
	err        error
	challenges []string // the Authorization each challenged request sent
}

func (f *fakeAuthorizer) Authorization(context.Context) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		return "", nil
	}
	return "Bearer tok-secret-" + string(rune('0'+f.n)), nil
}

func (f *fakeAuthorizer) Challenge(_ context.Context, _ *http.Client, status int, _ http.Header, sent string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.challenges = append(f.challenges, sent)
	if f.err != nil {
		return false, f.err
	}
	if f.n >= f.limit {
		return false, nil
	}
	f.n++
	return true, nil
}

func (f *fakeAuthorizer) Hint() string { return "fake" }

// TestChallengeTransport: a 401 sends the request again, with its body,
// once the Authorizer has new credentials; a refusal that stays is
// returned as is; a failed authorization is an ErrAuth error.
func TestChallengeTransport(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer tok-secret-2" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	defer srv.Close()
	post := func(az *fakeAuthorizer) (*http.Response, error) {
		red := wire.NewRedactor(nil, nil)
		c := &http.Client{Transport: &challengeTransport{base: http.DefaultTransport, az: az, client: http.DefaultClient, redact: red}}
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"id":1}`))
		if h, _ := az.Authorization(context.Background()); h != "" {
			req.Header.Set("Authorization", h)
		}
		return c.Do(req)
	}

	az := &fakeAuthorizer{limit: 5}
	resp, err := post(az)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("want a 200 after two challenges: %v %v", resp, err)
	}
	resp.Body.Close()
	if strings.Join(az.challenges, "|") != "|Bearer tok-secret-1" || strings.Join(bodies, "|") != `{"id":1}|{"id":1}|{"id":1}` {
		t.Errorf("challenges %q, bodies %q", az.challenges, bodies)
	}

	az = &fakeAuthorizer{limit: 1}
	resp, err = post(az)
	if err != nil || resp.StatusCode != 401 {
		t.Fatalf("want the server's 401 once the Authorizer gives up: %v %v", resp, err)
	}
	resp.Body.Close()

	az = &fakeAuthorizer{limit: 5, err: errors.New("discovery failed near tok-secret-9")}
	_, err = post(az)
	if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "discovery failed") {
		t.Errorf("a failed authorization: %v", err)
	}
}
