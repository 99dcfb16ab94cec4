package vendor

import "os"

// ScrubEnv removes the variables a vendor SDK would read by itself. A
// provider plugin is told its key and address by the host for every call;
// an SDK that also read the environment could send a key or an
// organization meant for another endpoint.
func ScrubEnv(names ...string) {
	for _, n := range names {
		os.Unsetenv(n)
	}
}
