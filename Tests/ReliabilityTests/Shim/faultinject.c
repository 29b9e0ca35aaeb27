/*
 * faultinject.c: a test-only LD_PRELOAD library that makes chosen system calls fail.
 *
 * Built by the ReliabilityTests at run time (`clang -shared -fPIC`) and loaded into
 * the `folio` binary with LD_PRELOAD. It only ever looks at calls on paths (or file
 * descriptors open on paths) under FOLIO_FAULT_PREFIX, so the runtime's own I/O
 * (loading libraries, writing to standard error) is neither counted nor broken.
 *
 * Environment:
 *   FOLIO_FAULT_PREFIX   absolute directory; only calls under it count (required).
 *   FOLIO_FAULT_CALL     comma-separated call names to break, e.g. "write,pwrite".
 *                        Names: open openat creat read pread readv write pwrite writev
 *                        fsync fdatasync syncfs rename renameat mkdir mkdirat unlink unlinkat
 *                        rmdir ftruncate sendfile copy_file_range close symlink symlinkat
 *                        link linkat fchmod futimens utimensat mkstemp.
 *   FOLIO_FAULT_NTH      which matching occurrence fails (1-based; default 1).
 *   FOLIO_FAULT_REPEAT   "1": every occurrence from the Nth on fails (a disk stays full).
 *   FOLIO_FAULT_ERRNO    ENOSPC, EIO, EINTR, EDQUOT, EACCES, EROFS or a number; or
 *                        "short" for a short count (read/write family only).
 *   FOLIO_FAULT_LOG      file that receives "fired ..." lines as faults fire and,
 *                        at exit, one "count NAME N" line per call name seen.
 *   FOLIO_FAULT_MUTATE       truncate | shrink | grow | unlink: change a file under a
 *   FOLIO_FAULT_MUTATE_PATH  reader's feet, right after the reader's
 *   FOLIO_FAULT_MUTATE_NTH   Nth successful read of it (default 1), or of
 *   FOLIO_FAULT_MUTATE_AFTER another file, when given (to change a file not yet opened).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum call {
  C_OPEN, C_OPENAT, C_CREAT, C_READ, C_PREAD, C_READV, C_WRITE, C_PWRITE, C_WRITEV,
  C_FSYNC, C_FDATASYNC, C_RENAME, C_RENAMEAT, C_MKDIR, C_MKDIRAT, C_UNLINK, C_UNLINKAT,
  C_RMDIR, C_FTRUNCATE, C_SENDFILE, C_COPY_FILE_RANGE, C_CLOSE, C_SYMLINK, C_SYMLINKAT,
  C_LINK, C_LINKAT, C_FCHMOD, C_FUTIMENS, C_UTIMENSAT, C_MKSTEMP, C_SYNCFS, C_COUNT
};

static const char *const call_names[C_COUNT] = {
  "open", "openat", "creat", "read", "pread", "readv", "write", "pwrite", "writev",
  "fsync", "fdatasync", "rename", "renameat", "mkdir", "mkdirat", "unlink", "unlinkat",
  "rmdir", "ftruncate", "sendfile", "copy_file_range", "close", "symlink", "symlinkat",
  "link", "linkat", "fchmod", "futimens", "utimensat", "mkstemp", "syncfs"
};

static struct {
  int ready;
  char prefix[PATH_MAX];
  size_t prefix_length;
  int selected[C_COUNT];
  long nth;
  int repeat;
  int error;   /* errno to inject, or 0 with is_short */
  int is_short;
  char log[PATH_MAX];
  char mutate[16];
  char mutate_path[PATH_MAX];
  char mutate_after[PATH_MAX];
  long mutate_nth;
} config;

static long counts[C_COUNT];  /* calls seen under the prefix, per name */
static long matched;          /* calls of the selected names seen under the prefix */
static long mutate_reads;
static int mutated;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The next definition of `name` (libc's), looked up once. */
#define REAL(name) \
  static __typeof__(&name) real_##name; \
  if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
ssize_t __read_chk(int fd, void *buffer, size_t count, size_t size);

static ssize_t raw_write(int fd, const void *buffer, size_t count) {
  REAL(write);
  return real_write(fd, buffer, count);
}

static int raw_open(const char *path, int flags, mode_t mode) {
  REAL(open);
  return real_open(path, flags, mode);
}

static int raw_close(int fd) {
  REAL(close);
  return real_close(fd);
}

static void log_line(const char *line) {
  if (!config.log[0]) return;
  int saved = errno;
  int fd = raw_open(config.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd >= 0) {
    raw_write(fd, line, strlen(line));
    raw_close(fd);
  }
  errno = saved;
}

static int parse_errno(const char *text) {
  static const struct { const char *name; int value; } table[] = {
    {"ENOSPC", ENOSPC}, {"EIO", EIO}, {"EINTR", EINTR}, {"EDQUOT", EDQUOT},
    {"EACCES", EACCES}, {"EROFS", EROFS}, {"EAGAIN", EAGAIN}, {"EPERM", EPERM},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (strcmp(text, table[i].name) == 0) return table[i].value;
  }
  int value = atoi(text);
  return value > 0 ? value : EIO;
}

static void load_config(void) {
  const char *prefix = getenv("FOLIO_FAULT_PREFIX");
  if (!prefix || !prefix[0]) return;
  snprintf(config.prefix, sizeof config.prefix, "%s", prefix);
  config.prefix_length = strlen(config.prefix);
  while (config.prefix_length > 1 && config.prefix[config.prefix_length - 1] == '/') {
    config.prefix[--config.prefix_length] = 0;
  }
  const char *calls = getenv("FOLIO_FAULT_CALL");
  if (calls) {
    char copy[512];
    snprintf(copy, sizeof copy, "%s", calls);
    char *save = NULL;
    for (char *word = strtok_r(copy, ", ", &save); word; word = strtok_r(NULL, ", ", &save)) {
      for (int i = 0; i < C_COUNT; i++) {
        if (strcmp(word, call_names[i]) == 0) config.selected[i] = 1;
      }
    }
  }
  const char *nth = getenv("FOLIO_FAULT_NTH");
  config.nth = nth ? atol(nth) : 1;
  if (config.nth < 1) config.nth = 1;
  const char *repeat = getenv("FOLIO_FAULT_REPEAT");
  config.repeat = repeat && strcmp(repeat, "1") == 0;
  const char *error = getenv("FOLIO_FAULT_ERRNO");
  if (error && strcmp(error, "short") == 0) {
    config.is_short = 1;
  } else {
    config.error = parse_errno(error ? error : "EIO");
  }
  const char *log = getenv("FOLIO_FAULT_LOG");
  if (log) snprintf(config.log, sizeof config.log, "%s", log);
  const char *mutate = getenv("FOLIO_FAULT_MUTATE");
  const char *mutate_path = getenv("FOLIO_FAULT_MUTATE_PATH");
  if (mutate && mutate_path) {
    snprintf(config.mutate, sizeof config.mutate, "%s", mutate);
    snprintf(config.mutate_path, sizeof config.mutate_path, "%s", mutate_path);
    const char *after = getenv("FOLIO_FAULT_MUTATE_AFTER");
    snprintf(config.mutate_after, sizeof config.mutate_after, "%s",
             after && after[0] ? after : mutate_path);
    const char *mutate_nth = getenv("FOLIO_FAULT_MUTATE_NTH");
    config.mutate_nth = mutate_nth ? atol(mutate_nth) : 1;
  }
  config.ready = 1;
}

static int active(void) {
  pthread_once(&once, load_config);
  return config.ready;
}

static int under_prefix(const char *path) {
  if (!path) return 0;
  if (strncmp(path, config.prefix, config.prefix_length) != 0) return 0;
  return path[config.prefix_length] == 0 || path[config.prefix_length] == '/';
}

/* The absolute path a descriptor is open on, from /proc (follows renames). */
static int fd_path(int fd, char *out, size_t size) {
  if (fd < 0) return 0;
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(link, out, size - 1);
  if (length <= 0) return 0;
  out[length] = 0;
  return 1;
}

/* The absolute form of `path` relative to `dirfd` (AT_FDCWD for the working directory). */
static void resolve(int dirfd, const char *path, char *out, size_t size) {
  out[0] = 0;
  if (!path) return;
  if (path[0] == '/') {
    snprintf(out, size, "%s", path);
    return;
  }
  char base[PATH_MAX];
  if (dirfd == AT_FDCWD) {
    if (!getcwd(base, sizeof base)) return;
  } else if (!fd_path(dirfd, base, sizeof base)) {
    return;
  }
  snprintf(out, size, "%s/%s", base, path);
}

static int path_under(int dirfd, const char *path) {
  char absolute[PATH_MAX * 2];
  resolve(dirfd, path, absolute, sizeof absolute);
  if (under_prefix(absolute)) return 1;
  /* The prefix may have been reached through a symlink: compare the real parent. */
  char parent[PATH_MAX * 2];
  snprintf(parent, sizeof parent, "%s", absolute);
  char *slash = strrchr(parent, '/');
  if (!slash || slash == parent) return 0;
  *slash = 0;
  char real[PATH_MAX];
  if (!realpath(parent, real)) return 0;
  return under_prefix(real);
}

/*
 * Counts one call under the prefix; returns 1 when this call must fail.
 * `what` names the path or descriptor for the log.
 */
static int should_fail(enum call which, const char *what) {
  __atomic_add_fetch(&counts[which], 1, __ATOMIC_SEQ_CST);
  if (!config.selected[which]) return 0;
  long n = __atomic_add_fetch(&matched, 1, __ATOMIC_SEQ_CST);
  int fire = config.repeat ? n >= config.nth : n == config.nth;
  if (fire) {
    char line[PATH_MAX + 128];
    snprintf(line, sizeof line, "fired %s %ld %s %s\n", call_names[which], n,
             config.is_short ? "short" : strerror(config.error), what ? what : "");
    log_line(line);
  }
  return fire;
}

static int fail_path(enum call which, int dirfd, const char *path) {
  if (!active() || !path_under(dirfd, path)) return 0;
  char absolute[PATH_MAX * 2];
  resolve(dirfd, path, absolute, sizeof absolute);
  return should_fail(which, absolute);
}

static int fail_fd(enum call which, int fd) {
  if (!active()) return 0;
  char path[PATH_MAX];
  if (!fd_path(fd, path, sizeof path) || !under_prefix(path)) return 0;
  return should_fail(which, path);
}

#define FAIL(value) do { errno = config.error; return (value); } while (0)

static void after_read(int fd, ssize_t result) {
  if (result <= 0 || !config.mutate[0] || mutated) return;
  char path[PATH_MAX];
  if (!fd_path(fd, path, sizeof path) || strcmp(path, config.mutate_after) != 0) return;
  if (__atomic_add_fetch(&mutate_reads, 1, __ATOMIC_SEQ_CST) != config.mutate_nth) return;
  mutated = 1;
  int saved = errno;
  struct stat info;
  char line[PATH_MAX + 64];
  if (strcmp(config.mutate, "truncate") == 0) {
    truncate(config.mutate_path, 0);
  } else if (strcmp(config.mutate, "shrink") == 0 && stat(config.mutate_path, &info) == 0) {
    truncate(config.mutate_path, info.st_size / 2);
  } else if (strcmp(config.mutate, "grow") == 0) {
    int out = raw_open(config.mutate_path, O_WRONLY | O_APPEND | O_CLOEXEC, 0);
    if (out >= 0) {
      char block[65536];
      memset(block, 'G', sizeof block);
      raw_write(out, block, sizeof block);
      raw_close(out);
    }
  } else if (strcmp(config.mutate, "unlink") == 0) {
    REAL(unlink);
    real_unlink(config.mutate_path);
  }
  snprintf(line, sizeof line, "mutated %s %s\n", config.mutate, config.mutate_path);
  log_line(line);
  errno = saved;
}

__attribute__((destructor)) static void write_counts(void) {
  if (!config.ready || !config.log[0]) return;
  char line[128];
  for (int i = 0; i < C_COUNT; i++) {
    long count = __atomic_load_n(&counts[i], __ATOMIC_SEQ_CST);
    if (count == 0) continue;
    snprintf(line, sizeof line, "count %s %ld\n", call_names[i], count);
    log_line(line);
  }
}

/* ---- opening ---- */

static mode_t mode_argument(int flags, va_list arguments) {
  return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE
    ? (mode_t)va_arg(arguments, int) : 0;
}

#define DEFINE_OPEN(name) \
  int name(const char *path, int flags, ...) { \
    va_list arguments; va_start(arguments, flags); \
    mode_t mode = mode_argument(flags, arguments); va_end(arguments); \
    if (fail_path(C_OPEN, AT_FDCWD, path)) FAIL(-1); \
    REAL(name); \
    return real_##name(path, flags, mode); \
  }
DEFINE_OPEN(open)
DEFINE_OPEN(open64)

#define DEFINE_OPENAT(name) \
  int name(int dirfd, const char *path, int flags, ...) { \
    va_list arguments; va_start(arguments, flags); \
    mode_t mode = mode_argument(flags, arguments); va_end(arguments); \
    if (fail_path(C_OPENAT, dirfd, path)) FAIL(-1); \
    REAL(name); \
    return real_##name(dirfd, path, flags, mode); \
  }
DEFINE_OPENAT(openat)
DEFINE_OPENAT(openat64)

int __open_2(const char *path, int flags) {
  if (fail_path(C_OPEN, AT_FDCWD, path)) FAIL(-1);
  REAL(__open_2);
  return real___open_2(path, flags);
}

int __open64_2(const char *path, int flags) {
  if (fail_path(C_OPEN, AT_FDCWD, path)) FAIL(-1);
  REAL(__open64_2);
  return real___open64_2(path, flags);
}

int __openat_2(int dirfd, const char *path, int flags) {
  if (fail_path(C_OPENAT, dirfd, path)) FAIL(-1);
  REAL(__openat_2);
  return real___openat_2(dirfd, path, flags);
}

int creat(const char *path, mode_t mode) {
  if (fail_path(C_CREAT, AT_FDCWD, path)) FAIL(-1);
  REAL(creat);
  return real_creat(path, mode);
}

#define DEFINE_MKSTEMP(name, parameters, arguments) \
  int name parameters { \
    REAL(name); \
    if (active() && path_under(AT_FDCWD, template) && should_fail(C_MKSTEMP, template)) \
      FAIL(-1); \
    return real_##name arguments; \
  }
DEFINE_MKSTEMP(mkstemp, (char *template), (template))
DEFINE_MKSTEMP(mkstemp64, (char *template), (template))
DEFINE_MKSTEMP(mkostemp, (char *template, int flags), (template, flags))
DEFINE_MKSTEMP(mkstemps, (char *template, int suffix), (template, suffix))
DEFINE_MKSTEMP(mkostemps, (char *template, int suffix, int flags), (template, suffix, flags))

int close(int fd) {
  int fail = fail_fd(C_CLOSE, fd);
  REAL(close);
  int result = real_close(fd);
  if (fail) FAIL(-1);
  return result;
}

/* ---- reading ---- */

ssize_t read(int fd, void *buffer, size_t count) {
  int fail = fail_fd(C_READ, fd);
  if (fail && !config.is_short) FAIL(-1);
  REAL(read);
  ssize_t result = real_read(fd, buffer, fail && count > 1 ? count / 2 : count);
  after_read(fd, result);
  return result;
}

ssize_t __read_chk(int fd, void *buffer, size_t count, size_t size) {
  (void)size;
  return read(fd, buffer, count);
}

#define DEFINE_PREAD(name) \
  ssize_t name(int fd, void *buffer, size_t count, off_t offset) { \
    int fail = fail_fd(C_PREAD, fd); \
    if (fail && !config.is_short) FAIL(-1); \
    REAL(name); \
    ssize_t result = real_##name(fd, buffer, fail && count > 1 ? count / 2 : count, offset); \
    after_read(fd, result); \
    return result; \
  }
DEFINE_PREAD(pread)
DEFINE_PREAD(pread64)

ssize_t readv(int fd, const struct iovec *vector, int count) {
  int fail = fail_fd(C_READV, fd);
  if (fail && !config.is_short) FAIL(-1);
  REAL(readv);
  if (fail && count > 0) {
    struct iovec first = vector[0];
    if (first.iov_len > 1) first.iov_len /= 2;
    ssize_t result = real_readv(fd, &first, 1);
    after_read(fd, result);
    return result;
  }
  ssize_t result = real_readv(fd, vector, count);
  after_read(fd, result);
  return result;
}

/* ---- writing ---- */

ssize_t write(int fd, const void *buffer, size_t count) {
  int fail = fail_fd(C_WRITE, fd);
  if (fail && !config.is_short) FAIL(-1);
  REAL(write);
  return real_write(fd, buffer, fail && count > 1 ? count / 2 : count);
}

#define DEFINE_PWRITE(name) \
  ssize_t name(int fd, const void *buffer, size_t count, off_t offset) { \
    int fail = fail_fd(C_PWRITE, fd); \
    if (fail && !config.is_short) FAIL(-1); \
    REAL(name); \
    return real_##name(fd, buffer, fail && count > 1 ? count / 2 : count, offset); \
  }
DEFINE_PWRITE(pwrite)
DEFINE_PWRITE(pwrite64)

ssize_t writev(int fd, const struct iovec *vector, int count) {
  int fail = fail_fd(C_WRITEV, fd);
  if (fail && !config.is_short) FAIL(-1);
  REAL(writev);
  if (fail && count > 0) {
    struct iovec first = vector[0];
    if (first.iov_len > 1) first.iov_len /= 2;
    return real_writev(fd, &first, 1);
  }
  return real_writev(fd, vector, count);
}

ssize_t sendfile(int out, int in, off_t *offset, size_t count) {
  int fail = fail_fd(C_SENDFILE, out);
  if (fail && !config.is_short) FAIL(-1);
  REAL(sendfile);
  return real_sendfile(out, in, offset, fail && count > 1 ? count / 2 : count);
}

ssize_t copy_file_range(int in, off_t *in_offset, int out, off_t *out_offset, size_t count,
                        unsigned int flags) {
  int fail = fail_fd(C_COPY_FILE_RANGE, out);
  if (fail && !config.is_short) FAIL(-1);
  REAL(copy_file_range);
  return real_copy_file_range(in, in_offset, out, out_offset,
                              fail && count > 1 ? count / 2 : count, flags);
}

int ftruncate(int fd, off_t length) {
  if (fail_fd(C_FTRUNCATE, fd)) FAIL(-1);
  REAL(ftruncate);
  return real_ftruncate(fd, length);
}

int ftruncate64(int fd, off_t length) {
  if (fail_fd(C_FTRUNCATE, fd)) FAIL(-1);
  REAL(ftruncate64);
  return real_ftruncate64(fd, length);
}

int fsync(int fd) {
  if (fail_fd(C_FSYNC, fd)) FAIL(-1);
  REAL(fsync);
  return real_fsync(fd);
}

int fdatasync(int fd) {
  if (fail_fd(C_FDATASYNC, fd)) FAIL(-1);
  REAL(fdatasync);
  return real_fdatasync(fd);
}

int syncfs(int fd) {
  if (fail_fd(C_SYNCFS, fd)) FAIL(-1);
  REAL(syncfs);
  return real_syncfs(fd);
}

int fchmod(int fd, mode_t mode) {
  if (fail_fd(C_FCHMOD, fd)) FAIL(-1);
  REAL(fchmod);
  return real_fchmod(fd, mode);
}

int futimens(int fd, const struct timespec times[2]) {
  if (fail_fd(C_FUTIMENS, fd)) FAIL(-1);
  REAL(futimens);
  return real_futimens(fd, times);
}

int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags) {
  const char *volatile name = path; /* glibc declares it nonnull; futimens passes NULL */
  if (name ? fail_path(C_UTIMENSAT, dirfd, name) : fail_fd(C_UTIMENSAT, dirfd)) FAIL(-1);
  REAL(utimensat);
  return real_utimensat(dirfd, path, times, flags);
}

/* ---- names ---- */

int rename(const char *from, const char *to) {
  if (active() && (path_under(AT_FDCWD, from) || path_under(AT_FDCWD, to))) {
    char absolute[PATH_MAX * 2];
    resolve(AT_FDCWD, to, absolute, sizeof absolute);
    if (should_fail(C_RENAME, absolute)) FAIL(-1);
  }
  REAL(rename);
  return real_rename(from, to);
}

static int fail_renameat(int fromfd, const char *from, int tofd, const char *to) {
  if (!active() || !(path_under(fromfd, from) || path_under(tofd, to))) return 0;
  char absolute[PATH_MAX * 2];
  resolve(tofd, to, absolute, sizeof absolute);
  return should_fail(C_RENAMEAT, absolute);
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
  if (fail_renameat(fromfd, from, tofd, to)) FAIL(-1);
  REAL(renameat);
  return real_renameat(fromfd, from, tofd, to);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags) {
  if (fail_renameat(fromfd, from, tofd, to)) FAIL(-1);
  REAL(renameat2);
  return real_renameat2(fromfd, from, tofd, to, flags);
}

int mkdir(const char *path, mode_t mode) {
  if (fail_path(C_MKDIR, AT_FDCWD, path)) FAIL(-1);
  REAL(mkdir);
  return real_mkdir(path, mode);
}

int mkdirat(int dirfd, const char *path, mode_t mode) {
  if (fail_path(C_MKDIRAT, dirfd, path)) FAIL(-1);
  REAL(mkdirat);
  return real_mkdirat(dirfd, path, mode);
}

int unlink(const char *path) {
  if (fail_path(C_UNLINK, AT_FDCWD, path)) FAIL(-1);
  REAL(unlink);
  return real_unlink(path);
}

int unlinkat(int dirfd, const char *path, int flags) {
  if (fail_path(C_UNLINKAT, dirfd, path)) FAIL(-1);
  REAL(unlinkat);
  return real_unlinkat(dirfd, path, flags);
}

int rmdir(const char *path) {
  if (fail_path(C_RMDIR, AT_FDCWD, path)) FAIL(-1);
  REAL(rmdir);
  return real_rmdir(path);
}

int symlink(const char *target, const char *path) {
  if (fail_path(C_SYMLINK, AT_FDCWD, path)) FAIL(-1);
  REAL(symlink);
  return real_symlink(target, path);
}

int symlinkat(const char *target, int dirfd, const char *path) {
  if (fail_path(C_SYMLINKAT, dirfd, path)) FAIL(-1);
  REAL(symlinkat);
  return real_symlinkat(target, dirfd, path);
}

int link(const char *from, const char *to) {
  if (fail_path(C_LINK, AT_FDCWD, to)) FAIL(-1);
  REAL(link);
  return real_link(from, to);
}

int linkat(int fromfd, const char *from, int tofd, const char *to, int flags) {
  if (fail_path(C_LINKAT, tofd, to)) FAIL(-1);
  REAL(linkat);
  return real_linkat(fromfd, from, tofd, to, flags);
}
