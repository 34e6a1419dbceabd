package nodefs_test

import (
	"math"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// rev11fKinds is the twin's kinds: the isX() methods that hold.
func rev11fKinds(x interface {
	IsFile() bool
	IsDirectory() bool
	IsSymbolicLink() bool
	IsFIFO() bool
	IsSocket() bool
	IsCharacterDevice() bool
	IsBlockDevice() bool
}) string {
	var k []string
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"isFile", x.IsFile()}, {"isDirectory", x.IsDirectory()}, {"isSymbolicLink", x.IsSymbolicLink()},
		{"isFIFO", x.IsFIFO()}, {"isSocket", x.IsSocket()}, {"isCharacterDevice", x.IsCharacterDevice()},
		{"isBlockDevice", x.IsBlockDevice()},
	} {
		if c.ok {
			k = append(k, c.name)
		}
	}
	return strings.Join(k, ",")
}

// Stats of a file, a directory, a link (lstat and stat), a dangling link, a FIFO and
// /dev/null: the isX() methods, mode, nlink (a hard link makes 2), uid, gid, rdev, size,
// blksize, blocks, a birth time, ctime not before mtime, the inode relations of links, the
// times utimes set; readdir's Dirents of each kind with their parentPath; and the callback
// stat, lstat and fstat of the same kinds.
func TestRev11fStatsAndDirentKinds(t *testing.T) {
	const js = `
const { execFileSync } = require('child_process');
fs.writeFileSync('f', '0123456789');
fs.mkdirSync('d');
fs.symlinkSync('f', 'l');
fs.symlinkSync('missing', 'dangling');
execFileSync('mkfifo', ['p']);
fs.linkSync('f', 'hard');
const kinds = (s) => ['isFile', 'isDirectory', 'isSymbolicLink', 'isFIFO', 'isSocket', 'isCharacterDevice', 'isBlockDevice'].filter((m) => s[m]()).join(',');
const showS = (n, s) => console.log(n, kinds(s), s.mode.toString(8), s.nlink, s.uid === process.getuid(), s.gid === process.getgid(), s.rdev, s.size, s.blksize, s.blocks, s.birthtimeMs > 0, s.ctimeMs >= s.mtimeMs);
showS('f', fs.statSync('f'));
showS('d', fs.statSync('d'));
showS('l lstat', fs.lstatSync('l'));
showS('l stat', fs.statSync('l'));
showS('dangling lstat', fs.lstatSync('dangling'));
showS('p', fs.statSync('p'));
showS('null', fs.statSync('/dev/null'));
console.log('ino', fs.statSync('l').ino === fs.statSync('f').ino, fs.lstatSync('l').ino === fs.statSync('f').ino, fs.statSync('hard').ino === fs.statSync('f').ino, fs.statSync('d').dev === fs.statSync('f').dev);
for (const d of fs.readdirSync('.', { withFileTypes: true }).filter((d) => !d.name.endsWith('.js')).sort((a, b) => a.name < b.name ? -1 : 1)) console.log('dirent', d.name, d.parentPath, kinds(d));
fs.stat('p', (e, s) => { console.log('cb p', kinds(s)); fs.lstat('l', (e, s) => { console.log('cb l', kinds(s)); fs.fstat(fs.openSync('/dev/null'), (e, s) => { console.log('fstat null', kinds(s), s.rdev); fs.utimes('f', 1000.25, 2000.75, (e) => { const s = fs.statSync('f'); console.log('utimes', String(e), s.atimeMs, s.mtimeMs, s.atime.getTime(), s.mtime.getTime()); }); }); }); });
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		rev10sMust(t, fs.WriteFileSync("f", []byte("0123456789"), nil))
		_, err := fs.MkdirSync("d", nil)
		rev10sMust(t, err)
		rev10sMust(t, os.Symlink("f", "l"))
		rev10sMust(t, os.Symlink("missing", "dangling"))
		rev10sMust(t, syscall.Mkfifo("p", 0o666))
		rev10sMust(t, os.Link("f", "hard"))
		ms := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
		show := func(n string, s *nodefs.Stats, err error) {
			if err != nil {
				log("%s %s", n, rev10sErrFields(err))
				return
			}
			log("%s %s %o %d %v %v %d %d %d %d %v %v", n, rev11fKinds(s), s.Mode, s.Nlink, s.UID == uint64(syscall.Getuid()), s.GID == uint64(syscall.Getgid()),
				s.Rdev, s.Size, s.Blksize, s.Blocks, s.BirthtimeMs > 0, s.CtimeMs >= s.MtimeMs)
		}
		st := func(p string) *nodefs.Stats { s, _ := fs.StatSync(p); return s }
		lst := func(p string) *nodefs.Stats { s, _ := fs.LstatSync(p); return s }
		s, err := fs.StatSync("f")
		show("f", s, err)
		s, err = fs.StatSync("d")
		show("d", s, err)
		s, err = fs.LstatSync("l")
		show("l lstat", s, err)
		s, err = fs.StatSync("l")
		show("l stat", s, err)
		s, err = fs.LstatSync("dangling")
		show("dangling lstat", s, err)
		s, err = fs.StatSync("p")
		show("p", s, err)
		s, err = fs.StatSync("/dev/null")
		show("null", s, err)
		log("ino %v %v %v %v", st("l").Ino == st("f").Ino, lst("l").Ino == st("f").Ino, st("hard").Ino == st("f").Ino, st("d").Dev == st("f").Dev)
		ents, err := fs.ReaddirWithFileTypesSync(".")
		rev10sMust(t, err)
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
		for _, d := range ents {
			log("dirent %s %s %s", d.Name, d.ParentPath, rev11fKinds(d))
		}
		rev10sMust(t, fs.Stat("p", func(_ error, s *nodefs.Stats) {
			log("cb p %s", rev11fKinds(s))
			fs.Lstat("l", func(_ error, s *nodefs.Stats) {
				log("cb l %s", rev11fKinds(s))
				fd, err := fs.OpenSync("/dev/null", "r", 0o666)
				rev10sMust(t, err)
				fs.Fstat(fd, func(_ error, s *nodefs.Stats) {
					log("fstat null %s %d", rev11fKinds(s), s.Rdev)
					fs.CloseSync(fd)
					fs.Utimes("f", time.Unix(1000, 250e6), time.Unix(2000, 750e6), func(err error) {
						s := st("f")
						log("utimes %s %s %s %d %d", rev10sErrFields(err), ms(s.AtimeMs), ms(s.MtimeMs), s.Atime.UnixMilli(), s.Mtime.UnixMilli())
					})
				})
			})
		}))
	})
}

// A Unix socket's Stats and Dirent say isSocket, and nothing else.
func TestRev11fStatsOfSocket(t *testing.T) {
	const js = `
const kinds = (s) => ['isFile', 'isDirectory', 'isSymbolicLink', 'isFIFO', 'isSocket', 'isCharacterDevice', 'isBlockDevice'].filter((m) => s[m]()).join(',');
const srv = require('net').createServer().listen('sock', () => {
  const s = fs.statSync('sock');
  console.log('stat', kinds(s), s.mode.toString(8), s.size);
  console.log('dirent', fs.readdirSync('.', { withFileTypes: true }).filter((d) => d.name === 'sock').map(kinds).join());
  srv.close();
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		ln, err := net.Listen("unix", "sock")
		rev10sMust(t, err)
		defer ln.Close()
		s, err := fs.StatSync("sock")
		rev10sMust(t, err)
		log("stat %s %o %d", rev11fKinds(s), s.Mode, s.Size)
		ents, err := fs.ReaddirWithFileTypesSync(".")
		rev10sMust(t, err)
		var k []string
		for _, d := range ents {
			if d.Name == "sock" {
				k = append(k, rev11fKinds(d))
			}
		}
		log("dirent %s", strings.Join(k, ","))
	})
}

// birthtimeMs is statx's birth time in node's milliseconds (sec*1e3 + nsec/1e6, printed
// to the same digits) where the file system keeps one (/dev/null), and 0 where it does
// not (/proc, /sys); blksize and blocks of /proc files are the kernel's.
func TestRev11fStatsBirthtime(t *testing.T) {
	const js = `
for (const p of ['/proc/version', '/sys/kernel', '/dev/null']) {
  const s = fs.statSync(p);
  console.log(p, s.birthtimeMs, s.birthtime.getTime() === Math.round(s.birthtimeMs), s.blksize, s.blocks);
}
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		for _, p := range []string{"/proc/version", "/sys/kernel", "/dev/null"} {
			s, err := fs.StatSync(p)
			rev10sMust(t, err)
			ms := s.BirthtimeMs
			log("%s %s %v %d %d", p, strconv.FormatFloat(ms, 'f', -1, 64), s.Birthtime.Round(time.Millisecond).UnixMilli() == int64(math.Round(ms)), s.Blksize, s.Blocks)
		}
	})
}

// /dev's Dirents and Stats: character and block devices (and a directory, a link) say so.
func TestRev11fDevKinds(t *testing.T) {
	const js = `
const kinds = (s) => ['isFile', 'isDirectory', 'isSymbolicLink', 'isFIFO', 'isSocket', 'isCharacterDevice', 'isBlockDevice'].filter((m) => s[m]()).join(',');
const names = ['null', 'zero', 'vda', 'sda', 'nvme0n1', 'loop0', 'pts', 'fd', 'stdin'];
for (const d of fs.readdirSync('/dev', { withFileTypes: true })) {
  if (names.includes(d.name)) console.log('dirent', d.name, kinds(d), d.parentPath, kinds(fs.lstatSync('/dev/' + d.name)));
}
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS, log func(string, ...any)) {
		names := map[string]bool{"null": true, "zero": true, "vda": true, "sda": true, "nvme0n1": true, "loop0": true, "pts": true, "fd": true, "stdin": true}
		ents, err := fs.ReaddirWithFileTypesSync("/dev")
		rev10sMust(t, err)
		for _, d := range ents {
			if names[d.Name] {
				s, err := fs.LstatSync("/dev/" + d.Name)
				rev10sMust(t, err)
				log("dirent %s %s %s %s", d.Name, rev11fKinds(d), d.ParentPath, rev11fKinds(s))
			}
		}
	})
}
