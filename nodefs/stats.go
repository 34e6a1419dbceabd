package nodefs

import (
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Stats is Node's fs.Stats: the numbers of stat(2) under Node's names, the times both in
// milliseconds (fractional, as Node's atimeMs) and as time.Time, and the isFile()-style
// methods.
type Stats struct {
	Dev, Mode, Nlink, UID, GID, Rdev, Ino  uint64
	Size, Blksize, Blocks                  int64
	AtimeMs, MtimeMs, CtimeMs, BirthtimeMs float64
	Atime, Mtime, Ctime, Birthtime         time.Time
}

func statsOf(s uvloop.Stat) *Stats {
	ms := func(t uvloop.Timespec) float64 { return float64(t.Sec)*1e3 + float64(t.Nsec)/1e6 }
	return &Stats{
		Dev: s.Dev, Mode: s.Mode, Nlink: s.Nlink, UID: s.UID, GID: s.GID, Rdev: s.Rdev, Ino: s.Ino,
		Size: s.Size, Blksize: s.Blksize, Blocks: s.Blocks,
		AtimeMs: ms(s.Atime), MtimeMs: ms(s.Mtime), CtimeMs: ms(s.Ctime), BirthtimeMs: ms(s.Birthtime),
		Atime: s.Atime.Time(), Mtime: s.Mtime.Time(), Ctime: s.Ctime.Time(), Birthtime: s.Birthtime.Time(),
	}
}

func (s *Stats) isType(t uint64) bool { return s.Mode&uvloop.S_IFMT == t }

// IsFile is stats.isFile().
func (s *Stats) IsFile() bool { return s.isType(uvloop.S_IFREG) }

// IsDirectory is stats.isDirectory().
func (s *Stats) IsDirectory() bool { return s.isType(uvloop.S_IFDIR) }

// IsSymbolicLink is stats.isSymbolicLink() (true only from Lstat).
func (s *Stats) IsSymbolicLink() bool { return s.isType(uvloop.S_IFLNK) }

// IsFIFO is stats.isFIFO().
func (s *Stats) IsFIFO() bool { return s.isType(uvloop.S_IFIFO) }

// IsSocket is stats.isSocket().
func (s *Stats) IsSocket() bool { return s.isType(uvloop.S_IFSOCK) }

// IsCharacterDevice is stats.isCharacterDevice().
func (s *Stats) IsCharacterDevice() bool { return s.isType(uvloop.S_IFCHR) }

// IsBlockDevice is stats.isBlockDevice().
func (s *Stats) IsBlockDevice() bool { return s.isType(uvloop.S_IFBLK) }

// Dirent is Node's fs.Dirent, what Readdir with file types lists: the entry's name, the
// directory it is in (Node's parentPath and path), and its type.
type Dirent struct {
	Name       string
	ParentPath string
	Type       uvloop.DirentType
}

// IsFile is dirent.isFile().
func (d *Dirent) IsFile() bool { return d.Type == uvloop.DirentFile }

// IsDirectory is dirent.isDirectory().
func (d *Dirent) IsDirectory() bool { return d.Type == uvloop.DirentDir }

// IsSymbolicLink is dirent.isSymbolicLink().
func (d *Dirent) IsSymbolicLink() bool { return d.Type == uvloop.DirentLink }

// IsFIFO is dirent.isFIFO().
func (d *Dirent) IsFIFO() bool { return d.Type == uvloop.DirentFIFO }

// IsSocket is dirent.isSocket().
func (d *Dirent) IsSocket() bool { return d.Type == uvloop.DirentSocket }

// IsCharacterDevice is dirent.isCharacterDevice().
func (d *Dirent) IsCharacterDevice() bool { return d.Type == uvloop.DirentChar }

// IsBlockDevice is dirent.isBlockDevice().
func (d *Dirent) IsBlockDevice() bool { return d.Type == uvloop.DirentBlock }
