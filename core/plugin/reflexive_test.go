package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

// sameMatcher passes an actual value equal to its argument (as the text
// plugin's exact does) and counts the items it judged.
type sameMatcher struct {
	mu     sync.Mutex
	judged int
}

func (m *sameMatcher) Match(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
	m.mu.Lock()
	m.judged++
	m.mu.Unlock()
	if bytes.Equal(in.Actual, in.Argument) {
		return sdk.Pass(), nil
	}
	return sdk.Fail(sdk.Failure{Note: "differs"}), nil
}

func (m *sameMatcher) CheckArgument(string, json.RawMessage) error { return nil }

func (m *sameMatcher) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.judged
}

// reflexivePlugin serves "same" (declared reflexive unless declare is
// false) and "other" (never), vetting purely.
func reflexivePlugin(m *sameMatcher, declare bool) (*sdk.Plugin, *Found) {
	p := &sdk.Plugin{Name: "refl", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"same": m, "other": m},
		Capabilities: []string{sdk.CapabilityVetPure}}
	if declare {
		p.Capabilities = append(p.Capabilities, sdk.Reflexive("same"))
	}
	d := p.Describe()
	return p, &Found{
		Manifest: &Manifest{ManifestVersion: 1, Name: d.Name, Version: d.Version, ProtocolVersions: d.ProtocolVersions,
			Executable: ExecutablePrefix + d.Name, Components: d.Components, Capabilities: d.Capabilities},
		Dir: "/in-process/refl",
	}
}

// rememberVerdicts runs a first host that vets reqs (starting the plugin),
// so the next host of the same cache finds the verdicts without it.
func rememberVerdicts(t *testing.T, p *sdk.Plugin, path string, reqs []CheckRequest) {
	t.Helper()
	l := &pureLauncher{p: p, id: "build-1"}
	h := vetHost(t, l, path)
	for _, err := range h.Check(context.Background(), reqs) {
		if err != nil {
			t.Fatal(err)
		}
	}
	h.Close()
}

// An assertion whose actual value is its vetted argument's bytes, under a
// key the manifest declares reflexive, passes without the plugin starting
// (nor being prestarted), with the very outcome the plugin gives; the
// first assertion it must judge starts it, and from then on it judges all.
func TestReflexivePassDoesNotStartThePlugin(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plugin-vetting.json")
	m := &sameMatcher{}
	p, f := reflexivePlugin(m, true)
	arg := json.RawMessage(`"hello"`)
	vet := []CheckRequest{{Plugin: f, Key: "same", Argument: arg}}
	rememberVerdicts(t, p, path, vet)

	l := &pureLauncher{p: p, id: "build-1"}
	h := vetHost(t, l, path)
	if err := h.Check(context.Background(), vet)[0]; err != nil {
		t.Fatal(err)
	}
	h.Prestart([]*Found{f})
	same := MatchRequest{Plugin: f, Key: "same", Actual: json.RawMessage(`"hello"`), Argument: arg}
	spared := h.Match(context.Background(), []MatchRequest{same, same})
	if l.started() != 0 || m.count() != 0 {
		t.Fatalf("%d starts, %d items judged; want the plugin never started", l.started(), m.count())
	}
	for _, o := range spared {
		if !o.Pass || o.Err != nil || o.Plugin != "refl@1.0.0" {
			t.Fatalf("spared outcome %+v, want a pass by refl@1.0.0", o)
		}
	}

	// Another value (even an equal one written otherwise) needs the
	// plugin: it starts and judges it.
	differ := MatchRequest{Plugin: f, Key: "same", Actual: json.RawMessage(`"hello" `), Argument: arg}
	out := h.Match(context.Background(), []MatchRequest{same, differ})
	if l.started() != 1 || out[1].Pass || out[1].Err != nil {
		t.Fatalf("%d starts, outcome %+v; want the plugin started to judge the different value", l.started(), out[1])
	}
	if n := h.reflexive.live.Load(); n != 0 {
		t.Fatalf("%d plugins still noted as spareable once started; a match would keep paying for the lookup", n)
	}
	judged := m.count()
	if judged != 1 {
		t.Fatalf("the plugin judged %d items, want only the different one (it was not running for the first)", judged)
	}
	// Now running, it judges everything, identical values included, and
	// its verdict on them is the one the host gave while it was spared.
	judgedByPlugin := h.Match(context.Background(), []MatchRequest{same})
	if m.count() != judged+1 {
		t.Fatalf("a running plugin was not asked: %d items judged", m.count())
	}
	if !reflect.DeepEqual(judgedByPlugin[0], spared[0]) {
		t.Errorf("the plugin's outcome %+v differs from the spared one %+v", judgedByPlugin[0], spared[0])
	}
}

// The host passes nothing by identity for a plugin that does not declare
// the key reflexive, for a key not declared, or for an argument it has not
// seen vetted valid in this run; and it prestarts a plugin that was vetted
// anything but reflexive arguments.
func TestReflexivePassNeedsTheDeclarationAndAVettedArgument(t *testing.T) {
	arg := json.RawMessage(`"hello"`)
	for _, tc := range []struct {
		name    string
		declare bool
		key     string
		vetted  bool
	}{
		{"not declared", false, "same", true},
		{"another key", true, "other", true},
		{"argument not vetted", true, "same", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "plugin-vetting.json")
			m := &sameMatcher{}
			p, f := reflexivePlugin(m, tc.declare)
			vet := []CheckRequest{{Plugin: f, Key: tc.key, Argument: arg}}
			rememberVerdicts(t, p, path, vet)
			l := &pureLauncher{p: p, id: "build-1"}
			h := vetHost(t, l, path)
			if tc.vetted {
				h.Check(context.Background(), vet)
			}
			o := h.Match(context.Background(), []MatchRequest{{Plugin: f, Key: tc.key, Actual: arg, Argument: arg}})
			if !o[0].Pass || l.started() != 1 || m.count() != 1 {
				t.Fatalf("outcome %+v, %d starts, %d judged; want the plugin to judge it", o[0], l.started(), m.count())
			}
		})
	}

	// Vetted a reflexive and another key: prestarted as before.
	path := filepath.Join(t.TempDir(), "plugin-vetting.json")
	m := &sameMatcher{}
	p, f := reflexivePlugin(m, true)
	vet := []CheckRequest{{Plugin: f, Key: "same", Argument: arg}, {Plugin: f, Key: "other", Argument: arg}}
	rememberVerdicts(t, p, path, vet)
	l := &pureLauncher{p: p, id: "build-1"}
	h := vetHost(t, l, path)
	h.Check(context.Background(), vet)
	if !h.neverStarted(f) {
		t.Fatal("the gate started the plugin although its verdicts were remembered")
	}
	h.Prestart([]*Found{f})
	if h.neverStarted(f) {
		t.Fatal("a plugin with a non-reflexive key to judge was not prestarted")
	}
}

// Vouched needs a launcher that can vouch for the executable without
// hashing it, an identity, and a trusted plugin.
func TestVouched(t *testing.T) {
	m := &sameMatcher{}
	p, f := reflexivePlugin(m, true)
	path := filepath.Join(t.TempDir(), "plugin-vetting.json")
	if h := vetHost(t, &pureLauncher{p: p, id: "build-1"}, path); !h.Vouched(f) {
		t.Error("an executable with an identity is not vouched for")
	}
	if h := vetHost(t, &pureLauncher{p: p}, path); h.Vouched(f) {
		t.Error("an executable without an identity is vouched for")
	}
	untrusted := *f
	untrusted.Untrusted = errors.New("owned by someone else")
	if h := vetHost(t, &pureLauncher{p: p, id: "build-1"}, path); h.Vouched(&untrusted) {
		t.Error("an untrusted plugin is vouched for")
	}
	if h := NewHost(rawLauncherFor(p), HostOptions{}); h.Vouched(f) {
		t.Error("a launcher that cannot identify executables vouched for one")
	}
}

// rawLauncherFor serves p without any way to identify its executable.
func rawLauncherFor(p *sdk.Plugin) Launcher { return noIdentity{&pureLauncher{p: p}} }

type noIdentity struct{ l *pureLauncher }

func (n noIdentity) Launch(ctx context.Context, f *Found) (Instance, error) {
	return n.l.Launch(ctx, f)
}

// Arguments vetted for a plugin already running are not kept: it judges
// everything itself, and a match does not pay for a lookup.
func TestReflexiveArgumentsOfARunningPluginAreNotKept(t *testing.T) {
	m := &sameMatcher{}
	p, f := reflexivePlugin(m, true)
	h := vetHost(t, &pureLauncher{p: p, id: "build-1"}, filepath.Join(t.TempDir(), "plugin-vetting.json"))
	if err := h.Start(context.Background(), []*Found{f}); err != nil {
		t.Fatal(err)
	}
	h.Check(context.Background(), []CheckRequest{{Plugin: f, Key: "same", Argument: json.RawMessage(`"a"`)}})
	if n := h.reflexive.live.Load(); n != 0 || h.reflexive.n != 0 {
		t.Fatalf("%d plugins and %d arguments kept for a running plugin", n, h.reflexive.n)
	}
}

// Concurrent matches while the plugin is being started lazily: each gets
// the right verdict, and the plugin starts once.
func TestReflexivePassUnderConcurrentMatches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plugin-vetting.json")
	m := &sameMatcher{}
	p, f := reflexivePlugin(m, true)
	arg := json.RawMessage(`"x"`)
	vet := []CheckRequest{{Plugin: f, Key: "same", Argument: arg}}
	rememberVerdicts(t, p, path, vet)
	l := &pureLauncher{p: p, id: "build-1"}
	h := vetHost(t, l, path)
	h.Check(context.Background(), vet)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				actual := arg
				if (g+i)%7 == 0 {
					actual = json.RawMessage(`"y"`)
				}
				o := h.Match(context.Background(), []MatchRequest{{Plugin: f, Key: "same", Actual: actual, Argument: arg}})
				if want := string(actual) == string(arg); o[0].Pass != want || o[0].Err != nil {
					t.Errorf("actual %s: outcome %+v", actual, o[0])
					return
				}
			}
		}()
	}
	wg.Wait()
	if l.started() != 1 {
		t.Fatalf("%d starts, want 1", l.started())
	}
}
