#define _GNU_SOURCE
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>
#include "system_shim.h"

/// Whether `object` was linked with text relocations: its code was written while it loaded,
/// so its read-only pages are not the file's.
static int playbackd_has_text_relocations(const struct dl_phdr_info *object) {
    for (int index = 0; index < object->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &object->dlpi_phdr[index];
        if (header->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(object->dlpi_addr + header->p_vaddr);
             entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

static int playbackd_release_object_pages(struct dl_phdr_info *object, size_t size, void *context) {
    (void)size;
    unsigned long *released = context;
    // The vDSO is the kernel's, not a file's.
    if ((void *)object->dlpi_addr == (void *)getauxval(AT_SYSINFO_EHDR) || playbackd_has_text_relocations(object))
        return 0;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    // The ranges are found first and released after: the program headers lie in the first
    // segment's pages, and reading them again after releasing it would map them again.
    enum { most = 16 };
    uintptr_t starts[most], ends[most];
    int count = 0;
    for (int index = 0; index < object->dlpi_phnum && count < most; index++) {
        const ElfW(Phdr) *header = &object->dlpi_phdr[index];
        // Writable segments (data, and RELRO, which is written while loading and then made
        // read-only) hold the process's own copies: never these.
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W)) continue;
        uintptr_t start = (object->dlpi_addr + header->p_vaddr) & ~(page - 1);
        uintptr_t end = (object->dlpi_addr + header->p_vaddr + header->p_memsz + page - 1) & ~(page - 1);
        // Its whole pages, but none a writable segment shares.
        for (int other = 0; other < object->dlpi_phnum; other++) {
            const ElfW(Phdr) *writable = &object->dlpi_phdr[other];
            if (writable->p_type != PT_LOAD || !(writable->p_flags & PF_W)) continue;
            uintptr_t from = (object->dlpi_addr + writable->p_vaddr) & ~(page - 1);
            uintptr_t to = (object->dlpi_addr + writable->p_vaddr + writable->p_memsz + page - 1) & ~(page - 1);
            if (from < end && to > start) {
                if (from > start) end = from;
                else start = to < end ? to : end;
            }
        }
        if (end > start) {
            starts[count] = start;
            ends[count++] = end;
        }
    }
    for (int index = 0; index < count; index++) {
        if (madvise((void *)starts[index], ends[index] - starts[index], MADV_DONTNEED) == 0)
            *released += ends[index] - starts[index];
    }
    return 0;
}

unsigned long playbackd_release_clean_file_pages(void) {
    unsigned long released = 0;
    dl_iterate_phdr(playbackd_release_object_pages, &released);
    return released;
}
