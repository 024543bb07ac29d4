// The power-cut simulator: see include/powercut.h for the model. Modelled on SQLite's own crash tests
// (src/test6.c, "simulated crash"): writes since the last sync are kept in memory per file and a crash writes an
// arbitrary subset of them. Here the real files always hold the current contents (the page cache, so reads need
// no help), the model holds the durable image and the pending operations, and the cut rebuilds the files from it.
#define _GNU_SOURCE
#include "powercut.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PC_NAME_MAX 255
#define PC_SECTOR 512

// MARK: The model

typedef struct PcOp {
    struct PcOp *next;
    int64_t offset;       // a write's offset, or the size a truncation leaves
    int64_t length;       // bytes written, or -1 for a truncation
    unsigned char data[]; // the bytes written
} PcOp;

typedef struct PcInode {
    struct PcInode *next_all;
    unsigned char *durable;
    int64_t durable_size, durable_capacity;
    PcOp *pending, *pending_tail;
    int pending_count;
    // reboot scratch: the surviving contents
    int reachable;
    unsigned char *result;
    int64_t result_size, result_capacity;
} PcInode;

typedef struct {
    char name[PC_NAME_MAX + 1];
    PcInode *inode;
} PcEntry;

typedef struct {
    PcEntry *entries;
    int count, capacity;
} PcDirectory;

typedef enum { PC_CREATE, PC_UNLINK, PC_RENAME, PC_LINK } PcDirOpKind;

typedef struct PcDirOp {
    struct PcDirOp *next;
    PcDirOpKind kind;
    char name[PC_NAME_MAX + 1];
    char target[PC_NAME_MAX + 1]; // rename / link: the new name
    PcInode *inode;               // create: the new file
} PcDirOp;

static struct {
    pthread_mutex_t lock;
    int active;
    char directory[4096];
    size_t directory_length;
    PcInode *inodes;
    PcDirectory durable, current;
    PcDirOp *dirops, *dirops_tail;
    int dirop_count;
    int64_t events, cut_at;
    int cut;
    int sync_ignored;
    PcInode **fds; // the shim's open descriptors on watched files
    int fd_capacity;
} G = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void *pc_alloc(size_t size) {
    void *p = calloc(1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "powercut: out of memory\n");
        abort();
    }
    return p;
}

static void pc_reserve(unsigned char **buffer, int64_t *capacity, int64_t size) {
    if (size <= *capacity) return;
    int64_t grown = *capacity ? *capacity : 4096;
    while (grown < size) grown *= 2;
    unsigned char *p = realloc(*buffer, (size_t)grown);
    if (!p) {
        fprintf(stderr, "powercut: out of memory\n");
        abort();
    }
    memset(p + *capacity, 0, (size_t)(grown - *capacity));
    *buffer = p;
    *capacity = grown;
}

/// Applies one write or truncation to a file image.
static void pc_apply(unsigned char **buffer, int64_t *size, int64_t *capacity, const PcOp *op, int64_t from, int64_t to) {
    if (op->length < 0) {
        if (op->offset < *size) *size = op->offset;
        else {
            pc_reserve(buffer, capacity, op->offset);
            memset(*buffer + *size, 0, (size_t)(op->offset - *size));
            *size = op->offset;
        }
        return;
    }
    // [from, to) is the part of the write to apply (a torn write applies part of it).
    int64_t end = op->offset + to;
    pc_reserve(buffer, capacity, end);
    if (op->offset + from > *size) memset(*buffer + *size, 0, (size_t)(op->offset + from - *size));
    memcpy(*buffer + op->offset + from, op->data + from, (size_t)(to - from));
    if (end > *size) *size = end;
}

static PcInode *pc_inode_new(void) {
    PcInode *inode = pc_alloc(sizeof *inode);
    inode->next_all = G.inodes;
    G.inodes = inode;
    return inode;
}

static void pc_inode_clear_pending(PcInode *inode) {
    PcOp *op = inode->pending;
    while (op) {
        PcOp *next = op->next;
        free(op);
        op = next;
    }
    inode->pending = inode->pending_tail = NULL;
    inode->pending_count = 0;
}

/// A sync: every pending operation of the file becomes part of its durable image.
static void pc_inode_make_durable(PcInode *inode) {
    for (PcOp *op = inode->pending; op; op = op->next) {
        pc_apply(&inode->durable, &inode->durable_size, &inode->durable_capacity, op, 0, op->length < 0 ? 0 : op->length);
    }
    pc_inode_clear_pending(inode);
}

static void pc_inode_record(PcInode *inode, int64_t offset, const void *bytes, int64_t length) {
    PcOp *op = pc_alloc(sizeof *op + (size_t)(length > 0 ? length : 0));
    op->offset = offset;
    op->length = length;
    if (length > 0) memcpy(op->data, bytes, (size_t)length);
    if (inode->pending_tail) inode->pending_tail->next = op;
    else inode->pending = op;
    inode->pending_tail = op;
    inode->pending_count++;
}

static int pc_dir_find(const PcDirectory *dir, const char *name) {
    for (int i = 0; i < dir->count; i++) {
        if (strcmp(dir->entries[i].name, name) == 0) return i;
    }
    return -1;
}

static PcInode *pc_dir_lookup(const PcDirectory *dir, const char *name) {
    int i = pc_dir_find(dir, name);
    return i < 0 ? NULL : dir->entries[i].inode;
}

static void pc_dir_set(PcDirectory *dir, const char *name, PcInode *inode) {
    int i = pc_dir_find(dir, name);
    if (i >= 0) {
        dir->entries[i].inode = inode;
        return;
    }
    if (dir->count == dir->capacity) {
        dir->capacity = dir->capacity ? dir->capacity * 2 : 16;
        PcEntry *grown = realloc(dir->entries, sizeof(PcEntry) * (size_t)dir->capacity);
        if (!grown) abort();
        dir->entries = grown;
    }
    snprintf(dir->entries[dir->count].name, sizeof dir->entries[dir->count].name, "%s", name);
    dir->entries[dir->count].inode = inode;
    dir->count++;
}

static void pc_dir_remove(PcDirectory *dir, const char *name) {
    int i = pc_dir_find(dir, name);
    if (i < 0) return;
    dir->entries[i] = dir->entries[dir->count - 1];
    dir->count--;
}

static void pc_dir_copy(PcDirectory *to, const PcDirectory *from) {
    to->count = 0;
    for (int i = 0; i < from->count; i++) pc_dir_set(to, from->entries[i].name, from->entries[i].inode);
}

/// Applies one directory operation to a set of names.
static void pc_dir_apply(PcDirectory *dir, const PcDirOp *op) {
    switch (op->kind) {
    case PC_CREATE:
        pc_dir_set(dir, op->name, op->inode);
        break;
    case PC_UNLINK:
        pc_dir_remove(dir, op->name);
        break;
    case PC_RENAME: {
        PcInode *inode = pc_dir_lookup(dir, op->name);
        if (!inode) break;
        pc_dir_remove(dir, op->name);
        pc_dir_set(dir, op->target, inode);
        break;
    }
    case PC_LINK: {
        PcInode *inode = pc_dir_lookup(dir, op->name);
        if (inode && pc_dir_find(dir, op->target) < 0) pc_dir_set(dir, op->target, inode);
        break;
    }
    }
}

static void pc_dirops_clear(void) {
    PcDirOp *op = G.dirops;
    while (op) {
        PcDirOp *next = op->next;
        free(op);
        op = next;
    }
    G.dirops = G.dirops_tail = NULL;
    G.dirop_count = 0;
}

static void pc_dirop_record(PcDirOpKind kind, const char *name, const char *target, PcInode *inode) {
    PcDirOp *op = pc_alloc(sizeof *op);
    op->kind = kind;
    snprintf(op->name, sizeof op->name, "%s", name);
    if (target) snprintf(op->target, sizeof op->target, "%s", target);
    op->inode = inode;
    if (G.dirops_tail) G.dirops_tail->next = op;
    else G.dirops = op;
    G.dirops_tail = op;
    G.dirop_count++;
    pc_dir_apply(&G.current, op);
}

/// A directory sync: every pending entry becomes durable.
static void pc_dir_make_durable(void) {
    pc_dir_copy(&G.durable, &G.current);
    pc_dirops_clear();
}

/// The name inside the watched directory of `path`, or NULL when no session is active or `path` is elsewhere
/// (or in a subdirectory). Called with the lock held.
static const char *pc_watched(const char *path) {
    if (!G.active || !path) return NULL;
    if (strncmp(path, G.directory, G.directory_length) != 0 || path[G.directory_length] != '/') return NULL;
    const char *name = path + G.directory_length + 1;
    if (*name == 0 || strchr(name, '/') || strlen(name) > PC_NAME_MAX) return NULL;
    return name;
}

/// Counts one mutating call. Returns 1 when the call must fail: the cut happened before it or is this call.
static int pc_event(void) {
    if (G.cut) return 1;
    G.events++;
    if (G.cut_at > 0 && G.events >= G.cut_at) {
        G.cut = 1;
        return 1;
    }
    return 0;
}

static int pc_is_shm(const char *name) {
    size_t n = strlen(name);
    return n >= 4 && strcmp(name + n - 4, "-shm") == 0;
}

/// Reads a whole file into a new durable inode (a file the model finds already there).
static PcInode *pc_inode_load(const char *path) {
    PcInode *inode = pc_inode_new();
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return inode;
    unsigned char chunk[65536];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0) {
        pc_reserve(&inode->durable, &inode->durable_capacity, inode->durable_size + n);
        memcpy(inode->durable + inode->durable_size, chunk, (size_t)n);
        inode->durable_size += n;
    }
    close(fd);
    return inode;
}

static void pc_forget(void) {
    PcInode *inode = G.inodes;
    while (inode) {
        PcInode *next = inode->next_all;
        pc_inode_clear_pending(inode);
        free(inode->durable);
        free(inode->result);
        free(inode);
        inode = next;
    }
    G.inodes = NULL;
    G.durable.count = 0;
    G.current.count = 0;
    pc_dirops_clear();
    for (int i = 0; i < G.fd_capacity; i++) G.fds[i] = NULL;
    G.events = 0;
    G.cut_at = 0;
    G.cut = 0;
}

/// Loads every regular file of the watched directory as durable. Called with the lock held.
static int pc_load_directory(void) {
    DIR *dir = opendir(G.directory);
    if (!dir) return -1;
    struct dirent *entry;
    char path[4096 + PC_NAME_MAX + 2];
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.' && (entry->d_name[1] == 0 || (entry->d_name[1] == '.' && entry->d_name[2] == 0))) continue;
        if (pc_is_shm(entry->d_name) || strlen(entry->d_name) > PC_NAME_MAX) continue;
        snprintf(path, sizeof path, "%s/%s", G.directory, entry->d_name);
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        PcInode *inode = pc_inode_load(path);
        pc_dir_set(&G.durable, entry->d_name, inode);
        pc_dir_set(&G.current, entry->d_name, inode);
    }
    closedir(dir);
    return 0;
}

int powercut_begin(const char *directory) {
    pthread_mutex_lock(&G.lock);
    if (G.active || strlen(directory) >= sizeof G.directory) {
        pthread_mutex_unlock(&G.lock);
        return -1;
    }
    snprintf(G.directory, sizeof G.directory, "%s", directory);
    G.directory_length = strlen(G.directory);
    while (G.directory_length > 1 && G.directory[G.directory_length - 1] == '/') G.directory[--G.directory_length] = 0;
    pc_forget();
    if (pc_load_directory() != 0) {
        pc_forget();
        pthread_mutex_unlock(&G.lock);
        return -1;
    }
    G.active = 1;
    pthread_mutex_unlock(&G.lock);
    return 0;
}

void powercut_end(void) {
    pthread_mutex_lock(&G.lock);
    pc_forget();
    G.active = 0;
    pthread_mutex_unlock(&G.lock);
}

void powercut_arm(int64_t events) {
    pthread_mutex_lock(&G.lock);
    G.cut_at = events > 0 ? G.events + events : 0;
    pthread_mutex_unlock(&G.lock);
}

int64_t powercut_events(void) {
    pthread_mutex_lock(&G.lock);
    int64_t n = G.events;
    pthread_mutex_unlock(&G.lock);
    return n;
}

int powercut_has_cut(void) {
    pthread_mutex_lock(&G.lock);
    int cut = G.cut;
    pthread_mutex_unlock(&G.lock);
    return cut;
}

void powercut_set_sync_ignored(int ignored) {
    pthread_mutex_lock(&G.lock);
    G.sync_ignored = ignored;
    pthread_mutex_unlock(&G.lock);
}

void powercut_cut_now(void) {
    pthread_mutex_lock(&G.lock);
    G.cut = 1;
    pthread_mutex_unlock(&G.lock);
}

// MARK: The cut

/// splitmix64: the reboot's choices, reproducible from the seed (a test's dice, not cryptography).
static uint64_t pc_next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int pc_keep(uint64_t *rng, int keep_percent) {
    return (int)(pc_next(rng) % 100) < keep_percent;
}

static int pc_write_file(const char *path, const unsigned char *bytes, int64_t size) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return -1;
    int64_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, bytes + done, (size_t)(size - done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int saved = errno;
            close(fd);
            errno = saved ? saved : EIO;
            return -1;
        }
        done += n;
    }
    return close(fd);
}

int powercut_reboot(uint64_t seed, int keep_percent, char *report, size_t report_size) {
    pthread_mutex_lock(&G.lock);
    if (!G.active) {
        pthread_mutex_unlock(&G.lock);
        errno = EINVAL;
        return -1;
    }
    uint64_t rng = seed;
    // The directory: an arbitrary subset of its pending operations, applied in their order.
    int dir_kept = 0, dir_pending = G.dirop_count;
    PcDirectory survived = {0};
    pc_dir_copy(&survived, &G.durable);
    for (PcDirOp *op = G.dirops; op; op = op->next) {
        if (pc_keep(&rng, keep_percent)) {
            pc_dir_apply(&survived, op);
            dir_kept++;
        }
    }
    for (PcInode *inode = G.inodes; inode; inode = inode->next_all) inode->reachable = 0;
    for (int i = 0; i < survived.count; i++) survived.entries[i].inode->reachable = 1;
    // The torn write: one pending write spanning a 512-byte boundary, among the surviving files.
    int64_t tearable = 0;
    for (PcInode *inode = G.inodes; inode; inode = inode->next_all) {
        if (!inode->reachable) continue;
        for (PcOp *op = inode->pending; op; op = op->next) {
            if (op->length > 0 && op->offset / PC_SECTOR != (op->offset + op->length - 1) / PC_SECTOR) tearable++;
        }
    }
    int64_t torn_index = tearable > 0 ? (int64_t)(pc_next(&rng) % (uint64_t)tearable) : -1;
    int64_t writes_pending = 0, writes_kept = 0, index = 0;
    char torn[160] = "none";
    for (PcInode *inode = G.inodes; inode; inode = inode->next_all) {
        if (!inode->reachable) continue;
        pc_reserve(&inode->result, &inode->result_capacity, inode->durable_size);
        if (inode->durable_size) memcpy(inode->result, inode->durable, (size_t)inode->durable_size);
        inode->result_size = inode->durable_size;
        for (PcOp *op = inode->pending; op; op = op->next) {
            writes_pending++;
            int multi = op->length > 0 && op->offset / PC_SECTOR != (op->offset + op->length - 1) / PC_SECTOR;
            if (multi && index++ == torn_index) {
                // Split at a sector boundary inside the write; one side reaches the disk, the other does not.
                int64_t first = op->offset / PC_SECTOR + 1, last = (op->offset + op->length - 1) / PC_SECTOR;
                int64_t boundary = (first + (int64_t)(pc_next(&rng) % (uint64_t)(last - first + 1))) * PC_SECTOR - op->offset;
                int head = (int)(pc_next(&rng) & 1);
                pc_apply(&inode->result, &inode->result_size, &inode->result_capacity, op,
                         head ? 0 : boundary, head ? boundary : op->length);
                snprintf(torn, sizeof torn, "%s %lld of a %lld-byte write at %lld",
                         head ? "first" : "last", (long long)(head ? boundary : op->length - boundary),
                         (long long)op->length, (long long)op->offset);
                writes_kept++;
                continue;
            }
            if (pc_keep(&rng, keep_percent)) {
                pc_apply(&inode->result, &inode->result_size, &inode->result_capacity, op, 0, op->length < 0 ? 0 : op->length);
                writes_kept++;
            }
        }
    }
    // Rewrite the directory with the survivors (SQLite's -shm files go too: they hold no durable state).
    int failed = 0;
    char path[4096 + PC_NAME_MAX + 2];
    DIR *dir = opendir(G.directory);
    if (dir) {
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] == '.' && (entry->d_name[1] == 0 || (entry->d_name[1] == '.' && entry->d_name[2] == 0))) continue;
            snprintf(path, sizeof path, "%s/%s", G.directory, entry->d_name);
            struct stat st;
            if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode) && unlink(path) != 0) failed = 1;
        }
        closedir(dir);
    } else {
        failed = 1;
    }
    for (int i = 0; !failed && i < survived.count; i++) {
        PcInode *inode = survived.entries[i].inode;
        snprintf(path, sizeof path, "%s/%s", G.directory, survived.entries[i].name);
        if (pc_write_file(path, inode->result, inode->result_size) != 0) failed = 1;
    }
    if (report && report_size) {
        snprintf(report, report_size,
                 "%d of %d pending directory operations kept, %lld of %lld pending writes kept, torn: %s, %d files",
                 dir_kept, dir_pending, (long long)writes_kept, (long long)writes_pending, torn, survived.count);
    }
    // The survivors are the new durable state.
    G.durable.count = 0;
    G.current.count = 0;
    pc_dirops_clear();
    for (int i = 0; i < survived.count; i++) {
        PcInode *inode = survived.entries[i].inode;
        if (inode->reachable == 1) {
            pc_inode_clear_pending(inode);
            pc_reserve(&inode->durable, &inode->durable_capacity, inode->result_size);
            if (inode->result_size) memcpy(inode->durable, inode->result, (size_t)inode->result_size);
            inode->durable_size = inode->result_size;
            inode->reachable = 2; // done (a file with two names is copied once)
        }
        pc_dir_set(&G.durable, survived.entries[i].name, inode);
        pc_dir_set(&G.current, survived.entries[i].name, inode);
    }
    free(survived.entries);
    // Files that did not survive keep their (small) records, in case a stale handle still names them, but not
    // their contents.
    for (PcInode *inode = G.inodes; inode; inode = inode->next_all) {
        if (inode->reachable != 0) continue;
        pc_inode_clear_pending(inode);
        free(inode->durable);
        inode->durable = NULL;
        inode->durable_size = inode->durable_capacity = 0;
    }
    for (PcInode *inode = G.inodes; inode; inode = inode->next_all) {
        free(inode->result);
        inode->result = NULL;
        inode->result_size = inode->result_capacity = 0;
    }
    for (int i = 0; i < G.fd_capacity; i++) G.fds[i] = NULL;
    G.events = 0;
    G.cut_at = 0;
    G.cut = 0;
    pthread_mutex_unlock(&G.lock);
    if (failed) {
        errno = EIO;
        return -1;
    }
    return 0;
}

// MARK: The file shim

static void pc_fd_set(int fd, PcInode *inode) {
    if (fd < 0) return;
    if (fd >= G.fd_capacity) {
        int capacity = G.fd_capacity ? G.fd_capacity : 256;
        while (capacity <= fd) capacity *= 2;
        PcInode **grown = realloc(G.fds, sizeof(PcInode *) * (size_t)capacity);
        if (!grown) abort();
        memset(grown + G.fd_capacity, 0, sizeof(PcInode *) * (size_t)(capacity - G.fd_capacity));
        G.fds = grown;
        G.fd_capacity = capacity;
    }
    G.fds[fd] = inode;
}

static PcInode *pc_fd_get(int fd) {
    return fd >= 0 && fd < G.fd_capacity ? G.fds[fd] : NULL;
}

int powercut_file_open(const char *path, int flags, mode_t mode) {
    pthread_mutex_lock(&G.lock);
    const char *name = pc_watched(path);
    if (!name) {
        pthread_mutex_unlock(&G.lock);
        return open(path, flags, mode);
    }
    PcInode *inode = pc_dir_lookup(&G.current, name);
    int creates = !inode && (flags & O_CREAT);
    int truncates = inode && (flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY && inode->durable_size + inode->pending_count > 0;
    if ((creates || truncates || (G.cut && (flags & O_ACCMODE) != O_RDONLY)) && pc_event()) {
        pthread_mutex_unlock(&G.lock);
        errno = EIO;
        return -1;
    }
    int fd = open(path, flags, mode);
    if (fd >= 0) {
        if (!inode) {
            inode = pc_inode_new();
            pc_dirop_record(PC_CREATE, name, NULL, inode);
        } else if (truncates) {
            pc_inode_record(inode, 0, NULL, -1);
        }
        pc_fd_set(fd, inode);
    }
    pthread_mutex_unlock(&G.lock);
    return fd;
}

ssize_t powercut_file_pwrite(int fd, const void *bytes, size_t count, off_t offset) {
    pthread_mutex_lock(&G.lock);
    PcInode *inode = pc_fd_get(fd);
    if (!inode) {
        pthread_mutex_unlock(&G.lock);
        return pwrite(fd, bytes, count, offset);
    }
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        errno = EIO;
        return -1;
    }
    ssize_t n = pwrite(fd, bytes, count, offset);
    if (n > 0) pc_inode_record(inode, offset, bytes, n);
    pthread_mutex_unlock(&G.lock);
    return n;
}

int powercut_file_fsync(int fd) {
    pthread_mutex_lock(&G.lock);
    PcInode *inode = pc_fd_get(fd);
    if (!inode) {
        pthread_mutex_unlock(&G.lock);
        return fsync(fd);
    }
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        errno = EIO;
        return -1;
    }
    if (!G.sync_ignored) pc_inode_make_durable(inode);
    pthread_mutex_unlock(&G.lock);
    return 0;
}

int powercut_file_ftruncate(int fd, off_t size) {
    pthread_mutex_lock(&G.lock);
    PcInode *inode = pc_fd_get(fd);
    if (!inode) {
        pthread_mutex_unlock(&G.lock);
        return ftruncate(fd, size);
    }
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        errno = EIO;
        return -1;
    }
    int rc = ftruncate(fd, size);
    if (rc == 0) pc_inode_record(inode, size, NULL, -1);
    pthread_mutex_unlock(&G.lock);
    return rc;
}

int powercut_file_close(int fd) {
    pthread_mutex_lock(&G.lock);
    if (pc_fd_get(fd)) G.fds[fd] = NULL;
    pthread_mutex_unlock(&G.lock);
    return close(fd);
}

/// rename(2) and link(2) inside the watched directory (both names there), recorded as directory operations.
static int pc_rename_or_link(const char *from, const char *to, PcDirOpKind kind) {
    pthread_mutex_lock(&G.lock);
    const char *old_name = pc_watched(from), *new_name = pc_watched(to);
    if (!old_name && !new_name) {
        pthread_mutex_unlock(&G.lock);
        return kind == PC_RENAME ? rename(from, to) : link(from, to);
    }
    if (!old_name || !new_name) {
        // Across the watched directory's boundary: not modelled (the harness never does it).
        pthread_mutex_unlock(&G.lock);
        errno = EXDEV;
        return -1;
    }
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        errno = EIO;
        return -1;
    }
    int rc = kind == PC_RENAME ? rename(from, to) : link(from, to);
    if (rc == 0) pc_dirop_record(kind, old_name, new_name, NULL);
    pthread_mutex_unlock(&G.lock);
    return rc;
}

int powercut_file_rename(const char *from, const char *to) { return pc_rename_or_link(from, to, PC_RENAME); }

int powercut_file_link(const char *from, const char *to) { return pc_rename_or_link(from, to, PC_LINK); }

int powercut_file_unlink(const char *path) {
    pthread_mutex_lock(&G.lock);
    const char *name = pc_watched(path);
    if (!name) {
        pthread_mutex_unlock(&G.lock);
        return unlink(path);
    }
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        errno = EIO;
        return -1;
    }
    int rc = unlink(path);
    if (rc == 0) pc_dirop_record(PC_UNLINK, name, NULL, NULL);
    pthread_mutex_unlock(&G.lock);
    return rc;
}

int powercut_directory_fsync(const char *directory) {
    pthread_mutex_lock(&G.lock);
    size_t n = strlen(directory);
    while (n > 1 && directory[n - 1] == '/') n--;
    if (!G.active || n != G.directory_length || strncmp(directory, G.directory, n) != 0) {
        pthread_mutex_unlock(&G.lock);
        int fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) return -1;
        int rc = fsync(fd);
        close(fd);
        return rc;
    }
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        errno = EIO;
        return -1;
    }
    if (!G.sync_ignored) pc_dir_make_durable();
    pthread_mutex_unlock(&G.lock);
    return 0;
}

// MARK: The VFS

typedef struct {
    sqlite3_file base;
    PcInode *inode;
    int directory_sync; // the unix VFS syncs the directory at the first sync of a journal or WAL it created
    sqlite3_file *real;
} PcFile;

static sqlite3_vfs pc_vfs;
static sqlite3_vfs *pc_real_vfs;

static sqlite3_file *pc_real(sqlite3_file *file) { return ((PcFile *)file)->real; }

static int pc_close(sqlite3_file *file) {
    sqlite3_file *real = pc_real(file);
    int rc = real->pMethods ? real->pMethods->xClose(real) : SQLITE_OK;
    return rc;
}

static int pc_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xRead(real, buffer, amount, offset);
}

static int pc_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    PcFile *p = (PcFile *)file;
    pthread_mutex_lock(&G.lock);
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        return SQLITE_IOERR_WRITE;
    }
    int rc = p->real->pMethods->xWrite(p->real, buffer, amount, offset);
    if (rc == SQLITE_OK) pc_inode_record(p->inode, offset, buffer, amount);
    pthread_mutex_unlock(&G.lock);
    return rc;
}

static int pc_truncate(sqlite3_file *file, sqlite3_int64 size) {
    PcFile *p = (PcFile *)file;
    pthread_mutex_lock(&G.lock);
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        return SQLITE_IOERR_TRUNCATE;
    }
    int rc = p->real->pMethods->xTruncate(p->real, size);
    if (rc == SQLITE_OK) pc_inode_record(p->inode, size, NULL, -1);
    pthread_mutex_unlock(&G.lock);
    return rc;
}

static int pc_sync(sqlite3_file *file, int flags) {
    (void)flags;
    PcFile *p = (PcFile *)file;
    pthread_mutex_lock(&G.lock);
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        return SQLITE_IOERR_FSYNC;
    }
    // Nothing is synced for real: durability is the model's.
    if (!G.sync_ignored) {
        pc_inode_make_durable(p->inode);
        if (p->directory_sync) pc_dir_make_durable();
    }
    p->directory_sync = 0;
    pthread_mutex_unlock(&G.lock);
    return SQLITE_OK;
}

static int pc_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xFileSize(real, size);
}

static int pc_lock(sqlite3_file *file, int level) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xLock(real, level);
}

static int pc_unlock(sqlite3_file *file, int level) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xUnlock(real, level);
}

static int pc_check_reserved_lock(sqlite3_file *file, int *out) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xCheckReservedLock(real, out);
}

static int pc_file_control(sqlite3_file *file, int op, void *argument) {
    // A size hint may extend the file outside xWrite (with a chunk size): it is only a hint, so it is dropped.
    if (op == SQLITE_FCNTL_SIZE_HINT) return SQLITE_OK;
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xFileControl(real, op, argument);
}

static int pc_sector_size(sqlite3_file *file) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xSectorSize(real);
}

static int pc_device_characteristics(sqlite3_file *file) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xDeviceCharacteristics(real);
}

static int pc_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xShmMap(real, page, size, extend, out);
}

static int pc_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xShmLock(real, offset, n, flags);
}

static void pc_shm_barrier(sqlite3_file *file) {
    sqlite3_file *real = pc_real(file);
    real->pMethods->xShmBarrier(real);
}

static int pc_shm_unmap(sqlite3_file *file, int delete_flag) {
    sqlite3_file *real = pc_real(file);
    return real->pMethods->xShmUnmap(real, delete_flag);
}

static int pc_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    // No memory-mapped reads: every read goes through xRead (mmap is off by default anyway).
    (void)file;
    (void)offset;
    (void)amount;
    *out = NULL;
    return SQLITE_OK;
}

static int pc_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    (void)file;
    (void)offset;
    (void)pointer;
    return SQLITE_OK;
}

static const sqlite3_io_methods pc_io_methods = {
    3,
    pc_close,
    pc_read,
    pc_write,
    pc_truncate,
    pc_sync,
    pc_file_size,
    pc_lock,
    pc_unlock,
    pc_check_reserved_lock,
    pc_file_control,
    pc_sector_size,
    pc_device_characteristics,
    pc_shm_map,
    pc_shm_lock,
    pc_shm_barrier,
    pc_shm_unmap,
    pc_fetch,
    pc_unfetch,
};

static int pc_open(sqlite3_vfs *vfs, const char *path, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    pthread_mutex_lock(&G.lock);
    const char *name = pc_watched(path);
    if (!name) {
        pthread_mutex_unlock(&G.lock);
        // Not watched: the unix VFS's own file, methods and all.
        return pc_real_vfs->xOpen(pc_real_vfs, path, file, flags, out_flags);
    }
    PcFile *p = (PcFile *)file;
    memset(p, 0, sizeof *p);
    p->real = (sqlite3_file *)((char *)file + ((sizeof(PcFile) + 7) & ~(size_t)7));
    PcInode *inode = pc_dir_lookup(&G.current, name);
    int creates = !inode && (flags & SQLITE_OPEN_CREATE);
    if ((creates || (G.cut && !(flags & SQLITE_OPEN_READONLY))) && pc_event()) {
        pthread_mutex_unlock(&G.lock);
        return SQLITE_CANTOPEN;
    }
    int rc = pc_real_vfs->xOpen(pc_real_vfs, path, p->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        pthread_mutex_unlock(&G.lock);
        return rc;
    }
    if (creates) {
        inode = pc_inode_new();
        pc_dirop_record(PC_CREATE, name, NULL, inode);
    } else if (!inode) {
        // A file the model did not know (made outside it): what is there now counts as durable.
        inode = pc_inode_load(path);
        pc_dir_set(&G.durable, name, inode);
        pc_dir_set(&G.current, name, inode);
    }
    p->inode = inode;
    p->directory_sync = (flags & SQLITE_OPEN_CREATE)
        && (flags & (SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL | SQLITE_OPEN_WAL));
    p->base.pMethods = &pc_io_methods;
    pthread_mutex_unlock(&G.lock);
    return SQLITE_OK;
}

static int pc_delete(sqlite3_vfs *vfs, const char *path, int sync_directory) {
    (void)vfs;
    pthread_mutex_lock(&G.lock);
    const char *name = pc_watched(path);
    if (!name) {
        pthread_mutex_unlock(&G.lock);
        return pc_real_vfs->xDelete(pc_real_vfs, path, sync_directory);
    }
    if (pc_event()) {
        pthread_mutex_unlock(&G.lock);
        return SQLITE_IOERR_DELETE;
    }
    int rc = pc_real_vfs->xDelete(pc_real_vfs, path, 0);
    if (rc == SQLITE_OK) {
        pc_dirop_record(PC_UNLINK, name, NULL, NULL);
        if (sync_directory && !G.sync_ignored) pc_dir_make_durable();
    }
    pthread_mutex_unlock(&G.lock);
    return rc;
}

static int pc_access(sqlite3_vfs *vfs, const char *path, int flags, int *out) {
    (void)vfs;
    return pc_real_vfs->xAccess(pc_real_vfs, path, flags, out);
}

static int pc_full_pathname(sqlite3_vfs *vfs, const char *path, int size, char *out) {
    (void)vfs;
    return pc_real_vfs->xFullPathname(pc_real_vfs, path, size, out);
}

static void *pc_dl_open(sqlite3_vfs *vfs, const char *path) {
    (void)vfs;
    return pc_real_vfs->xDlOpen(pc_real_vfs, path);
}

static void pc_dl_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    pc_real_vfs->xDlError(pc_real_vfs, size, out);
}

static void (*pc_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return pc_real_vfs->xDlSym(pc_real_vfs, handle, symbol);
}

static void pc_dl_close(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    pc_real_vfs->xDlClose(pc_real_vfs, handle);
}

static int pc_randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return pc_real_vfs->xRandomness(pc_real_vfs, size, out);
}

static int pc_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return pc_real_vfs->xSleep(pc_real_vfs, microseconds);
}

static int pc_current_time(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    return pc_real_vfs->xCurrentTime(pc_real_vfs, out);
}

static int pc_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return pc_real_vfs->xGetLastError ? pc_real_vfs->xGetLastError(pc_real_vfs, size, out) : 0;
}

static int pc_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return pc_real_vfs->xCurrentTimeInt64(pc_real_vfs, out);
}

static int pc_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr call) {
    (void)vfs;
    return pc_real_vfs->xSetSystemCall(pc_real_vfs, name, call);
}

static sqlite3_syscall_ptr pc_get_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return pc_real_vfs->xGetSystemCall(pc_real_vfs, name);
}

static const char *pc_next_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return pc_real_vfs->xNextSystemCall(pc_real_vfs, name);
}

int powercut_install(void) {
    static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&once);
    int rc = SQLITE_OK;
    if (!pc_real_vfs) {
        rc = sqlite3_initialize();
        sqlite3_vfs *real = rc == SQLITE_OK ? sqlite3_vfs_find("unix") : NULL;
        if (!real || real->iVersion < 3) {
            rc = rc == SQLITE_OK ? SQLITE_ERROR : rc;
        } else {
            pc_real_vfs = real;
            pc_vfs.iVersion = 3;
            pc_vfs.szOsFile = (int)(((sizeof(PcFile) + 7) & ~(size_t)7) + (size_t)real->szOsFile);
            if (pc_vfs.szOsFile < real->szOsFile) pc_vfs.szOsFile = real->szOsFile;
            pc_vfs.mxPathname = real->mxPathname;
            pc_vfs.zName = "powercut";
            pc_vfs.xOpen = pc_open;
            pc_vfs.xDelete = pc_delete;
            pc_vfs.xAccess = pc_access;
            pc_vfs.xFullPathname = pc_full_pathname;
            pc_vfs.xDlOpen = pc_dl_open;
            pc_vfs.xDlError = pc_dl_error;
            pc_vfs.xDlSym = pc_dl_sym;
            pc_vfs.xDlClose = pc_dl_close;
            pc_vfs.xRandomness = pc_randomness;
            pc_vfs.xSleep = pc_sleep;
            pc_vfs.xCurrentTime = pc_current_time;
            pc_vfs.xGetLastError = pc_get_last_error;
            pc_vfs.xCurrentTimeInt64 = pc_current_time_int64;
            pc_vfs.xSetSystemCall = pc_set_system_call;
            pc_vfs.xGetSystemCall = pc_get_system_call;
            pc_vfs.xNextSystemCall = pc_next_system_call;
            rc = sqlite3_vfs_register(&pc_vfs, 1);
            if (rc != SQLITE_OK) pc_real_vfs = NULL;
        }
    }
    pthread_mutex_unlock(&once);
    return rc;
}
