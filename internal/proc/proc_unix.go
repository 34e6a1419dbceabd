//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package proc

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// defPath is where a file name is looked up when the environment has no PATH: on Linux
// glibc's execvp, which libuv's child calls, searches confstr(_CS_PATH); elsewhere execvp
// (and libuv's own search on macOS) searches _PATH_DEFPATH. Neither has /usr/local/bin.
func defPath() string {
	if runtime.GOOS == "linux" {
		return "/bin:/usr/bin"
	}
	return "/usr/bin:/bin"
}

// LookPath finds file as execvp does in the child, after its chdir to dir: a name with a
// slash is used as it is; any other is searched in the PATH of env (the first "PATH="
// entry, which the child's getenv sees; the parent's environment if env is nil), and a
// relative PATH entry ("." or "bin", an empty one being ".") is relative to dir when dir
// is not "". The path returned is the entry joined with file, relative if the entry is:
// the exec, after the chdir, resolves it as execvp would. It fails with ENOENT if no
// directory has it, or EACCES if one has it but not executable (or a directory of its name).
func LookPath(file, dir string, env []string) (string, error) {
	if file == "" {
		return "", syscall.ENOENT
	}
	if strings.Contains(file, "/") {
		return file, nil
	}
	path, ok := "", false
	if env == nil {
		path, ok = os.LookupEnv("PATH")
	} else {
		for _, e := range env {
			if v, found := strings.CutPrefix(e, "PATH="); found {
				path, ok = v, true
				break
			}
		}
	}
	if !ok {
		path = defPath()
	}
	err := error(syscall.ENOENT)
	for _, entry := range filepath.SplitList(path) {
		if entry == "" {
			entry = "."
		}
		p := entry + "/" + file
		at := p // where the child's exec finds p
		if dir != "" && !filepath.IsAbs(p) {
			at = filepath.Join(dir, p)
		}
		var st unix.Stat_t
		if unix.Stat(at, &st) != nil {
			continue
		}
		// execve fails with EACCES on a directory too: execvp remembers it and goes on.
		if st.Mode&unix.S_IFMT == unix.S_IFDIR || st.Mode&0o111 == 0 || unix.Access(at, unix.X_OK) != nil {
			err = syscall.EACCES
			continue
		}
		return p, nil
	}
	return "", err
}

// Spawn starts path with argv (argv[0] included) as fork and exec do, and returns the child's
// pid. A file the kernel cannot exec (ENOEXEC: a script with no "#!" line) is run by
// /bin/sh, with path as its first argument, as execvp does (libuv's child calls execvp).
// The errors the child meets before exec (chdir, setuid, exec itself) come back from Spawn,
// bare: ENOENT for a missing program or working directory, EACCES, EPERM, ...
// The parent's descriptors given as the child's fds 0-2 are made blocking (O_NONBLOCK
// cleared, in the parent's copy too: they share the open file description), as libuv's
// children's stdio is; a failed Spawn sets the flag back.
func Spawn(path string, argv []string, attr *Attr) (int, error) {
	files := make([]uintptr, len(attr.Files))
	nulls := [2]int{-1, -1} // /dev/null read-only for fd 0, read-write for the others, as libuv opens it
	defer func() {
		for _, fd := range nulls {
			if fd >= 0 {
				unix.Close(fd)
			}
		}
	}()
	for i, fd := range attr.Files {
		switch fd {
		case DevNull:
			k, mode := 1, unix.O_RDWR
			if i == 0 {
				k, mode = 0, unix.O_RDONLY
			}
			if nulls[k] < 0 {
				var err error
				nulls[k], err = unix.Open("/dev/null", mode|unix.O_CLOEXEC, 0)
				if err != nil {
					return 0, bare(err)
				}
			}
			files[i] = uintptr(nulls[k])
		case Closed:
			files[i] = ^uintptr(0)
		default:
			files[i] = uintptr(fd)
		}
	}
	env := attr.Env
	if env == nil {
		env = os.Environ()
	}
	sys := &syscall.SysProcAttr{Setsid: attr.Setsid}
	if attr.SetUID || attr.SetGID {
		// As libuv's child: the supplementary groups are cleared (setgroups(0, NULL)) when
		// either the uid or the gid changes (an empty Groups with NoSetGroups false).
		c := &syscall.Credential{Uid: uint32(os.Getuid()), Gid: uint32(os.Getgid())}
		if attr.SetUID {
			c.Uid = attr.UID
		}
		if attr.SetGID {
			c.Gid = attr.GID
		}
		sys.Credential = c
	}
	restore, err := makeBlocking(attr.Files[:min(len(attr.Files), 3)])
	if err != nil {
		return 0, err
	}
	pa := &syscall.ProcAttr{Dir: attr.Dir, Env: env, Files: files, Sys: sys}
	pid, err := syscall.ForkExec(path, argv, pa)
	if bare(err) == syscall.ENOEXEC {
		// execvp's fallback: a file the kernel cannot exec (a script with no "#!") is run
		// by the shell, with its path as the first argument.
		pid, err = syscall.ForkExec(shell, append([]string{shell, path}, argv[1:]...), pa)
	}
	if err != nil {
		restore()
		return 0, bare(err)
	}
	return pid, nil
}

// shell is the shell that execvp runs a file with when the kernel cannot exec it (glibc's
// _PATH_BSHELL).
const shell = "/bin/sh"

// keepNonblocking reports whether fd is a socket that a loop cannot use once blocking: a
// listening socket (its loop accepts until EAGAIN, and accept has no per-call non-blocking
// flag) or one that is not a stream (a UDP socket's loop receives until EAGAIN).
func keepNonblocking(fd int) bool {
	typ, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TYPE)
	if err != nil {
		return false // not a socket
	}
	if typ != unix.SOCK_STREAM {
		return true
	}
	acc, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ACCEPTCONN)
	return err == nil && acc != 0
}

// makeBlocking clears O_NONBLOCK on those of fds (the parent's descriptors for the child's
// fds 0-2) that have it, as libuv's child does after its dup2s: programs expect a blocking
// stdin, stdout and stderr. The flag belongs to the open file description, which parent and
// child share, so this is done in the parent, before the fork, with the same effect; restore
// sets it again where it was cleared (when the spawn fails).
func makeBlocking(fds []int) (restore func(), err error) {
	var cleared []int
	restore = func() {
		for _, fd := range cleared {
			unix.SetNonblock(fd, true)
		}
	}
	for _, fd := range fds {
		if fd < 0 || keepNonblocking(fd) {
			continue // DevNull, Closed; a listener or a datagram socket
		}
		fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		if err != nil {
			restore()
			return nil, bare(err)
		}
		if fl&unix.O_NONBLOCK == 0 {
			continue
		}
		if err := unix.SetNonblock(fd, false); err != nil {
			restore()
			return nil, bare(err)
		}
		cleared = append(cleared, fd)
	}
	return restore, nil
}

// bare returns the errno inside err, or err.
func bare(err error) error {
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	if pe, ok := err.(*os.PathError); ok {
		return bare(pe.Err)
	}
	return err
}

// Kill sends sig to pid (kill(2)); 0 only checks that the process exists.
func Kill(pid, sig int) error {
	for {
		err := unix.Kill(pid, unix.Signal(sig))
		if err != unix.EINTR {
			return bare(err)
		}
	}
}

// Getpid is the calling process's id.
func Getpid() int { return unix.Getpid() }

// Reap collects pid's exit status if it has exited (wait4 with WNOHANG). ok is false while
// the child runs.
func Reap(pid int) (st Status, ok bool, err error) {
	return wait4(pid, unix.WNOHANG)
}

func wait4(pid, options int) (Status, bool, error) {
	var ws unix.WaitStatus
	for {
		got, err := unix.Wait4(pid, &ws, options, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return Status{}, false, bare(err)
		}
		if got == 0 {
			return Status{}, false, nil
		}
		return statusOf(ws), true, nil
	}
}

func statusOf(ws unix.WaitStatus) Status {
	if ws.Signaled() {
		return Status{Signal: int(ws.Signal())}
	}
	return Status{Code: ws.ExitStatus()}
}

// Socketpair returns the two ends of a close-on-exec Unix stream socket pair, for a child's
// stdio: the parent keeps one, the child gets the other (made non-close-on-exec by the dup
// into its place).
func Socketpair() (int, int, error) {
	syscall.ForkLock.RLock()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(fds[0])
		unix.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, -1, bare(err)
	}
	return fds[0], fds[1], nil
}

// Close closes fd.
func Close(fd int) error { return bare(unix.Close(fd)) }

// SignalName is the name of signal n ("SIGTERM"), "" if it has none.
func SignalName(n int) string { return unix.SignalName(unix.Signal(n)) }

// SignalNum is the number of the signal named name ("SIGTERM"), 0 if there is none.
func SignalNum(name string) int { return int(unix.SignalNum(name)) }

// ErrnoName is the name of errno ("ENOENT"), "" if it has none.
func ErrnoName(errno syscall.Errno) string { return unix.ErrnoName(errno) }

// Catchable reports whether a handler can be installed for sig: not SIGKILL or SIGSTOP.
func Catchable(sig int) bool { return sig != int(unix.SIGKILL) && sig != int(unix.SIGSTOP) }
