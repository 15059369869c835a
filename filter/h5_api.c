#define _GNU_SOURCE /* dladdr, dl_iterate_phdr, RTLD_NOLOAD, RTLD_DEFAULT */
#include "h5_api.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static h5_api_t g_slots[H5_API_SLOTS];
/* Slots in use; a slot is written before the count that covers it is
 * published, so a reader that sees the count sees the slot. */
static atomic_int g_nslots;

struct sym {
    const char *name;
    void **slot;
    void *addr;
};

/* Every symbol from one source, or none: mixing two HDF5 copies (say,
 * functions from the wheel's and error ids from the system's) would be worse
 * than failing. */
static int resolve_dlsym(void *handle, struct sym *syms, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(syms[i].addr = dlsym(handle, syms[i].name)))
            return -1;
    return 0;
}

struct find_obj {
    uintptr_t addr;
    const char *name;
    uintptr_t bias;
    int found;
};

static int find_obj_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct find_obj *f = data;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        const uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr - lo < ph->p_memsz) {
            f->name = info->dlpi_name;
            f->bias = info->dlpi_addr;
            f->found = 1;
            return 1;
        }
    }
    return 0;
}

/* Looks the symbols up in the ELF symbol table (.symtab) of the loaded object
 * containing `caller`: a program linked with a static libhdf5 has HDF5's
 * functions but exports none of them, so dlsym cannot see them. */
static int resolve_symtab(const void *caller, struct sym *syms, size_t n)
{
    struct find_obj f = {(uintptr_t)caller, NULL, 0, 0};
    dl_iterate_phdr(find_obj_cb, &f);
    if (!f.found)
        return -1;
    /* The main program has an empty name; /proc/self/exe is its file. */
    const char *path = f.name && f.name[0] ? f.name : "/proc/self/exe";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(ElfW(Ehdr)))
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return -1;
    const size_t len = (size_t)st.st_size;
    const unsigned char *base = map;
    const ElfW(Ehdr) *eh = map;
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        syms[i].addr = NULL;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
        eh->e_shoff > len || (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > len - eh->e_shoff)
        goto out;
    const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(base + eh->e_shoff);
    for (unsigned s = 0; s < eh->e_shnum; s++) {
        if (sh[s].sh_type != SHT_SYMTAB || sh[s].sh_link >= eh->e_shnum)
            continue;
        const ElfW(Shdr) *strs = &sh[sh[s].sh_link];
        if (sh[s].sh_offset > len || sh[s].sh_size > len - sh[s].sh_offset ||
            strs->sh_offset > len || strs->sh_size > len - strs->sh_offset || strs->sh_size == 0)
            continue;
        const ElfW(Sym) *sym = (const ElfW(Sym) *)(base + sh[s].sh_offset);
        const size_t nsym = sh[s].sh_size / sizeof(ElfW(Sym));
        const char *str = (const char *)(base + strs->sh_offset);
        for (size_t k = 0; k < nsym; k++) {
            const int bind = ELF64_ST_BIND(sym[k].st_info), type = ELF64_ST_TYPE(sym[k].st_info);
            if (sym[k].st_shndx == SHN_UNDEF || sym[k].st_name >= strs->sh_size ||
                (bind != STB_GLOBAL && bind != STB_WEAK) || (type != STT_FUNC && type != STT_OBJECT))
                continue;
            const char *name = str + sym[k].st_name;
            if (name[0] != 'H' || !memchr(name, 0, strs->sh_size - sym[k].st_name))
                continue;
            for (size_t i = 0; i < n; i++) {
                if (!syms[i].addr && strcmp(name, syms[i].name) == 0) {
                    syms[i].addr = (void *)(f.bias + sym[k].st_value);
                    found++;
                    break;
                }
            }
        }
    }
out:
    munmap(map, len);
    return found == n ? 0 : -1;
}

#define SYM(field, name) {name, (void **)&api.field, NULL}

/* Resolves a binding for the HDF5 that `caller` belongs to; *where names the
 * object searched, for the failure message. */
static int resolve(const void *caller, h5_api_t *out, const char **where)
{
    h5_api_t api;
    memset(&api, 0, sizeof api);
    struct sym syms[] = {
        SYM(Epush2, "H5Epush2"),
        SYM(get_libversion, "H5get_libversion"),
        SYM(Tget_class, "H5Tget_class"),
        SYM(Tget_size, "H5Tget_size"),
        SYM(Tget_order, "H5Tget_order"),
        SYM(Tequal, "H5Tequal"),
        SYM(Pget_layout, "H5Pget_layout"),
        SYM(Pget_chunk, "H5Pget_chunk"),
        SYM(Pget_filter_by_id2, "H5Pget_filter_by_id2"),
        SYM(Pmodify_filter, "H5Pmodify_filter"),
        SYM(Pfill_value_defined, "H5Pfill_value_defined"),
        SYM(Pget_fill_value, "H5Pget_fill_value"),
        SYM(allocate_memory, "H5allocate_memory"),
        SYM(free_memory, "H5free_memory"),
        SYM(IEEE_F32LE, "H5T_IEEE_F32LE_g"),
        SYM(IEEE_F32BE, "H5T_IEEE_F32BE_g"),
        SYM(IEEE_F64LE, "H5T_IEEE_F64LE_g"),
        SYM(IEEE_F64BE, "H5T_IEEE_F64BE_g"),
        SYM(ERR_CLS, "H5E_ERR_CLS_g"),
        SYM(E_PLINE, "H5E_PLINE_g"),
        SYM(E_CANTFILTER, "H5E_CANTFILTER_g"),
        SYM(E_BADVALUE, "H5E_BADVALUE_g"),
        SYM(E_BADTYPE, "H5E_BADTYPE_g"),
        SYM(E_CALLBACK, "H5E_CALLBACK_g"),
        SYM(E_NOSPACE, "H5E_NOSPACE_g"),
    };
    const size_t n = sizeof syms / sizeof syms[0];
    int ok = 0;
    *where = "no caller";

    Dl_info info;
    if (caller && dladdr(caller, &info) && info.dli_fname) {
        *where = info.dli_fname[0] ? info.dli_fname : "the main program";
        /* NOLOAD: only take a reference to the already-loaded caller, never
         * load a second copy. The reference is dropped right away: the
         * caller holds the plugin open, so it outlives every pointer taken.
         * dlsym on it also searches its dependencies, where a program's
         * shared libhdf5 is. */
        void *h = dlopen(info.dli_fname[0] ? info.dli_fname : NULL, RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            ok = resolve_dlsym(h, syms, n) == 0;
            dlclose(h);
        }
        if (!ok)
            ok = resolve_symtab(caller, syms, n) == 0;
    }
    if (!ok)
        ok = resolve_dlsym(RTLD_DEFAULT, syms, n) == 0;
    if (!ok)
        return -1;
    /* A program that uses, say, H5T_IEEE_F32LE and links libhdf5 shared
     * holds copy relocations of those variables, and that libhdf5 then reads
     * and writes the program's copies, not its own: so when the HDF5 found is
     * the one in the global scope, its variables come from the global scope. */
    if (dlsym(RTLD_DEFAULT, "H5Epush2") == syms[0].addr) { /* syms[0]: H5Epush2 */
        for (size_t i = 0; i < n; i++) {
            const size_t len = strlen(syms[i].name);
            void *p;
            if (len > 2 && strcmp(syms[i].name + len - 2, "_g") == 0 &&
                (p = dlsym(RTLD_DEFAULT, syms[i].name)))
                syms[i].addr = p;
        }
    }
    for (size_t i = 0; i < n; i++)
        *syms[i].slot = syms[i].addr;
    unsigned maj = 0, min = 0, rel = 0;
    api.get_libversion(&maj, &min, &rel);
    api.stack_dropped = maj > 1 || (maj == 1 && (min > 14 || (min == 14 && rel >= 5)));
    *out = api;
    return 0;
}

int h5_api_bind(const void *caller)
{
    h5_api_t api;
    const char *where;
    if (resolve(caller, &api, &where) < 0) {
        fprintf(stderr,
                "glide filter: cannot find the HDF5 functions in %s, which loaded the plugin "
                "(a static libhdf5 in a stripped program?); link HDF5 as a shared library "
                "(h5cc -shlib) or do not strip the program; the filter is disabled\n",
                where);
        return -1;
    }
    pthread_mutex_lock(&g_lock);
    int n = atomic_load_explicit(&g_nslots, memory_order_relaxed), slot = -1;
    /* H5Epush2's address identifies the HDF5 copy. */
    for (int i = 0; i < n && slot < 0; i++)
        if (g_slots[i].Epush2 == api.Epush2)
            slot = i;
    if (slot < 0 && n < H5_API_SLOTS) {
        slot = n;
        g_slots[slot] = api;
        atomic_store_explicit(&g_nslots, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&g_lock);
    if (slot < 0)
        fprintf(stderr,
                "glide filter: more than %d HDF5 libraries in this process loaded the plugin; "
                "the filter is disabled for %s\n",
                H5_API_SLOTS, where);
    return slot;
}

const h5_api_t *h5_api_slot(int slot)
{
    if (slot < 0 || slot >= atomic_load_explicit(&g_nslots, memory_order_acquire))
        return NULL;
    return &g_slots[slot];
}

/* Hashes of the messages already written to stderr. */
static uint64_t g_said[256];
static size_t g_nsaid;

/* Whether `msg` was not yet written; when the table is full every message
 * counts as new, since a repeat is better than a lost reason. */
static int first_time(const char *msg)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    int fresh = 1;
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_nsaid && fresh; i++)
        fresh = g_said[i] != h;
    if (fresh && g_nsaid < sizeof g_said / sizeof g_said[0])
        g_said[g_nsaid++] = h;
    pthread_mutex_unlock(&g_lock);
    return fresh;
}

void h5_api_error(const h5_api_t *api, const hid_t *minor, int loud, const char *file,
                  const char *func, unsigned line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!api || ((loud || api->stack_dropped) && first_time(msg)))
        fprintf(stderr, "%s\n", msg);
    if (!api)
        return;
    /* "%s": the message may contain user-supplied text, never a format. */
    api->Epush2(H5E_DEFAULT, file, func, line, *api->ERR_CLS, *api->E_PLINE, *minor, "%s",
                msg);
}
