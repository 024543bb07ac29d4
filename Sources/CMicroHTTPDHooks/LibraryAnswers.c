// The interposed MHD_queue_response: see include/CMicroHTTPDHooks.h.
#if defined(__linux__)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#endif
#include "CMicroHTTPDHooks.h"

#if defined(__linux__)
typedef enum MHD_Result (*queue_function)(struct MHD_Connection *, unsigned int, struct MHD_Response *);

/* libmicrohttpd's own MHD_queue_response, and the executable segment holding its code. */
static queue_function library_queue;
static uintptr_t library_code_start;
static uintptr_t library_code_end;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;
static latchkey_mhd_library_answer installed_hook;

static int find_library_code(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    (void)context;
    uintptr_t target = (uintptr_t)library_queue;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_X) == 0) continue;
        uintptr_t start = (uintptr_t)info->dlpi_addr + (uintptr_t)header->p_vaddr;
        uintptr_t end = start + (uintptr_t)header->p_memsz;
        if (target >= start && target < end) {
            library_code_start = start;
            library_code_end = end;
            return 1;
        }
    }
    return 0;
}

static void resolve(void) {
    library_queue = (queue_function)dlsym(RTLD_NEXT, "MHD_queue_response");
    if (library_queue != NULL) dl_iterate_phdr(find_library_code, NULL);
}

__attribute__((visibility("default")))
enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                   struct MHD_Response *response) {
    pthread_once(&resolved, resolve);
    if (library_queue == NULL) return MHD_NO;
    latchkey_mhd_library_answer hook = __atomic_load_n(&installed_hook, __ATOMIC_ACQUIRE);
    uintptr_t caller = (uintptr_t)__builtin_return_address(0);
    if (hook != NULL && caller >= library_code_start && caller < library_code_end) {
        return hook(connection, status_code);
    }
    return library_queue(connection, status_code, response);
}

void latchkey_mhd_install_library_answer(latchkey_mhd_library_answer hook) {
    pthread_once(&resolved, resolve);
    __atomic_store_n(&installed_hook, hook, __ATOMIC_RELEASE);
}

int latchkey_mhd_library_answers_active(void) {
    pthread_once(&resolved, resolve);
    return library_code_end != 0 && dlsym(RTLD_DEFAULT, "MHD_queue_response") == (void *)&MHD_queue_response;
}
#else
void latchkey_mhd_install_library_answer(latchkey_mhd_library_answer hook) { (void)hook; }
int latchkey_mhd_library_answers_active(void) { return 0; }
#endif

