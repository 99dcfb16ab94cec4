// Package safefile opens and reads files that mcptest is given by path
// (suites, imports, dotenv files, plugin manifests, saved reports) without
// ever blocking on them and without reading more than a caller's limit.
//
// A path may name a FIFO with no writer, a socket, a terminal or a device
// such as /dev/zero: os.ReadFile would hang on the first and never end on
// the last. Open refuses everything but a regular file, in three steps: a
// stat before opening (nothing is opened that is not a regular file), an
// open that cannot block (O_NONBLOCK where the system has it), and an
// fstat of the opened descriptor, which closes the race of a path swapped
// between the stat and the open. ReadFile then checks the size from that
// fstat against the limit before it reads a byte, so a sparse 3 GB file is
// refused at once instead of being read into memory.
package safefile
