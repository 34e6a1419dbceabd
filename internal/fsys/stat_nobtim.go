//go:build openbsd || dragonfly

package fsys

import "golang.org/x/sys/unix"

// These systems keep no birth time: Birthtime is left zero.
func fromStatT(st *Statbuf, s *unix.Stat_t) {
	*st = Statbuf{
		Dev: uint64(s.Dev), Mode: uint64(s.Mode), Nlink: uint64(s.Nlink), UID: uint64(s.Uid),
		GID: uint64(s.Gid), Rdev: uint64(s.Rdev), Ino: uint64(s.Ino), Size: s.Size,
		Blksize: int64(s.Blksize), Blocks: s.Blocks, Flags: uint64(s.Flags), Gen: uint64(s.Gen),
		Atime: Timespec{int64(s.Atim.Sec), int64(s.Atim.Nsec)},
		Mtime: Timespec{int64(s.Mtim.Sec), int64(s.Mtim.Nsec)},
		Ctime: Timespec{int64(s.Ctim.Sec), int64(s.Ctim.Nsec)},
	}
}
