package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/plugintest"
)

// vetMatcher rejects the argument "reject" and counts what it is asked.
type vetMatcher struct {
	mu    sync.Mutex
	asked []string
}

func (m *vetMatcher) Match(context.Context, sdk.MatchInput) (sdk.MatchResult, error) {
	return sdk.Pass(), nil
}

func (m *vetMatcher) CheckArgument(_ string, arg json.RawMessage) error {
	m.mu.Lock()
	m.asked = append(m.asked, string(arg))
	m.mu.Unlock()
	if string(arg) == `"reject"` {
		return sdk.InvalidArgument("rejected on purpose")
	}
	return nil
}

func (m *vetMatcher) take() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.asked
	m.asked = nil
	return out
}

// pureLauncher serves one plugin in-process and names it by a fixed
// identity, as ExecLauncher names a verified executable by its sha256.
type pureLauncher struct {
	p      *sdk.Plugin
	id     string
	mu     sync.Mutex
	starts int
	conns  []*plugintest.Conn
}

func (l *pureLauncher) Launch(context.Context, *Found) (Instance, error) {
	conn, err := plugintest.Dial(l.p)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.starts++
	l.conns = append(l.conns, conn)
	l.mu.Unlock()
	return connInstance{conn}, nil
}

func (l *pureLauncher) identity(*Found) (string, bool) { return l.id, l.id != "" }

func (l *pureLauncher) started() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.starts
}

func (l *pureLauncher) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
}

type connInstance struct{ c *plugintest.Conn }

func (i connInstance) Dispense(kind string) (any, error) { return i.c.Dispense(kind) }
func (i connInstance) Kill()                             { i.c.Close() }
func (i connInstance) Exited() bool                      { return i.c.Exited() }
func (i connInstance) Done() <-chan struct{}             { return i.c.Done() }
func (i connInstance) StderrTail(int) string             { return "" }

// vetPlugin is a matcher plugin with the key "v"; pure says whether its
// manifest declares its vetting pure.
func vetPlugin(m *vetMatcher, pure bool) (*sdk.Plugin, *Found) {
	p := &sdk.Plugin{Name: "vetter", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"v": m}}
	d := p.Describe()
	f := &Found{
		Manifest: &Manifest{ManifestVersion: 1, Name: d.Name, Version: d.Version, ProtocolVersions: d.ProtocolVersions,
			Executable: ExecutablePrefix + d.Name, Components: d.Components},
		Dir: "/in-process/vetter",
	}
	if pure {
		f.Manifest.Capabilities = []string{sdk.CapabilityVetPure}
	}
	return p, f
}

// vetHost is a host of one run whose vetting cache is at path.
func vetHost(t *testing.T, l *pureLauncher, path string) *Host {
	t.Helper()
	h := NewHost(l, HostOptions{})
	h.vetting = newVetCache(path)
	t.Cleanup(func() { h.Close(); l.close() })
	return h
}

func verdicts(errs []error) string {
	var out []string
	for _, err := range errs {
		if err == nil {
			out = append(out, "ok")
		} else {
			out = append(out, err.Error())
		}
	}
	return strings.Join(out, "; ")
}

// A plugin that vets purely is asked once per argument: a later run gets
// the same verdicts, accepted and rejected, without starting it; a new
// argument or another build of the plugin is asked again.
func TestHostCheckRemembersPureVerdicts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache", "plugin-vetting.json")
	m := &vetMatcher{}
	p, f := vetPlugin(m, true)
	reqs := []CheckRequest{
		{Plugin: f, Key: "v", Argument: json.RawMessage(`"fine"`)},
		{Plugin: f, Key: "v", Argument: json.RawMessage(`"reject"`)},
	}

	first := &pureLauncher{p: p, id: "build-1"}
	h := vetHost(t, first, path)
	want := verdicts(h.Check(context.Background(), reqs))
	if !strings.HasPrefix(want, "ok; ") || !strings.Contains(want, "rejected on purpose") {
		t.Fatalf("first verdicts: %s", want)
	}
	if asked := m.take(); len(asked) != 2 || first.started() != 1 {
		t.Fatalf("first run: asked %v, %d starts", asked, first.started())
	}
	h.Close() // saves

	second := &pureLauncher{p: p, id: "build-1"}
	h = vetHost(t, second, path)
	if got := verdicts(h.Check(context.Background(), reqs)); got != want {
		t.Errorf("remembered verdicts %q, want %q", got, want)
	}
	if asked := m.take(); len(asked) != 0 || second.started() != 0 {
		t.Errorf("a remembered run asked %v and started the plugin %d times", asked, second.started())
	}

	// A changed argument is asked (the plugin starts for it); the known
	// one is still answered from the cache.
	changed := []CheckRequest{reqs[0], {Plugin: f, Key: "v", Argument: json.RawMessage(`"fine "`)}}
	h.Check(context.Background(), changed)
	if asked := m.take(); len(asked) != 1 || asked[0] != `"fine "` {
		t.Errorf("changed argument: asked %v, want only the new one", asked)
	}
	h.Close()

	// Another build of the plugin is asked about everything.
	rebuilt := &pureLauncher{p: p, id: "build-2"}
	h = vetHost(t, rebuilt, path)
	h.Check(context.Background(), reqs)
	if asked := m.take(); len(asked) != 2 || rebuilt.started() != 1 {
		t.Errorf("rebuilt plugin: asked %v, %d starts", asked, rebuilt.started())
	}
}

// Verdicts are not remembered for a plugin that does not declare pure
// vetting, one whose executable cannot be vouched for, or an argument
// holding a secret.
func TestHostCheckAsksWhenVerdictsMayNotBeRemembered(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pure    bool
		id      string
		private bool
	}{
		{"not declared pure", false, "build-1", false},
		{"no identity", true, "", false},
		{"secret in the argument", true, "build-1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "plugin-vetting.json")
			m := &vetMatcher{}
			p, f := vetPlugin(m, tc.pure)
			reqs := []CheckRequest{{Plugin: f, Key: "v", Argument: json.RawMessage(`"fine"`), Private: tc.private}}
			for run := range 2 {
				l := &pureLauncher{p: p, id: tc.id}
				h := vetHost(t, l, path)
				if errs := h.Check(context.Background(), reqs); errs[0] != nil {
					t.Fatalf("run %d: %v", run, errs[0])
				}
				h.Close()
				if asked := m.take(); len(asked) != 1 || l.started() != 1 {
					t.Fatalf("run %d: asked %v, %d starts; want the plugin asked every run", run, asked, l.started())
				}
			}
			if _, err := os.Stat(path); err == nil {
				raw, _ := os.ReadFile(path)
				if strings.Contains(string(raw), `"d"`) {
					t.Errorf("a verdict was written: %s", raw)
				}
			}
		})
	}
}

func TestVetKeyCoversEveryPart(t *testing.T) {
	base := vetKey("id", "matcher", "exact", []byte(`"a"`))
	for name, k := range map[string]string{
		"identity": vetKey("id2", "matcher", "exact", []byte(`"a"`)),
		"kind":     vetKey("id", "scorer", "exact", []byte(`"a"`)),
		"key":      vetKey("id", "matcher", "contains", []byte(`"a"`)),
		"argument": vetKey("id", "matcher", "exact", []byte(`"a" `)),
		// Length prefixes: moving a byte from one part to the next is
		// another request.
		"boundary": vetKey("id", "matcher", "exac", []byte(`t"a"`)),
	} {
		if k == base {
			t.Errorf("a changed %s gives the same key", name)
		}
	}
	if vetKey("id", "matcher", "exact", []byte(`"a"`)) != base {
		t.Error("the key is not stable")
	}
}

// Malformed entries are dropped one by one; good ones beside them stay.
func TestVetCacheDropsMalformedEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plugin-vetting.json")
	good := vetKey("id", "matcher", "exact", []byte(`"a"`))
	raw := fmt.Sprintf(`{%q: {"d": 1}, "NOT-HEX": {"d": 1}, %q: {"e": %q, "d": 1}}`,
		good, vetKey("id", "matcher", "exact", []byte(`"b"`)), strings.Repeat("x", maxVetMessage+1))
	if err := os.WriteFile(path, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	entries := readVetFile(path)
	if _, ok := entries[good]; !ok || len(entries) != 1 {
		t.Fatalf("entries %v: want only the good one", entries)
	}
}

// A save merges with what other runs saved meanwhile, and keeps the most
// recently used verdicts when the cache is full.
func TestVetCacheMergesAndBoundsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plugin-vetting.json")
	a, b := newVetCache(path), newVetCache(path)
	a.record(vetKey("id", "matcher", "exact", []byte(`"a"`)), nil)
	b.record(vetKey("id", "matcher", "exact", []byte(`"b"`)), errors.New("no"))
	a.save()
	b.save()
	if got := readVetFile(path); len(got) != 2 {
		t.Fatalf("after two runs saved: %d entries, want 2", len(got))
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("cache file mode %v, %v; want 0600", info.Mode(), err)
	}

	full := map[string]vetVerdict{}
	for i := range maxVetEntries {
		full[vetKey("old", "matcher", "exact", fmt.Appendf(nil, "%d", i))] = vetVerdict{Day: 1}
	}
	raw, _ := json.Marshal(full)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	c := newVetCache(path)
	fresh := vetKey("new", "matcher", "exact", []byte(`"n"`))
	c.record(fresh, nil)
	c.save()
	got := readVetFile(path)
	if _, kept := got[fresh]; !kept || len(got) != maxVetEntries {
		t.Fatalf("%d entries, fresh one kept: %v; want %d with the fresh one", len(got), kept, maxVetEntries)
	}
}
