package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcptest/mcptest/internal/safefile"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcptest/mcptest/sdk"
)

// ExecutablePrefix starts the file name of every installed plugin binary.
const ExecutablePrefix = "mcptest-plugin-"

// DescribeBinary runs `BIN describe` and decodes the plugin's
// self-description.
func DescribeBinary(ctx context.Context, bin string) (sdk.Description, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "describe")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return sdk.Description{}, fmt.Errorf("run %s describe: %w (stderr: %s)", bin, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var d sdk.Description
	if err := json.Unmarshal(stdout.Bytes(), &d); err != nil {
		return sdk.Description{}, fmt.Errorf("%s describe printed no plugin description (is it an mcptest plugin?): %w", bin, err)
	}
	return d, nil
}

// InstallOptions tune Install.
type InstallOptions struct {
	// Force installs even when another plugin of the directory offers one
	// of the new plugin's keys (a conflict that stops every run using the
	// key), or when the directory is one mcptest would refuse to trust.
	Force bool
}

// Install copies the plugin binary bin into dir/<name>/, named
// mcptest-plugin-<name>, and writes its manifest with the binary's sha256.
// It replaces an existing install of the same name and returns the new
// plugin folder.
func Install(ctx context.Context, bin, dir string) (*Found, error) {
	return InstallWith(ctx, bin, dir, InstallOptions{})
}

// InstallWith is Install with options. Unless opts.Force is set, it refuses
// (wrapping ErrConflict) to add a plugin that offers a key another plugin
// of dir already offers, and (wrapping ErrUntrusted) to install into a
// directory that another user owns or may write.
func InstallWith(ctx context.Context, bin, dir string, opts InstallOptions) (*Found, error) {
	d, err := DescribeBinary(ctx, bin)
	if err != nil {
		return nil, err
	}
	if !opts.Force {
		if err := checkInstallTarget(dir, d); err != nil {
			return nil, err
		}
	}
	m := &Manifest{
		ManifestVersion:  1,
		Name:             d.Name,
		Version:          d.Version,
		ProtocolVersions: d.ProtocolVersions,
		Executable:       ExecutablePrefix + d.Name,
		Components:       d.Components,
		Capabilities:     d.Capabilities,
		Env:              d.Env,
		Prices:           d.Prices,
	}
	pdir := filepath.Join(dir, d.Name)
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		return nil, fmt.Errorf("create plugin folder: %w", err)
	}
	dst := filepath.Join(pdir, m.Executable)
	if err := copyExecutable(bin, dst); err != nil {
		return nil, err
	}
	if m.SHA256, err = hashInstalled(sharedDigests, dst); err != nil {
		return nil, err
	}
	raw, err := m.Encode()
	if err != nil {
		return nil, err
	}
	if _, err := ParseManifest(raw); err != nil {
		return nil, fmt.Errorf("plugin %s describes itself in a way no manifest can hold: %w", bin, err)
	}
	mpath := filepath.Join(pdir, ManifestFile)
	if err := writeFileAtomic(mpath, raw, 0o644); err != nil {
		return nil, err
	}
	return &Found{Manifest: m, Dir: pdir, ManifestPath: mpath}, nil
}

// checkInstallTarget refuses an install that would leave two plugins of
// dir offering one key, or a plugin mcptest would refuse to run.
func checkInstallTarget(dir string, d sdk.Description) error {
	if err := checkPathOwnership("plugin directory", dir, dir); err != nil {
		return fmt.Errorf("refusing to install into %s: %w (or pass --force)", dir, err)
	}
	found, _ := Discover([]Source{{Dir: dir, Origin: "install"}})
	offered := map[string]bool{}
	for _, c := range d.Components {
		for _, k := range c.Keys {
			offered[c.Kind+"/"+k] = true
		}
	}
	var clashes []string
	for _, f := range found {
		if f.Manifest.Name == d.Name {
			continue // replaced by this install
		}
		for _, c := range f.Manifest.Components {
			for _, k := range c.Keys {
				if offered[c.Kind+"/"+k] {
					clashes = append(clashes, fmt.Sprintf("%s %q is already offered by %s (%s)", c.Kind, k, f.Label(), f.Dir))
				}
			}
		}
	}
	if len(clashes) == 0 {
		return nil
	}
	sort.Strings(clashes)
	return fmt.Errorf("%w: installing %s@%s into %s would leave two plugins of one directory offering the same key, and no run could use it: %s; remove the other plugin, install into another (higher- or lower-priority) directory to shadow it, or pass --force",
		ErrConflict, d.Name, d.Version, dir, strings.Join(clashes, "; "))
}

// copyExecutable copies src to dst through a temporary file and a rename,
// so a running plugin is never overwritten in place.
func copyExecutable(src, dst string) error {
	in, _, err := safefile.Open(src)
	if err != nil {
		return fmt.Errorf("open plugin binary: %w", err)
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".install-*")
	if err != nil {
		return fmt.Errorf("install plugin: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		return fmt.Errorf("copy plugin binary: %w", err)
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return fmt.Errorf("install plugin: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("install plugin: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("install plugin: %w", err)
	}
	return nil
}

func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".write-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}

// hashInstalled hashes the executable an install just wrote and records
// the digest in cache, so the first run after an install (or `make
// build`) finds the plugin verified by its stamp instead of hashing it on
// the way to the servers' start. The hash is of the file as written; a
// file changed meanwhile is not recorded (digestCache.remember).
func hashInstalled(cache *digestCache, exe string) (string, error) {
	before, stamped := stampOf(exe)
	sum, err := FileSHA256(exe)
	if err != nil {
		return "", err
	}
	if stamped {
		cache.remember(exe, sum, before)
	}
	return sum, nil
}
