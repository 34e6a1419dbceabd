//go:build linux

package uring

// Opcodes of file system calls (enum io_uring_op), and the kernel that brought each.
const (
	OpFsync    uint8 = 3  // Linux 5.1; IORING_FSYNC_DATASYNC in OpFlags for fdatasync
	OpOpenat   uint8 = 18 // 5.6: Fd the directory, Addr the path, Len the mode, OpFlags the flags
	OpClose    uint8 = 19 // 5.6
	OpStatx    uint8 = 21 // 5.6: Fd, Addr the path, Len the mask, OpFlags the flags, Off the buffer
	OpRenameat uint8 = 35 // 5.11: Fd and Len the directories, Addr and Off the paths
	OpUnlinkat uint8 = 36 // 5.11: OpFlags AT_REMOVEDIR for rmdir
	OpMkdirat  uint8 = 37 // 5.15: Len the mode
	OpSymlink  uint8 = 38 // 5.15: Addr the target, Off the link's path, Fd its directory
	OpLinkat   uint8 = 39 // 5.15: as Renameat, OpFlags the linkat flags

	// FsyncDatasync makes an OpFsync an fdatasync (IORING_FSYNC_DATASYNC).
	FsyncDatasync uint32 = 1 << 0
)
