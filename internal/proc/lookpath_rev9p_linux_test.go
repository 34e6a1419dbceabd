package proc

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// With no PATH in the child's environment, glibc's execvp (which libuv's child calls on
// Linux) searches confstr(_CS_PATH), "/bin:/usr/bin": a program found only in
// /usr/local/bin is not found (ENOENT), as node reports it. The test looks for such a
// program on this machine (and skips without one); LookPath only looks, nothing runs.
// Before the fix LookPath searched "/usr/local/bin:/bin:/usr/bin" and found it.
func TestRev9LookPathDefaultIsCSPath(t *testing.T) {
	ents, err := os.ReadDir("/usr/local/bin")
	if err != nil {
		t.Skip("no /usr/local/bin")
	}
	name := ""
	for _, e := range ents {
		p := filepath.Join("/usr/local/bin", e.Name())
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() || st.Mode()&0o111 == 0 {
			continue
		}
		if _, err := os.Stat(filepath.Join("/bin", e.Name())); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join("/usr/bin", e.Name())); err == nil {
			continue
		}
		name = e.Name()
		break
	}
	if name == "" {
		t.Skip("no program only in /usr/local/bin on this machine")
	}
	if p, err := LookPath(name, "", []string{"HOME=/"}); !errors.Is(err, syscall.ENOENT) {
		t.Errorf("LookPath(%q) with no PATH: %q, %v; want ENOENT (glibc's default PATH is /bin:/usr/bin)", name, p, err)
	}
	if p, err := LookPath("sh", "", []string{"HOME=/"}); err != nil || (p != "/bin/sh" && p != "/usr/bin/sh") {
		t.Errorf("LookPath(sh) with no PATH: %q, %v", p, err)
	}
}
