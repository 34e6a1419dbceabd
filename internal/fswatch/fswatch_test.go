package fswatch

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestBasename(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/a/b", "b"}, {"/a/b/", "b"}, {"b", "b"}, {"", ""},
	}
	for _, tt := range tests {
		if got := basename(tt.path); got != tt.want {
			t.Errorf("basename(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
