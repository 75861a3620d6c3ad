#ifndef PLAYBACKD_BUS_SHIM_H
#define PLAYBACKD_BUS_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/// What Swift cannot write itself for sd-bus: its object vtables are built with C macros over
/// a union. The Swift side declares each interface member once (`BusInterface`) and this shim
/// turns the declaration into the `sd_bus_vtable` array sd-bus expects. Every string a member
/// points to stays owned by the caller and must outlive the vtable.

/// The kind of one interface member.
typedef enum {
    PLAYBACKD_BUS_METHOD = 0,
    PLAYBACKD_BUS_SIGNAL = 1,
    PLAYBACKD_BUS_PROPERTY = 2,
    PLAYBACKD_BUS_WRITABLE_PROPERTY = 3,
} playbackd_bus_member_kind;

/// How a property announces its changes.
typedef enum {
    /// Never in PropertiesChanged (e.g. MPRIS `Position`).
    PLAYBACKD_BUS_EMITS_NOTHING = 0,
    /// In PropertiesChanged with its new value.
    PLAYBACKD_BUS_EMITS_CHANGE = 1,
    /// Never changes while the object exists.
    PLAYBACKD_BUS_CONST = 2,
} playbackd_bus_emits;

/// One member of an interface.
typedef struct {
    playbackd_bus_member_kind kind;
    const char *member;
    /// Input arguments (methods), the arguments (signals), or the property's type.
    const char *signature;
    /// Output arguments of a method; "" otherwise.
    const char *result;
    /// Argument names, each followed by a NUL, inputs then outputs (methods and signals).
    const char *names;
    playbackd_bus_emits emits;
} playbackd_bus_member;

/// A vtable for `count` members, every method dispatched to `method`, every property read
/// through `get` and written through `set`. Free it with `free` once the object is removed.
/// Returns NULL when out of memory.
sd_bus_vtable *playbackd_bus_vtable_new(
    const playbackd_bus_member *members, size_t count, sd_bus_message_handler_t method,
    sd_bus_property_get_t get, sd_bus_property_set_t set);

#endif
