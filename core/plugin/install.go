package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

// Install copies the plugin binary bin into dir/<name>/, named
// mcptest-plugin-<name>, and writes its manifest with the binary's sha256.
// It replaces an existing install of the same name and returns the new
// plugin folder.
func Install(ctx context.Context, bin, dir string) (*Found, error) {
	d, err := DescribeBinary(ctx, bin)
	if err != nil {
		return nil, err
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
	}
	pdir := filepath.Join(dir, d.Name)
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		return nil, fmt.Errorf("create plugin folder: %w", err)
	}
	dst := filepath.Join(pdir, m.Executable)
	if err := copyExecutable(bin, dst); err != nil {
		return nil, err
	}
	if m.SHA256, err = FileSHA256(dst); err != nil {
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

// copyExecutable copies src to dst through a temporary file and a rename,
// so a running plugin is never overwritten in place.
func copyExecutable(src, dst string) error {
	in, err := os.Open(src)
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
