//go:build unix

package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// entries lists a folder, so tests see any temporary file left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDestinationReplacesAnEarlierReportOnlyWhenComplete(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := os.WriteFile(path, []byte("earlier"), 0o640); err != nil {
		t.Fatal(err)
	}

	// An incomplete report leaves the earlier one as it was.
	d, err := openDestination(path)
	if err != nil {
		t.Fatal(err)
	}
	d.write([]byte("half of a rep"))
	if got := readFile(t, path); got != "earlier" {
		t.Fatalf("the target changed while the report was written: %q", got)
	}
	d.discard()
	if got := readFile(t, path); got != "earlier" {
		t.Errorf("a discarded report replaced the earlier one: %q", got)
	}
	if es := entries(t, dir); len(es) != 1 {
		t.Errorf("files left behind: %v", es)
	}

	// A complete one replaces it and keeps its mode.
	d, err = openDestination(path)
	if err != nil {
		t.Fatal(err)
	}
	d.write([]byte("new "))
	d.write([]byte("report"))
	if err := d.commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new report" {
		t.Errorf("report %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the earlier file's 0640", fi.Mode().Perm())
	}
	if es := entries(t, dir); len(es) != 1 {
		t.Errorf("files left behind: %v", es)
	}
}

func TestDestinationCreatesFolderAndFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	d, err := openDestination(filepath.Join(dir, "a", "b", "new.xml"))
	if err != nil {
		t.Fatal(err)
	}
	d.write([]byte("<x/>"))
	if err := d.commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "a", "b", "new.xml")); got != "<x/>" {
		t.Errorf("report %q", got)
	}
	// A new report is created like any new file: 0666 less the umask
	// (os.CreateTemp alone would leave it 0600).
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	if fi, _ := os.Stat(filepath.Join(dir, "a", "b", "new.xml")); fi.Mode().Perm() != 0o666&^fs.FileMode(umask) {
		t.Errorf("a new report has mode %v, want %v", fi.Mode().Perm(), 0o666&^fs.FileMode(umask))
	}

	real := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	d, err = openDestination(link)
	if err != nil {
		t.Fatal(err)
	}
	d.write([]byte("through the link"))
	if err := d.commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if got := readFile(t, real); got != "through the link" {
		t.Errorf("the link's target holds %q", got)
	}
}

func TestDestinationWriteErrorNamesTheFile(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	d, err := openDestination("/dev/full")
	if err != nil {
		t.Fatal(err)
	}
	d.write([]byte("anything"))
	d.write([]byte("more"))
	err = d.commit()
	if !errors.Is(err, syscall.ENOSPC) || err.Error() != "write report /dev/full: no space left on device" {
		t.Errorf("commit = %v", err)
	}
}

func TestDestinationFIFOWithoutReaderFailsAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	// Before the fix this open blocked for good; now it must return.
	_, err := openDestination(path)
	if err == nil || !strings.Contains(err.Error(), "FIFO that no process is reading") || !strings.Contains(err.Error(), path) {
		t.Fatalf("open = %v", err)
	}

	// With a reader, the report streams into it.
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := openDestination(path)
	if err != nil {
		t.Fatal(err)
	}
	d.write([]byte("streamed"))
	if err := d.commit(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := r.Read(buf)
	if string(buf[:n]) != "streamed" {
		t.Errorf("the reader got %q", buf[:n])
	}
}

func TestDiscardPendingRemovesUnfinishedReports(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := os.WriteFile(path, []byte("earlier"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := openDestination(path)
	if err != nil {
		t.Fatal(err)
	}
	d.write([]byte("partial"))
	DiscardPending()
	if es := entries(t, dir); len(es) != 1 || readFile(t, path) != "earlier" {
		t.Errorf("after DiscardPending: %v, %q", es, readFile(t, path))
	}
}

func TestStepSummaryIsOpenedOnceAndAppended(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(path, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &stepSummary{path: path}
	if err := s.write([]byte("one\n")); err != nil {
		t.Fatal(err)
	}
	// Opened once: after the file is moved away, writes still reach it
	// through the descriptor opened first.
	moved := filepath.Join(dir, "moved.md")
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	if err := s.write([]byte("two\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, moved); got != "earlier step\none\ntwo\n" {
		t.Errorf("summary %q", got)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the summary was opened again")
	}
}

func TestStepSummaryWriteErrorIsReportedOnce(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	s := &stepSummary{path: "/dev/full"}
	err := s.write([]byte("x"))
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "/dev/full ($GITHUB_STEP_SUMMARY)") {
		t.Fatalf("first write = %v", err)
	}
	if err := s.write([]byte("y")); err != nil {
		t.Errorf("second write = %v, want nothing more", err)
	}
}

// A descriptor path (/dev/stdout, /proc/self/fd/N) is written in place,
// even when the descriptor is a regular file: the caller redirected it
// there, perhaps to append, and a rename would swap the file under it.
func TestDestinationDescriptorPathIsWrittenInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "redirected.txt")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("kept\n"); err != nil {
		t.Fatal(err)
	}
	before, _ := f.Stat()
	d, err := openDestination(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
	if err != nil {
		t.Skip("no /proc/self/fd here:", err)
	}
	d.write([]byte("appended\n"))
	if err := d.commit(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("the file behind the descriptor was replaced")
	}
	if got := readFile(t, path); got != "kept\nappended\n" {
		t.Errorf("file holds %q", got)
	}
}

func TestIsDescriptorPath(t *testing.T) {
	for path, want := range map[string]bool{
		"/dev/stdout": true, "/dev/stderr": true, "/dev/fd/63": true, "/proc/self/fd/3": true, "/proc/42/fd/1": true,
		"/dev/shm/report.json": false, "/dev/full": false, "/proc/self/status": false, "out/run.json": false,
	} {
		if got := isDescriptorPath(path); got != want {
			t.Errorf("isDescriptorPath(%q) = %v, want %v", path, got, want)
		}
	}
}
