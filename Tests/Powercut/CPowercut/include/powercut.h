// The power-cut simulator (issue 35): an SQLite VFS named "powercut" over the default unix VFS, and the same
// model for the few files a program writes itself (the file shim below). Used only by the power-cut harness
// (Tests/Powercut) and `make powercut`; no product links it.
//
// Model. Inside one watched directory, every file is an inode with a durable image (what a power cut keeps for
// sure) and the list of writes and truncations made since its last sync; the directory has a durable set of
// names and the list of creations, removals, renames and links made since its last sync. A sync of a file makes
// its pending writes durable; a sync of the directory makes its pending entries durable (SQLite syncs the
// directory at the first sync of a journal or WAL it created, as its unix VFS does; the shim has an explicit
// directory sync). `powercut_reboot` is the cut: it keeps an arbitrary subset of the pending directory
// operations and, per surviving file, an arbitrary subset of its pending writes (applied in their order), tears
// one write at a 512-byte boundary, and rewrites the directory with only what survived.
//
// Every mutating call on a watched file (a write, a truncation, a sync, a creation, a removal, a rename, a link,
// a directory sync) is one event. `powercut_arm(n)` makes the n-th event from now the cut: that call fails
// (SQLITE_IOERR_*, or -1 with errno EIO) and so does every mutating call after it, as if the machine had stopped.
// Nothing is synced for real: durability exists only in the model, so trials are fast.
#ifndef LATCHKEY_POWERCUT_H
#define LATCHKEY_POWERCUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// Registers the VFS "powercut" and makes it SQLite's default, once per process (later calls do nothing).
/// Files outside the watched directory go straight to the unix VFS, so other users of SQLite in the process
/// see no difference. Returns an SQLite result code.
int powercut_install(void);

/// Starts watching `directory` (an absolute path without symbolic links): its regular files, as they are now,
/// become the durable state (`-shm` files excepted: SQLite rebuilds them). Returns 0, or -1 when a session is
/// already active or the directory cannot be read.
int powercut_begin(const char *directory);

/// Stops watching: forgets the model (the files stay as they are).
void powercut_end(void);

/// Cuts the power at the `events`-th mutating call from now (0: no cut armed).
void powercut_arm(int64_t events);

/// Mutating calls on watched files since `powercut_begin` or the last reboot.
int64_t powercut_events(void);

/// 1 once the armed cut has happened.
int powercut_has_cut(void);

/// 1: syncs (of files and of the directory) are ignored by the model, as if fsync were a no-op in the code
/// under test (the test that shows the simulator is not a no-op). 0: honest syncs (the default).
void powercut_set_sync_ignored(int ignored);

/// Makes the cut happen now if it has not (for a cut between two operations).
void powercut_cut_now(void);

/// The cut's aftermath, drawn from `seed`: keeps each pending directory operation and each pending write with
/// probability `keep_percent` (0-100), tears one multi-sector write at a 512-byte boundary, then deletes every
/// file of the directory and writes back what survived. The survivors become the new durable state and the
/// event count restarts at 0. Writes a one-line account of what was dropped into `report` (may be NULL).
/// Returns 0, or -1 (errno set) when the directory could not be rewritten.
int powercut_reboot(uint64_t seed, int keep_percent, char *report, size_t report_size);

// The file shim: POSIX calls for files a program writes itself. On a path inside the watched directory they
// are recorded in the model (and cut like SQLite's writes); elsewhere, and with no session, they are the
// plain system calls.
int powercut_file_open(const char *path, int flags, mode_t mode);
ssize_t powercut_file_pwrite(int fd, const void *bytes, size_t count, off_t offset);
int powercut_file_fsync(int fd);
int powercut_file_ftruncate(int fd, off_t size);
int powercut_file_close(int fd);
int powercut_file_rename(const char *from, const char *to);
int powercut_file_link(const char *from, const char *to);
int powercut_file_unlink(const char *path);
int powercut_directory_fsync(const char *directory);

#endif
