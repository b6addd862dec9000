#ifndef FITIQ_CFILESYNC_SHIM_H
#define FITIQ_CFILESYNC_SHIM_H
/* Linux's sync_file_range (glibc, since 2.6), which the Glibc module leaves out: it is declared only
   under _GNU_SOURCE. A batch of cache files starts every file's writeback with it before waiting for
   any, so that their flushes overlap. */
#include <stdint.h>
int sync_file_range(int fd, int64_t offset, int64_t nbytes, unsigned int flags);
/* SYNC_FILE_RANGE_WRITE of <fcntl.h>: start writing the dirty pages out, without waiting. */
#define FITIQ_SYNC_FILE_RANGE_WRITE 2
#endif
