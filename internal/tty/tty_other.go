//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package tty

// State is a terminal's saved mode.
type State struct{}

func IsTerminal(fd int) bool                          { return false }
func Guess(fd int) Kind                               { return Unknown }
func GetState(fd int) (*State, error)                 { return nil, ErrUnsupported }
func Restore(fd int, s *State) error                  { return ErrUnsupported }
func SetMode(fd int, orig *State, mode Mode) error    { return ErrUnsupported }
func WinSize(fd int) (width, height int, err error)   { return 0, 0, ErrUnsupported }
func Reopen(fd int) (int, error)                      { return -1, ErrUnsupported }
func Dup(fd int) (int, error)                         { return -1, ErrUnsupported }
func Flags(fd int) (int, error)                       { return 0, ErrUnsupported }
func Access(fd int) (read, write bool, err error)     { return false, false, ErrUnsupported }
func SetFlags(fd, flags int) error                    { return ErrUnsupported }
func SetNonblock(fd int, on bool) error               { return ErrUnsupported }
func Close(fd int) error                              { return ErrUnsupported }
func Read(fd int, p []byte) (int, error)              { return 0, ErrUnsupported }
func WriteAll(fd int, p []byte) error                 { return ErrUnsupported }
func Canonical(fd int) (echo, icanon bool, err error) { return false, false, ErrUnsupported }
func SetWinSize(fd, width, height int) error          { return ErrUnsupported }
