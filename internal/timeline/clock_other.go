//go:build !linux

package timeline

import "time"

// origin is when the package was initialised.
var origin = time.Now()

// now returns the seconds since the package was initialised: elsewhere
// than Linux the marks line up with each other, not with a trace.
func now() float64 { return time.Since(origin).Seconds() }
