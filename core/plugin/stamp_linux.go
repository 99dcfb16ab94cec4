package plugin

import (
	"os"
	"syscall"
)

// stampSupported: Linux reports every field of a fileStamp.
const stampSupported = true

// stampOf returns the stamp of the file at path, following symlinks as
// exec does.
func stampOf(path string) (fileStamp, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return fileStamp{}, false
	}
	return fileStamp{
		Dev: st.Dev, Ino: st.Ino, Size: st.Size,
		MtimeNS: st.Mtim.Nano(), CtimeNS: st.Ctim.Nano(), UID: st.Uid,
	}, true
}

// ownedPrivately reports whether info is a regular file of this user that
// no one else may write.
func ownedPrivately(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && info.Mode().IsRegular() && int(st.Uid) == os.Getuid() && info.Mode().Perm()&0o022 == 0
}
