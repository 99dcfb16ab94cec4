package plugin

import (
	"encoding/json"
	"testing"
)

// A search of the file finds what decoding it whole would, or says it
// cannot tell: paths JSON escapes, a path hidden inside another key after
// an escaped quote, numbers at their limits, entries in another layout.
func TestFindDigestAgreesWithEncodingJSON(t *testing.T) {
	sum := "6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b"
	all := map[string]digestEntry{
		"/a/b":                {Stamp: fileStamp{Dev: 65024, Ino: 11078972, Size: 13213858, MtimeNS: 1795966308181504466, CtimeNS: 1795966330037505248}, SHA256: sum},
		`/x",/a/b`:            {Stamp: fileStamp{Dev: 1, Ino: 2, Size: 3, MtimeNS: 4, CtimeNS: 5, UID: 6}, SHA256: "ab"},
		"/q/<tag>&":           {Stamp: fileStamp{Dev: 1 << 63, Ino: 1<<64 - 1, Size: -1, MtimeNS: -1 << 63, UID: 1<<32 - 1}, SHA256: sum},
		"/é/plugin":           {SHA256: sum},
		"/back\\slash":        {SHA256: sum},
		"/empty/sum":          {Stamp: fileStamp{Dev: 7}},
		"/p,\"/empty/sum\":{": {SHA256: "cd"},
	}
	raw, err := json.Marshal(all)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/a/b", `/x",/a/b`, "/q/<tag>&", "/é/plugin", "/back\\slash", "/empty/sum", "/p,\"/empty/sum\":{", "/missing", "/a", "b"} {
		checkFindDigest(t, raw, p)
	}
	for _, damaged := range []string{
		`{"/a/b":{"stamp":{"Dev":1,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":6},"sha256":"ab","x":1}}`,
		`{"/a/b":{"stamp":{"Dev":01,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":6},"sha256":"ab"}}`,
		`{"/a/b":{"stamp":{"Dev":1,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":4294967296},"sha256":"ab"}}`,
		`{"/a/b":{"stamp":{"Dev":-1,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":6},"sha256":"ab"}}`,
		`{"/a/b":{"sha256":"ab","stamp":{"Dev":1,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":6}}}`,
		`{"/a/b":{"stamp":{"Dev":1,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":6},"sha256":"AB"}}`,
		`{"/a/b" :{"stamp":{"Dev":1,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":6},"sha256":"ab"}}`,
	} {
		checkFindDigest(t, []byte(damaged), "/a/b")
	}
}

func FuzzFindDigest(f *testing.F) {
	f.Add([]byte(`{"/a/b":{"stamp":{"Dev":1,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":6},"sha256":"ab"}}`), "/a/b")
	f.Add([]byte(`{"/x\",/a/b":{"stamp":{"Dev":1,"Ino":2,"Size":3,"MtimeNS":4,"CtimeNS":5,"UID":6},"sha256":"ab"}}`), "/a/b")
	f.Fuzz(func(t *testing.T, raw []byte, path string) { checkFindDigest(t, raw, path) })
}

// checkFindDigest fails t when findDigest is sure of an answer about path
// in raw (a file that decodes) that decoding raw whole contradicts.
func checkFindDigest(t *testing.T, raw []byte, path string) {
	t.Helper()
	e, found, sure := findDigest(raw, path)
	if !sure {
		return
	}
	var all map[string]digestEntry
	if err := json.Unmarshal(raw, &all); err != nil {
		// The cache decodes nothing from a file that does not decode,
		// but only a whole object is searched (load): a search inside
		// a damaged file may find a well-formed entry.
		return
	}
	want, ok := all[path]
	if found != ok || (found && e != want) {
		t.Fatalf("findDigest(%q) in %s = %+v, %v; decoding says %+v, %v", path, raw, e, found, want, ok)
	}
}
