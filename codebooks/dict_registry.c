/* Every dictionary version this build can decode. Versions are only ever
 * added here, never removed: an old stream must stay readable forever. */
#include "dict.h"

extern const glide_dictionary glide_dict_v1;
extern const glide_dictionary glide_dict_v2;

const glide_dictionary *glide_dict_get(unsigned version)
{
    switch (version) {
    case 1: return &glide_dict_v1;
    case 2: return &glide_dict_v2;
    default: return NULL;
    }
}

unsigned glide_dict_book_version(const glide_dictionary *d, unsigned book)
{
    unsigned v = d->version;
    for (const glide_dictionary *c = d; book < c->prev_books && v > 1 && glide_dict_get(v - 1);)
        c = glide_dict_get(--v);
    return v;
}

int glide_dict_holds(const glide_dictionary *d, unsigned version, unsigned book)
{
    if (version > d->version) return 0;
    for (unsigned v = d->version; v > version; v--) {
        const glide_dictionary *c = v == d->version ? d : glide_dict_get(v);
        if (!c || book >= c->prev_books) return 0;
    }
    return 1;
}
