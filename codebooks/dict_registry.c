/* Every dictionary version this build can decode. Versions are only ever
 * added here, never removed: an old stream must stay readable forever. */
#include "dict.h"

extern const glide_dictionary glide_dict_v1;

const glide_dictionary *glide_dict_get(unsigned version)
{
    switch (version) {
    case 1: return &glide_dict_v1;
    default: return NULL;
    }
}
