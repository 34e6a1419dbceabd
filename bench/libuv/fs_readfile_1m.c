/*
 * fs-readfile-1m: fs_readfile.c with a 1 MiB file: open, fstat, two reads
 * of 512 KiB, close per call.
 */
#define FILE_SIZE (1 << 20)
#define NAME "fs-readfile-1m"
#define DEFAULT_N 2000
#include "fs_readfile.c"
