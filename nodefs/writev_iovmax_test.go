package nodefs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// A WriteStream that gets more chunks than IOV_MAX (1024) while a write is in
// flight writes them all, as Node does (fs.createWriteStream, 2000 writes of "ab", end: the
// file has 4000 bytes, no 'error'): libuv's uv_fs_write writes more than IOV_MAX buffers
// in chunks of IOV_MAX, and its uv_fs_read reads into the first IOV_MAX; a single pwritev
// of the batch would fail with EINVAL and destroy the stream. Both backends.
func TestWriteStreamManyChunks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	var streamErr any
	finished := false
	run(t, func(l *uvloop.Loop, f *nodefs.FS) {
		s, err := f.CreateWriteStream(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.On("error", func(a ...any) { streamErr = a[0] })
		for range 2000 {
			s.Write([]byte("ab"), nil)
		}
		s.End(nil, func() { finished = true })
	})
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if streamErr != nil || !finished || st.Size() != 4000 {
		t.Errorf("2000 writes of 2 bytes: error %v, finished %v, size %d; want no error, finished, 4000", streamErr, finished, st.Size())
	}
}
