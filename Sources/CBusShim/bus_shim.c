#include "bus_shim.h"

#include <stdlib.h>

static uint64_t property_flags(playbackd_bus_emits emits) {
    switch (emits) {
    case PLAYBACKD_BUS_EMITS_CHANGE: return SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE;
    case PLAYBACKD_BUS_CONST: return SD_BUS_VTABLE_PROPERTY_CONST;
    default: return 0;
    }
}

sd_bus_vtable *playbackd_bus_vtable_new(
    const playbackd_bus_member *members, size_t count, sd_bus_message_handler_t method,
    sd_bus_property_get_t get, sd_bus_property_set_t set) {
    sd_bus_vtable *vtable = calloc(count + 2, sizeof(sd_bus_vtable));
    if (!vtable) return NULL;
    vtable[0] = (sd_bus_vtable)SD_BUS_VTABLE_START(0);
    for (size_t i = 0; i < count; i++) {
        const playbackd_bus_member *m = &members[i];
        sd_bus_vtable *entry = &vtable[i + 1];
        switch (m->kind) {
        case PLAYBACKD_BUS_METHOD:
            *entry = (sd_bus_vtable){
                .type = _SD_BUS_VTABLE_METHOD,
                .flags = SD_BUS_VTABLE_UNPRIVILEGED,
                .x.method = {.member = m->member, .signature = m->signature, .result = m->result,
                             .handler = method, .offset = 0, .names = m->names},
            };
            break;
        case PLAYBACKD_BUS_SIGNAL:
            *entry = (sd_bus_vtable){
                .type = _SD_BUS_VTABLE_SIGNAL,
                .flags = 0,
                .x.signal = {.member = m->member, .signature = m->signature, .names = m->names},
            };
            break;
        case PLAYBACKD_BUS_PROPERTY:
        case PLAYBACKD_BUS_WRITABLE_PROPERTY: {
            int writable = m->kind == PLAYBACKD_BUS_WRITABLE_PROPERTY;
            *entry = (sd_bus_vtable){
                .type = writable ? _SD_BUS_VTABLE_WRITABLE_PROPERTY : _SD_BUS_VTABLE_PROPERTY,
                .flags = property_flags(m->emits) | (writable ? SD_BUS_VTABLE_UNPRIVILEGED : 0),
                .x.property = {.member = m->member, .signature = m->signature, .get = get,
                               .set = writable ? set : NULL, .offset = 0},
            };
            break;
        }
        }
    }
    vtable[count + 1] = (sd_bus_vtable)SD_BUS_VTABLE_END;
    return vtable;
}
