package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
)

// stepSummary is the CI job summary file ($GITHUB_STEP_SUMMARY). It is
// opened once, on the first write, and only ever appended to: the job's
// other steps write to the same file.
type stepSummary struct {
	path string
	once sync.Once
	mu   sync.Mutex
	f    *os.File
	// err is the first failure; later writes are dropped.
	err error
}

// write appends p and returns the error that makes the summary unusable,
// once: the caller reports it, and later writes fail silently.
func (s *stepSummary) write(p []byte) error {
	if s.path == "" {
		return nil
	}
	s.once.Do(s.open)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return s.takeErr()
	}
	if _, err := s.f.Write(p); err != nil {
		s.err = fmt.Errorf("append to the job summary %s ($GITHUB_STEP_SUMMARY): %w", s.path, bare(err))
		_ = s.f.Close()
		s.f = nil
		return s.takeErr()
	}
	return nil
}

// takeErr hands the first error out once.
func (s *stepSummary) takeErr() error {
	err := s.err
	s.err = nil
	return err
}

func (s *stepSummary) open() {
	flag := os.O_APPEND | os.O_CREATE | os.O_WRONLY
	if fi, err := os.Stat(s.path); err == nil && fi.Mode()&fs.ModeNamedPipe != 0 {
		// A FIFO nobody reads must not hang the run.
		flag |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(s.path, flag, 0o644)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			err = errors.New("a FIFO that no process is reading")
		}
		s.err = fmt.Errorf("open the job summary %s ($GITHUB_STEP_SUMMARY): %w", s.path, bare(err))
		return
	}
	s.f = f
}

// close closes the file and returns the error of closing it.
func (s *stepSummary) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	if err != nil {
		return fmt.Errorf("append to the job summary %s ($GITHUB_STEP_SUMMARY): %w", s.path, bare(err))
	}
	return nil
}
