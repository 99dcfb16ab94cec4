//go:build unix

package plugin

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

// otherUID owns the files another user planted (nobody on most systems).
const otherUID = 65534

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving files to another user needs root")
	}
}

// trustFixture is one plugin directory holding a plugin "planted" with
// matcher key "exact", which shadows a healthy lower-priority "text".
func trustFixture(t *testing.T) (high, low, planted string) {
	high, low = t.TempDir(), t.TempDir()
	planted = writePlugin(t, high, "planted", "6.6.6", "  - {kind: matcher, keys: [exact]}\n")
	writePlugin(t, low, "text", "1.0.0", "  - {kind: matcher, keys: [exact, regex]}\n")
	return high, low, planted
}

func trustSources(high, low string, trusted ...string) []Source {
	return []Source{
		{Dir: high, Priority: 0, Origin: "project", Trusted: trustedBy(high, trusted)},
		{Dir: low, Priority: 1, Origin: "bundled", Trusted: trustedBy(low, trusted)},
	}
}

func TestTrustRefusesFilesOfOtherUsersAndLooseModes(t *testing.T) {
	cases := []struct {
		name  string
		plant func(t *testing.T, high, planted string) string // returns the path the message must name
		want  []string
	}{
		{"directory owned by another user", func(t *testing.T, high, _ string) string {
			chown(t, high)
			return high
		}, []string{"plugin directory", "owned by uid 65534", "chown"}},
		{"plugin folder owned by another user", func(t *testing.T, _, planted string) string {
			chown(t, planted)
			return planted
		}, []string{"plugin folder", "owned by uid 65534"}},
		{"manifest owned by another user", func(t *testing.T, _, planted string) string {
			p := filepath.Join(planted, ManifestFile)
			chown(t, p)
			return p
		}, []string{"manifest", "owned by uid 65534"}},
		{"executable owned by another user", func(t *testing.T, _, planted string) string {
			p := filepath.Join(planted, "mcptest-plugin-planted")
			chown(t, p)
			return p
		}, []string{"executable", "owned by uid 65534"}},
		{"group-writable manifest", func(t *testing.T, _, planted string) string {
			p := filepath.Join(planted, ManifestFile)
			chmod(t, p, 0o664)
			return p
		}, []string{"manifest", "writable by its group", "mode 0664", "chmod go-w"}},
		{"world-writable executable", func(t *testing.T, _, planted string) string {
			p := filepath.Join(planted, "mcptest-plugin-planted")
			chmod(t, p, 0o757)
			return p
		}, []string{"executable", "writable by every user", "chmod go-w"}},
		{"group-writable plugin directory", func(t *testing.T, high, _ string) string {
			chmod(t, high, 0o775)
			return high
		}, []string{"plugin directory", "writable by its group"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.name, "another user") {
				needRoot(t)
			}
			high, low, planted := trustFixture(t)
			path := c.plant(t, high, planted)
			reg := NewRegistry(trustSources(high, low))
			if len(reg.Problems) != 0 {
				t.Fatalf("problems: %v", reg.Problems)
			}
			// The planted plugin still wins the key, and the key is refused
			// rather than quietly served by the lower-priority plugin.
			_, err := reg.Resolve("matcher", "exact")
			if !errors.Is(err, ErrUntrusted) {
				t.Fatalf("want ErrUntrusted, got %v", err)
			}
			for _, want := range append(c.want, path, TrustFlag+" "+high, "planted@6.6.6") {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines:\n%v", err)
			}
			if u := reg.Untrusted(); len(u) != 1 || u[0].Manifest.Name != "planted" {
				t.Errorf("untrusted = %v", u)
			}
			if _, err := checkExecutable(reg.Untrusted()[0]); !errors.Is(err, ErrUntrusted) {
				t.Errorf("launch would run it: %v", err)
			}
			// A key only the healthy plugin offers still resolves.
			if f, err := reg.Resolve("matcher", "regex"); err != nil || f.Manifest.Name != "text" {
				t.Errorf("regex: %v %v", f, err)
			}
			// Trusting the directory explicitly accepts it.
			reg = NewRegistry(trustSources(high, low, high))
			f, err := reg.Resolve("matcher", "exact")
			if err != nil || f.Manifest.Name != "planted" {
				t.Fatalf("explicitly trusted directory refused: %v", err)
			}
			if _, err := checkExecutable(f); err != nil {
				t.Errorf("trusted executable refused at launch: %v", err)
			}
			if s := TrustState(f); !strings.Contains(s, "trusted by "+TrustFlag) {
				t.Errorf("trust state %q", s)
			}
		})
	}
}

func TestTrustAcceptsOwnAndRootFiles(t *testing.T) {
	high, low, _ := trustFixture(t)
	reg := NewRegistry(trustSources(high, low))
	f, err := reg.Resolve("matcher", "exact")
	if err != nil {
		t.Fatalf("own plugin refused: %v", err)
	}
	if TrustState(f) != "ok" {
		t.Errorf("trust state %q", TrustState(f))
	}
	if _, err := checkExecutable(f); err != nil {
		t.Errorf("own executable refused: %v", err)
	}
}

func TestTrustIsCheckedAgainAtLaunch(t *testing.T) {
	high, low, planted := trustFixture(t)
	reg := NewRegistry(trustSources(high, low))
	f, err := reg.Resolve("matcher", "exact")
	if err != nil {
		t.Fatal(err)
	}
	// Loosened after discovery: launch must notice.
	chmod(t, filepath.Join(planted, "mcptest-plugin-planted"), 0o775)
	if _, err := checkExecutable(f); !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), "writable by its group") {
		t.Fatalf("want ErrUntrusted at launch, got %v", err)
	}
}

func TestTrustedByMatchesDirectoriesBelow(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "plugins")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if !trustedBy(sub, []string{root}) || !trustedBy(sub, []string{sub}) {
		t.Error("a directory at or below a trusted one is trusted")
	}
	if trustedBy(root, []string{sub}) || trustedBy(root+"-other", []string{root}) {
		t.Error("a directory beside or above a trusted one is not trusted")
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	if !trustedBy(sub, []string{link}) {
		t.Error("trusting a directory through a symlink trusts what it points to")
	}
}

func chown(t *testing.T, path string) {
	t.Helper()
	if err := os.Chown(path, otherUID, otherUID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chown(path, os.Geteuid(), os.Getegid()) })
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func TestInstallRefusesConflictsAndUntrustedDirectories(t *testing.T) {
	dir := t.TempDir()
	writePlugin(t, dir, "other", "1.0.0", "  - {kind: reporter, keys: [json, tap]}\n")
	desc := sdk.Description{Name: "mine", Version: "2.0.0", Components: []sdk.Component{{Kind: "reporter", Keys: []string{"json", "junit"}}}}
	err := checkInstallTarget(dir, desc)
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("want ErrConflict, got %v", err)
	}
	for _, want := range []string{`reporter "json" is already offered by other@1.0.0`, filepath.Join(dir, "other"), "--force"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), `"tap"`) || strings.Contains(err.Error(), `"junit"`) {
		t.Errorf("keys offered by one plugin only are no conflict: %v", err)
	}
	// Replacing a plugin of the same name is no conflict.
	desc.Name = "other"
	if err := checkInstallTarget(dir, desc); err != nil {
		t.Errorf("reinstall refused: %v", err)
	}
	// A different kind sharing a key name is no conflict either.
	desc = sdk.Description{Name: "mine", Version: "2.0.0", Components: []sdk.Component{{Kind: "matcher", Keys: []string{"json"}}}}
	if err := checkInstallTarget(dir, desc); err != nil {
		t.Errorf("matcher json refused beside reporter json: %v", err)
	}
	chmod(t, dir, 0o777)
	if err := checkInstallTarget(dir, desc); !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), "writable by every user") {
		t.Errorf("install into a world-writable directory: %v", err)
	}
}
