package vars

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"

	"github.com/joho/godotenv"
)

// DotenvFiles lists the dotenv files of a suite in the order they are
// read: the .env in suiteDir when one exists, then the --env-file files.
// A .env that exists but is not a regular file (a FIFO, a device) is
// listed, so that the reader refuses it: silently skipping it would hide
// the variables it should set.
func DotenvFiles(suiteDir string, extra []string) []string {
	var files []string
	beside := filepath.Join(suiteDir, ".env")
	if _, err := os.Stat(beside); err == nil {
		files = append(files, beside)
	}
	return append(files, extra...)
}

// DotenvError is a dotenv file that could not be read or parsed. Msg is
// the sentence the loader shows after the file name; Err is the cause.
type DotenvError struct {
	File string
	Msg  string
	Err  error
}

// Error implements error.
func (e *DotenvError) Error() string { return e.File + ": " + e.Msg }

// Unwrap returns the cause.
func (e *DotenvError) Unwrap() error { return e.Err }

// ReadDotenv reads the dotenv files in order; a later file overrides an
// earlier one. read reads one file; the caller chooses it so that every
// suite file is bounded and checked the same way. A file that cannot be
// read or parsed is reported and skipped, and the others are still read,
// so that one load reports every problem.
func ReadDotenv(files []string, read func(string) ([]byte, error)) (map[string]string, []*DotenvError) {
	out := map[string]string{}
	var errs []*DotenvError
	for _, f := range files {
		data, err := read(f)
		if err != nil {
			errs = append(errs, &DotenvError{File: f, Msg: "cannot read the dotenv file: " + pathless(err).Error(), Err: err})
			continue
		}
		m, err := godotenv.UnmarshalBytes(data)
		if err != nil {
			errs = append(errs, &DotenvError{File: f, Msg: "invalid dotenv file: " + err.Error(), Err: err})
			continue
		}
		maps.Copy(out, m)
	}
	return out, errs
}

// pathless strips the path from a file error: the message already names
// the file.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
